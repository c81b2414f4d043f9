// Fuzz target: ConfigLoader::ApplyYaml, the parser of trestled's YAML
// settings file, then ConfigLoader::Validate on what it accepted.
//
// Checked: any text gives a Status, never an exception, a crash or undefined
// behaviour; every error names the file it came from (as a user needs to
// find it) and Validate's errors are not empty.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "trestle/daemon/config_loader.h"
#include "trestle/daemon/daemon_config.h"

namespace {

constexpr char kOrigin[] = "fuzz.yaml";

void Check(bool ok, const char* what, const absl::Status& s) {
  if (ok) return;
  std::fprintf(stderr, "config_loader_fuzzer: %s: %s\n", what, s.ToString().c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using trestle::daemon::ConfigLoader;
  const std::string text(reinterpret_cast<const char*>(data), size);
  trestle::daemon::DaemonConfig config;
  const absl::Status applied = ConfigLoader::ApplyYaml(text, kOrigin, &config);
  if (!applied.ok()) {
    Check(applied.message().find(kOrigin) != std::string::npos, "error does not name the file",
          applied);
    return 0;
  }
  const absl::Status valid = ConfigLoader::Validate(config);
  if (!valid.ok()) Check(!valid.message().empty(), "Validate error without text", valid);
  return 0;
}
