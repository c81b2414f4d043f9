#include "session.h"

#include <string>
#include <utility>

#include "session_connection.h"
#include "trestle/wire/channel_name.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"
#include "wire_status.h"

namespace trestle::internal {

Session::Session(EventLoop& loop, const ClientOptions& options, wire::Role role,
                 Listener* listener)
    : loop_(loop),
      options_(options),
      role_(role),
      listener_(listener),
      keepalive_(
          loop.uv_loop(), options.keepalive_interval, options.keepalive_timeout,
          [this] { WriteKeepalivePing(); },
          [this] {
            Lose(absl::UnavailableError(
                "no word from daemon " + address_.ToString() + " for " +
                std::to_string(options_.keepalive_timeout.count()) +
                " ms (keepalive_timeout): the session is lost"));
          }) {
  if (role_ == wire::ROLE_APP) {
    pull_frame_.mutable_receive();
  } else {
    pull_frame_.mutable_fetch();
  }
}

Session::~Session() {
  static OrphanHandler orphan_handler;
  StopConnectTimer();
  CancelResolve();
  for (Connection* conn : {ctrl_, send_, recv_}) {
    if (conn == nullptr || conn->session == nullptr) continue;  // a shared one is seen thrice
    conn->session = nullptr;
    conn->stream.set_handler(&orphan_handler);
    // Close() writes what is queued (a Bye, typically) before closing.
    if (!conn->stream.closing()) conn->stream.Close();
  }
}

absl::Status Session::end_status() const {
  switch (state_) {
    case State::kIdle:
      return absl::FailedPreconditionError("not connected: call Connect first");
    case State::kConnecting:
      return absl::FailedPreconditionError("not connected yet: the handshake is in progress");
    case State::kReady:
      return absl::OkStatus();
    case State::kClosing:
      return absl::FailedPreconditionError("the client is closing");
    case State::kClosed:
      break;
  }
  return end_status_;
}

wire::FramedStream* Session::send_stream() {
  return send_ != nullptr && !send_->stream.closing() ? &send_->stream : nullptr;
}

wire::FramedStream* Session::recv_stream() {
  return recv_ != nullptr && !recv_->stream.closing() ? &recv_->stream : nullptr;
}

namespace {

// The frames the daemon writes on a recv channel (docs/protocol.md): on a
// shared connection they come with the ctrl channel's.
bool IsRecvFrame(const wire::Frame& frame) {
  switch (frame.body_case()) {
    case wire::Frame::kDeliveries:
    case wire::Frame::kTransits:
    case wire::Frame::kGrant:
    case wire::Frame::kWake:
    case wire::Frame::kQuiescent:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Session::OnFrame(wire::FramedStream& stream, wire::Frame& frame) {
  keepalive_.Heard();
  auto* conn = static_cast<Connection*>(stream.owner);
  const bool data = conn->channel != wire::CHANNEL_CTRL || (conn == recv_ && IsRecvFrame(frame));
  if (data) {
    HandleDataFrame(conn, frame);
  } else {
    HandleCtrlFrame(frame);
  }
}

void Session::HandleCtrlFrame(wire::Frame& frame) {
  switch (frame.body_case()) {
    case wire::Frame::kWelcome:
      if (state_ == State::kConnecting && welcome_.session_token().empty()) {
        HandleWelcome(*frame.mutable_welcome());
      }
      break;
    case wire::Frame::kError:
      if (state_ == State::kConnecting) {
        FailConnect(StatusFromWireError(frame.error(), "connect to " + address_.ToString()));
      } else if (state_ == State::kReady) {
        // On a shared connection a rejected send is told apart by its id.
        const bool send_error = send_ == ctrl_ && frame.error().ref_id() != 0;
        listener_->OnChannelError(send_error ? wire::CHANNEL_SEND : wire::CHANNEL_CTRL,
                                  frame.error());
      }
      break;
    case wire::Frame::kPong:
      // Nonce 0 answers a keepalive ping: hearing it was the point.
      if (frame.pong().nonce() != 0 && frame.pong().nonce() == ping_nonce_ && !ping_done_) {
        ping_rtt_ns_ = wire::MonotonicNanos() - ping_sent_ns_;
        ping_done_ = true;
      }
      break;
    case wire::Frame::kStatsReply:
      if (stats_outstanding_ > 0 && --stats_outstanding_ == 0) {
        stats_ = std::move(*frame.mutable_stats_reply());
        stats_done_ = true;
      }
      break;
    default:
      break;  // frames a client does not expect on ctrl are ignored
  }
}

void Session::HandleDataFrame(Connection* conn, wire::Frame& frame) {
  if (state_ == State::kConnecting) {
    HandleAttachReply(conn, frame);
    return;
  }
  if (state_ != State::kReady && state_ != State::kClosing) return;
  if (frame.has_error()) {
    if (state_ == State::kReady) listener_->OnChannelError(conn->channel, frame.error());
    return;
  }
  if (conn == recv_) {
    if ((frame.has_deliveries() || frame.has_transits()) && pulls_outstanding_ > 0) {
      --pulls_outstanding_;
    }
    listener_->OnRecvFrame(frame);
  }
}

void Session::OnStreamError(wire::FramedStream& stream, std::string_view what) {
  auto* conn = static_cast<Connection*>(stream.owner);
  const absl::Status status = absl::UnavailableError(
      std::string("connection to daemon ") + address_.ToString() + " broken (" +
      wire::ChannelName(conn->channel) + "): " + std::string(what));
  switch (state_) {
    case State::kConnecting:
      FailConnect(status);
      break;
    case State::kReady:
      Lose(status);
      break;
    default:
      Abort(status);
      break;
  }
}

void Session::OnPeerClosed(wire::FramedStream& stream) {
  auto* conn = static_cast<Connection*>(stream.owner);
  const std::string channel = wire::ChannelName(conn->channel);
  switch (state_) {
    case State::kConnecting:
      FailConnect(absl::UnavailableError("daemon " + address_.ToString() + " closed the " +
                                         channel + " connection during the handshake"));
      break;
    case State::kReady:
      Lose(absl::UnavailableError("connection to daemon " + address_.ToString() + " lost (" +
                                  channel + " closed by the daemon)"));
      break;
    case State::kClosing:
      // After Bye the daemon closes all three; ctrl closing ends the session.
      if (conn->channel == wire::CHANNEL_CTRL) {
        Abort(absl::FailedPreconditionError("the client is closed"));
      } else {
        stream.Close();
      }
      break;
    default:
      stream.Close();
      break;
  }
}

void Session::OnClosed(wire::FramedStream& stream) {
  auto* conn = static_cast<Connection*>(stream.owner);
  for (Connection** s : {&ctrl_, &send_, &recv_}) {
    if (*s == conn) *s = nullptr;
  }
  delete conn;
}

void Session::Lose(const absl::Status& status) {
  keepalive_.Stop();
  state_ = State::kClosed;
  end_status_ = status;
  CloseConnections();
  listener_->OnSessionLost(status);
}

void Session::Abort(const absl::Status& why) {
  if (state_ == State::kConnecting) {
    FailConnect(why);
    return;
  }
  if (state_ == State::kIdle || state_ == State::kClosed) return;
  keepalive_.Stop();
  state_ = State::kClosed;
  end_status_ = why;
  CloseConnections();
}

void Session::CloseConnections() {
  for (Connection* conn : {ctrl_, send_, recv_}) {
    if (conn != nullptr && !conn->stream.closing()) conn->stream.Close();
  }
}

bool Session::WritePullRequest(std::uint32_t max_count, std::uint32_t timeout_ms) {
  wire::FramedStream* stream = recv_stream();
  if (stream == nullptr || !ready()) return false;
  if (role_ == wire::ROLE_APP) {
    wire::Receive* receive = pull_frame_.mutable_receive();
    receive->set_max_count(max_count);
    receive->set_timeout_ms(timeout_ms);
  } else {
    wire::Fetch* fetch = pull_frame_.mutable_fetch();
    fetch->set_max_count(max_count);
    fetch->set_timeout_ms(timeout_ms);
  }
  stream->Write(pull_frame_);
  if (!loop_.in_loop()) stream->Flush();
  ++pulls_outstanding_;
  return true;
}

void Session::PauseRecv() {
  wire::FramedStream* stream = recv_stream();
  if (recv_paused_ || stream == nullptr) return;
  stream->PauseReading();
  recv_paused_ = true;
}

void Session::ResumeRecv() {
  if (!recv_paused_) return;
  recv_paused_ = false;
  if (wire::FramedStream* stream = recv_stream()) stream->ResumeReading();
}

void Session::KeepPullsOutstanding(std::uint32_t max_count, std::uint32_t timeout_ms) {
  while (pulls_outstanding_ < wire::kMaxWaitingPolls && WritePullRequest(max_count, timeout_ms)) {
  }
}

void Session::StartPing() {
  if (!ready()) return;
  ping_done_ = false;
  ping_sent_ns_ = wire::MonotonicNanos();
  wire::Frame frame;
  frame.mutable_ping()->set_nonce(++ping_nonce_);
  ctrl_->stream.Write(frame);
  ctrl_->stream.Flush();
}

void Session::WriteKeepalivePing() {
  if (!ready()) return;
  wire::Frame frame;
  frame.mutable_ping()->set_nonce(0);
  ctrl_->stream.Write(frame);
  ctrl_->stream.Flush();
}

void Session::RequestStats(std::uint64_t first_client) {
  if (!ready()) return;
  ++stats_outstanding_;
  stats_done_ = false;
  wire::Frame frame;
  frame.mutable_stats_request()->set_first_client(first_client);
  ctrl_->stream.Write(frame);
  ctrl_->stream.Flush();
}

void Session::SendBye() {
  if (!ready()) return;
  keepalive_.Stop();
  state_ = State::kClosing;
  wire::Frame frame;
  frame.mutable_bye();
  ctrl_->stream.Write(frame);
  ctrl_->stream.Flush();
}

}  // namespace trestle::internal
