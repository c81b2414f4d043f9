#include "cli/gnuplot_run.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/strings/str_replace.h"
#include "common/text.h"

extern char** environ;

namespace trestle::fabric::cli {

absl::StatusOr<std::unique_ptr<GnuplotRun>> GnuplotRun::Create() {
  std::string dir_template =
      (std::filesystem::temp_directory_path() / "trestle-plot-XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) {
    return absl::UnavailableError(
        internal::Concat("cannot create a temporary directory: ", std::strerror(errno)));
  }
  return std::unique_ptr<GnuplotRun>(new GnuplotRun(dir_template));
}

GnuplotRun::~GnuplotRun() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string GnuplotRun::Quoted(const std::string& s) {
  // Only the quote itself needs escaping.
  return internal::Concat("'", absl::StrReplaceAll(s, {{"'", "''"}}), "'");
}

absl::Status GnuplotRun::Run(const std::string& program, const std::string& script_path) const {
  std::vector<char*> argv = {const_cast<char*>(program.c_str()),
                             const_cast<char*>(script_path.c_str()), nullptr};
  pid_t pid = 0;
  int err = posix_spawnp(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ);
  if (err == ENOENT) {
    return absl::FailedPreconditionError(internal::Concat(
        "cannot plot: '", program, "' not found on PATH; install it with "
        "'apt-get install gnuplot-nox' (or deploy/install-deps.sh)"));
  }
  if (err != 0) {
    return absl::InternalError(internal::Concat("cannot start ", program, ": ", std::strerror(err)));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return absl::InternalError("waitpid failed for gnuplot");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(internal::Concat(program, " failed (see its messages above)"));
  }
  return absl::OkStatus();
}

}  // namespace trestle::fabric::cli
