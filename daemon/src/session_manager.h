// SessionManager: the control plane of trestled. It turns Hello into a
// session (or refuses it, saying why), joins send and recv channels to a
// session by its token, ends sessions on Bye or when a channel is lost, and
// lets an app's lost session linger so the same client can resume it.
//
// Rules it enforces:
//   - the auth token, when the daemon has one;
//   - one live session per client id and role; a second Hello for a live id
//     is refused unless it carries that session's token (a resume);
//   - Attach names a session by its token, never by address.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "client_registry.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class Connection;
class Relay;
class Session;

class SessionManager {
 public:
  SessionManager(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                 ClientRegistry& sims, Relay& relay);

  void OnHello(Connection& c, const wire::Hello& hello);
  void OnAttach(Connection& c, const wire::Attach& attach);
  void OnBye(Session& s);
  // A channel of `c`'s session broke: the session loses all its channels.
  void OnChannelLost(Connection& c);
  // `c` is about to be freed: forget any pointer to it.
  void OnConnectionClosed(Connection& c);
  void ExpireLingering(std::uint64_t now_ms);
  // Shutdown: ends every session and closes its channels.
  void EndAll();

  std::size_t session_count() const { return by_token_.size(); }

 private:
  ClientRegistry& RegistryFor(wire::Role role) {
    return role == wire::ROLE_APP ? apps_ : sims_;
  }
  ClientEntry& EntryOf(const Session& s);
  std::string NewToken();
  // Closes every channel of `s`; with linger, keeps it resumable.
  void Detach(Session& s, bool linger);
  void End(Session& s);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  ClientRegistry& apps_;
  ClientRegistry& sims_;
  Relay& relay_;
  absl::flat_hash_map<std::string, Session*> by_token_;
  std::uint64_t next_id_prefix_ = 1;
  std::uint64_t token_state_[2];
};

}  // namespace trestle::daemon
