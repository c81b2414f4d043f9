// The handshake of internal::Session (session.h): resolve the daemon's name,
// connect ctrl, Hello -> Welcome, then connect send and recv and attach each
// with the session token (Attach -> Attached), under the connect timeout.
// It ends in BecomeReady or FailConnect.
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "lane_link.h"
#include "session.h"
#include "session_connection.h"
#include "trestle/wire/channel_name.h"
#include "trestle/wire/frame_format.h"
#include "wire_status.h"

namespace trestle::internal {

struct Session::Resolve {
  uv_getaddrinfo_t req;
  Session* session;  // null once the Session is gone
};

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
  connect_timer_.Init(uv_timer_init, loop_.uv_loop());
  connect_timer_->data = this;
  uv_timer_start(connect_timer_.get(), &Session::OnConnectTimeout,
                 static_cast<std::uint64_t>(std::max<std::int64_t>(0, options_.connect_timeout.count())),
                 0);
  return absl::OkStatus();
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

void Session::CancelResolve() {
  if (resolve_ == nullptr) return;
  resolve_->session = nullptr;
  uv_cancel(reinterpret_cast<uv_req_t*>(&resolve_->req));
  resolve_ = nullptr;
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
  if (options_.multiplex) {
    // A lane of the loop's link to this daemon: connected when it is.
    LaneLink& link = LaneLink::Link(loop_, address_, sockaddr_);
    auto* conn = new Connection(link, link.NextLane(), this, channel);
    conn->stream.set_handler(this);
    slot(channel) = conn;
    link.Open(conn->stream, &conn->connect_req, &Session::OnConnected);
    return 0;
  }
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
                                       wire::ChannelName(conn->channel) +
                                       "): " + uv_strerror(status)));
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
    hello->set_shared_connection(options_.shared_connection || options_.multiplex);
    // Apps acknowledge what they take off the wire (DeliveryAcks), so the
    // daemon counts a delivery only once the app has it.
    hello->set_delivery_acks(role_ == wire::ROLE_APP);
    hello->set_lockstep(options_.lockstep);
    hello->set_lookahead_ns(options_.lookahead_ns);
    if (options_.self_lookahead_ns) hello->set_self_lookahead_ns(*options_.self_lookahead_ns);
    if (role_ == wire::ROLE_SIM) {
      hello->mutable_capabilities()->set_replays_collectives(options_.replays_collectives);
    }
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
  connect_timer_.Close();
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
  if (options_.shared_connection || options_.multiplex) {
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

void Session::HandleAttachReply(Connection* conn, wire::Frame& frame) {
  if (frame.has_error()) {
    FailConnect(StatusFromWireError(frame.error(), std::string("attach ") +
                                                       wire::ChannelName(conn->channel) + " to " +
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

void Session::FailConnect(const absl::Status& status) {
  if (state_ != State::kConnecting) return;
  state_ = State::kClosed;
  end_status_ = status;
  StopConnectTimer();
  CancelResolve();
  CloseConnections();
  auto done = std::move(connect_done_);
  connect_done_ = nullptr;
  if (done) done(status);
}

}  // namespace trestle::internal
