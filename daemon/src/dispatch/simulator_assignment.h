// SimulatorAssignment: which simulator owns a message, as a transit queue
// index. With SimAssignment::kSystem every message goes to queue 0, served by
// every simulator. With kPerNode each sending app has its own queue, served
// by the SIM whose client id equals the app's.
//
// The app -> queue answer is cached by app index, so a Send costs one array
// read; a string is hashed only the first time an app sends or a simulator
// joins.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class SimulatorAssignment {
 public:
  explicit SimulatorAssignment(SimAssignment mode);

  // The queue of the messages app `app` (client index, id `app_id`) sends.
  std::uint32_t QueueForApp(std::uint32_t app, std::string_view app_id);
  // App index `app` was freed (it may be reused by another client).
  void Forget(std::uint32_t app) {
    if (app < queue_of_app_.size()) queue_of_app_[app] = kUnknown;
  }
  // App indices from `apps` on are gone (their registry slots were given back).
  void Shrink(std::size_t apps) {
    if (queue_of_app_.size() > apps) queue_of_app_.resize(apps);
    queue_of_app_.shrink_to_fit();
  }
  // The queue the simulator `sim_id` serves.
  std::uint32_t QueueForSimulator(std::string_view sim_id);
  // Queues are numbered [0, queue_count()); 0 is the system queue.
  std::uint32_t queue_count() const { return static_cast<std::uint32_t>(keys_.size()); }
  // "" for the system queue, else the node id it belongs to.
  const std::string& key(std::uint32_t queue) const { return keys_[queue]; }

 private:
  static constexpr std::uint32_t kUnknown = 0xffffffffu;
  std::uint32_t QueueByKey(std::string_view key);

  const SimAssignment mode_;
  std::vector<std::uint32_t> queue_of_app_;  // by app index; kUnknown until first asked
  std::vector<std::string> keys_;
  absl::flat_hash_map<std::string, std::uint32_t> queue_by_key_;
};

}  // namespace trestle::daemon
