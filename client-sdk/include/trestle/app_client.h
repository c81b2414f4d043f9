// trestle::AppClient: a live application's end of the bridge. It sends
// payloads to other apps through the daemon and receives the ones the
// network simulator delivered, keeping the app's virtual clock.
//
// See client.h for connecting, errors, and a usage example.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/client.h"
#include "trestle/message.h"

namespace trestle {

namespace internal {
class DeliveryAcks;
class PayloadStoreClient;
class ReceivedIds;
}  // namespace internal

struct SendOptions {
  // Virtual send time in ns; unset = the client's Now(). In lockstep time it
  // may not be below Now() (InvalidArgument), and Now() moves to it.
  std::optional<std::uint64_t> t_send;
  std::uint32_t tclass = 0;
  // Ask for a Message with dropped = true if the network model drops it (or
  // the daemon's store loses it: lost_in_store).
  bool notify_drop = false;
  // The size the network model is told, in bytes, when it differs from the
  // payload's: a message modelled larger (or smaller) than the bytes it
  // carries (docs/protocol.md, Send.model_size). At most
  // wire::kMaxModelSizeBytes (2^50), else InvalidArgument. Unset: the
  // payload's size.
  std::optional<std::uint64_t> model_size;
  // A serialized wire::CollectiveBatch for the simulator to replay: the
  // send then goes to the sender itself (docs/protocol.md, "Collectives").
  // Empty: none. Viewed, not owned: it must outlive the Send call.
  std::string_view collectives;
  // Bound on the time Send may block while the outbound backlog is above
  // the high watermark.
  std::chrono::milliseconds timeout{5000};
};

class AppClient : public Client, private internal::LoopPassHook {
 public:
  // Owns a private EventLoop, run by the blocking calls.
  explicit AppClient(ClientOptions options);
  // Shares `loop`, which must outlive this client.
  AppClient(EventLoop& loop, ClientOptions options);
  ~AppClient() override;

  // Sends `bytes` to the app `dst` and returns the message id the daemon
  // assigns to it (known without a round trip; a later rejection reaches
  // OnError with this id in its message, e.g. "send #4294967297 rejected:
  // ...", and as trestle::MessageIdOf(status)). Copies `bytes`; the caller keeps ownership. Outside loop callbacks
  // the frame is written at once, as far as the kernel takes it; inside a
  // callback it leaves with the loop pass's batch. Blocks (running the loop,
  // up to options.timeout) only while the outbound backlog is above the high
  // watermark; inside a callback it cannot wait and returns
  // ResourceExhausted instead. Errors: FailedPrecondition/Unavailable if not
  // connected, InvalidArgument if `dst` is empty or over 255 bytes or the
  // frame would exceed the daemon's max_frame_bytes, DeadlineExceeded if the
  // backlog did not drain. A failed
  // Send consumes no id.
  //
  // Payloads by key (ClientOptions::payload_by_key; docs/protocol.md): when
  // the daemon offers its Redis store, a payload of at least its threshold
  // is first written to Redis (SET, blocking this thread for one round
  // trip, even inside a callback) and only its key goes to the daemon.
  // Errors then also: Unavailable naming the store's URL when Redis cannot
  // be reached (inline sends are unaffected), InvalidArgument when the
  // payload could not be delivered inline (max_frame_bytes - 1024).
  absl::StatusOr<std::uint64_t> Send(std::string_view dst, std::string_view bytes,
                                     const SendOptions& options = {});

