// SessionManager: the control plane of trestled and the owner of sessions.
// It turns Hello into a session (or refuses it, saying why), joins send and
// recv channels to a session by its token, ends sessions on Bye or when a
// channel is lost, and lets an app's lost session linger so the same client
// can resume it. It tells the data plane when a session becomes ready and
// when it loses its channels, and closes sessions the data plane may no
// longer serve (SessionCloser).
//
// Rules it enforces:
//   - the auth token, when the daemon has one;
//   - one live session per client id and role; a second Hello for a live id
//     is refused unless it carries that session's token (a resume);
//   - federated: one daemon per client id and role across the bridge: a
//     Hello waits for the BridgeDirectory's claim, and is refused naming
//     the daemon that holds the id;
//   - Attach names a session by its token (128 random bits from the
//     kernel), never by address, and presents the auth token too; a second
//     Attach for a channel already attached is refused and reported on the
//     session's ctrl channel.
//
// Message ids: each session gets a number, unique among live sessions, that
// with the daemon id forms its id prefix (docs/protocol.md, "Message ids").
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "federation/bridge_directory.h"
#include "messages/client_registry.h"
#include "session/session_closer.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class ClientConnection;
class DataPlane;
class Session;

class SessionManager final : public SessionCloser {
 public:
  SessionManager(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                 ClientRegistry& sims);
  // The data plane to notify; set once, before the first frame.
  void set_data_plane(DataPlane* data);
  // Federation: client ids are claimed in, and released from, `directory`
  // (which must outlive the manager); set once, before the first frame.
  void set_directory(BridgeDirectory* directory) { directory_ = directory; }

  void OnHello(ClientConnection& c, const wire::Hello& hello);
  void OnAttach(ClientConnection& c, const wire::Attach& attach);
  void OnBye(Session& s);
  // A channel of `c`'s session broke: the session loses all its channels.
  void OnChannelLost(ClientConnection& c);
  // `c` is about to be freed: forget any pointer to it.
  void OnConnectionClosed(ClientConnection& c);
  void ExpireLingering(std::uint64_t now_ms);
  // Shutdown: ends every session and closes its channels.
  void EndAll();

  // SessionCloser
  void CloseSession(Session& s, wire::ErrorCode code, std::string_view text) override;

  std::size_t session_count() const { return by_token_.size(); }

 private:
  ClientRegistry& RegistryFor(wire::Role role) {
    return role == wire::ROLE_APP ? apps_ : sims_;
  }
  // Refuses a Hello (and closes `c`) when it breaks a rule; true if refused.
  bool RefuseHello(ClientConnection& c, const wire::Hello& hello);
  // The Hello passed every check (and, federated, its id is this daemon's).
  void AdmitHello(ClientConnection& c, const wire::Hello& hello);
  void Claimed(ClientConnection* c, const absl::StatusOr<BridgeDirectory::Claimed>& holder);
  Session* OpenSession(const wire::Hello& hello, ClientEntry& entry);
  // A peer of a lockstep run: the coordinator answered `s`'s join.
  void Joined(Session& s, std::uint64_t start_ns);
  // Welcome, then the session's data plane start.
  void Welcomed(ClientConnection& c, Session& s, bool resumed, std::uint64_t start_ns);
  void WriteWelcome(ClientConnection& c, const Session& s, bool resumed,
                    std::uint64_t lockstep_start_ns);
  std::string NewToken();
  std::uint64_t NewIdPrefix();
  // Closes every channel of `s`; with linger, keeps it resumable.
  void Detach(Session& s, bool linger);
  // `release`: give the client id back to the bridge (not when a new
  // session of the same id replaces it).
  void End(Session& s, bool release = true);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  // Welcome.payload_store.key_prefix: where the Redis store keeps payloads.
  const std::string payload_key_prefix_;
  ClientRegistry& apps_;
  ClientRegistry& sims_;
  DataPlane* data_ = nullptr;
  BridgeDirectory* directory_ = nullptr;
  // Federation: Hellos waiting for their claim, by connection.
  absl::flat_hash_map<ClientConnection*, wire::Hello> claiming_;
  // Lockstep apps of a peer daemon whose Welcome waits for the coordinator.
  struct Joining {
    ClientConnection* ctrl = nullptr;
    bool resumed = false;
  };
  absl::flat_hash_map<Session*, Joining> joining_;
  absl::flat_hash_map<std::string, Session*> by_token_;
  absl::flat_hash_set<std::uint32_t> live_session_numbers_;
  std::uint32_t next_session_number_ = 1;
};

}  // namespace trestle::daemon
