#include "trestle/adapter/connection_order.h"

#include <algorithm>

namespace trestle::adapter {

void ConnectionOrder::Sent(EndpointId src, EndpointId dst, std::uint32_t tclass,
                           std::uint64_t id) {
  const auto [it, added] = index_.try_emplace(Key{src, dst, tclass}, connections_.size());
  if (added) connections_.emplace_back();
  connections_[it->second].in_flight.push_back(Entry{id, false, Outcome{}});
  connection_of_[id] = it->second;
}

void ConnectionOrder::Finished(const Outcome& outcome, std::vector<Outcome>* released) {
  const auto found = connection_of_.find(outcome.id);
  if (found == connection_of_.end()) {
    released->push_back(outcome);
    return;
  }
  Connection& c = connections_[found->second];
  connection_of_.erase(found);
  for (Entry& e : c.in_flight) {
    if (e.id == outcome.id) {
      e.done = true;
      e.outcome = outcome;
      ++held_;
      break;
    }
  }
  while (!c.in_flight.empty() && c.in_flight.front().done) {
    Outcome out = c.in_flight.front().outcome;
    c.in_flight.pop_front();
    --held_;
    if (out.delivered) {
      out.t_ns = std::max(out.t_ns, c.last_delivery_ns);
      c.last_delivery_ns = out.t_ns;
    }
    released->push_back(out);
  }
}

}  // namespace trestle::adapter
