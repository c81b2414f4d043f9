// GnuplotRun: one run of Debian's gnuplot as a child process, on a script in
// a private temporary directory (with the plot's data beside it), removed
// when the object goes. User strings go into the script quoted (Quoted),
// never through a shell. GnuplotPlotter and HeatMapPlotter draw with it.
//
// Errors: the directory cannot be created or written; gnuplot not installed
// (names the package to install); gnuplot failing (its stderr passes
// through). Run blocks until gnuplot exits.
#ifndef TRESTLE_FABRIC_CLI_GNUPLOT_RUN_H_
#define TRESTLE_FABRIC_CLI_GNUPLOT_RUN_H_

#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace trestle::fabric::cli {

class GnuplotRun {
 public:
  // A fresh temporary directory.
  static absl::StatusOr<std::unique_ptr<GnuplotRun>> Create();
  ~GnuplotRun();
  GnuplotRun(const GnuplotRun&) = delete;
  GnuplotRun& operator=(const GnuplotRun&) = delete;

  // A file named `name` in the directory.
  std::string PathOf(const std::string& name) const { return (dir_ / name).string(); }
  // Runs `program` (looked up on PATH) on the script at `script_path`.
  absl::Status Run(const std::string& program, const std::string& script_path) const;

  // `s` as a gnuplot single-quoted string.
  static std::string Quoted(const std::string& s);

 private:
  explicit GnuplotRun(std::filesystem::path dir) : dir_(std::move(dir)) {}

  std::filesystem::path dir_;
};

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_GNUPLOT_RUN_H_
