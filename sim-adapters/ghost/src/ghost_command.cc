#include "trestle/ghost/ghost_command.h"

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "trestle/event_loop.h"
#include "trestle/ghost/ghost_simulator.h"

namespace trestle::ghost {
namespace {

struct GhostCommandOptions {
  ClientOptions client;
  bool pull = false;
};

void RunGhost(const GhostCommandOptions& command) {
  ClientOptions options = command.client;
  options.mode = command.pull ? DeliveryMode::kPull : DeliveryMode::kPush;

  EventLoop loop;
  loop.StopOnSignal(SIGINT);
  loop.StopOnSignal(SIGTERM);
  GhostSimulator ghost(loop, options);
  bool lost = false;
  ghost.client().OnError([&](const absl::Status& status) {
    std::fprintf(stderr, "trestle-sim ghost: %s\n", status.ToString().c_str());
    if (status.code() == absl::StatusCode::kUnavailable && !ghost.client().connected()) {
      lost = true;
      loop.Stop();
    }
  });
  if (absl::Status s = ghost.Start(); !s.ok()) {
    std::fprintf(stderr, "trestle-sim ghost: %s\n", s.ToString().c_str());
    throw CLI::RuntimeError(1);
  }
  std::fprintf(stderr, "trestle-sim ghost: \"%s\" connected to %s (%s)\n",
               options.client_id.c_str(), options.daemon.c_str(),
               command.pull ? "pull" : "push");
  loop.Run();
  if (lost) throw CLI::RuntimeError(1);
  absl::Status closed = ghost.Stop(std::chrono::milliseconds(2000));
  std::fprintf(stderr, "trestle-sim ghost: stopped after %llu transits%s%s\n",
               static_cast<unsigned long long>(ghost.answered()),
               closed.ok() ? "" : "; close: ", closed.ok() ? "" : closed.ToString().c_str());
}

}  // namespace

void RegisterGhostCommand(CLI::App& app) {
  // Owned by the subcommand's callback, which CLI11 keeps alive with `app`.
  auto command = std::make_shared<GhostCommandOptions>();
  command->client.client_id = "ghost";
  CLI::App* sub = app.add_subcommand(
      "ghost", "Deliver every transit at once (t_deliver = t_send): a network with no network");
  sub->add_option("--daemon", command->client.daemon, "Daemon address, HOST:PORT or unix:PATH")
      ->capture_default_str();
  sub->add_flag("--pull", command->pull, "Fetch transits (long-poll) instead of having them pushed");
  sub->add_option("--id", command->client.client_id, "Simulator name (client id)")
      ->capture_default_str();
  sub->add_option("--token", command->client.auth_token,
                  "Auth token (default: $TRESTLE_TOKEN)");
  sub->callback([command] { RunGhost(*command); });
}

}  // namespace trestle::ghost
