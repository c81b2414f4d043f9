// FakeSessionCloser: a SessionCloser (daemon/src/session/session_closer.h)
// that records each CloseSession; `on_close` does what the SessionManager
// would (detach the session), for unit tests of the data plane.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "session/session_closer.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class FakeSessionCloser final : public SessionCloser {
 public:
  struct Call {
    Session* session;
    wire::ErrorCode code;
    std::string text;
  };
  void CloseSession(Session& session, wire::ErrorCode code, std::string_view text) override {
    calls.push_back({&session, code, std::string(text)});
    if (on_close) on_close(session);
  }
  std::vector<Call> calls;
  std::function<void(Session&)> on_close;
};

}  // namespace trestle::daemon
