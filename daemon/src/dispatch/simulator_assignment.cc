#include "dispatch/simulator_assignment.h"

#include "absl/strings/string_view.h"

namespace trestle::daemon {

SimulatorAssignment::SimulatorAssignment(SimAssignment mode) : mode_(mode) {
  QueueByKey("");  // queue 0: the system-wide simulator's
}

std::uint32_t SimulatorAssignment::QueueByKey(std::string_view key) {
  auto it = queue_by_key_.find(absl::string_view(key.data(), key.size()));
  if (it != queue_by_key_.end()) return it->second;
  const auto index = static_cast<std::uint32_t>(keys_.size());
  keys_.emplace_back(key);
  queue_by_key_.emplace(keys_.back(), index);
  return index;
}

std::uint32_t SimulatorAssignment::QueueForApp(std::uint32_t app, std::string_view app_id) {
  if (mode_ == SimAssignment::kSystem) return 0;
  if (app >= queue_of_app_.size()) queue_of_app_.resize(app + 1, kUnknown);
  std::uint32_t& queue = queue_of_app_[app];
  if (queue == kUnknown) queue = QueueByKey(app_id);
  return queue;
}

std::uint32_t SimulatorAssignment::QueueForSimulator(std::string_view sim_id) {
  return mode_ == SimAssignment::kSystem ? 0 : QueueByKey(sim_id);
}

}  // namespace trestle::daemon
