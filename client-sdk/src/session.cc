#include "session.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"
#include "wire_status.h"

namespace trestle::internal {
namespace {

const char* ChannelName(wire::Channel channel) {
  switch (channel) {
    case wire::CHANNEL_CTRL:
      return "ctrl";
    case wire::CHANNEL_SEND:
      return "send";
    case wire::CHANNEL_RECV:
      return "recv";
    default:
      return "?";
  }
}

}  // namespace

// One connection of the session. Heap-allocated so that it can outlive the
// Session: libuv still owns the stream handle and the connect request until
// the close callback, which frees the Connection.
struct Session::Connection {
  Connection(EventLoop& loop, wire::FramedStream::Kind kind, std::uint32_t max_frame_bytes,
             Session* owner, wire::Channel which)
      : stream(loop.uv_loop(), kind, loop.flush_queue(), max_frame_bytes),
        session(owner),
        channel(which) {
    stream.owner = this;
    connect_req.data = this;
  }
  wire::FramedStream stream;
  uv_connect_t connect_req;
  Session* session;  // null once orphaned
  wire::Channel channel;
};

// Receives the last callbacks of connections whose Session is gone.
class Session::OrphanHandler final : public wire::FramedStream::Handler {
 public:
  void OnFrame(wire::FramedStream&, wire::Frame&) override {}
  void OnStreamError(wire::FramedStream& stream, std::string_view) override { stream.Close(); }
  void OnPeerClosed(wire::FramedStream& stream) override { stream.Close(); }
  void OnClosed(wire::FramedStream& stream) override {
    delete static_cast<Connection*>(stream.owner);
  }
};

struct Session::Resolve {
  uv_getaddrinfo_t req;
  Session* session;  // null once the Session is gone
};

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
  if (resolve_ != nullptr) {
    resolve_->session = nullptr;
    uv_cancel(reinterpret_cast<uv_req_t*>(&resolve_->req));
    resolve_ = nullptr;
  }
  for (Connection* conn : {ctrl_, send_, recv_}) {
    if (conn == nullptr || conn->session == nullptr) continue;  // a shared one is seen thrice
    conn->session = nullptr;
    conn->stream.set_handler(&orphan_handler);
    // Close() writes what is queued (a Bye, typically) before closing.
    if (!conn->stream.closing()) conn->stream.Close();
  }
}

absl::Status Session::Start(std::function<void(absl::Status)> done) {
  if (state_ != State::kIdle) return absl::FailedPreconditionError("session already started");
  if (options_.client_id.empty() || options_.client_id.size() > wire::kMaxClientIdBytes) {
    return absl::InvalidArgumentError(
        "ClientOptions::client_id must be 1 to " + std::to_string(wire::kMaxClientIdBytes) +
        " bytes; it has " + std::to_string(options_.client_id.size()));
  }
  absl::StatusOr<DaemonAddress> parsed =
      ParseDaemonAddress(options_.daemon.empty() ? kDefaultDaemonAddress : options_.daemon);
  if (!parsed.ok()) return parsed.status();
  address_ = *std::move(parsed);

  bool need_resolve = false;
  if (address_.kind == DaemonAddress::Kind::kTcp) {
    auto* in4 = reinterpret_cast<sockaddr_in*>(&sockaddr_);
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&sockaddr_);
    need_resolve = uv_ip4_addr(address_.host.c_str(), address_.port, in4) != 0 &&
                   uv_ip6_addr(address_.host.c_str(), address_.port, in6) != 0;
  }

  state_ = State::kConnecting;
  connect_done_ = std::move(done);
  int rc = 0;
  if (need_resolve) {
    resolve_ = new Resolve{{}, this};
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const std::string port = std::to_string(address_.port);
    rc = uv_getaddrinfo(loop_.uv_loop(), &resolve_->req, &Session::OnResolved,
                        address_.host.c_str(), port.c_str(), &hints);
    if (rc != 0) {
      delete resolve_;
      resolve_ = nullptr;
    }
  } else {
    rc = OpenChannel(wire::CHANNEL_CTRL);
  }
  if (rc != 0) {
    // Reported synchronously, so the callback must never run.
    connect_done_ = nullptr;
    end_status_ = absl::UnavailableError("cannot connect to " + address_.ToString() + ": " +
                                         uv_strerror(rc));
    state_ = State::kClosed;
    CloseConnections();
    return end_status_;
  }
  connect_timer_ = new uv_timer_t;
  uv_timer_init(loop_.uv_loop(), connect_timer_);
  connect_timer_->data = this;
  uv_timer_start(connect_timer_, &Session::OnConnectTimeout,
                 static_cast<std::uint64_t>(std::max<std::int64_t>(0, options_.connect_timeout.count())),
                 0);
  return absl::OkStatus();
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

