#include "floor_stream.h"

#include <arpa/inet.h>

#include <array>
#include <cstring>

#include "floor_flush_list.h"
#include "floor_frame.h"

namespace trestle::bench {
namespace {

constexpr std::size_t kScratchBytes = 64 * 1024;

char* Scratch() {
  thread_local std::array<char, kScratchBytes> scratch;
  return scratch.data();
}

}  // namespace

FloorStream::FloorStream(uv_loop_t* loop, bool unix_socket, FloorFlushList* flush_list)
    : flush_list_(flush_list) {
  if (unix_socket) {
    uv_pipe_init(loop, &handle_.pipe, 0);
  } else {
    uv_tcp_init(loop, &handle_.tcp);
    uv_tcp_nodelay(&handle_.tcp, 1);
  }
  handle_.tcp.data = this;  // the handles share their leading uv_handle_t
  write_req_.data = this;
  connect_req_.data = this;
}

void FloorStream::Connect(const platform::SocketAddress& address,
                          std::function<void(int status)> done) {
  on_connected_ = std::move(done);
  int rc = 0;
  if (address.kind == platform::SocketAddress::Kind::kUnix) {
    uv_pipe_connect(&connect_req_, &handle_.pipe, address.path.c_str(), &FloorStream::OnConnected);
  } else {
    sockaddr_storage addr{};
    rc = uv_ip4_addr(address.host.c_str(), address.port, reinterpret_cast<sockaddr_in*>(&addr));
    if (rc != 0) {
      rc = uv_ip6_addr(address.host.c_str(), address.port, reinterpret_cast<sockaddr_in6*>(&addr));
    }
    if (rc == 0) {
      rc = uv_tcp_connect(&connect_req_, &handle_.tcp, reinterpret_cast<sockaddr*>(&addr),
                          &FloorStream::OnConnected);
    }
  }
  if (rc != 0) on_connected_(rc);
}

void FloorStream::OnConnected(uv_connect_t* req, int status) {
  auto* self = static_cast<FloorStream*>(req->data);
  // The callback may close (and so free) the stream: move it out first.
  std::function<void(int)> done = std::move(self->on_connected_);
  done(status);
}

int FloorStream::StartReading() { return uv_read_start(handle(), &OnAlloc, &OnRead); }

void FloorStream::OnAlloc(uv_handle_t*, std::size_t, uv_buf_t* buf) {
  *buf = uv_buf_init(Scratch(), kScratchBytes);
}

void FloorStream::OnRead(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<FloorStream*>(s->data);
  if (nread < 0) {
    self->Fail();
    return;
  }
  if (nread == 0 || self->closing_) return;
  const auto n = static_cast<std::size_t>(nread);
  if (self->partial_.empty()) {
    const std::size_t used = self->Dispatch(buf->base, n);
    if (!self->closing_ && used < n) self->partial_.assign(buf->base + used, n - used);
    return;
  }
  self->partial_.append(buf->base, n);
  const std::size_t used = self->Dispatch(self->partial_.data(), self->partial_.size());
  if (!self->closing_) self->partial_.erase(0, used);
}

std::size_t FloorStream::Dispatch(char* data, std::size_t size) {
  std::size_t at = 0;
  while (!closing_ && size - at >= kFloorLengthBytes) {
    std::uint32_t length = 0;
    std::memcpy(&length, data + at, sizeof(length));
    length = ntohl(length);
    if (length > kFloorMaxBody) {
      Fail();
      break;
    }
    if (size - at - kFloorLengthBytes < length) break;
    handler_->OnFrame(*this, std::span<char>(data + at + kFloorLengthBytes, length));
    at += kFloorLengthBytes + length;
  }
  return at;
}

void FloorStream::Write(std::span<const char> head, std::span<const char> tail) {
  if (closing_) return;
  const std::uint32_t length = htonl(static_cast<std::uint32_t>(head.size() + tail.size()));
  pending_.append(reinterpret_cast<const char*>(&length), sizeof(length));
  pending_.append(head.data(), head.size());
  pending_.append(tail.data(), tail.size());
  if (!listed_) {
    listed_ = true;
    flush_list_->Add(this);
  }
}

void FloorStream::Flush() {
  listed_ = false;
  if (closing_ || writing_ || pending_.empty()) return;
  uv_buf_t buf = uv_buf_init(pending_.data(), static_cast<unsigned>(pending_.size()));
  const int written = uv_try_write(handle(), &buf, 1);
  if (written > 0) pending_.erase(0, static_cast<std::size_t>(written));
  if (pending_.empty()) return;
  if (written < 0 && written != UV_EAGAIN) {
    Fail();
    return;
  }
  // The kernel took part or none: the rest goes in one uv_write.
  std::swap(pending_, inflight_);
  pending_.clear();
  writing_ = true;
  buf = uv_buf_init(inflight_.data(), static_cast<unsigned>(inflight_.size()));
  if (uv_write(&write_req_, handle(), &buf, 1, &FloorStream::OnWritten) != 0) {
    writing_ = false;
    Fail();
  }
}

void FloorStream::OnWritten(uv_write_t* req, int status) {
  auto* self = static_cast<FloorStream*>(req->data);
  self->writing_ = false;
  self->inflight_.clear();
  if (status < 0) {
    self->Fail();
    return;
  }
  if (!self->pending_.empty() && !self->listed_) {
    self->listed_ = true;
    self->flush_list_->Add(self);
  }
}

void FloorStream::Fail() {
  if (closing_) return;
  Close();
  if (handler_ != nullptr) handler_->OnClosed(*this);
}

void FloorStream::Close() {
  if (closing_) return;
  closing_ = true;
  if (listed_) flush_list_->Remove(this);
  listed_ = false;
  uv_close(reinterpret_cast<uv_handle_t*>(&handle_),
           [](uv_handle_t* h) { delete static_cast<FloorStream*>(h->data); });
}

}  // namespace trestle::bench
