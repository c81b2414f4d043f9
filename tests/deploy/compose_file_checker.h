// ComposeFileChecker: validates a docker-compose file without Docker, against
// the project's real binaries (issue 13: no Docker engine runs here).
//
// For each service it checks:
//   - an `image` or a `build`; a build's Dockerfile exists (relative to the
//     compose file's directory) and installs every project binary the
//     service runs;
//   - a `healthcheck` with a test (not disabled);
//   - a service built here (or using an image a service here builds) has a
//     `command` (entrypoint + command) whose program is a project binary;
//     every command and health-check command naming a project binary passes
//     CommandFlagChecker (subcommands, flags);
//   - each published port's container side is a port the command listens on
//     (--listen, --admin-listen, --metrics-listen, defaults from --help) on
//     an address other than loopback;
//   - a daemon listening beyond loopback has a token (--auth-token or
//     TRESTLE_TOKEN in `environment`), which trestled demands;
//   - --daemon HOST:PORT and --admin HOST:PORT name a service (or this
//     container: 127.0.0.1, localhost) that listens on that port beyond
//     loopback (or on loopback, for this container), and --store
//     redis://HOST... names a service; a service the command (not the health
//     check) needs is in `depends_on`;
//   - `depends_on` names existing services, and a service_healthy condition
//     names a service with a health check.
// YAML anchors and aliases are understood; merge keys (<<) are refused with an
// error saying so (yaml-cpp does not apply them).
//
// Every error names the file, the service and the flag, port or key.
// Ownership: borrows the CommandFlagChecker, which must outlive this object.
// Not thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "command_flag_checker.h"

namespace YAML {
class Node;
}

namespace trestle::deploy {

class ComposeFileChecker {
 public:
  struct Report {
    std::vector<std::string> errors;
    int services = 0;  // services read
    int commands = 0;  // command lines checked against a binary's --help
  };

  // `base_dir`: the directory the compose file is in (build contexts are
  // relative to it).
  ComposeFileChecker(CommandFlagChecker* flags, std::string base_dir);

  // `file_name` is only used in messages.
  Report Check(std::string_view yaml_text, const std::string& file_name);

 private:
  void CheckServices(const YAML::Node& root, const std::string& file_name, Report* report);

  CommandFlagChecker* flags_;
  std::string base_dir_;
};

}  // namespace trestle::deploy
