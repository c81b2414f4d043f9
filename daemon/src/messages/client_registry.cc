#include "messages/client_registry.h"

#include <algorithm>
#include <random>

namespace trestle::daemon {

ClientRegistry::ClientRegistry() {
  std::random_device random;
  last_life_ = (std::uint64_t{random()} << 32) | random();
}

ClientEntry* ClientRegistry::Find(std::string_view id) {
  auto it = by_id_.find(absl::string_view(id.data(), id.size()));
  return it == by_id_.end() ? nullptr : &entries_[it->second];
}

ClientEntry& ClientRegistry::NewEntry(std::string_view id) {
  std::uint32_t index;
  if (free_.empty()) {
    index = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back().index = index;
  } else {
    index = free_.back();
    free_.pop_back();
  }
  ClientEntry& e = entries_[index];
  e.live = true;
  e.life = ++last_life_;
  e.id.assign(id.data(), id.size());
  by_id_.emplace(e.id, index);
  return e;
}

ClientEntry& ClientRegistry::GetOrCreate(std::string_view id) {
  if (ClientEntry* e = Find(id)) return *e;
  return NewEntry(id);
}

ClientEntry& ClientRegistry::CreateNamed(std::string_view id, std::uint32_t named_by) {
  ClientEntry& e = NewEntry(id);
  ClientEntry& namer = entries_[named_by];
  e.named_by = named_by;
  e.named_by_generation = namer.generation;
  namer.absent_named++;
  return e;
}

void ClientRegistry::ClearNamedBy(ClientEntry& e) {
  if (e.named_by == kNoClient) return;
  ClientEntry& namer = entries_[e.named_by];
  if (namer.live && namer.generation == e.named_by_generation && namer.absent_named > 0) {
    namer.absent_named--;
  }
  e.named_by = kNoClient;
}

void ClientRegistry::SetSession(ClientEntry& e, Session* session) {
  e.session = session;
  if (session != nullptr) {
    ClearNamedBy(e);
  } else {
    FreeIfUnused(e);
  }
}

void ClientRegistry::Release(std::uint32_t index) {
  ClientEntry& e = entries_[index];
  if (e.refs > 0) e.refs--;
  FreeIfUnused(e);
}

void ClientRegistry::FreeIfUnused(ClientEntry& e) {
  if (!e.live || e.session != nullptr || e.refs > 0) return;
  ClearNamedBy(e);
  by_id_.erase(e.id);
  if (on_release_) on_release_(e.index);
  const std::uint32_t index = e.index;
  const std::uint32_t generation = e.generation + 1;
  e = ClientEntry();
  e.index = index;
  e.generation = generation;
  free_.push_back(index);
}

bool ClientRegistry::Compact() {
  const std::size_t slots = entries_.size();
  while (!entries_.empty() && !entries_.back().live) entries_.pop_back();
  const bool shrunk = entries_.size() < slots;
  if (shrunk) {
    const std::size_t n = entries_.size();
    free_.erase(std::remove_if(free_.begin(), free_.end(),
                               [n](std::uint32_t index) { return index >= n; }),
                free_.end());
    free_.shrink_to_fit();
  }
  const bool sparse = by_id_.capacity() >= 4 * by_id_.size() + 4096;
  if (sparse) by_id_.rehash(0);
  return shrunk || sparse;
}

}  // namespace trestle::daemon