  // Deliveries by key are taken from the store (GETDEL, one round trip per
  // batch) before the app sees them. One whose key is missing (taken
  // already, or expired) is acknowledged and not handed over: OnError gets
  // NotFound naming the message and the key. A message delivered again to
  // a new session (ClientOptions::duplicate_window) is dropped the same
  // way, silently.
  //
  // Returns the next message, waiting up to `timeout` (running the loop).
  // PUSH mode waits for the daemon to push; PULL mode asks with a Receive
  // long-poll. Moves Now() to max(Now(), t_deliver). Errors: DeadlineExceeded
  // (no message in time), Unavailable (session lost and inbox empty),
  // FailedPrecondition (OnMessage callback set, or called from a callback).
  //
  // Lockstep time: waits in virtual time as well. The app counts as blocked
  // until a message is safe to hand it (nothing with an earlier t_deliver can
  // still come). `timeout` bounds the wall time. OutOfRange (IsQuiescent)
  // when the run is quiescent: every app is blocked, nothing is in flight,
  // and no wake time is left, so nothing will ever arrive.
  absl::StatusOr<Message> Receive(std::chrono::milliseconds timeout);
  // Lockstep time only (FailedPrecondition otherwise): as Receive, but wakes
  // at virtual time `t_wake_ns` if nothing arrives at or before it: returns
  // nullopt with Now() = max(Now(), t_wake_ns). A message with t_deliver <=
  // t_wake_ns is returned as Receive would.
  //
  // Lockstep, both: a receive that ran out of wall time (DeadlineExceeded)
  // leaves the app blocked; called again with the same wake time (or none)
  // before any Send, Advance or message, it goes on with that wait instead of
  // starting another, so the daemon's answer to it, however late, still
  // counts (an app may wait in short slices and do other work between).
  absl::StatusOr<std::optional<Message>> ReceiveUntil(std::uint64_t t_wake_ns,
                                                      std::chrono::milliseconds timeout);
  // Returns a message already received, if any, after handling the I/O that
  // is ready without waiting. In PULL mode it also asks the daemon for more
  // (answered on a later call). Never blocks. In lockstep time what it finds
  // depends on wall-clock timing: use Receive or ReceiveUntil for
  // repeatable runs.
  std::optional<Message> TryReceive();
  // Callback mode: from now on every message is handed to `callback` on the
  // loop thread (messages already in the inbox first, at once). In PULL mode
  // the SDK keeps two Receive long-polls outstanding. An empty function returns
  // to inbox mode. In lockstep time a callback app says when it waits with
  // AwaitNext; Now() moves to each message's t_deliver before its callback.
  void OnMessage(std::function<void(Message&&)> callback);

  // Lockstep, callback mode (FailedPrecondition otherwise): the app has
  // nothing to do until its next message or, if set, virtual time
  // `t_wake_ns`. The SDK tells the daemon at the end of the loop pass (so a
  // batch of messages is handed over whole first); a Send or Advance before
  // then cancels it. What ends the wait goes to the callbacks: OnMessage,
  // OnWake (Now() is then t_wake_ns), or OnQuiescent (nothing will ever
  // arrive). This is how many apps share one EventLoop in lockstep.
  absl::Status AwaitNext(std::optional<std::uint64_t> t_wake_ns = std::nullopt);
  void OnWake(std::function<void(std::uint64_t now_ns)> callback) { on_wake_ = std::move(callback); }
  void OnQuiescent(std::function<void()> callback) { on_quiescent_ = std::move(callback); }
  // Messages received and not yet taken (see ClientOptions::max_buffered_*).
  std::size_t inbox_size() const { return inbox_.size(); }

  // The app's virtual clock, ns. Receiving a message moves it to
  // max(Now(), t_deliver); Advance models compute time. In lockstep time it
  // starts at the run's bound when the app joined (Welcome), and Advance
  // tells the daemon lazily: at most one Clock frame per millisecond of wall
  // time (and the next Send or receive carries the clock anyway).
  std::uint64_t Now() const { return now_; }
  void Advance(std::uint64_t dt_ns);

 private:
  void HandleReady(const wire::Welcome& welcome) override;
  void HandleRecvFrame(wire::Frame& frame) override;
  void HandleChannelError(wire::Channel channel, const wire::Error& error) override;
  // Before Bye: the last deliveries' acknowledgement goes out first, so
  // they count as delivered.
  void HandleClosing() override;

