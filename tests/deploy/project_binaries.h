// The binaries the deployment tests check commands against: name -> path of
// the built binary, from TRESTLE_DEPLOY_BINARIES ("trestled=/p/trestled,...",
// set by tests/deploy/CMakeLists.txt with $<TARGET_FILE:...>).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace trestle::deploy {

inline std::map<std::string, std::string> ProjectBinaries() {
  std::map<std::string, std::string> binaries;
  for (absl::string_view item : absl::StrSplit(TRESTLE_DEPLOY_BINARIES, ',', absl::SkipEmpty())) {
    std::vector<std::string> parts = absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (parts.size() == 2) binaries[parts[0]] = parts[1];
  }
  return binaries;
}

}  // namespace trestle::deploy