void Session::OnResolved(uv_getaddrinfo_t* req, int status, addrinfo* res) {
  auto* resolve = reinterpret_cast<Resolve*>(req);  // req is the first member
  Session* self = resolve->session;
  delete resolve;
  if (self != nullptr) {
    self->resolve_ = nullptr;
    if (self->state_ == State::kConnecting) {
      if (status != 0 || res == nullptr) {
        self->FailConnect(absl::UnavailableError("cannot resolve " + self->address_.host + ": " +
                                                 uv_strerror(status)));
      } else {
        std::memcpy(&self->sockaddr_, res->ai_addr, res->ai_addrlen);
        if (int rc = self->OpenChannel(wire::CHANNEL_CTRL); rc != 0) {
          self->FailConnect(absl::UnavailableError("cannot connect to " +
                                                   self->address_.ToString() + ": " +
                                                   uv_strerror(rc)));
        }
      }
    }
  }
  uv_freeaddrinfo(res);
}

Session::Connection*& Session::slot(wire::Channel channel) {
  switch (channel) {
    case wire::CHANNEL_SEND:
      return send_;
    case wire::CHANNEL_RECV:
      return recv_;
    default:
      return ctrl_;
  }
}

int Session::OpenChannel(wire::Channel channel) {
  const bool unix_socket = address_.kind == DaemonAddress::Kind::kUnix;
  // Data channels are opened after Welcome, so by default they accept the
  // largest frame the daemon may send.
  std::uint32_t max_frame_bytes = options_.max_frame_bytes;
  if (max_frame_bytes == 0) {
    max_frame_bytes = channel != wire::CHANNEL_CTRL && welcome_.config().max_frame_bytes() != 0
                          ? welcome_.config().max_frame_bytes()
                          : wire::kDefaultMaxFrameBytes;
  }
  auto* conn = new Connection(loop_, unix_socket ? wire::FramedStream::Kind::kPipe
                                                 : wire::FramedStream::Kind::kTcp,
                              max_frame_bytes, this, channel);
  conn->stream.set_handler(this);
  slot(channel) = conn;
  int rc = 0;
  if (unix_socket) {
    // Errors (no such socket, ...) arrive through the callback.
    uv_pipe_connect(&conn->connect_req, reinterpret_cast<uv_pipe_t*>(conn->stream.handle()),
                    address_.path.c_str(), &Session::OnConnected);
  } else {
    rc = uv_tcp_connect(&conn->connect_req, reinterpret_cast<uv_tcp_t*>(conn->stream.handle()),
                        reinterpret_cast<const sockaddr*>(&sockaddr_), &Session::OnConnected);
  }
  if (rc != 0) conn->stream.Close();  // OnClosed frees it
  return rc;
}

void Session::OnConnected(uv_connect_t* req, int status) {
  auto* conn = static_cast<Connection*>(req->data);
  if (conn->session != nullptr) conn->session->HandleConnected(conn, status);
}

void Session::HandleConnected(Connection* conn, int status) {
  if (conn->stream.closing() || state_ != State::kConnecting) return;
  if (status < 0) {
    FailConnect(absl::UnavailableError("cannot connect to " + address_.ToString() + " (" +
                                       ChannelName(conn->channel) + "): " + uv_strerror(status)));
    return;
  }
  if (int rc = conn->stream.StartReading(); rc != 0) {
    FailConnect(absl::UnavailableError("cannot read from " + address_.ToString() + ": " +
                                       uv_strerror(rc)));
    return;
  }
  wire::Frame frame;
  if (conn->channel == wire::CHANNEL_CTRL) {
    wire::Hello* hello = frame.mutable_hello();
    hello->set_protocol_version(wire::kProtocolVersion);
    hello->set_role(role_);
    hello->set_client_id(options_.client_id);
    hello->set_auth_token(options_.auth_token);
    hello->set_mode(options_.mode == DeliveryMode::kPull ? wire::PULL : wire::PUSH);
    hello->set_resume_token(options_.resume_token);
    hello->set_shared_connection(options_.shared_connection);
    // Apps acknowledge what they take off the wire (DeliveryAcks), so the
    // daemon counts a delivery only once the app has it.
    hello->set_delivery_acks(role_ == wire::ROLE_APP);
    hello->set_lockstep(options_.lockstep);
    hello->set_lookahead_ns(options_.lookahead_ns);
    if (options_.self_lookahead_ns) hello->set_self_lookahead_ns(*options_.self_lookahead_ns);
    // AppClient takes deliveries by key from the store itself.
    hello->set_payload_by_key(role_ == wire::ROLE_APP && options_.payload_by_key);
  } else {
    wire::Attach* attach = frame.mutable_attach();
    attach->set_session_token(welcome_.session_token());
    attach->set_channel(conn->channel);
    attach->set_auth_token(options_.auth_token);
  }
  conn->stream.Write(frame);
  conn->stream.Flush();
}

