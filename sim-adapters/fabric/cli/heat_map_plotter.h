// HeatMapPlotter: draws a CongestionReport as a heat map PNG with gnuplot
// (GnuplotRun): victims down, aggressors across, one panel per congestion
// control setting, each cell the mean impact_mean of the rows that share its
// victim, aggressor and setting (over allocations), on a logarithmic colour
// scale from 1 (no effect) and labelled with its value.
//
// Errors: no rows; those of GnuplotRun. Blocks until gnuplot exits.
#ifndef TRESTLE_FABRIC_CLI_HEAT_MAP_PLOTTER_H_
#define TRESTLE_FABRIC_CLI_HEAT_MAP_PLOTTER_H_

#include <string>

#include "absl/status/status.h"
#include "cli/congestion_report.h"

namespace trestle::fabric::cli {

class HeatMapPlotter {
 public:
  explicit HeatMapPlotter(std::string gnuplot = "gnuplot") : gnuplot_(std::move(gnuplot)) {}

  absl::Status Plot(const CongestionReport& report, const std::string& title,
                    const std::string& png_path) const;

 private:
  std::string gnuplot_;
};

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_HEAT_MAP_PLOTTER_H_
