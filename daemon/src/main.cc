// trestled: the Trestle daemon. See `trestled --help` and docs/.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "trestle/daemon/config_loader.h"
#include "trestle/daemon/daemon.h"
#include "trestle/wire/frame_format.h"

int main(int argc, char** argv) {
  CLI::App app{
      "trestled: relays payloads between live applications through a network simulator.\n"
      "Settings come from defaults, then --config FILE (YAML, same names in snake_case),\n"
      "then TRESTLE_TOKEN, then flags.",
      "trestled"};
  app.set_version_flag("--version", "trestled " TRESTLE_VERSION " (protocol " +
                                        std::to_string(trestle::wire::kProtocolVersion) + ")");
  trestle::daemon::ConfigLoader loader;
  loader.AddFlags(app);
  CLI11_PARSE(app, argc, argv);

  auto config = loader.Build();
  if (!config.ok()) {
    std::fprintf(stderr, "trestled: %s\n", std::string(config.status().message()).c_str());
    return 2;
  }
  spdlog::set_level(
      spdlog::level::from_str(std::string(trestle::daemon::LogLevelName(config->log_level))));
  trestle::daemon::Daemon daemon(*config);
  if (absl::Status s = daemon.Start(); !s.ok()) {
    spdlog::error("{}", s.ToString());
    return 1;
  }
  return daemon.Run();
}
