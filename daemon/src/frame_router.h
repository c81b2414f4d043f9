// FrameRouter: where each frame a connection reads goes. The first frame of
// a connection (Hello or Attach) goes to the SessionManager; after that,
// RoleRules decides whether the session's role may send the frame on that
// channel, and the frame goes to the SessionManager (Bye), the data plane
// (Send, OutcomeBatch, Fetch, Receive) or is answered here (Ping,
// StatsRequest). Anything else is refused with an Error that names the
// frame, the role and the channel; nothing is closed for it.
#pragma once

#include "admin/stats_report.h"
#include "dataplane/data_plane.h"
#include "net/client_connection.h"
#include "session_manager.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class FrameRouter {
 public:
  // Everything passed here must outlive the router.
  FrameRouter(SessionManager& sessions, DataPlane& data, const StatsReport& report)
      : sessions_(sessions), data_(data), report_(report) {}

  void Route(ClientConnection& c, wire::Frame& frame);

 private:
  void Dispatch(ClientConnection& c, Session& s, wire::Frame& frame);
  void Refuse(ClientConnection& c, const wire::Frame& frame);

  SessionManager& sessions_;
  DataPlane& data_;
  const StatsReport& report_;
};

}  // namespace trestle::daemon
