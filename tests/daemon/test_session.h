// TestSession: a Session (daemon/src/session/session.h) with three FakeChannels,
// entered in a ClientRegistry under its client id the way the
// SessionManager does it, for unit tests of the data plane.
//
// Detach() takes its channels away (the session is no longer ready, as
// after a lost connection; an app's session then lingers in the registry);
// Reattach() gives them back. The destructor takes the session out of the
// registry and destroys it: the loop must run afterwards to free it
// (TestLoop's destructor does). The loop and the registry must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "fake_channel.h"
#include "messages/client_registry.h"
#include "session/session.h"
#include "trestle.pb.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

struct TestSessionOptions {
  wire::Role role = wire::ROLE_APP;
  wire::DeliveryMode mode = wire::PUSH;
  std::uint32_t max_frame_bytes = wire::kDefaultMaxFrameBytes;
  std::uint64_t id_prefix = 1;
  bool delivery_acks = false;   // Hello.delivery_acks
  bool payload_by_key = false;  // Hello.payload_by_key (with delivery_acks)
};

class TestSession {
 public:
  TestSession(uv_loop_t* loop, ClientRegistry& registry, std::string_view client_id,
              TestSessionOptions options = {})
      : registry_(registry), entry_(registry.GetOrCreate(client_id)) {
    Session::Params params;
    params.token = "token-" + std::string(client_id);
    params.id_prefix = options.id_prefix;
    params.role = options.role;
    params.mode = options.mode;
    params.client = entry_.index;
    params.max_frame_bytes = options.max_frame_bytes;
    params.delivery_acks = options.delivery_acks;
    params.payload_by_key = options.payload_by_key && options.delivery_acks;
    session_ = Session::NewForTest(loop, std::move(params));
    Reattach();
    registry_.SetSession(entry_, session_);
  }
  ~TestSession() {
    if (entry_.session == session_) registry_.SetSession(entry_, nullptr);
    session_->DestroyForTest();
  }
  TestSession(const TestSession&) = delete;
  TestSession& operator=(const TestSession&) = delete;

  Session& operator*() { return *session_; }
  Session* operator->() { return session_; }
  std::uint32_t client() const { return entry_.index; }
  FakeChannel& ctrl() { return ctrl_; }
  FakeChannel& send() { return send_; }
  FakeChannel& recv() { return recv_; }

  void Detach() { session_->SetChannelsForTest(nullptr, nullptr, nullptr); }
  void Reattach() { session_->SetChannelsForTest(&ctrl_, &send_, &recv_); }

 private:
  ClientRegistry& registry_;
  ClientEntry& entry_;
  Session* session_ = nullptr;
  FakeChannel ctrl_;
  FakeChannel send_;
  FakeChannel recv_;
};

// A registry entry held as a session would hold it (so that it is not freed
// when the last message naming it ends); returns its index.
inline std::uint32_t PinnedClient(ClientRegistry& registry, std::string_view id) {
  ClientEntry& e = registry.GetOrCreate(id);
  registry.Retain(e.index);
  return e.index;
}

}  // namespace trestle::daemon
