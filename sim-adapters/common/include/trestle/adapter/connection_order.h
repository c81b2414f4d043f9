// ConnectionOrder: holds an adapter's outcomes back so that each connection's
// messages come out in the order they were sent (MessageOrdering::kConnection,
// docs/fabric.md "Connections"), for a simulator whose transfers may finish
// in another order (the ns-3 adapter over UDP).
//
// A connection is the messages from one endpoint to another in one traffic
// class. Sent() records a message in its connection's send order;
// Finished() takes its outcome and releases, in send order, every outcome
// of its connection that no earlier message holds back any more: its own
// unless an earlier one is still out, then those waiting behind it. A
// released delivery's time is raised to the connection's last released
// delivery, so deliveries keep their order in time too; a drop keeps its
// time (it reaches no receiver) but releases what waited behind it.
//
// In lockstep time a held delivery ends after the outcome it waits for,
// which the simulator has not reached yet: holding it keeps every
// ReportReached true.
//
// Costs: a hash lookup per call and one queue entry per message in flight;
// memory for every connection seen (a few dozen bytes). One thread.
// C++17-clean (the ns-3 adapter uses it).
#ifndef TRESTLE_ADAPTER_CONNECTION_ORDER_H_
#define TRESTLE_ADAPTER_CONNECTION_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "trestle/adapter/endpoint_id.h"

namespace trestle::adapter {

class ConnectionOrder {
 public:
  struct Outcome {
    std::uint64_t id = 0;
    bool delivered = false;
    std::uint64_t t_ns = 0;  // t_deliver, or the drop's time
  };

  // Message `id` (unique among those sent and not yet released) was sent on
  // the connection src -> dst in class `tclass`, after every message Sent
  // before it there.
  void Sent(EndpointId src, EndpointId dst, std::uint32_t tclass, std::uint64_t id);
  // The outcome of `id`; appends to *released the outcomes it releases, in
  // order (none if an earlier message of its connection is still out). An
  // id never Sent is released at once, as it is.
  void Finished(const Outcome& outcome, std::vector<Outcome>* released);

  // Outcomes held back behind an earlier message.
  std::size_t held() const { return held_; }

 private:
  struct Entry {
    std::uint64_t id = 0;
    bool done = false;
    Outcome outcome;
  };
  struct Connection {
    std::deque<Entry> in_flight;  // in send order
    std::uint64_t last_delivery_ns = 0;
  };
  struct Key {
    EndpointId src;
    EndpointId dst;
    std::uint32_t tclass;
    bool operator==(const Key& o) const {
      return src == o.src && dst == o.dst && tclass == o.tclass;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()((std::uint64_t{k.src} << 32 | k.dst) ^
                                        (std::uint64_t{k.tclass} * 0x9e3779b97f4a7c15ull));
    }
  };

  std::unordered_map<Key, std::size_t, KeyHash> index_;
  std::vector<Connection> connections_;
  std::unordered_map<std::uint64_t, std::size_t> connection_of_;  // message id -> connection
  std::size_t held_ = 0;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_CONNECTION_ORDER_H_
