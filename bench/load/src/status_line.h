// StatusLine: the benchmark's progress on stderr.
//
// On a terminal, Update() redraws one line in place (carriage return) at
// most every 250 ms; Finish() replaces it with a permanent line. Elsewhere
// (a pipe, a log file, CI) Update() prints nothing and Finish() prints its
// line, so a log gets one line per configuration.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace trestle::bench {

class StatusLine {
 public:
  // `out` must outlive the StatusLine (normally stderr).
  explicit StatusLine(std::FILE* out);

  bool live() const { return live_; }
  // Redraws the live line (terminal only; rate-limited).
  void Update(std::string_view text);
  // Ends the live line, if any, and prints `text` on a line of its own.
  void Finish(std::string_view text);

 private:
  std::FILE* out_;
  bool live_;
  std::uint64_t last_update_ns_ = 0;
  std::size_t last_width_ = 0;
};

}  // namespace trestle::bench
