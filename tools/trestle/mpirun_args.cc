#include "mpirun_args.h"

#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace trestle {

absl::StatusOr<int> WorldSizeOf(const std::vector<std::string>& argv) {
  int total = 0;
  bool found = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a != "-np" && a != "-n" && a != "-c" && a != "--np" && a != "--n") continue;
    int n = 0;
    if (i + 1 >= argv.size() || !absl::SimpleAtoi(argv[i + 1], &n) || n <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "mpirun ", a, " needs a positive number of ranks",
          i + 1 < argv.size() ? absl::StrCat(", not '", argv[i + 1], "'") : std::string()));
    }
    total += n;
    found = true;
    ++i;
  }
  if (!found) {
    return absl::InvalidArgumentError(
        "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
  }
  return total;
}

absl::StatusOr<std::vector<std::string>> WithRankEnvironment(const std::vector<std::string>& argv,
                                                             const EnvironmentList& environment) {
  const std::string launcher =
      argv.empty() ? std::string() : std::filesystem::path(argv[0]).filename().string();
  if (launcher != "mpirun" && launcher != "mpiexec" && launcher != "orterun") {
    return absl::InvalidArgumentError(absl::StrCat(
        "the command after -- must be Open MPI's mpirun (or mpiexec), not '",
        argv.empty() ? std::string() : argv[0], "': trestle mpirun -- mpirun -np N PROGRAM ..."));
  }
  std::vector<std::string> out = {argv[0]};
  for (const auto& [name, value] : environment) {
    out.push_back("-x");
    out.push_back(value.empty() ? name : absl::StrCat(name, "=", value));
  }
  out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

}  // namespace trestle
