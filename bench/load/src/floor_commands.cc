#include "trestle/bench/floor_commands.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "floor_echo.h"
#include "floor_relay.h"
#include "trestle/event_loop.h"
#include "trestle/platform/socket_address.h"

namespace trestle::bench {
namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  throw CLI::RuntimeError(1);
}

// Writes "PORT\n" to `path` atomically (a temporary file, renamed).
void WritePortFile(const std::string& path, std::uint16_t port) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << port << '\n';
    if (!out) Fail("cannot write " + temporary);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) Fail("cannot rename " + temporary + " to " + path + ": " + ec.message());
}

// Runs `close`, then the loop until the handles it closed are gone.
template <typename Close>
void Finish(EventLoop& loop, Close close) {
  close();
  loop.RunFor(std::chrono::milliseconds(1));
}

// Serves until SIGTERM or SIGINT, then closes with `close`.
template <typename Close>
void ServeUntilSignalled(EventLoop& loop, Close close) {
  loop.StopOnSignal(SIGTERM);
  loop.StopOnSignal(SIGINT);
  loop.Run();
  Finish(loop, close);
}

struct RelayOptions {
  std::string listen = "127.0.0.1:0";
  std::string port_file;
  std::string unix_socket;
};

void RunRelay(const RelayOptions& o) {
  absl::StatusOr<platform::SocketAddress> listen =
      platform::ParseSocketAddress(o.listen, "listen address");
  if (!listen.ok()) Fail(std::string(listen.status().message()));
  if (listen->kind != platform::SocketAddress::Kind::kTcp) {
    Fail("--listen takes HOST:PORT; a Unix socket is --unix-socket PATH");
  }
  EventLoop loop;
  FloorRelay relay(loop.uv_loop());
  absl::StatusOr<std::uint16_t> port = relay.Listen(*listen, o.unix_socket);
  if (!port.ok()) {
    Finish(loop, [&] { relay.Close(); });
    Fail(std::string(port.status().message()));
  }
  if (!o.port_file.empty()) WritePortFile(o.port_file, *port);
  std::printf("floor relay listening on %s:%u%s\n", listen->host.c_str(), *port,
              o.unix_socket.empty() ? "" : (" and unix:" + o.unix_socket).c_str());
  std::fflush(stdout);
  ServeUntilSignalled(loop, [&] { relay.Close(); });
}

void RunEcho(const std::string& relay_text) {
  absl::StatusOr<platform::SocketAddress> relay =
      platform::ParseSocketAddress(relay_text, "relay address");
  if (!relay.ok()) Fail(std::string(relay.status().message()));
  EventLoop loop;
  FloorEcho echo(loop.uv_loop());
  absl::Status connected = absl::UnknownError("not connected yet");
  bool done = false;
  bool lost = false;
  echo.Connect(
      *relay,
      [&](const absl::Status& s) {
        connected = s;
        done = true;
      },
      [&] {
        lost = true;
        loop.Stop();
      });
  loop.RunUntil([&] { return done; }, std::chrono::milliseconds(10'000));
  if (!connected.ok()) {
    Finish(loop, [&] { echo.Close(); });
    Fail(std::string(connected.message()));
  }
  std::printf("connected to %s\n", relay->ToString().c_str());
  std::fflush(stdout);
  ServeUntilSignalled(loop, [&] { echo.Close(); });
  if (lost) Fail("the floor relay closed the connection");
}

}  // namespace

void RegisterFloorCommands(CLI::App& app) {
  auto relay = std::make_shared<RelayOptions>();
  CLI::App* relay_cmd = app.add_subcommand(
      "bench-floor-relay",
      "The floor's minimal relay, started by `trestle bench --floor`: routes length-prefixed "
      "frames from apps to the echo and back, nothing more");
  relay_cmd->add_option("--listen", relay->listen, "TCP HOST:PORT (numeric; port 0: a free one)")
      ->capture_default_str();
  relay_cmd->add_option("--port-file", relay->port_file,
                        "Write the TCP port here (atomically) once listening");
  relay_cmd->add_option("--unix-socket", relay->unix_socket, "Also listen on this Unix socket");
  relay_cmd->callback([relay] { RunRelay(*relay); });

  auto relay_address = std::make_shared<std::string>();
  CLI::App* echo_cmd = app.add_subcommand(
      "bench-floor-echo",
      "The floor's echo, started by `trestle bench --floor`: returns every frame to the floor "
      "relay at once");
  echo_cmd->add_option("--relay", *relay_address, "The floor relay: HOST:PORT or unix:PATH")
      ->required();
  echo_cmd->callback([relay_address] { RunEcho(*relay_address); });
}

}  // namespace trestle::bench
