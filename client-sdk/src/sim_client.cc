#include "trestle/sim_client.h"

#include <algorithm>
#include <string>
#include <utility>

#include "session.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle {
namespace {

// Long, so that thousands of idle PULL clients cost the daemon almost nothing
// (each answer, even an empty one, is a round trip).
constexpr std::uint32_t kAutoFetchTimeoutMs = 30000;
constexpr std::uint32_t kDefaultMaxBatch = 1024;
// An Outcome's largest encoding inside an OutcomeBatch: four varint fields
// and the repeated field's framing.
constexpr std::uint32_t kOutcomeMaxBytes = 48;

// How many outcomes one OutcomeBatch frame may carry: the daemon's
// max_batch, and no more than fit in its frame limit.
std::uint32_t MaxOutcomesPerFrame(const wire::EffectiveConfig& config) {
  const std::uint32_t by_count = config.max_batch() != 0 ? config.max_batch() : kDefaultMaxBatch;
  const std::uint32_t frame = config.max_frame_bytes() != 0 ? config.max_frame_bytes()
                                                            : wire::kDefaultMaxFrameBytes;
  return std::max<std::uint32_t>(1, std::min(by_count, (frame - 16) / kOutcomeMaxBytes));
}

void FromWire(wire::Transit& in, Transit* out) {
  out->id = in.id();
  out->src.assign(in.src());
  out->dst.assign(in.dst());
  out->size = in.size();
  out->tclass = in.tclass();
  out->t_send = in.t_send();
  out->collectives.assign(in.collectives());
}

}  // namespace

// Collects posted outcomes into one OutcomeBatch frame (reused, so a steady
// stream of outcomes allocates nothing) and writes it once per loop pass,
// just before the loop flushes and sleeps.
class SimClient::OutcomeBatcher final : public internal::LoopPassHook {
 public:
  explicit OutcomeBatcher(SimClient* client) : client_(client) {}
  ~OutcomeBatcher() {
    if (scheduled_) client_->loop().CancelBeforeSleep(this);
  }

  // `max_count`: the most outcomes one frame may carry (see MaxOutcomesPerFrame).
  void Add(const Outcome& outcome, std::uint32_t max_count) {
    wire::Outcome* o = frame_.mutable_outcomes()->add_outcomes();
    o->set_id(outcome.id);
    o->set_status(outcome.status == Outcome::Status::kDropped ? wire::DROPPED : wire::DELIVERED);
    o->set_t_deliver(outcome.t_deliver);
    o->set_sim_posted(outcome.sim_posted != 0 ? outcome.sim_posted : wire::MonotonicNanos());
    if (size() >= max_count) {
      Write();
    } else if (!scheduled_) {
      scheduled_ = true;
      client_->loop().ScheduleBeforeSleep(this);
    }
  }

  // Writes the batch to the send channel (or discards it when there is no
  // session to write to).
  void Write() {
    if (size() == 0) return;
    internal::Session* s = client_->session();
    wire::FramedStream* stream = s != nullptr && s->ready() ? s->send_stream() : nullptr;
    if (stream != nullptr) stream->Write(frame_);
    // Clear() keeps the Outcome objects for reuse by the next batch.
    frame_.mutable_outcomes()->mutable_outcomes()->Clear();
  }

  std::size_t size() const {
    return frame_.has_outcomes() ? static_cast<std::size_t>(frame_.outcomes().outcomes_size()) : 0;
  }

  void BeforeLoopSleeps() override {
    scheduled_ = false;
    Write();
  }

 private:
  SimClient* client_;
  wire::Frame frame_;
  bool scheduled_ = false;
};

SimClient::SimClient(ClientOptions options)
    : Client(nullptr, std::move(options), wire::ROLE_SIM),
      batcher_(std::make_unique<OutcomeBatcher>(this)) {}

SimClient::SimClient(EventLoop& loop, ClientOptions options)
    : Client(&loop, std::move(options), wire::ROLE_SIM),
      batcher_(std::make_unique<OutcomeBatcher>(this)) {}

SimClient::~SimClient() {
  batcher_->Write();  // outcomes still queued go out with the Bye
  Shutdown();
}

void SimClient::HandleReady(const wire::Welcome&) {
  PauseRecvIfFull();
  KeepFetching();
}

void SimClient::PauseRecvIfFull() {
  internal::Session* s = session();
  if (s != nullptr && fetched_.size() >= options().max_buffered_messages) s->PauseRecv();
}

void SimClient::ResumeRecvIfDrained() {
  internal::Session* s = session();
  if (s != nullptr && fetched_.size() <= options().max_buffered_messages / 2) s->ResumeRecv();
}

void SimClient::HandleClosing() { batcher_->Write(); }

