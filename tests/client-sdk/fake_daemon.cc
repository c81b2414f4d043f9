#include "fake_daemon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

namespace trestle::testing {

FakeDaemon::FakeDaemon(EventLoop& loop) : loop_(loop), server_(new uv_tcp_t) {
  welcome.set_protocol_version(1);
  welcome.set_session_token("fake-token");
  welcome.set_id_prefix(7);
  welcome.set_next_send_seq(1);
  welcome.mutable_config()->set_max_frame_bytes(1u << 20);
  welcome.mutable_config()->set_max_batch(4);

  uv_tcp_init(loop.uv_loop(), server_);
  server_->data = this;
  ++open_handles_;
  sockaddr_in addr;
  uv_ip4_addr("127.0.0.1", 0, &addr);
  EXPECT_EQ(uv_tcp_bind(server_, reinterpret_cast<const sockaddr*>(&addr), 0), 0);
  EXPECT_EQ(uv_listen(reinterpret_cast<uv_stream_t*>(server_), 64, &FakeDaemon::OnConnection), 0);
  sockaddr_storage bound;
  int len = sizeof(bound);
  uv_tcp_getsockname(server_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

FakeDaemon::~FakeDaemon() {
  DropConnections();
  uv_close(reinterpret_cast<uv_handle_t*>(server_), [](uv_handle_t* h) {
    auto* self = static_cast<FakeDaemon*>(h->data);
    --self->open_handles_;
    delete reinterpret_cast<uv_tcp_t*>(h);
  });
  loop_.RunUntil([&] { return open_handles_ == 0; }, std::chrono::seconds(5));
}

void FakeDaemon::OnConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<FakeDaemon*>(server->data);
  if (status < 0) return;
  auto* conn = new Conn(self->loop_, self);
  conn->stream.set_handler(self);
  conn->stream.owner = conn;
  ++self->open_handles_;
  if (uv_accept(server, conn->stream.handle()) != 0) {
    conn->stream.Close();
    return;
  }
  ++self->connections_accepted;
  self->conns_.push_back(conn);
  conn->stream.StartReading();
}

void FakeDaemon::Reply(Conn& conn, const wire::Frame& frame) {
  conn.stream.Write(frame);
  conn.stream.Flush();
}

FakeDaemon::Conn* FakeDaemon::conn(wire::Channel channel) const {
  for (Conn* c : conns_) {
    if (c->channel == channel && !c->stream.closing()) return c;
  }
  return nullptr;
}

void FakeDaemon::OnFrame(wire::FramedStream& stream, wire::Frame& frame) {
  Conn& c = *static_cast<Conn*>(stream.owner);
  wire::Frame reply;
  if (c.channel == wire::CHANNEL_UNSPECIFIED && frame.has_hello()) {
    c.channel = wire::CHANNEL_CTRL;
    ctrl_frames.push_back(frame);
    if (hello_error) {
      *reply.mutable_error() = *hello_error;
      Reply(c, reply);
      c.stream.Close();
    } else if (answer_hello) {
      *reply.mutable_welcome() = welcome;
      Reply(c, reply);
    }
    return;
  }
  if (c.channel == wire::CHANNEL_UNSPECIFIED && frame.has_attach()) {
    c.channel = frame.attach().channel();
    reply.mutable_attached()->set_channel(c.channel);
    if (c.channel == wire::CHANNEL_SEND && hold_send_attached) {
      send_attached_held_ = true;
      return;
    }
    Reply(c, reply);
    if (c.channel == wire::CHANNEL_RECV) {
      for (const wire::Frame& f : on_recv_attached) c.stream.Write(f);
      c.stream.Flush();
    }
    return;
  }
  switch (c.channel) {
    case wire::CHANNEL_CTRL:
      ctrl_frames.push_back(frame);
      if (frame.has_ping()) {
        reply.mutable_pong()->set_nonce(frame.ping().nonce());
        reply.mutable_pong()->set_daemon_time_ns(1);
        Reply(c, reply);
      } else if (frame.has_stats_request()) {
        *reply.mutable_stats_reply() = stats;
        Reply(c, reply);
      } else if (frame.has_bye()) {
        bye_received = true;
        DropConnections();
      }
      break;
    case wire::CHANNEL_SEND:
      send_frames.push_back(frame);
      break;
    case wire::CHANNEL_RECV:
      recv_frames.push_back(frame);
      break;
    default:
      break;
  }
}

void FakeDaemon::ReleaseSendAttached() {
  if (!send_attached_held_) return;
  send_attached_held_ = false;
  wire::Frame reply;
  reply.mutable_attached()->set_channel(wire::CHANNEL_SEND);
  if (Conn* c = conn(wire::CHANNEL_SEND)) Reply(*c, reply);
}

void FakeDaemon::WriteOn(wire::Channel channel, const wire::Frame& frame) {
  Conn* c = conn(channel);
  ASSERT_NE(c, nullptr) << "no open connection for channel " << wire::Channel_Name(channel);
  Reply(*c, frame);
}

void FakeDaemon::PauseReading(wire::Channel channel) {
  if (Conn* c = conn(channel)) c->stream.PauseReading();
}

void FakeDaemon::ResumeReading(wire::Channel channel) {
  if (Conn* c = conn(channel)) c->stream.ResumeReading();
}

void FakeDaemon::DropConnections() {
  for (Conn* c : conns_) {
    if (!c->stream.closing()) c->stream.Close();
  }
}

void FakeDaemon::OnStreamError(wire::FramedStream& stream, std::string_view) { stream.Close(); }

void FakeDaemon::OnPeerClosed(wire::FramedStream& stream) { stream.Close(); }

void FakeDaemon::OnClosed(wire::FramedStream& stream) {
  auto* c = static_cast<Conn*>(stream.owner);
  conns_.erase(std::remove(conns_.begin(), conns_.end(), c), conns_.end());
  --open_handles_;
  delete c;
}

}  // namespace trestle::testing
