#include "run_watch.h"

#include <unistd.h>

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace trestle {

RunWatch::RunWatch(const std::string& admin, int np, Options options)
    : client_(admin, /*token=*/"", std::chrono::seconds(5)),
      np_(np),
      options_(options),
      poll_every_(std::min(options.progress.every, std::chrono::milliseconds(1000))),
      start_(std::chrono::steady_clock::now()),
      progress_(options.progress, start_),
      stall_(options.stall_after),
      joins_(options.join_after, start_) {}

void RunWatch::Say(const std::string& message) {
  progress_.EndLine();
  const std::string line = absl::StrCat("trestle mpirun: ", message, "\n");
  if (write(STDERR_FILENO, line.data(), line.size()) < 0) return;
}

void RunWatch::Tick() {
  const auto now = std::chrono::steady_clock::now();
  if (last_poll_ && now - *last_poll_ < poll_every_) return;
  last_poll_ = now;
  // A daemon too busy to answer in time only skips this look.
  absl::StatusOr<admin::StatusReply> status = client_.Status();
  if (!status.ok()) return;
  const wire::LockstepStats& l = status->lockstep();
  if (std::optional<std::string> m = joins_.Check(l, np_, now)) Say(*m);
  if (std::optional<std::string> m = stall_.Check(l)) Say(*m);
  if (!options_.quiet) {
    progress_.Show(*status, np_,
                   std::chrono::duration_cast<std::chrono::milliseconds>(now - start_), now);
  }
}

absl::Status RunWatch::CheckEveryRankJoined() {
  progress_.EndLine();
  absl::StatusOr<admin::StatusReply> status = client_.Status();
  if (!status.ok()) return status.status();
  if (std::optional<std::string> error = NeverJoinedError(status->lockstep(), np_)) {
    return absl::FailedPreconditionError(*error);
  }
  return absl::OkStatus();
}

}  // namespace trestle
