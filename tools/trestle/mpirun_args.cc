#include "mpirun_args.h"

#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace trestle {

namespace {

// Open MPI mpirun options that take one value, or two (--mca NAME VALUE):
// their values are not the program. Any other word starting with '-' is a
// flag; the first other word is the program, whose arguments run to the
// next ':' (another app context) or the end.
bool TakesOneValue(const std::string& a) {
  static const char* const kOptions[] = {
      "-x", "-H", "-host", "--host", "-hostfile", "--hostfile", "-machinefile",
      "--machinefile", "--default-hostfile", "--map-by", "-map-by", "--rank-by", "-rank-by",
      "--bind-to", "-bind-to", "-wdir", "--wdir", "-wd", "--prefix", "-npernode", "--npernode",
      "-npersocket", "--npersocket", "--rankfile", "-rf", "--output-filename",
      "-output-filename", "--timeout", "-s", "--preload-files", "--path", "--app",
      "--personality", "--launch-agent", "-tune", "--tune", "--stdin"};
  for (const char* o : kOptions) {
    if (a == o) return true;
  }
  return false;
}

bool TakesTwoValues(const std::string& a) {
  return a == "--mca" || a == "-mca" || a == "--gmca" || a == "-gmca";
}

}  // namespace

absl::StatusOr<int> WorldSizeOf(const std::vector<std::string>& argv) {
  int total = 0;
  bool found = false;
  bool in_program = false;  // between a program and the next ':'
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == ":") {
      in_program = false;
      continue;
    }
    if (in_program) continue;
    if (a.empty() || a[0] != '-') {
      in_program = true;
      continue;
    }
    if (TakesOneValue(a)) {
      ++i;
      continue;
    }
    if (TakesTwoValues(a)) {
      i += 2;
      continue;
    }
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
