// ClientRegistry: one entry per client id the daemon needs to know: one
// with a session (live or lingering), or named by a message the daemon still
// holds (as its sender or its destination). Apps and simulators have one
// registry each.
//
// Entries are addressed by a dense index that the data plane uses to keep
// its own per-client state in flat arrays. An entry that nothing refers to
// any more (no session, no message) is freed, its index reused, and the
// release callback lets the data plane reset that index's state; so a
// client's own counters last as long as it or its messages do, while the
// totals (MessageLedger) last as long as the daemon.
//
// Absent destinations: an entry created because an app named it in a Send
// (no session yet) counts against that app until the destination connects
// or the entry is freed, so that one app cannot grow the registry without
// bound (max_absent_destinations, checked by LocalDestinationLookup).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "messages/message_counters.h"

namespace trestle::daemon {

class Session;

inline constexpr std::uint32_t kNoClient = 0xffffffffu;

struct ClientEntry {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  // bumped each time the index is reused
  // This life of the entry, from creation to release: no other entry of the
  // registry has had it, and a registry starts counting at a random number,
  // so a restarted daemon's entries almost surely differ too. An app's
  // deliveries are numbered per life (Welcome.delivery_numbering).
  std::uint64_t life = 0;
  bool live = false;             // false: a free slot
  std::string id;
  MessageCounters counters;
  Session* session = nullptr;  // live or lingering session, if any
  std::uint32_t refs = 0;      // messages naming it (sender or destination)
  // An absent destination: the app that named it first, and its generation.
  std::uint32_t named_by = kNoClient;
  std::uint32_t named_by_generation = 0;
  // An app: how many absent destinations it named that are still absent.
  std::uint32_t absent_named = 0;
};

class ClientRegistry {
 public:
  ClientRegistry();

  // Runs when an entry is freed, with its index (before the index is reused).
  void OnRelease(std::function<void(std::uint32_t index)> callback) {
    on_release_ = std::move(callback);
  }

  ClientEntry* Find(std::string_view id);
  // The entry of `id`, created if needed (a client saying Hello).
  ClientEntry& GetOrCreate(std::string_view id);
  // A new entry for `id`, an absent destination named by app `named_by`
  // (an index of this registry). Requires Find(id) == nullptr.
  ClientEntry& CreateNamed(std::string_view id, std::uint32_t named_by);

  // The entry's session; clearing it may free the entry. A destination that
  // gets a session is no longer absent.
  void SetSession(ClientEntry& e, Session* session);
  // A message names the entry / no longer does (the last may free it).
  void Retain(std::uint32_t index) { entries_[index].refs++; }
  void Release(std::uint32_t index);

  // References stay valid for the registry's lifetime (deque storage); a
  // freed entry's slot is reused.
  ClientEntry& at(std::uint32_t index) { return entries_[index]; }
  const ClientEntry& at(std::uint32_t index) const { return entries_[index]; }
  // Live entries.
  std::size_t size() const { return by_id_.size(); }
  // After a burst: gives back the free slots at the end (so capacity()
  // shrinks: the release callback's users may shrink their arrays too) and
  // the index's room beyond what it holds, when it holds less than a quarter
  // of it. Returns whether it gave anything back.
  bool Compact();
  // Slots, live or free: iterate and skip !live.
  std::size_t capacity() const { return entries_.size(); }
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  ClientEntry& NewEntry(std::string_view id);
  void FreeIfUnused(ClientEntry& e);
  // `e` stops being an absent destination of the app that named it.
  void ClearNamedBy(ClientEntry& e);

  std::deque<ClientEntry> entries_;
  std::vector<std::uint32_t> free_;
  absl::flat_hash_map<std::string, std::uint32_t> by_id_;
  std::function<void(std::uint32_t)> on_release_;
  std::uint64_t last_life_;  // ClientEntry::life of the newest entry
};

}  // namespace trestle::daemon
