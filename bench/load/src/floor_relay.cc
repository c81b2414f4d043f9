#include "floor_relay.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "floor_frame.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::bench {
namespace {

constexpr int kBacklog = 4096;

// Appends `body` to `out` as a whole frame.
void AppendFrame(std::string& out, std::span<const char> body) {
  const std::uint32_t length = htonl(static_cast<std::uint32_t>(body.size()));
  out.append(reinterpret_cast<const char*>(&length), sizeof(length));
  out.append(body.data(), body.size());
}

// Calls `each` with the body of every frame in `frames`.
template <typename Each>
void ForEachFrame(std::string& frames, Each each) {
  std::size_t at = 0;
  while (at + kFloorLengthBytes <= frames.size()) {
    std::uint32_t length = 0;
    std::memcpy(&length, frames.data() + at, sizeof(length));
    length = ntohl(length);
    each(std::span<char>(frames.data() + at + kFloorLengthBytes, length));
    at += kFloorLengthBytes + length;
  }
}

}  // namespace

FloorRelay::FloorRelay(uv_loop_t* loop) : loop_(loop), flush_list_(loop) {}

absl::StatusOr<std::uint16_t> FloorRelay::Listen(const platform::SocketAddress& tcp,
                                                 const std::string& unix_path) {
  sockaddr_storage addr{};
  if (uv_ip4_addr(tcp.host.c_str(), tcp.port, reinterpret_cast<sockaddr_in*>(&addr)) != 0 &&
      uv_ip6_addr(tcp.host.c_str(), tcp.port, reinterpret_cast<sockaddr_in6*>(&addr)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("listen address ", tcp.ToString(), ": the host must be numeric"));
  }
  int rc = tcp_listener_.Init(uv_tcp_init, loop_);
  if (rc == 0) {
    tcp_listener_->data = this;
    rc = uv_tcp_bind(tcp_listener_.get(), reinterpret_cast<sockaddr*>(&addr), 0);
  }
  if (rc == 0) rc = uv_listen(tcp_listener_.stream(), kBacklog, &OnConnection);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", tcp.ToString(), ": ", uv_strerror(rc)));
  }
  sockaddr_storage bound{};
  int length = sizeof(bound);
  uv_tcp_getsockname(tcp_listener_.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  const std::uint16_t port = ntohs(bound.ss_family == AF_INET6
                                       ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                       : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  if (unix_path.empty()) return port;
  rc = unix_listener_.Init(uv_pipe_init, loop_, 0);
  if (rc == 0) {
    unix_listener_->data = this;
    rc = uv_pipe_bind(unix_listener_.get(), unix_path.c_str());
  }
  if (rc == 0) rc = uv_listen(unix_listener_.stream(), kBacklog, &OnConnection);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on unix:", unix_path, ": ", uv_strerror(rc)));
  }
  return port;
}

void FloorRelay::OnConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<FloorRelay*>(server->data);
  if (status < 0) return;
  self->Accept(server, server == self->unix_listener_.stream());
}

void FloorRelay::Accept(uv_stream_t* server, bool unix_socket) {
  auto* stream = new FloorStream(loop_, unix_socket, &flush_list_);
  stream->set_handler(this);
  if (uv_accept(server, stream->handle()) != 0 || stream->StartReading() != 0) {
    stream->Close();
    return;
  }
  connections_.push_back(stream);
}

void FloorRelay::OnFrame(FloorStream& stream, std::span<char> body) {
  if (stream.identity == FloorStream::kUnknown) {
    OnHello(stream, body);
    return;
  }
  if (body.size() < kFloorHeaderBytes) {
    stream.Close();  // not a floor peer
    OnClosed(stream);
    return;
  }
  if (&stream == echo_) {
    PutFloorStamp(body.data(), kFloorRelayDeliveredAt, wire::MonotonicNanos());
    ToApp(body);
  } else {
    ToEcho(body, wire::MonotonicNanos());
  }
}

void FloorRelay::OnHello(FloorStream& stream, std::span<const char> body) {
  if (body.size() != kFloorHelloBytes) {
    stream.Close();
    OnClosed(stream);
    return;
  }
  std::memcpy(&stream.identity, body.data(), sizeof(stream.identity));
  if (stream.identity == kEchoIdentity) {
    echo_ = &stream;
    std::string early;
    early.swap(early_for_echo_);
    ForEachFrame(early, [&](std::span<char> b) { echo_->Write(b); });
    return;
  }
  if (stream.identity >= apps_.size()) apps_.resize(stream.identity + 1, nullptr);
  apps_[stream.identity] = &stream;
  if (auto it = early_for_app_.find(stream.identity); it != early_for_app_.end()) {
    ForEachFrame(it->second, [&](std::span<char> b) { stream.Write(b); });
    early_for_app_.erase(it);
  }
}

void FloorRelay::ToEcho(std::span<char> body, std::uint64_t now) {
  // Nothing happens between reading a frame and queueing it to the echo.
  PutFloorStamp(body.data(), kFloorRelayAcceptedAt, now);
  PutFloorStamp(body.data(), kFloorRelayHandedAt, now);
  if (echo_ != nullptr) {
    echo_->Write(body);
  } else {
    AppendFrame(early_for_echo_, body);
  }
}

void FloorRelay::ToApp(std::span<char> body) {
  const std::uint32_t dst = FloorDestination(body.data());
  if (dst < apps_.size() && apps_[dst] != nullptr) {
    apps_[dst]->Write(body);
  } else {
    AppendFrame(early_for_app_[dst], body);
  }
}

void FloorRelay::OnClosed(FloorStream& stream) {
  connections_.erase(std::remove(connections_.begin(), connections_.end(), &stream),
                     connections_.end());
  if (&stream == echo_) echo_ = nullptr;
  if (stream.identity < apps_.size() && apps_[stream.identity] == &stream) {
    apps_[stream.identity] = nullptr;
  }
}

void FloorRelay::Close() {
  for (FloorStream* s : connections_) s->Close();
  connections_.clear();
  apps_.clear();
  echo_ = nullptr;
  tcp_listener_.Close();
  unix_listener_.Close();
  flush_list_.Close();
}

}  // namespace trestle::bench
