// ScreenHello: the checks a Hello must pass before it may open or resume a
// session, those that depend only on the Hello and the daemon's config:
// the protocol version, the auth token, the role and client id, a shared
// connection's mode, and the time mode (docs/protocol.md, "Handshake").
// The SessionManager adds what depends on its state (max_clients, a drain).
#pragma once

#include <optional>
#include <string>

#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

// Why a Hello is refused: the Error the daemon answers before it closes.
struct HelloRefusal {
  wire::ErrorCode code;
  std::string text;
};

// Nothing if `hello` passes.
std::optional<HelloRefusal> ScreenHello(const DaemonConfig& config, const wire::Hello& hello);

}  // namespace trestle::daemon
