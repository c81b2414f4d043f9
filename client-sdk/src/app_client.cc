#include "trestle/app_client.h"

#include <algorithm>
#include <string>
#include <utility>

#include "delivery_acks.h"
#include "session.h"
#include "trestle/wire/frame_encoder.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"
#include "wire_status.h"

namespace trestle {
namespace {

// How long one automatic long-poll waits in PULL callback mode; the SDK asks
// again as soon as an answer (even an empty one) arrives.
// Long, so that thousands of idle PULL clients cost the daemon almost nothing
// (each answer, even an empty one, is a round trip).
constexpr std::uint32_t kAutoPullTimeoutMs = 30000;
constexpr std::uint32_t kDefaultPullBatch = 256;

void ToStamps(const wire::Stamps& in, Stamps* out) {
  out->app_sent = in.app_sent();
  out->daemon_accepted = in.daemon_accepted();
  out->sim_handed = in.sim_handed();
  out->sim_posted = in.sim_posted();
  out->daemon_delivered = in.daemon_delivered();
}

}  // namespace

AppClient::AppClient(ClientOptions options)
    : Client(nullptr, std::move(options), wire::ROLE_APP),
      acks_(std::make_unique<internal::DeliveryAcks>(loop(), [this] { return session(); })) {}

AppClient::AppClient(EventLoop& loop, ClientOptions options)
    : Client(&loop, std::move(options), wire::ROLE_APP),
      acks_(std::make_unique<internal::DeliveryAcks>(loop, [this] { return session(); })) {}

AppClient::~AppClient() { Shutdown(); }

void AppClient::HandleReady(const wire::Welcome& welcome) {
  // A resumed session's unacknowledged deliveries come again with their
  // numbers; only a new session starts the numbering over.
  if (!welcome.resumed()) acks_->Reset();
  id_prefix_ = welcome.id_prefix();
  next_seq_ = welcome.next_send_seq();
  PauseRecvIfFull();
  KeepPulling();
}

absl::StatusOr<std::uint64_t> AppClient::Send(std::string_view dst, std::string_view bytes,
                                              const SendOptions& options) {
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  if (dst.empty() || dst.size() > wire::kMaxClientIdBytes) {
    return absl::InvalidArgumentError("destination must be 1 to " +
                                      std::to_string(wire::kMaxClientIdBytes) +
                                      " bytes; it has " + std::to_string(dst.size()));
  }
  internal::Session* s = session();
  wire::FramedStream* stream = s->send_stream();

  wire::Send* send = send_frame_.mutable_send();
  send->mutable_dst()->assign(dst.data(), dst.size());
  send->mutable_payload()->assign(bytes.data(), bytes.size());
  send->set_t_send(options.t_send.value_or(now_));
  send->set_tclass(options.tclass);
  send->set_notify_drop(options.notify_drop);
  send->set_app_sent(wire::MonotonicNanos());
  // Checked here so that an oversized payload is refused without consuming
  // an id (the daemon would reject the frame and drop the connection).
  // (The exact size is only computed near the limit; the frame's fields
  // other than dst and payload take well under kFixedFieldsBytes.)
  constexpr std::size_t kFixedFieldsBytes = 64;
  const std::uint32_t limit = daemon_config().max_frame_bytes();
  if (limit != 0 && bytes.size() + dst.size() + kFixedFieldsBytes > limit &&
      send_frame_.ByteSizeLong() > limit) {
    return absl::InvalidArgumentError("payload of " + std::to_string(bytes.size()) +
                                      " bytes exceeds the daemon's frame limit of " +
                                      std::to_string(limit) + " bytes");
  }

  if (stream->above_high_watermark()) {
    if (loop().in_loop()) {
      return absl::ResourceExhaustedError(
          "send backlog above the high watermark; retry from a later loop pass");
    }
    loop().RunUntil(
        [&] { return !s->ready() || s->send_stream() == nullptr ||
                     !s->send_stream()->above_high_watermark(); },
        options.timeout);
    if (!s->ready()) return s->end_status();
    if (s->send_stream()->above_high_watermark()) {
      return absl::DeadlineExceededError("send backlog did not drain within " +
                                         std::to_string(options.timeout.count()) + " ms");
    }
    stream = s->send_stream();
  }
  stream->Write(send_frame_);
  // Outside the loop nobody would flush before the caller's next blocking
  // call, so write now; inside, the loop pass batches frames.
  if (!loop().in_loop()) stream->Flush();
  return (id_prefix_ << 32) | next_seq_++;
}

void AppClient::HandleChannelError(wire::Channel channel, const wire::Error& error) {
  if (channel == wire::CHANNEL_SEND && error.ref_id() != 0) {
    ReportError(internal::StatusFromWireError(
        error, "send #" + std::to_string(error.ref_id()) + " rejected"));
    return;
  }
  Client::HandleChannelError(channel, error);
}

void AppClient::HandleRecvFrame(wire::Frame& frame) {
  if (!frame.has_deliveries()) return;
  for (wire::Delivery& d : *frame.mutable_deliveries()->mutable_deliveries()) {
    if (!acks_->Take(d.delivery_seq())) continue;  // seen before a reconnect
    Message m;
    m.id = d.id();
    m.src = std::move(*d.mutable_src());
    m.dst = std::move(*d.mutable_dst());
    m.payload = std::move(*d.mutable_payload());
    m.t_send = d.t_send();
    m.t_deliver = d.t_deliver();
    m.tclass = d.tclass();
    m.lost_in_store = d.status() == wire::LOST_IN_STORE;
    m.dropped = d.status() == wire::DROPPED || m.lost_in_store;
    ToStamps(d.stamps(), &m.stamps);
    m.stamps.app_received = wire::MonotonicNanos();
    if (on_message_) {
      now_ = std::max(now_, m.t_deliver);
      on_message_(std::move(m));
    } else {
      inbox_bytes_ += m.payload.size();
      inbox_.push_back(std::move(m));
    }
  }
  PauseRecvIfFull();
  KeepPulling();
}

void AppClient::PauseRecvIfFull() {
  internal::Session* s = session();
  if (s == nullptr || (inbox_.size() < options().max_buffered_messages &&
                       inbox_bytes_ < options().max_buffered_bytes)) {
    return;
  }
  // The daemon's output backs up and it holds further deliveries instead of
  // this process buffering without bound.
  s->PauseRecv();
}

void AppClient::ResumeRecvIfDrained() {
  internal::Session* s = session();
  if (s == nullptr || inbox_.size() > options().max_buffered_messages / 2 ||
      inbox_bytes_ > options().max_buffered_bytes / 2) {
    return;
  }
  s->ResumeRecv();  // may hand buffered frames to HandleRecvFrame at once
}

Message AppClient::TakeFromInbox() {
  Message m = std::move(inbox_.front());
  inbox_.pop_front();
  inbox_bytes_ -= m.payload.size();
  now_ = std::max(now_, m.t_deliver);
  return m;
}

std::uint32_t AppClient::PullBatch() const {
  const std::uint32_t max_batch = daemon_config().max_batch();
  return max_batch != 0 ? max_batch : kDefaultPullBatch;
}

void AppClient::KeepPulling() {
  internal::Session* s = session();
  if (options().mode != DeliveryMode::kPull || !on_message_ || s == nullptr) return;
  s->KeepPullsOutstanding(PullBatch(), kAutoPullTimeoutMs);
}

absl::StatusOr<Message> AppClient::Receive(std::chrono::milliseconds timeout) {
  if (on_message_) {
    return absl::FailedPreconditionError("Receive is unavailable in OnMessage callback mode");
  }
  if (!inbox_.empty()) {
    Message m = TakeFromInbox();
    ResumeRecvIfDrained();
    return m;
  }
  absl::Status waited =
      WaitForRecv("Receive", [this] { return !inbox_.empty(); }, PullBatch(), timeout);
  if (waited.code() == absl::StatusCode::kDeadlineExceeded) {
    return absl::DeadlineExceededError("no message within " + std::to_string(timeout.count()) +
                                       " ms");
  }
  if (!waited.ok()) return waited;
  Message m = TakeFromInbox();
  ResumeRecvIfDrained();
  return m;
}

std::optional<Message> AppClient::TryReceive() {
  if (on_message_) return std::nullopt;
  if (inbox_.empty() && !loop().in_loop()) {
    internal::Session* s = session();
    if (s != nullptr && s->ready() && options().mode == DeliveryMode::kPull &&
        !s->pull_outstanding()) {
      s->WritePullRequest(PullBatch(), 0);
    }
    // Handle whatever I/O is ready, without waiting.
    loop().RunUntil([&] { return !inbox_.empty(); }, std::chrono::milliseconds(0));
  }
  if (inbox_.empty()) return std::nullopt;
  Message m = TakeFromInbox();
  ResumeRecvIfDrained();
  return m;
}

void AppClient::OnMessage(std::function<void(Message&&)> callback) {
  on_message_ = std::move(callback);
  while (on_message_ && !inbox_.empty()) {
    on_message_(TakeFromInbox());
  }
  // Only now, so that frames held back by a pause reach the callback after
  // the older messages of the inbox.
  ResumeRecvIfDrained();
  KeepPulling();
}

}  // namespace trestle
