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
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/client.h"
#include "trestle/message.h"

namespace trestle {

namespace internal {
class DeliveryAcks;
}  // namespace internal

struct SendOptions {
  // Virtual send time in ns; unset = the client's Now().
  std::optional<std::uint64_t> t_send;
  std::uint32_t tclass = 0;
  // Ask for a Message with dropped = true if the network model drops it (or
  // the daemon's store loses it: lost_in_store).
  bool notify_drop = false;
  // Bound on the time Send may block while the outbound backlog is above
  // the high watermark.
  std::chrono::milliseconds timeout{5000};
};

class AppClient : public Client {
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
  absl::StatusOr<std::uint64_t> Send(std::string_view dst, std::string_view bytes,
                                     const SendOptions& options = {});

  // Returns the next message, waiting up to `timeout` (running the loop).
  // PUSH mode waits for the daemon to push; PULL mode asks with a Receive
  // long-poll. Moves Now() to max(Now(), t_deliver). Errors: DeadlineExceeded
  // (no message in time), Unavailable (session lost and inbox empty),
  // FailedPrecondition (OnMessage callback set, or called from a callback).
  absl::StatusOr<Message> Receive(std::chrono::milliseconds timeout);
  // Returns a message already received, if any, after handling the I/O that
  // is ready without waiting. In PULL mode it also asks the daemon for more
  // (answered on a later call). Never blocks.
  std::optional<Message> TryReceive();
  // Callback mode: from now on every message is handed to `callback` on the
  // loop thread (messages already in the inbox first, at once). In PULL mode
  // the SDK keeps two Receive long-polls outstanding. An empty function returns
  // to inbox mode.
  void OnMessage(std::function<void(Message&&)> callback);
  // Messages received and not yet taken (see ClientOptions::max_buffered_*).
  std::size_t inbox_size() const { return inbox_.size(); }

  // The app's virtual clock, ns. Receiving a message moves it to
  // max(Now(), t_deliver); Advance models compute time.
  std::uint64_t Now() const { return now_; }
  void Advance(std::uint64_t dt_ns) { now_ += dt_ns; }

 private:
  void HandleReady(const wire::Welcome& welcome) override;
  void HandleRecvFrame(wire::Frame& frame) override;
  void HandleChannelError(wire::Channel channel, const wire::Error& error) override;

  Message TakeFromInbox();
  // Backpressure on the recv channel (ClientOptions::max_buffered_*).
  void PauseRecvIfFull();
  void ResumeRecvIfDrained();
  void KeepPulling();
  std::uint32_t PullBatch() const;

  wire::Frame send_frame_;  // reused for every Send
  std::uint64_t id_prefix_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t now_ = 0;
  std::deque<Message> inbox_;
  std::size_t inbox_bytes_ = 0;  // payload bytes in inbox_
  std::function<void(Message&&)> on_message_;
  std::unique_ptr<internal::DeliveryAcks> acks_;
};

}  // namespace trestle
