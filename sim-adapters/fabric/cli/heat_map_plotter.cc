#include "cli/heat_map_plotter.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>
#include <vector>

#include "cli/gnuplot_run.h"
#include "common/text.h"

namespace trestle::fabric::cli {
namespace {

// The distinct values of one column, in first-seen order.
std::vector<std::string> Distinct(const CongestionReport& report,
                                  std::string CongestionRow::*column) {
  std::vector<std::string> values;
  for (const CongestionRow& row : report.rows()) {
    if (std::find(values.begin(), values.end(), row.*column) == values.end()) {
      values.push_back(row.*column);
    }
  }
  return values;
}

// gnuplot tics: ('a' 0, 'b' 1, ...).
std::string Tics(const std::vector<std::string>& labels) {
  std::vector<std::string> tics;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    tics.push_back(internal::Concat(GnuplotRun::Quoted(labels[i]), " ", i));
  }
  return internal::Concat("(", internal::Join(tics, ", "), ")");
}

}  // namespace

absl::Status HeatMapPlotter::Plot(const CongestionReport& report, const std::string& title,
                                  const std::string& png_path) const {
  if (report.rows().empty()) return absl::InvalidArgumentError("nothing to plot");
  const std::vector<std::string> victims = Distinct(report, &CongestionRow::victim);
  const std::vector<std::string> aggressors = Distinct(report, &CongestionRow::aggressor);
  const std::vector<std::string> panels = Distinct(report, &CongestionRow::cc);
  // (cc, victim, aggressor) -> (sum, count) of impact_mean.
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<double, int>> cells;
  double highest = 2;
  for (const CongestionRow& row : report.rows()) {
    auto& [sum, count] = cells[{row.cc, row.victim, row.aggressor}];
    sum += row.impact_mean;
    ++count;
  }
  for (const auto& [key, cell] : cells) highest = std::max(highest, cell.first / cell.second);

  absl::StatusOr<std::unique_ptr<GnuplotRun>> run = GnuplotRun::Create();
  if (!run.ok()) return run.status();
  const std::string data_path = (*run)->PathOf("heat.dat");
  const std::string script_path = (*run)->PathOf("heat.gp");
  std::ofstream data(data_path);
  // One block per panel; in each, one line per cell and a blank line per row
  // (the grid order gnuplot's image style reads).
  for (const std::string& cc : panels) {
    for (std::size_t v = 0; v < victims.size(); ++v) {
      for (std::size_t a = 0; a < aggressors.size(); ++a) {
        auto it = cells.find({cc, victims[v], aggressors[a]});
        const double value = it == cells.end() ? 1 : it->second.first / it->second.second;
        data << a << ' ' << v << ' ' << fmt::format("{:.4g}", value) << '\n';
      }
      data << '\n';
    }
    data << "\n";
  }
  data.close();
  std::ofstream gp(script_path);
  gp << "set terminal pngcairo size " << 360 + 300 * panels.size() * aggressors.size() / 2 << ","
     << 200 + 70 * victims.size() << " font 'sans,10'\n"
     << "set output " << GnuplotRun::Quoted(png_path) << "\n"
     << "set multiplot layout 1," << panels.size() << " title " << GnuplotRun::Quoted(title)
     << " noenhanced\n"
     << "set logscale cb\n"
     << "set cbrange [1:" << highest << "]\n"
     << "set cblabel 'impact (mean, over allocations)'\n"
     << "set palette defined (0 '#ffffff', 1 '#fee8c8', 2 '#fdbb84', 3 '#e34a33', 4 '#7f0000')\n"
     << "set xtics " << Tics(aggressors) << " noenhanced\n"
     << "set ytics " << Tics(victims) << " noenhanced\n"
     << "set xrange [-0.5:" << aggressors.size() - 0.5 << "]\n"
     << "set yrange [" << victims.size() - 0.5 << ":-0.5]\n"
     << "set xlabel 'aggressor'\n"
     << "set tics scale 0\n";
  // Labels in white on the darker half of the scale.
  const double dark = std::pow(highest, 0.6);
  for (std::size_t p = 0; p < panels.size(); ++p) {
    gp << "set title " << GnuplotRun::Quoted("congestion control " + panels[p]) << "\n"
       << "plot " << GnuplotRun::Quoted(data_path) << " index " << p
       << " using 1:2:3 with image notitle, \\\n  '' index " << p
       << " using 1:2:($3 < " << dark
       << " ? sprintf('%.2f', $3) : '') with labels font ',11' tc rgb 'black' notitle, \\\n"
       << "  '' index " << p << " using 1:2:($3 >= " << dark
       << " ? sprintf('%.2f', $3) : '') with labels font ',11' tc rgb 'white' notitle\n";
  }
  gp << "unset multiplot\n";
  gp.close();
  if (!data || !gp) return absl::UnavailableError("cannot write the plot's temporary files");
  return (*run)->Run(gnuplot_, script_path);
}

}  // namespace trestle::fabric::cli
