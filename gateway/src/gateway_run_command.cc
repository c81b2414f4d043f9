#include "trestle/gateway/gateway_run_command.h"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "trestle/gateway/node_address_map.h"
#include "trestle/gateway/node_namespace.h"
#include "trestle/gateway/packet_gateway.h"

namespace trestle::gateway {
namespace {

struct RunFlags {
  std::string node;
  std::string config;
  std::string netns_prefix = kDefaultNetnsPrefix;
  std::string tun_name = kDefaultTunName;
  std::vector<std::string> command;
};

[[noreturn]] void Fail(const std::string& message) {
  std::cerr << "trestle gateway run: " << message << "\n";
  std::exit(1);
}

// Enters the node's namespace, checks its gateway's TUN is there, and execs
// the command; returns only by exiting.
[[noreturn]] void Run(const RunFlags& flags) {
  if (!flags.config.empty()) {
    absl::StatusOr<NodeAddressMap> map = NodeAddressMap::FromFile(flags.config);
    if (!map.ok()) Fail(std::string(map.status().message()));
    if (map->Find(flags.node) == nullptr) {
      Fail(absl::StrCat("node '", flags.node, "' is not in ", flags.config, " (it lists: ",
                        map->NodeNames(), ")"));
    }
  }
  const std::string netns = flags.netns_prefix + flags.node;
  const std::string path = absl::StrCat(kNetnsRunDir, "/", netns);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      Fail(absl::StrCat("node '", flags.node, "' is not running: no namespace ", path,
                        " (start trestle-gateway --node ", flags.node, " first)"));
    }
    Fail(absl::StrCat("open ", path, ": ", std::strerror(errno)));
  }
  if (setns(fd, CLONE_NEWNET) != 0) {
    const int err = errno;
    Fail(absl::StrCat("enter namespace ", netns, ": ", std::strerror(err),
                      err == EPERM ? " (entering a network namespace needs root: CAP_SYS_ADMIN)" : ""));
  }
  close(fd);
  if (if_nametoindex(flags.tun_name.c_str()) == 0) {
    Fail(absl::StrCat("node '", flags.node, "' is not running: namespace ", netns, " has no ",
                      flags.tun_name, " device (its trestle-gateway has exited)"));
  }
  std::vector<char*> argv;
  for (const std::string& arg : flags.command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  Fail(absl::StrCat("cannot run '", flags.command[0], "': ", std::strerror(errno)));
}

}  // namespace

void RegisterGatewayCommands(CLI::App& app) {
  CLI::App* gateway = app.add_subcommand("gateway", "the namespace gateway's nodes (docs/gateway.md)");
  gateway->require_subcommand(1);
  auto flags = std::make_shared<RunFlags>();
  CLI::App* run = gateway->add_subcommand(
      "run", "run a command inside a node's network namespace: trestle gateway run NODE -- CMD [ARG...]");
  run->add_option("node", flags->node, "the node (its trestle-gateway must be running)")->required();
  run->add_option("command", flags->command, "the command and its arguments, after --")->required();
  run->add_option("--config", flags->config, "the gateway config, to check NODE is in it");
  run->add_option("--netns-prefix", flags->netns_prefix, "namespace name prefix, as trestle-gateway's")
      ->capture_default_str();
  run->add_option("--tun-name", flags->tun_name, "the gateway's TUN name, as trestle-gateway's")
      ->capture_default_str();
  run->callback([flags] { Run(*flags); });
}

}  // namespace trestle::gateway