void SimClient::HandleRecvFrame(wire::Frame& frame) {
  if (frame.has_grant()) {
    granted_until_ = frame.grant().until_ns();
    if (on_grant_) on_grant_(granted_until_);
    return;
  }
  if (!frame.has_transits()) return;
  auto* transits = frame.mutable_transits()->mutable_transits();
  if (on_transits_) {
    // An empty answer to a Fetch (its timeout) hands nothing over.
    if (!transits->empty()) {
      // Reuse the strings of earlier batches instead of allocating new ones.
      callback_batch_.resize(static_cast<std::size_t>(transits->size()));
      for (int i = 0; i < transits->size(); ++i) FromWire((*transits)[i], &callback_batch_[i]);
      on_transits_(std::span<const Transit>(callback_batch_));
    }
  } else {
    for (wire::Transit& t : *transits) FromWire(t, &fetched_.emplace_back());
    PauseRecvIfFull();
  }
  KeepFetching();
}

void SimClient::KeepFetching() {
  internal::Session* s = session();
  if (options().mode != DeliveryMode::kPull || !on_transits_ || s == nullptr) return;
  s->KeepPullsOutstanding(0, kAutoFetchTimeoutMs);
}

void SimClient::OnTransits(std::function<void(std::span<const Transit>)> callback) {
  on_transits_ = std::move(callback);
  if (on_transits_ && !fetched_.empty()) {
    std::vector<Transit> pending;
    pending.swap(fetched_);
    on_transits_(std::span<const Transit>(pending));
  }
  ResumeRecvIfDrained();
  KeepFetching();
}

absl::StatusOr<std::vector<Transit>> SimClient::Fetch(std::uint32_t max_count,
                                                      std::chrono::milliseconds timeout) {
  if (on_transits_) {
    return absl::FailedPreconditionError("Fetch is unavailable in OnTransits callback mode");
  }
  // 0: the daemon's max_batch, what one Fetch request is answered with at most.
  const std::uint32_t most = max_count != 0 ? max_count : daemon_config().max_batch();
  auto take = [&] {
    std::vector<Transit> out;
    const std::size_t n = most == 0 ? fetched_.size() : std::min<std::size_t>(most, fetched_.size());
    if (n == fetched_.size()) {
      out.swap(fetched_);
    } else {
      out.assign(std::make_move_iterator(fetched_.begin()),
                 std::make_move_iterator(fetched_.begin() + static_cast<std::ptrdiff_t>(n)));
      fetched_.erase(fetched_.begin(), fetched_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    return out;
  };
  if (!fetched_.empty()) {
    std::vector<Transit> out = take();
    ResumeRecvIfDrained();
    return out;
  }
  absl::Status waited =
      WaitForRecv("Fetch", [this] { return !fetched_.empty(); }, max_count, timeout);
  // Running out of time is not an error for Fetch: it returns what it has.
  if (!waited.ok() && waited.code() != absl::StatusCode::kDeadlineExceeded) return waited;
  std::vector<Transit> out = take();
  ResumeRecvIfDrained();
  return out;
}

void SimClient::Post(const Outcome& outcome) {
  internal::Session* s = session();
  if (s == nullptr || !s->ready()) return;
  batcher_->Add(outcome, MaxOutcomesPerFrame(daemon_config()));
}

std::size_t SimClient::queued_outcomes() const { return batcher_->size(); }

void SimClient::OnGrant(std::function<void(std::uint64_t until_ns)> callback) {
  on_grant_ = std::move(callback);
}

void SimClient::ReportReached(std::uint64_t reached_ns, std::uint64_t grant_ns) {
  internal::Session* s = session();
  if (s == nullptr || !s->ready() || s->send_stream() == nullptr) return;
  batcher_->Write();
  reached_frame_.mutable_reached()->set_reached_ns(reached_ns);
  reached_frame_.mutable_reached()->set_grant_ns(grant_ns);
  s->send_stream()->Write(reached_frame_);
  if (!loop().in_loop()) s->send_stream()->Flush();
}

absl::Status SimClient::Flush(std::chrono::milliseconds timeout) {
  batcher_->Write();
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  internal::Session* s = session();
  if (wire::FramedStream* stream = s->send_stream()) stream->Flush();
  if (absl::Status st = CheckMayBlock("Flush"); !st.ok()) return st;
  const bool drained = loop().RunUntil(
      [&] {
        wire::FramedStream* stream = s->send_stream();
        return !s->ready() || stream == nullptr || stream->pending_bytes() == 0;
      },
      timeout);
  if (!s->ready()) return s->end_status();
  if (!drained) {
    return absl::DeadlineExceededError("outcomes not written within " +
                                       std::to_string(timeout.count()) + " ms");
  }
  return absl::OkStatus();
}

}  // namespace trestle
