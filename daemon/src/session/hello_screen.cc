#include "session/hello_screen.h"

#include "absl/strings/str_cat.h"
#include "session/token_equal.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {
namespace {

// Lockstep apps only with a lockstep daemon, and the reverse; a lockstep
// daemon takes simulators that follow grants, in PUSH mode.
std::optional<HelloRefusal> ScreenTimeMode(const DaemonConfig& config, const wire::Hello& hello) {
  const bool lockstep = config.time_mode == wire::TIME_MODE_LOCKSTEP;
  std::string why;
  if (hello.role() == wire::ROLE_APP && hello.lockstep() && !lockstep) {
    why = absl::StrCat("this app runs in lockstep time, but this daemon's time_mode is ",
                       std::string(wire::TimeModeName(config.time_mode)),
                       " (start trestled --time-mode lockstep)");
  } else if (hello.role() == wire::ROLE_APP && !hello.lockstep() && lockstep) {
    why =
        "this daemon runs in lockstep time: connect with ClientOptions::lockstep "
        "(Hello.lockstep), so that the app reports its clock";
  } else if (hello.role() == wire::ROLE_SIM && !hello.lockstep() && lockstep) {
    why =
        "this daemon runs in lockstep time: its simulators must follow grants "
        "(Hello.lockstep); this one does not";
  } else if (lockstep && hello.mode() == wire::PULL) {
    why = "lockstep time needs PUSH mode: grants and wakes follow deliveries on one stream";
  } else if (hello.role() == wire::ROLE_SIM && lockstep && config.federate &&
             !config.coordinates()) {
    why = absl::StrCat("daemon ", config.daemon_id, " relays its apps to daemon ",
                       config.coordinator(),
                       ", the coordinator of this lockstep run (lockstep_coordinator): attach "
                       "the simulator to daemon ",
                       config.coordinator());
  }
  if (why.empty()) return std::nullopt;
  return HelloRefusal{wire::WRONG_TIME_MODE, why};
}

}  // namespace

std::optional<HelloRefusal> ScreenHello(const DaemonConfig& config, const wire::Hello& hello) {
  if (hello.protocol_version() != wire::kProtocolVersion) {
    return HelloRefusal{
        wire::UNSUPPORTED_VERSION,
        absl::StrCat("protocol version ", hello.protocol_version(),
                     " is not supported; this daemon speaks version ", wire::kProtocolVersion)};
  }
  if (!config.auth_token.empty() && !TokensEqual(hello.auth_token(), config.auth_token)) {
    return HelloRefusal{wire::UNAUTHENTICATED, hello.auth_token().empty()
                                                   ? "this daemon requires an auth token"
                                                   : "wrong auth token"};
  }
  if (hello.role() != wire::ROLE_APP && hello.role() != wire::ROLE_SIM) {
    return HelloRefusal{wire::BAD_REQUEST, "Hello.role must be ROLE_APP or ROLE_SIM"};
  }
  if (hello.client_id().empty() || hello.client_id().size() > wire::kMaxClientIdBytes) {
    return HelloRefusal{wire::BAD_REQUEST,
                        absl::StrCat("Hello.client_id must be 1 to ", wire::kMaxClientIdBytes,
                                     " bytes; this one has ", hello.client_id().size())};
  }
  if (hello.shared_connection() && hello.role() == wire::ROLE_APP && hello.mode() == wire::PULL) {
    // Reads pause while the transit queue is full; a Receive behind those
    // sends could then never be read, and the deliveries it asks for would
    // in turn hold back the simulator.
    return HelloRefusal{
        wire::BAD_REQUEST,
        "Hello.shared_connection needs PUSH mode for an APP: in PULL, Receive would "
        "wait behind paused sends"};
  }
  return ScreenTimeMode(config, hello);
}

}  // namespace trestle::daemon
