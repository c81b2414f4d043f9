// AppClient in lockstep time (app_client.h): the clock it reports to the
// daemon's time coordinator (Clock frames: after Advance, lazily; when it
// blocks), and the receives that wait in virtual time (ReceiveUntil, and
// AwaitNext in callback mode).
#include <algorithm>
#include <string>

#include "delivery_acks.h"
#include "session.h"
#include "trestle/app_client.h"
#include "trestle/status.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle {
namespace {

// Advance tells the daemon at most this often (wall ns).
constexpr std::uint64_t kClockReportIntervalNs = 1'000'000;

}  // namespace

void AppClient::Advance(std::uint64_t dt_ns) {
  now_ += dt_ns;
  if (dt_ns != 0) unanswered_.reset();
  if (!options().lockstep || now_ == reported_now_) return;
  await_pending_ = false;
  if (wire::MonotonicNanos() - last_report_wall_ >= kClockReportIntervalNs) {
    ReportClock(false, std::nullopt);
  }
}

void AppClient::ReportClock(bool blocked, std::optional<std::uint64_t> wake) {
  internal::Session* s = session();
  if (s == nullptr || !s->ready() || s->send_stream() == nullptr) return;
  wire::Clock* c = clock_frame_.mutable_clock();
  c->set_now_ns(now_);
  c->set_blocked(blocked);
  if (wake) {
    c->set_wake_ns(*wake);
  } else {
    c->clear_wake_ns();
  }
  c->set_seen_delivery_seq(acks_->highest_seen());
  c->set_block(blocked ? block_ : 0);
  s->send_stream()->Write(clock_frame_);
  if (!loop().in_loop()) s->send_stream()->Flush();
  reported_now_ = now_;
  last_report_wall_ = wire::MonotonicNanos();
}

absl::Status AppClient::AwaitNext(std::optional<std::uint64_t> t_wake_ns) {
  if (!options().lockstep || !on_message_) {
    return absl::FailedPreconditionError(
        "AwaitNext needs lockstep time and OnMessage callback mode");
  }
  await_wake_ = t_wake_ns;
  await_pending_ = true;
  if (!await_scheduled_) {
    await_scheduled_ = true;
    loop().ScheduleBeforeSleep(this);
  }
  return absl::OkStatus();
}

void AppClient::BeforeLoopSleeps() {
  await_scheduled_ = false;
  if (!await_pending_) return;
  await_pending_ = false;
  block_++;
  ReportClock(true, await_wake_);
}

absl::StatusOr<std::optional<Message>> AppClient::ReceiveUntil(
    std::uint64_t t_wake_ns, std::chrono::milliseconds timeout) {
  if (!options().lockstep) {
    return absl::FailedPreconditionError(
        "ReceiveUntil needs lockstep time (ClientOptions::lockstep)");
  }
  if (on_message_) {
    return absl::FailedPreconditionError("ReceiveUntil is unavailable in OnMessage callback mode");
  }
  return ReceiveInTime(t_wake_ns, timeout);
}

absl::StatusOr<std::optional<Message>> AppClient::ReceiveInTime(
    std::optional<std::uint64_t> wake, std::chrono::milliseconds timeout) {
  // What the daemon handed over is final and in order: nothing earlier than
  // the inbox's first message can still come.
  auto from_inbox = [&]() -> std::optional<Message> {
    unanswered_.reset();
    if (wake && inbox_.front().t_deliver > *wake) {
      now_ = std::max(now_, *wake);
      return std::nullopt;
    }
    Message m = TakeFromInbox();
    ResumeRecvIfDrained();
    return m;
  };
  if (!inbox_.empty()) return from_inbox();
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  // The same wait as the last receive, which ran out of wall time: go on
  // with it (its answer may be here already).
  const bool again = unanswered_.has_value() && *unanswered_ == wake;
  unanswered_.reset();
  if (!again) {
    block_++;
    woken_.reset();
    quiescent_ = false;
    ReportClock(true, wake);
  }
  waiting_ = true;
  absl::Status waited = WaitForRecv(
      "Receive", [this] { return !inbox_.empty() || woken_.has_value() || quiescent_; },
      PullBatch(), timeout);
  waiting_ = false;
  if (!inbox_.empty()) return from_inbox();
  if (woken_) {
    now_ = std::max(now_, *woken_);
    return std::nullopt;
  }
  if (quiescent_) return QuiescentError();
  if (waited.code() == absl::StatusCode::kDeadlineExceeded) {
    unanswered_ = wake;
    return absl::DeadlineExceededError("no message within " + std::to_string(timeout.count()) +
                                       " ms of wall time");
  }
  if (!waited.ok()) return waited;
  return absl::InternalError("receive ended without a message");
}

}  // namespace trestle
