#include "federation/parked_deliveries.h"

#include <utility>

namespace trestle::daemon {

ParkedDeliveries::ParkedDeliveries(uv_loop_t* loop, const DaemonConfig& config,
                                   MessageLedger& ledger, ClientRegistry& apps,
                                   PayloadStore& store, BridgeDirectory& directory,
                                   HandOn hand_on)
    : loop_(loop),
      config_(config),
      ledger_(ledger),
      apps_(apps),
      store_(store),
      directory_(directory),
      hand_on_(std::move(hand_on)) {}

void ParkedDeliveries::Park(MessageRecord& r) {
  r.state = MessageRecord::State::kForwarding;
  if (r.ready_ms == 0) r.ready_ms = uv_now(loop_);
  parked_[r.dst].push_back(r.id);
}

std::vector<std::uint64_t> ParkedDeliveries::Take(std::uint32_t app) {
  std::vector<std::uint64_t> ids;
  auto it = parked_.find(app);
  if (it == parked_.end()) return ids;
  ids = std::move(it->second);
  parked_.erase(it);
  std::erase_if(ids, [this](std::uint64_t id) {
    const MessageRecord* r = ledger_.Find(id);
    return r == nullptr || r->state != MessageRecord::State::kForwarding;
  });
  return ids;
}

void ParkedDeliveries::Check(std::uint64_t now_ms) {
  if (parked_.empty()) return;
  const bool relocate = now_ms >= next_relocate_ms_ && directory_.available();
  if (relocate) next_relocate_ms_ = now_ms + kRelocateMs;
  for (auto it = parked_.begin(); it != parked_.end();) {
    std::vector<std::uint64_t>& ids = it->second;
    std::size_t kept = 0;
    for (std::uint64_t id : ids) {
      MessageRecord* r = ledger_.Find(id);
      if (r == nullptr || r->state != MessageRecord::State::kForwarding) continue;
      if (now_ms - r->ready_ms >= config_.delivery_ttl_ms) {
        store_.Erase(id);
        ledger_.Expired(*r);
        ledger_.Erase(id);
        continue;
      }
      ids[kept++] = id;
    }
    ids.resize(kept);
    if (ids.empty()) {
      parked_.erase(it++);
      continue;
    }
    const std::uint32_t app = it->first;
    if (relocate && relocating_.insert(app).second) {
      directory_.Locate(apps_.at(app).id, [this, app](const auto& holder) {
        Relocated(app, holder);
      });
    }
    ++it;
  }
}

void ParkedDeliveries::Relocated(std::uint32_t app,
                                 const absl::StatusOr<std::optional<std::uint32_t>>& holder) {
  relocating_.erase(app);
  if (!holder.ok() || !holder->has_value() || **holder == config_.daemon_id) return;
  for (std::uint64_t id : Take(app)) hand_on_(*ledger_.Find(id), **holder);
}

}  // namespace trestle::daemon
