#include "trestle/ghost/ghost_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "trestle/adapter/adapter_flags.h"
#include "trestle/adapter/adapter_run.h"
#include "trestle/event_loop.h"
#include "trestle/ghost/ghost_simulator.h"

namespace trestle::ghost {
namespace {

constexpr char kPrefix[] = "trestle-sim ghost";

void RunGhost(const adapter::ConnectionFlags& flags) {
  const ClientOptions options = flags.Resolve();
  EventLoop loop;
  GhostSimulator ghost(loop, options);
  adapter::AdapterRun run = adapter::RunAdapter(loop, ghost.adapter(), kPrefix, [&] {
    std::fprintf(stderr, "%s: \"%s\" connected to %s (%s)\n", kPrefix, options.client_id.c_str(),
                 options.daemon.c_str(), flags.pull ? "pull" : "push");
  });
  if (!run.started.ok()) {
    std::fprintf(stderr, "%s: %s\n", kPrefix, run.started.ToString().c_str());
    throw CLI::RuntimeError(1);
  }
  if (run.lost) throw CLI::RuntimeError(1);
  std::fprintf(
      stderr, "%s: stopped after %llu transits%s%s\n", kPrefix,
      static_cast<unsigned long long>(run.counters.transits),
      run.closed.ok() ? "" : "; close: ", run.closed.ok() ? "" : run.closed.ToString().c_str());
}

}  // namespace

void RegisterGhostCommand(CLI::App& app) {
  // Owned by the subcommand's callback, which CLI11 keeps alive with `app`.
  auto flags = std::make_shared<adapter::ConnectionFlags>();
  CLI::App* sub = app.add_subcommand(
      "ghost", "Deliver every transit at once (t_deliver = t_send): a network with no network");
  flags->AddTo(sub, "ghost", kDefaultDaemonAddress, "");
  sub->callback([flags] { RunGhost(*flags); });
}

}  // namespace trestle::ghost
