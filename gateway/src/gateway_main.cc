// trestle-gateway: one node of a gateway run (docs/gateway.md). Creates (or
// joins) the node's network namespace with a TUN device and the node's
// address, connects to trestled as the app named after the node, and moves
// IP packets through the bridge until SIGINT or SIGTERM; then prints its
// counters to stderr and exits 0. Exits 1 on a bad flag or config, without
// root or /dev/net/tun, when it cannot reach the daemon, and when the daemon
// goes away.
#include <csignal>
#include <iostream>

#include <CLI/CLI.hpp>

#include "spdlog/spdlog.h"
#include "trestle/gateway/packet_gateway.h"

namespace {

int Fail(const std::string& message) {
  std::cerr << "trestle-gateway: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace trestle::gateway;
  CLI::App cli{"trestle-gateway: a node's network namespace, its IP packets carried by Trestle",
               "trestle-gateway"};
  GatewayOptions options;
  std::string config_path;
  std::string netns_prefix = kDefaultNetnsPrefix;
  std::string log_level = "info";
  cli.add_option("--node", options.node, "this node's name: its entry in the config and its client id")
      ->required();
  cli.add_option("--config", config_path, "YAML file of 'node: IPv4[/prefix]' lines (docs/gateway.md)")
      ->required();
  cli.add_option("--daemon", options.client.daemon, "trestled's address, HOST:PORT or unix:PATH")
      ->capture_default_str();
  cli.add_option("--token", options.client.auth_token, "auth token (default: $TRESTLE_TOKEN)");
  cli.add_option("--netns", options.netns, "the node's namespace (default: PREFIX + node)");
  cli.add_option("--netns-prefix", netns_prefix, "namespace name prefix")->capture_default_str();
  cli.add_option("--tun-name", options.tun_name, "the TUN interface's name")->capture_default_str();
  cli.add_option("--tun-device", options.tun_path, "the TUN clone device")->capture_default_str();
  cli.add_option("--mtu", options.mtu, "the TUN's MTU, bytes (68..65535)")->capture_default_str();
  cli.add_option("--max-held", options.max_held,
                 "delivered packets waiting for their modelled arrival, at most (more are dropped)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cli.add_option("--dilation", options.dilation,
                 "wall seconds per modelled second: a packet arrives after latency x this")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cli.add_option("--log-level", log_level, "debug, info, warn or error")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  spdlog::set_level(spdlog::level::from_str(log_level));
  spdlog::set_pattern("[gateway %H:%M:%S.%e] %v");
  if (options.netns.empty()) options.netns = netns_prefix + options.node;

  absl::StatusOr<NodeAddressMap> map = NodeAddressMap::FromFile(config_path);
  if (!map.ok()) return Fail(std::string(map.status().message()));

  int status = 0;
  {
    trestle::EventLoop loop;
    PacketGateway gateway(loop, *map, options);
    if (absl::Status s = gateway.Start(); !s.ok()) return Fail(std::string(s.message()));
    gateway.OnFatal([&](const absl::Status& s) {
      std::cerr << "trestle-gateway: node '" << options.node << "': lost the daemon: " << s.message() << "\n";
      status = 1;
      loop.Stop();
    });
    loop.StopOnSignal(SIGINT);
    loop.StopOnSignal(SIGTERM);
    loop.Run();
    gateway.Stop();
    std::cerr << "gateway " << options.node << ": " << gateway.counters().Summary()
              << " held=" << gateway.held() << "\n";
  }
  return status;
}
