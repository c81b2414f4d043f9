// ClientRegistry: one entry per client id the daemon knows (connected,
// lingering, or only named as a destination), holding its counters and its
// session, if any. Apps and simulators have one registry each.
//
// Entries are addressed by a dense index that the data plane uses to keep
// its own per-client state (delivery queues, held transits) in flat arrays.
// Entries live as long as the daemon, so the accounting of a client that
// left is still there at the end of a run.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "message_counters.h"

namespace trestle::daemon {

class Session;

struct ClientEntry {
  std::uint32_t index = 0;
  std::string id;
  MessageCounters counters;
  Session* session = nullptr;  // live or lingering session, if any
};

class ClientRegistry {
 public:
  ClientEntry& GetOrCreate(std::string_view id) {
    auto it = by_id_.find(absl::string_view(id.data(), id.size()));
    if (it != by_id_.end()) return entries_[it->second];
    ClientEntry& e = entries_.emplace_back();
    e.index = static_cast<std::uint32_t>(entries_.size() - 1);
    e.id = std::string(id);
    by_id_.emplace(e.id, e.index);
    return e;
  }
  ClientEntry* Find(std::string_view id) {
    auto it = by_id_.find(absl::string_view(id.data(), id.size()));
    return it == by_id_.end() ? nullptr : &entries_[it->second];
  }
  // References stay valid for the registry's lifetime (deque storage).
  ClientEntry& at(std::uint32_t index) { return entries_[index]; }
  const ClientEntry& at(std::uint32_t index) const { return entries_[index]; }
  std::size_t size() const { return entries_.size(); }
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  std::deque<ClientEntry> entries_;
  absl::flat_hash_map<std::string, std::uint32_t> by_id_;
};

}  // namespace trestle::daemon
