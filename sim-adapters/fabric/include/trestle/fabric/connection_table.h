// ConnectionTable: numbers the connections a network model has seen, so that
// the model keeps its per-connection state in plain vectors. A connection is
// the messages from one endpoint to another in one traffic class
// (MessageOrdering::kConnection).
//
// Index() gives each distinct (src, dst, tclass) a dense index, 0, 1, 2, ...
// in order of first use, and the same index ever after. Nothing is ever
// forgotten: memory is about 24 bytes per connection seen (a flat hash map).
// Costs: one hash lookup per call; an insertion may reallocate.
//
// Threading: one thread. C++17-clean.
#ifndef TRESTLE_FABRIC_CONNECTION_TABLE_H_
#define TRESTLE_FABRIC_CONNECTION_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "trestle/fabric/link.h"

namespace trestle::fabric {

class ConnectionTable {
 public:
  using Index = std::uint32_t;

  // The index of the connection src -> dst in class `tclass`; a new one
  // (size() before the call) if it was never seen.
  Index IndexOf(NodeId src, NodeId dst, TrafficClass tclass) {
    const auto [it, added] =
        indices_.try_emplace(Key{src, dst, tclass}, static_cast<Index>(indices_.size()));
    return it->second;
  }
  std::size_t size() const { return indices_.size(); }

 private:
  struct Key {
    NodeId src;
    NodeId dst;
    TrafficClass tclass;
    bool operator==(const Key& o) const {
      return src == o.src && dst == o.dst && tclass == o.tclass;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.src, k.dst, k.tclass);
    }
  };
  absl::flat_hash_map<Key, Index> indices_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_CONNECTION_TABLE_H_
