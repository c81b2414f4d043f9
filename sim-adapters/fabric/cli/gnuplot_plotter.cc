#include "cli/gnuplot_plotter.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <vector>

#include "cli/gnuplot_run.h"
#include "common/text.h"
#include "trestle/fabric/byte_size.h"

namespace trestle::fabric::cli {

absl::Status GnuplotPlotter::Plot(const SweepReport& report, const std::string& title,
                                  const std::string& png_path) const {
  // One data block per line of the plot, in first-seen order.
  if (report.rows().empty()) return absl::InvalidArgumentError("nothing to plot");
  absl::StatusOr<std::unique_ptr<GnuplotRun>> run = GnuplotRun::Create();
  if (!run.ok()) return run.status();
  const std::string data_path = (*run)->PathOf("sweep.dat");
  const std::string script_path = (*run)->PathOf("sweep.gp");
  std::vector<std::string> series;
  std::map<std::string, std::vector<const SweepRow*>> rows_by_series;
  for (const SweepRow& row : report.rows()) {
    std::string key = internal::Concat(row.topology, " (", row.algorithm, ")");
    if (!rows_by_series.count(key)) series.push_back(key);
    rows_by_series[key].push_back(&row);
  }
  // Ticks at the sizes swept, labelled as the user wrote them; axes fitted
  // to the data so the log scale does not pad out to the next decade.
  std::set<std::uint64_t> sizes;
  double min_time = 0, max_time = 0;
  for (const SweepRow& row : report.rows()) {
    sizes.insert(row.size_bytes);
    double us = row.time_ns / 1000.0;
    min_time = min_time == 0 ? us : std::min(min_time, us);
    max_time = std::max(max_time, us);
  }
  std::vector<std::string> ticks;
  for (std::uint64_t size : sizes) {
    ticks.push_back(internal::Concat(GnuplotRun::Quoted(ByteSize::Bytes(size).ToString()), " ", size));
  }
  // A log axis labelled only at decades is hard to read over a narrow
  // range: label 1-2-5 steps.
  std::vector<std::string> y_ticks;
  for (double decade = 1e-3; decade < max_time * 10; decade *= 10) {
    for (double step : {1.0, 2.0, 5.0}) {
      double y = decade * step;
      if (y >= min_time / 1.5 && y <= max_time * 1.5) y_ticks.push_back(fmt::format("{:g}", y));
    }
  }
  {
    std::ofstream data(data_path);
    for (const std::string& key : series) {
      for (const SweepRow* row : rows_by_series[key]) {
        data << row->size_bytes << ' ' << row->time_ns / 1000.0 << '\n';
      }
      data << "\n\n";
    }
    std::ofstream gp(script_path);
    gp << "set terminal pngcairo size 960,640 font 'sans,11'\n"
       << "set output " << GnuplotRun::Quoted(png_path) << "\n"
       << "set title " << GnuplotRun::Quoted(title) << " noenhanced\n"
       << "set logscale xy\n"
       << "set xlabel 'message size'\n"
       << "set ylabel 'time (µs)'\n"
       << "set xtics (" << internal::Join(ticks, ", ") << ")\n"
       << "set xrange [" << *sizes.begin() / 1.3 << ":" << *sizes.rbegin() * 1.3 << "]\n"
       << "set yrange [" << min_time / 1.5 << ":" << max_time * 1.5 << "]\n"
       << "set ytics (" << internal::Join(y_ticks, ", ") << ")\n"
       << "set grid xtics ytics mxtics mytics lc rgb '#dddddd'\n"
       << "set key top left box opaque\n"
       << "plot \\\n";
    for (std::size_t i = 0; i < series.size(); ++i) {
      gp << "  " << GnuplotRun::Quoted(data_path) << " index " << i
         << " using 1:2 with linespoints lw 2 pt " << (5 + 2 * (i % 4)) << " title "
         << GnuplotRun::Quoted(series[i]) << " noenhanced" << (i + 1 < series.size() ? ", \\\n" : "\n");
    }
    if (!data || !gp) return absl::UnavailableError("cannot write the plot's temporary files");
  }
  return (*run)->Run(gnuplot_, script_path);
}

}  // namespace trestle::fabric::cli
