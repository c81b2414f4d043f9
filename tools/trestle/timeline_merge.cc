#include "timeline_merge.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace trestle {

absl::StatusOr<TimelineMerge> MergeTimelines(const std::string& dir, int np,
                                             const std::string& out) {
  std::ofstream o(out, std::ios::trunc);
  if (!o) {
    return absl::InvalidArgumentError(
        absl::StrCat("--timeline ", out, ": cannot write: ", std::strerror(errno)));
  }
  TimelineMerge merge;
  o << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
    << R"json({"ph":"M","name":"process_name","pid":0,"args":{"name":"MPI ranks (virtual time)"}})json";
  std::string line;
  for (int k = 0; k < np; ++k) {
    std::ifstream in(absl::StrCat(dir, "/rank-", k, ".json"));
    if (!in) {
      merge.missing.push_back(k);
      continue;
    }
    while (std::getline(in, line)) {
      // Every event the layer writes is one line ending in '}'; an end of
      // file without the newline is a line cut short.
      if (in.eof() || line.empty() || line.back() != '}') {
        merge.cut.push_back(k);
        break;
      }
      o << ",\n" << line;
      ++merge.events;
    }
  }
  o << "\n]}\n";
  o.close();
  if (!o) {
    return absl::InternalError(
        absl::StrCat("--timeline ", out, ": writing failed: ", std::strerror(errno)));
  }
  return merge;
}

void WriteMergedTimeline(const std::string& dir, int np, const std::string& out, bool quiet) {
  absl::StatusOr<TimelineMerge> merge = MergeTimelines(dir, np, out);
  if (!merge.ok()) {
    std::cerr << "trestle mpirun: " << merge.status().message() << "\n";
    return;
  }
  if (!merge->missing.empty()) {
    std::cerr << "trestle mpirun: --timeline: no timeline from rank(s) "
              << absl::StrJoin(merge->missing, ", ") << " (they did not start in the layer)\n";
  }
  if (!merge->cut.empty()) {
    std::cerr << "trestle mpirun: --timeline: the timeline of rank(s) "
              << absl::StrJoin(merge->cut, ", ")
              << " ends early (the rank was killed; what it wrote is kept)\n";
  }
  if (!quiet) {
    std::cerr << "trestle mpirun: timeline of " << np - merge->missing.size() << " rank(s), "
              << merge->events << " events, in " << out
              << " (open it in https://ui.perfetto.dev or chrome://tracing)\n";
  }
}

}  // namespace trestle
