// SessionCloser: how the data plane ends a session it may no longer serve
// (an app over its delivery backlog for too long). Implemented by
// SessionManager, which owns sessions.
#pragma once

#include <string_view>

#include "trestle.pb.h"

namespace trestle::daemon {

class Session;

class SessionCloser {
 public:
  // Tells the client why (an Error with `code` and `text` on its ctrl
  // channel), then closes its channels. An app's session lingers, so its
  // waiting deliveries stay for a resume until they expire.
  virtual void CloseSession(Session& session, wire::ErrorCode code, std::string_view text) = 0;

 protected:
  ~SessionCloser() = default;
};

}  // namespace trestle::daemon
