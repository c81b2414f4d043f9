#include "trestle/app_client.h"

#include <algorithm>
#include <string>
#include <utility>

#include "delivery_acks.h"
#include "payload_store_client.h"
#include "received_ids.h"
#include "session.h"
#include "trestle/wire/delivery_overhead.h"
#include "trestle/wire/frame_encoder.h"
#include "trestle/wire/frame_format.h"
#include "trestle/status.h"
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
// A payload sent by key must still fit a Delivery frame for an app that
// takes it inline.
using wire::kDeliveryOverheadBytes;

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

AppClient::~AppClient() {
  if (await_scheduled_) loop().CancelBeforeSleep(this);
  if (session() != nullptr && session()->ready()) HandleClosing();
  Shutdown();
}

void AppClient::HandleClosing() {
  acks_->Flush();
  if (wire::FramedStream* recv = session()->recv_stream()) recv->Flush();
}

void AppClient::HandleReady(const wire::Welcome& welcome) {
  // A resumed session's unacknowledged deliveries come again with their
  // numbers, and so do a new session's when the daemon numbers it as the
  // last one (the same client entry); any other starts the numbering over.
  const bool same_numbering =
      welcome.resumed() ||
      (welcome.delivery_numbering() != 0 && welcome.delivery_numbering() == delivery_numbering_);
  delivery_numbering_ = welcome.delivery_numbering();
  // Ids are remembered only while the daemon may replay under another
  // numbering; the window is made on the first such Welcome, and kept.
  remember_ids_ = welcome.redelivers_across_sessions() && options().duplicate_window > 0;
  if (remember_ids_ && received_ids_ == nullptr) {
    received_ids_ = std::make_unique<internal::ReceivedIds>(options().duplicate_window);
  }
  if (!same_numbering) {
    acks_->Reset();
    if (received_ids_ != nullptr) received_ids_->StartNumbering();
  }
  id_prefix_ = welcome.id_prefix();
  next_seq_ = welcome.next_send_seq();
  send_by_key_ = false;
  if (welcome.has_payload_store() && options().payload_by_key) {
    const wire::PayloadStoreInfo& store = welcome.payload_store();
    key_prefix_ = store.key_prefix();
    by_key_threshold_ = store.by_key_threshold();
    send_by_key_ = store.by_key();
    // Connected on first use (a daemon restarted elsewhere may name another).
    if (payload_store_ == nullptr || payload_store_->url() != store.url()) {
      payload_store_ = std::make_unique<internal::PayloadStoreClient>(
          store.url(), options().payload_store_timeout);
    }
  }
  if (options().lockstep) {
    now_ = std::max(now_, welcome.lockstep_start_ns());
    reported_now_ = now_;
    unanswered_.reset();  // a new session knows of no wait
  }
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
  const bool by_key = SendsByKey(bytes.size());
  if (by_key) {
    send->mutable_payload()->clear();
    send->set_by_key(true);
    send->set_size(bytes.size());
  } else {
    send->mutable_payload()->assign(bytes.data(), bytes.size());
    send->set_by_key(false);
    send->set_size(0);
  }
  const std::uint64_t t_send = options.t_send.value_or(now_);
  const bool lockstep = Client::options().lockstep;
  if (lockstep && t_send < now_) {
    return absl::InvalidArgumentError("t_send " + std::to_string(t_send) +
                                      " ns is before Now(), " + std::to_string(now_) +
                                      " ns: in lockstep time a send cannot go back in time");
  }
  if (options.model_size && *options.model_size > wire::kMaxModelSizeBytes) {
    return absl::InvalidArgumentError("model_size of " + std::to_string(*options.model_size) +
                                      " bytes is over the limit of " +
                                      std::to_string(wire::kMaxModelSizeBytes) + " (2^50)");
  }
  if (options.model_size) {
    send->set_model_size(*options.model_size);
  } else {
    send->clear_model_size();
  }
  send->mutable_collectives()->assign(options.collectives.data(), options.collectives.size());
  send->set_t_send(t_send);
  send->set_tclass(options.tclass);
  send->set_notify_drop(options.notify_drop);
  send->set_app_sent(wire::MonotonicNanos());
  // Checked here so that an oversized payload is refused without consuming
  // an id (the daemon would reject the frame and drop the connection).
  // (The exact size is only computed near the limit; the frame's fields
  // other than dst and payload take well under kFixedFieldsBytes.)
  constexpr std::size_t kFixedFieldsBytes = 64;
  const std::uint32_t limit = daemon_config().max_frame_bytes();
  if (by_key && limit != 0 && bytes.size() + kDeliveryOverheadBytes > limit) {
    return absl::InvalidArgumentError(
        "payload of " + std::to_string(bytes.size()) + " bytes is too large to deliver: at most "
        "the daemon's max_frame_bytes - " + std::to_string(kDeliveryOverheadBytes) + " = " +
        std::to_string(limit - kDeliveryOverheadBytes) + ", by key as inline");
  }
  if (limit != 0 && options.collectives.size() > limit / 2) {
    return absl::InvalidArgumentError(
        "collectives of " + std::to_string(options.collectives.size()) +
        " bytes are over the limit of half the daemon's max_frame_bytes (" +
        std::to_string(limit / 2) + "): send them in smaller batches");
  }
  if (limit != 0 &&
      bytes.size() + dst.size() + options.collectives.size() + kFixedFieldsBytes > limit &&
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
  if (by_key) {
    // The key names the id this Send will get; a failure consumes none.
    if (absl::Status put = payload_store_->Put(KeyOf((id_prefix_ << 32) | next_seq_), bytes,
                                               Client::options().payload_key_ttl.count());
        !put.ok()) {
      return put;
    }
  }
  stream->Write(send_frame_);
  // Outside the loop nobody would flush before the caller's next blocking
  // call, so write now; inside, the loop pass batches frames.
  if (!loop().in_loop()) stream->Flush();
  if (lockstep) {
    now_ = t_send;  // the Send reports it
    reported_now_ = t_send;
    unanswered_.reset();
    await_pending_ = false;  // running again
  }
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
  // Lockstep: the answer to a blocking receive, unless a later one replaced it.
  if (frame.has_wake()) {
    if (frame.wake().block() != block_) return;  // for a wait that already ended
    if (waiting_ || unanswered_) {
      woken_ = frame.wake().wake_ns();
    } else if (on_message_ && block_ != 0) {
      block_++;  // this wait is over
      now_ = std::max(now_, frame.wake().wake_ns());
      if (on_wake_) on_wake_(now_);
    }
    return;
  }
  if (frame.has_quiescent()) {
    if (frame.quiescent().block() != block_) return;
    if (waiting_ || unanswered_) {
      quiescent_ = true;
    } else if (on_message_ && on_quiescent_) {
      on_quiescent_();
    }
    return;
  }
  if (!frame.has_deliveries()) return;
  auto& deliveries = *frame.mutable_deliveries()->mutable_deliveries();
  // A delivery seen before a reconnect (same numbering), or delivered to an
  // earlier session (a replay after a federated daemon's restart: the
  // duplicate window, when the daemon says it may), is acknowledged and
  // dropped.
  // The scratch vectors are taken out while the callbacks run: one may
  // resume reading (OnMessage), which handles the next frame at once.
  std::vector<char> fresh;
  fresh.swap(fresh_);
  std::vector<absl::StatusOr<std::string>> by_key_payloads;
  fresh.resize(deliveries.size());
  bool any_by_key = false;
  for (int i = 0; i < deliveries.size(); ++i) {
    const wire::Delivery& d = deliveries[i];
    fresh[i] = acks_->Take(d.delivery_seq()) && (!remember_ids_ || received_ids_->Insert(d.id()));
    any_by_key |= fresh[i] && d.by_key();
  }
  if (any_by_key) TakeByKey(deliveries, fresh, &by_key_payloads);
  std::size_t by_key_index = 0;
  for (int i = 0; i < deliveries.size(); ++i) {
    if (!fresh[i]) continue;
    wire::Delivery& d = deliveries[i];
    Message m;
    if (d.by_key()) {
      absl::StatusOr<std::string>& taken = by_key_payloads[by_key_index++];
      if (!taken.ok()) {
        ReportError(absl::Status(
            taken.status().code(),
            "message #" + std::to_string(d.id()) + " from '" + d.src() + "' (" +
                std::to_string(d.size()) + " bytes by key) is lost: " +
                std::string(taken.status().message())));
        continue;
      }
      m.payload = std::move(*taken);
    } else {
      m.payload = std::move(*d.mutable_payload());
    }
    m.id = d.id();
    m.src = std::move(*d.mutable_src());
    m.dst = std::move(*d.mutable_dst());
    m.t_send = d.t_send();
    m.t_deliver = d.t_deliver();
    m.tclass = d.tclass();
    m.lost_in_store = d.status() == wire::LOST_IN_STORE;
    m.dropped = d.status() == wire::DROPPED || m.lost_in_store;
    ToStamps(d.stamps(), &m.stamps);
    m.stamps.app_received = wire::MonotonicNanos();
    if (on_message_) {
      now_ = std::max(now_, m.t_deliver);
      await_pending_ = false;  // running again, until the next AwaitNext
      on_message_(std::move(m));
    } else {
      inbox_bytes_ += m.payload.size();
      inbox_.push_back(std::move(m));
    }
  }
  fresh_.swap(fresh);
  PauseRecvIfFull();
  KeepPulling();
}

const std::string& AppClient::KeyOf(std::uint64_t id) {
  key_.assign(key_prefix_);
  key_.append(std::to_string(id));
  return key_;
}

void AppClient::TakeByKey(const google::protobuf::RepeatedPtrField<wire::Delivery>& deliveries,
                          const std::vector<char>& fresh,
                          std::vector<absl::StatusOr<std::string>>* payloads) {
  by_key_keys_.clear();
  for (int i = 0; i < deliveries.size(); ++i) {
    if (fresh[i] && deliveries[i].by_key()) by_key_keys_.push_back(KeyOf(deliveries[i].id()));
  }
  if (payload_store_ == nullptr) {
    payloads->assign(by_key_keys_.size(),
                            absl::FailedPreconditionError(
                                "the daemon delivered it by key, but its Welcome named no "
                                "payload store (or ClientOptions::payload_by_key is off)"));
    return;
  }
  payload_store_->Take(by_key_keys_, payloads);
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
  if (options().lockstep) {
    absl::StatusOr<std::optional<Message>> m = ReceiveInTime(std::nullopt, timeout);
    if (!m.ok()) return m.status();
    return std::move(**m);  // without a wake time only a message ends the wait
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
