// GnuplotPlotter: draws a SweepReport as a log-log PNG (time against size,
// one line per topology × algorithm) by running Debian's gnuplot as a child
// process (GnuplotRun: a private temporary directory, removed afterwards;
// user strings are quoted for gnuplot, never passed to a shell).
//
// Errors: gnuplot not installed (names the package to install), gnuplot
// failing (its stderr passes through), temporary files not writable.
// Blocks until gnuplot exits.
#ifndef TRESTLE_FABRIC_CLI_GNUPLOT_PLOTTER_H_
#define TRESTLE_FABRIC_CLI_GNUPLOT_PLOTTER_H_

#include <string>

#include "absl/status/status.h"
#include "cli/sweep_report.h"

namespace trestle::fabric::cli {

class GnuplotPlotter {
 public:
  // `gnuplot` is the program to run, looked up on PATH.
  explicit GnuplotPlotter(std::string gnuplot = "gnuplot") : gnuplot_(std::move(gnuplot)) {}

  absl::Status Plot(const SweepReport& report, const std::string& title,
                    const std::string& png_path) const;

 private:
  std::string gnuplot_;
};

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_GNUPLOT_PLOTTER_H_
