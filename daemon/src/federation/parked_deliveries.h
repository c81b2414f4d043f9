// ParkedDeliveries: the DELIVERED messages a federated daemon holds for apps
// that are attached nowhere yet, or whose daemon the registry could not
// name (docs/federation.md). A parked delivery goes to its app's queue once
// the app attaches here (Take), is handed on once the app turns up on
// another daemon (its app is looked up again every kRelocateMs), and
// expires delivery_ttl_ms after it first waited.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "federation/bridge_directory.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class ParkedDeliveries {
 public:
  // How often the apps of parked deliveries are looked up again.
  static constexpr std::uint64_t kRelocateMs = 500;
  // Hands a relocated delivery on to daemon `daemon`.
  using HandOn = std::function<void(MessageRecord& r, std::uint32_t daemon)>;

  ParkedDeliveries(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                   ClientRegistry& apps, PayloadStore& store, BridgeDirectory& directory,
                   HandOn hand_on);

  // `r` waits here for its app to turn up. Parked again after a failed
  // hand-on, its delivery_ttl_ms still counts from the first time.
  void Park(MessageRecord& r);
  // The ids of `app`'s parked deliveries that still wait, no longer parked.
  std::vector<std::uint64_t> Take(std::uint32_t app);
  // Expired ones go (counted expired); the others' apps are looked up again
  // at most every kRelocateMs.
  void Check(std::uint64_t now_ms);

 private:
  void Relocated(std::uint32_t app, const absl::StatusOr<std::optional<std::uint32_t>>& holder);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  PayloadStore& store_;
  BridgeDirectory& directory_;
  HandOn hand_on_;
  // By app (registry index): message ids, oldest first.
  absl::flat_hash_map<std::uint32_t, std::vector<std::uint64_t>> parked_;
  absl::flat_hash_set<std::uint32_t> relocating_;  // apps being looked up
  std::uint64_t next_relocate_ms_ = 0;
};

}  // namespace trestle::daemon
