#include "raw_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "trestle/wire/frame_encoder.h"
#include "trestle/wire/frame_format.h"

namespace trestle::testing {

RawConnection::RawConnection(std::uint16_t port) {
  fd_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd_);
    fd_ = -1;
    return;
  }
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) close(fd_);
}

void RawConnection::WriteBytes(const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

void RawConnection::WriteFrame(const wire::Frame& frame) {
  std::string out;
  wire::AppendFrame(frame, &out);
  WriteBytes(out);
}

bool RawConnection::ReadExact(char* out, std::size_t n, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::size_t got = 0;
  while (got < n) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    ssize_t r = recv(fd_, out + got, n - got, 0);
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

std::optional<wire::Frame> RawConnection::ReadFrame(int timeout_ms) {
  unsigned char header[wire::kFrameHeaderBytes];
  if (!ReadExact(reinterpret_cast<char*>(header), sizeof header, timeout_ms)) return std::nullopt;
  const std::uint32_t len = (std::uint32_t{header[0]} << 24) | (std::uint32_t{header[1]} << 16) |
                            (std::uint32_t{header[2]} << 8) | header[3];
  std::string body(len, '\0');
  if (!ReadExact(body.data(), len, timeout_ms)) return std::nullopt;
  wire::Frame frame;
  if (!frame.ParseFromString(body)) return std::nullopt;
  return frame;
}

bool RawConnection::WaitClosed(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    ssize_t r = recv(fd_, buf, sizeof buf, 0);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) return true;
  }
  return false;
}

wire::Frame RawConnection::Hello(const std::string& client_id, wire::Role role,
                                 const std::string& token, wire::DeliveryMode mode,
                                 bool shared) {
  wire::Frame f;
  wire::Hello* h = f.mutable_hello();
  h->set_protocol_version(wire::kProtocolVersion);
  h->set_role(role);
  h->set_client_id(client_id);
  h->set_auth_token(token);
  h->set_mode(mode);
  h->set_shared_connection(shared);
  WriteFrame(f);
  return ReadFrame().value_or(wire::Frame());
}

wire::Frame RawConnection::Attach(const std::string& session_token, wire::Channel channel,
                                  const std::string& auth_token) {
  wire::Frame f;
  f.mutable_attach()->set_session_token(session_token);
  f.mutable_attach()->set_channel(channel);
  f.mutable_attach()->set_auth_token(auth_token);
  WriteFrame(f);
  return ReadFrame().value_or(wire::Frame());
}

wire::StatsReply RawConnection::Stats() {
  wire::Frame f;
  f.mutable_stats_request();
  WriteFrame(f);
  auto reply = ReadFrame();
  return reply.has_value() ? reply->stats_reply() : wire::StatsReply();
}

int AnswerTransits(RawSession& sim, int want, wire::OutcomeStatus status, int timeout_ms) {
  int answered = 0;
  while (answered < want) {
    auto batch = sim.recv.ReadFrame(timeout_ms);
    if (!batch.has_value() || !batch->has_transits()) break;
    for (const auto& t : batch->transits().transits()) {
      wire::Frame out;
      wire::Outcome* o = out.mutable_outcomes()->add_outcomes();
      o->set_id(t.id());
      o->set_status(status);
      o->set_t_deliver(t.t_send());
      sim.send.WriteFrame(out);
      ++answered;
    }
  }
  return answered;
}

RawSession::RawSession(std::uint16_t port, const std::string& client_id, wire::Role role,
                       wire::DeliveryMode mode, const std::string& auth_token)
    : ctrl(port), send(port), recv(port) {
  wire::Frame w = ctrl.Hello(client_id, role, auth_token, mode);
  if (!w.has_welcome()) return;
  welcome = w.welcome();
  ok = send.Attach(welcome.session_token(), wire::CHANNEL_SEND, auth_token).has_attached() &&
       recv.Attach(welcome.session_token(), wire::CHANNEL_RECV, auth_token).has_attached();
}

}  // namespace trestle::testing