void Session::OnConnectTimeout(uv_timer_t* timer) {
  auto* self = static_cast<Session*>(timer->data);
  const char* stage = self->ctrl_ == nullptr && self->resolve_ != nullptr ? "resolving the name"
                      : self->welcome_.session_token().empty() ? "waiting for Welcome"
                                                                : "attaching send and recv";
  self->FailConnect(absl::DeadlineExceededError(
      "connecting to " + self->address_.ToString() + " timed out after " +
      std::to_string(self->options_.connect_timeout.count()) + " ms (" + stage + ")"));
}

void Session::StopConnectTimer() {
  if (connect_timer_ == nullptr) return;
  uv_close(reinterpret_cast<uv_handle_t*>(connect_timer_),
           [](uv_handle_t* h) { delete reinterpret_cast<uv_timer_t*>(h); });
  connect_timer_ = nullptr;
}

void Session::OnFrame(wire::FramedStream& stream, wire::Frame& frame) {
  keepalive_.Heard();
  auto* conn = static_cast<Connection*>(stream.owner);
  const bool data = conn->channel != wire::CHANNEL_CTRL ||
                    (conn == recv_ && (frame.has_deliveries() || frame.has_transits()));
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

void Session::BecomeReady() {
  state_ = State::kReady;
  StopConnectTimer();
  keepalive_.Start();
  auto done = std::move(connect_done_);
  connect_done_ = nullptr;
  listener_->OnSessionReady(welcome_);
  if (done) done(absl::OkStatus());
}

void Session::HandleWelcome(wire::Welcome& welcome) {
  if (welcome.protocol_version() != 0 && welcome.protocol_version() != wire::kProtocolVersion) {
    FailConnect(absl::FailedPreconditionError(
        "daemon speaks protocol version " + std::to_string(welcome.protocol_version()) +
        ", this SDK speaks " + std::to_string(wire::kProtocolVersion)));
    return;
  }
  if (welcome.session_token().empty()) {
    FailConnect(absl::InternalError("daemon sent a Welcome without a session token"));
    return;
  }
  welcome_ = std::move(welcome);
  if (options_.shared_connection) {
    // Deliveries arrive here too: take the daemon's limit, as a separate
    // recv connection would.
    if (options_.max_frame_bytes == 0 && welcome_.config().max_frame_bytes() != 0) {
      ctrl_->stream.set_max_frame_bytes(welcome_.config().max_frame_bytes());
    }
    send_ = ctrl_;
    recv_ = ctrl_;
    BecomeReady();
    return;
  }
  for (wire::Channel channel : {wire::CHANNEL_SEND, wire::CHANNEL_RECV}) {
    if (int rc = OpenChannel(channel); rc != 0) {
      FailConnect(absl::UnavailableError("cannot connect to " + address_.ToString() + ": " +
                                         uv_strerror(rc)));
      return;
    }
  }
}

void Session::HandleDataFrame(Connection* conn, wire::Frame& frame) {
  if (state_ == State::kConnecting) {
    if (frame.has_error()) {
      FailConnect(StatusFromWireError(frame.error(), std::string("attach ") +
                                                         ChannelName(conn->channel) + " to " +
                                                         address_.ToString()));
      return;
    }
    if (!frame.has_attached()) return;
    if (conn->channel == wire::CHANNEL_SEND) send_attached_ = true;
    if (conn->channel == wire::CHANNEL_RECV) {
      recv_attached_ = true;
      // A resumed PUSH session may get deliveries right after Attached,
      // before the send channel is attached: keep them in the stream until
      // the listener is ready for them.
      conn->stream.PauseReading();
    }
    if (send_attached_ && recv_attached_) {
      BecomeReady();
      // Unless the listener, now ready, paused it for its own buffers.
      if (recv_ != nullptr && state_ == State::kReady && !recv_paused_) {
        recv_->stream.ResumeReading();
      }
    }
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
      ChannelName(conn->channel) + "): " + std::string(what));
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
  const std::string channel = ChannelName(conn->channel);
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

void Session::FailConnect(const absl::Status& status) {
  if (state_ != State::kConnecting) return;
  state_ = State::kClosed;
  end_status_ = status;
  StopConnectTimer();
  if (resolve_ != nullptr) {
    resolve_->session = nullptr;
    uv_cancel(reinterpret_cast<uv_req_t*>(&resolve_->req));
    resolve_ = nullptr;
  }
  CloseConnections();
  auto done = std::move(connect_done_);
  connect_done_ = nullptr;
  if (done) done(status);
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
