#include "mpirun_args.h"

#include <filesystem>
#include <initializer_list>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace trestle {

namespace {

bool OneOf(const std::string& a, std::initializer_list<const char*> options) {
  for (const char* o : options) {
    if (a == o) return true;
  }
  return false;
}

// The launcher options that take one value, or two (Open MPI's --mca NAME
// VALUE, hydra's -genv NAME VALUE): their values are not the program. Any
// other word starting with '-' is a flag; the first other word is the
// program, whose arguments run to the next ':' (another app context) or the
// end. Hydra takes its options with one dash or two.
int ValuesTaken(const std::string& a, MpiAbi abi) {
  if (abi == MpiAbi::kMpich) {
    const std::string o = a.starts_with("--") ? a.substr(1) : a;
    if (OneOf(o, {"-genv", "-env"})) return 2;
    return OneOf(o, {"-genvlist", "-envlist", "-f", "-hosts", "-host", "-machinefile", "-wdir",
                     "-configfile", "-launcher", "-launcher-exec", "-bootstrap",
                     "-bootstrap-exec", "-rmk", "-topolib", "-bind-to", "-binding", "-map-by",
                     "-membind", "-demux", "-iface", "-ppn", "-prepend-pattern",
                     "-outfile-pattern", "-errfile-pattern", "-nameserver", "-localhost",
                     "-usize", "-gpus-per-proc"})
               ? 1
               : 0;
  }
  if (OneOf(a, {"--mca", "-mca", "--gmca", "-gmca"})) return 2;
  return OneOf(a, {"-x", "-H", "-host", "--host", "-hostfile", "--hostfile", "-machinefile",
                   "--machinefile", "--default-hostfile", "--map-by", "-map-by", "--rank-by",
                   "-rank-by", "--bind-to", "-bind-to", "-wdir", "--wdir", "-wd", "--prefix",
                   "-npernode", "--npernode", "-npersocket", "--npersocket", "--rankfile", "-rf",
                   "--output-filename", "-output-filename", "--timeout", "-s", "--preload-files",
                   "--path", "--app", "--personality", "--launch-agent", "-tune", "--tune",
                   "--stdin"})
             ? 1
             : 0;
}

bool CountsRanks(const std::string& a, MpiAbi abi) {
  return OneOf(a, {"-np", "-n", "--np", "--n"}) || (abi == MpiAbi::kOpenMpi && a == "-c");
}

// An MPI by a launcher's file name; nullopt for mpirun, mpiexec or a name
// that is none of the launchers.
std::optional<MpiAbi> AbiByName(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  if (OneOf(name, {"orterun", "mpirun.openmpi", "mpiexec.openmpi"})) return MpiAbi::kOpenMpi;
  if (OneOf(name, {"mpiexec.mpich", "mpirun.mpich", "mpiexec.hydra"})) return MpiAbi::kMpich;
  return std::nullopt;
}

}  // namespace

absl::StatusOr<MpiAbi> MpiAbiOf(const std::string& launcher,
                                absl::FunctionRef<std::string()> resolved,
                                absl::FunctionRef<std::string()> version) {
  if (std::optional<MpiAbi> abi = AbiByName(launcher)) return *abi;
  const std::string name = std::filesystem::path(launcher).filename().string();
  if (name != "mpirun" && name != "mpiexec") {
    return absl::InvalidArgumentError(absl::StrCat(
        "the command after -- must be Open MPI's mpirun (or mpiexec) or MPICH's mpiexec.mpich "
        "(or mpirun.mpich), not '",
        launcher, "': trestle mpirun -- mpirun -np N PROGRAM ..."));
  }
  if (std::optional<MpiAbi> abi = AbiByName(resolved())) return *abi;
  const std::string text = version();
  if (absl::StrContains(text, "HYDRA") || absl::StrContains(text, "MPICH")) return MpiAbi::kMpich;
  if (absl::StrContains(text, "Open MPI") || absl::StrContains(text, "OpenRTE")) {
    return MpiAbi::kOpenMpi;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot tell which MPI '", launcher, "' starts: its --version names neither Open MPI nor "
      "MPICH (HYDRA); run Open MPI's mpirun.openmpi or MPICH's mpiexec.mpich"));
}

std::string LayerFileName(MpiAbi abi) {
  return abi == MpiAbi::kMpich ? "libtrestle-mpi-mpich.so" : "libtrestle-mpi.so";
}

absl::StatusOr<int> WorldSizeOf(const std::vector<std::string>& argv, MpiAbi abi) {
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
    if (!CountsRanks(a, abi)) {
      i += ValuesTaken(a, abi);
      continue;
    }
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

std::vector<std::string> WithRankEnvironment(const std::vector<std::string>& argv,
                                             const EnvironmentList& environment, MpiAbi abi) {
  std::vector<std::string> out(argv.begin(), argv.begin() + (argv.empty() ? 0 : 1));
  std::vector<std::string> passed;  // hydra: the names whose own value goes
  for (const auto& [name, value] : environment) {
    if (abi == MpiAbi::kOpenMpi) {
      out.push_back("-x");
      out.push_back(value.empty() ? name : absl::StrCat(name, "=", value));
    } else if (value.empty()) {
      passed.push_back(name);
    } else {
      out.insert(out.end(), {"-genv", name, value});
    }
  }
  if (!passed.empty()) out.insert(out.end(), {"-genvlist", absl::StrJoin(passed, ",")});
  if (!argv.empty()) out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

}  // namespace trestle
