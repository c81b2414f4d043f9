// PeerBackpressure: transit backpressure across the daemons of a federated
// bridge (docs/federation.md, "Backpressure across daemons"), the rule of
// one daemon (TransitDispatcher) stretched over the streams:
//
//   - On the daemon whose queue takes the transits: once it holds
//     transit_queue_limit transits, every other live daemon is told so (a
//     `b` entry, full), again every kRefreshMs while it stays so, and told
//     it is clear once the queue is down to half.
//   - On a daemon that hands transits on: the sender of a transit handed to
//     a daemon that is full is no longer read (its socket fills, and its
//     SDK waits), until that daemon is clear, or kExpireMs after its last
//     word (a daemon that died full holds no one).
//
// Nothing is refused or lost: what was accepted is handed on as before.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/bridge_directory.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "store/decimal_field.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class PeerBackpressure {
 public:
  // While full, the word goes again at most this often (at housekeeping's
  // pace, up to 1 s); a daemon's word holds for kExpireMs, the heartbeat's
  // expiry.
  static constexpr std::uint64_t kRefreshMs = 500;
  static constexpr std::uint64_t kExpireMs = 3'000;
  // The kind of its entries (field k).
  static constexpr char kKind = 'b';
  // Appends `fields` to daemon `daemon`'s stream.
  using Tell = std::function<void(std::uint32_t daemon, std::span<const std::string_view> fields)>;

  PeerBackpressure(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                   const TransitDispatcher& transits, const BridgeDirectory& directory, Tell tell);

  // This daemon's side: after a loop pass, and from housekeeping.
  void CheckQueue();
  // An entry of kind kKind from another daemon.
  void OnEntry(std::span<const std::string_view> fields);
  // `r`'s transit was handed to daemon `daemon`.
  void OnTransitHandedOn(const MessageRecord& r, std::uint32_t daemon);
  // From housekeeping: a daemon silent for kExpireMs is clear.
  void Housekeeping(std::uint64_t now_ms);
  // Registry index `app` was freed.
  void ForgetApp(std::uint32_t app);

  bool full() const { return full_; }
  // Senders this daemon stopped reading (for stats and tests).
  std::size_t paused() const { return paused_.size(); }

 private:
  void TellAll(bool full);
  // Resumes the senders paused for daemon `daemon`.
  void Clear(std::uint32_t daemon);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  ClientRegistry& apps_;
  const TransitDispatcher& transits_;
  const BridgeDirectory& directory_;
  Tell tell_;
  bool full_ = false;  // this daemon told the others it is full
  std::uint64_t refresh_ms_ = 0;
  DecimalSlots<1> daemon_text_;
  // Other daemons that said they are full: until when that holds.
  absl::flat_hash_map<std::uint32_t, std::uint64_t> full_until_ms_;
  struct Paused {
    std::uint32_t app;     // registry index
    std::uint32_t daemon;  // the full daemon it waits for
  };
  std::vector<Paused> paused_;
};

}  // namespace trestle::daemon
