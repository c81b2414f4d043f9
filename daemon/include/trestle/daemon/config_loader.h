// ConfigLoader: builds a DaemonConfig from defaults, an optional YAML file,
// the TRESTLE_TOKEN environment variable and command-line flags, in that
// order of precedence (a flag wins). Every field is known under one name:
// `snake_case` in YAML, `--kebab-case` as a flag.
//
// Errors name the offending key and value: "max_batch: 'many' is not a
// whole number", "unknown key 'max_batches' in trestled.yaml".
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/daemon/daemon_config.h"

namespace CLI {
class App;
}

namespace trestle::daemon {

class ConfigLoader {
 public:
  ConfigLoader();
  ~ConfigLoader();
  ConfigLoader(const ConfigLoader&) = delete;
  ConfigLoader& operator=(const ConfigLoader&) = delete;

  // Adds --config FILE and one flag per field to `app`. `this` must outlive
  // the parse.
  void AddFlags(CLI::App& app);
  // After `app` has parsed: defaults < file < environment < flags.
  absl::StatusOr<DaemonConfig> Build() const;

  // Applies the keys of a YAML document (file contents) to `config`.
  static absl::Status ApplyYaml(const std::string& text, const std::string& origin,
                                DaemonConfig* config);
  // Checks cross-field rules (e.g. a token when listening beyond loopback).
  static absl::Status Validate(const DaemonConfig& config);

 private:
  struct FlagValue;
  std::string config_path_;
  std::vector<FlagValue> flags_;
};

}  // namespace trestle::daemon
