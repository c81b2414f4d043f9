// ConfigField: one setting of trestled, as the ConfigLoader reads it from a
// YAML file (deploy/configs/) or a flag: its key, help text, how to set it
// from text (with the error naming the key, the value and the rule) and how
// to show its default. ConfigFields() is the table of them all.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

struct ConfigField {
  const char* key;
  std::string help;
  std::function<absl::Status(const std::string& value, DaemonConfig*)> set;
  std::function<std::string(const DaemonConfig&)> get;  // for --help defaults
  bool is_switch = false;  // a flag without a value (--federate); YAML true | false
};

// Every setting, in the order --help lists them.
const std::vector<ConfigField>& ConfigFields();

}  // namespace trestle::daemon
