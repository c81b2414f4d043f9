// PendingHandshakes: accepted connections that have not yet said Hello or
// Attach, oldest first, each with the deadline by which it must. The daemon
// closes those whose deadline passed (handshake_timeout_ms), so a silent
// connection does not stay open forever. Add, Remove and each expiry are
// O(1): deadlines come in accept order because the timeout is one setting.
#pragma once

#include <cstdint>
#include <functional>
#include <list>

#include "absl/container/flat_hash_map.h"

namespace trestle::daemon {

class ClientConnection;

class PendingHandshakes {
 public:
  explicit PendingHandshakes(std::uint64_t timeout_ms) : timeout_ms_(timeout_ms) {}

  void Add(ClientConnection* c, std::uint64_t now_ms) {
    order_.push_back({now_ms + timeout_ms_, c});
    where_[c] = std::prev(order_.end());
  }
  // `c` completed its handshake, or is closing: no deadline any more.
  void Remove(ClientConnection* c) {
    auto it = where_.find(c);
    if (it == where_.end()) return;
    order_.erase(it->second);
    where_.erase(it);
  }
  bool Contains(ClientConnection* c) const { return where_.contains(c); }
  // Removes the connections whose deadline is at or before `now_ms` and
  // hands each to `expired`.
  void Expire(std::uint64_t now_ms, const std::function<void(ClientConnection&)>& expired) {
    while (!order_.empty() && order_.front().deadline_ms <= now_ms) {
      ClientConnection* c = order_.front().connection;
      where_.erase(c);
      order_.pop_front();
      expired(*c);
    }
  }
  std::size_t size() const { return order_.size(); }
  std::uint64_t timeout_ms() const { return timeout_ms_; }

 private:
  struct Pending {
    std::uint64_t deadline_ms;
    ClientConnection* connection;
  };
  const std::uint64_t timeout_ms_;
  std::list<Pending> order_;
  absl::flat_hash_map<ClientConnection*, std::list<Pending>::iterator> where_;
};

}  // namespace trestle::daemon