  Message TakeFromInbox();
  // Lockstep time (app_client_lockstep.cc): waits for a message, the
  // daemon's Wake (at `wake`), or quiescence. nullopt: woken.
  absl::StatusOr<std::optional<Message>> ReceiveInTime(std::optional<std::uint64_t> wake,
                                                       std::chrono::milliseconds timeout);
  // Lockstep: writes a Clock frame on the send channel.
  void ReportClock(bool blocked, std::optional<std::uint64_t> wake);
  // LoopPassHook: the blocked report of AwaitNext, once the pass is over.
  void BeforeLoopSleeps() override;
  // Backpressure on the recv channel (ClientOptions::max_buffered_*).
  void PauseRecvIfFull();
  void ResumeRecvIfDrained();
  void KeepPulling();
  std::uint32_t PullBatch() const;

  // Payloads by key: whether Send may, and the store's key of message `id`.
  bool SendsByKey(std::size_t bytes) const {
    return send_by_key_ && bytes != 0 && bytes >= by_key_threshold_;
  }
  const std::string& KeyOf(std::uint64_t id);
  // Takes the payloads of the deliveries by key among `deliveries` (those
  // with fresh[i]) into `payloads`, in order.
  void TakeByKey(const google::protobuf::RepeatedPtrField<wire::Delivery>& deliveries,
                 const std::vector<char>& fresh,
                 std::vector<absl::StatusOr<std::string>>* payloads);

  wire::Frame send_frame_;  // reused for every Send
  std::uint64_t id_prefix_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t now_ = 0;
  std::deque<Message> inbox_;
  std::size_t inbox_bytes_ = 0;  // payload bytes in inbox_
  std::function<void(Message&&)> on_message_;
  std::unique_ptr<internal::DeliveryAcks> acks_;
  // The last Welcome's delivery_numbering: a new session numbered the same
  // continues the delivery_seq check.
  std::uint64_t delivery_numbering_ = 0;
  // The duplicate window: made on the first Welcome that says the daemon
  // redelivers across sessions (and duplicate_window > 0), then kept across
  // sessions, since a new session may replay what an old one had; used
  // while the latest Welcome says so (remember_ids_), untouched otherwise.
  std::unique_ptr<internal::ReceivedIds> received_ids_;
  bool remember_ids_ = false;
  // Payloads by key, from the last Welcome: the store, its key prefix and
  // the threshold; whether the daemon takes sends by key.
  std::unique_ptr<internal::PayloadStoreClient> payload_store_;
  std::string key_prefix_;
  std::uint64_t by_key_threshold_ = 0;
  bool send_by_key_ = false;
  std::string key_;                                   // scratch for KeyOf
  std::vector<char> fresh_;               // scratch: per delivery, new to the app
  std::vector<std::string> by_key_keys_;  // scratch: keys to take
  // Lockstep.
  wire::Frame clock_frame_;
  std::uint64_t reported_now_ = 0;     // the clock in the last Clock or Send
  std::uint64_t last_report_wall_ = 0;  // MonotonicNanos of the last Clock
  std::uint64_t block_ = 0;             // numbers blocking receives
  bool waiting_ = false;                // in a blocking receive
  std::optional<std::uint64_t> woken_;  // the Wake of the current block
  bool quiescent_ = false;              // Quiescent for the current block
  // A blocking receive of this wake time ran out of wall time: the app is
  // still blocked in block_, and its answer is kept for the next receive.
  std::optional<std::optional<std::uint64_t>> unanswered_;
  // AwaitNext: the wait to report at the end of the pass; whether it is.
  std::optional<std::uint64_t> await_wake_;
  bool await_pending_ = false;
  bool await_scheduled_ = false;
  std::function<void(std::uint64_t)> on_wake_;
  std::function<void()> on_quiescent_;
};

}  // namespace trestle
