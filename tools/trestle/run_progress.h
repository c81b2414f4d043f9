// RunProgress: the progress of a `trestle mpirun` run on stderr: virtual
// time reached, messages mirrored, ranks running and blocked, and wall
// time, from the daemon's admin Status. On a terminal one line updated in
// place (\r); otherwise a line per period (docs/mpi.md, "Running").
#pragma once

#include <chrono>
#include <string>

#include "admin.pb.h"

namespace trestle {

class RunProgress {
 public:
  struct Options {
    std::chrono::milliseconds every{10'000};
    bool terminal = false;  // update one line in place
  };

  // The first line comes a period after `start`.
  RunProgress(Options options, std::chrono::steady_clock::time_point start)
      : options_(options), last_(start) {}

  // The run as of `status`, `wall` after mpirun started: written when a
  // period has passed since the last.
  void Show(const admin::StatusReply& status, int np, std::chrono::milliseconds wall,
            std::chrono::steady_clock::time_point now);
  // Ends the line updated in place, if any, so that other text starts on a
  // line of its own.
  void EndLine();

  // The line's text: "virtual 1.234567 ms, 1200 messages, ranks 3 running
  // 1 blocked, wall 12.0 s".
  static std::string Line(const admin::StatusReply& status, int np,
                          std::chrono::milliseconds wall);

 private:
  const Options options_;
  std::chrono::steady_clock::time_point last_;
  bool line_open_ = false;  // a terminal line without its newline
};

}  // namespace trestle
