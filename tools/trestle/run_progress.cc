#include "run_progress.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "virtual_time_text.h"

namespace trestle {
namespace {

void WriteErr(const std::string& text) {
  // One write, so that a line is not split by the ranks' output.
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string RunProgress::Line(const admin::StatusReply& status, int np,
                              std::chrono::milliseconds wall) {
  const wire::LockstepStats& l = status.lockstep();
  const std::string wall_text = absl::StrCat("wall ", SecondsText(wall));
  if (!l.started()) {
    return absl::StrCat("waiting for the ranks to join: ",
                        np - static_cast<int>(l.apps_never_joined()), " of ", np, " joined, ",
                        wall_text);
  }
  const std::uint32_t blocked = l.apps() - std::min(l.apps(), l.apps_running());
  const int left = np - static_cast<int>(l.apps());
  const std::uint64_t messages = status.totals().accepted();
  return absl::StrCat("virtual ", VirtualTimeText(l.bound_ns()), ", ", messages,
                      messages == 1 ? " message" : " messages", ", ranks ", l.apps_running(),
                      " running ", blocked, " blocked",
                      left > 0 ? absl::StrCat(" ", left, " done") : "", ", ", wall_text);
}

void RunProgress::Show(const admin::StatusReply& status, int np, std::chrono::milliseconds wall,
                       std::chrono::steady_clock::time_point now) {
  if (now - last_ < options_.every) return;
  last_ = now;
  const std::string line = absl::StrCat("trestle mpirun: ", Line(status, np, wall));
  if (options_.terminal) {
    WriteErr(absl::StrCat("\r", line, "\x1b[K"));
    line_open_ = true;
  } else {
    WriteErr(line + "\n");
  }
}

void RunProgress::EndLine() {
  if (!line_open_) return;
  WriteErr("\n");
  line_open_ = false;
}

}  // namespace trestle
