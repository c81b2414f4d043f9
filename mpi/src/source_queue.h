// SourceQueue: the mirrors of point-to-point messages from one sender to
// this rank on one communicator, in the order the sender sent them, and the
// receives waiting for them.
//
// Mirrors carry their number among the sender's messages to this rank on
// the communicator (MirrorHeader::number). The network model may deliver
// them out of that order (two messages on different paths); a mirror is
// *promoted* only once every earlier one has arrived, as MPI never matches a
// message before an earlier one of the same sender. Per tag, promoted
// mirrors go in order to the receives owed one of that tag, or wait,
// unassigned, for the next receive that claims that tag.
//
// Single-threaded. Owed ReceiveOps are not owned; see receive_op.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "receive_op.h"

namespace trestle::mpi {

class SourceQueue {
 public:
  explicit SourceQueue(int src_world = 0) : src_world_(src_world) {}
  int src_world() const { return src_world_; }

  // Mirror `number` arrived. Promotes it, and any that waited behind it;
  // each promoted mirror readies the first receive owed its tag, or waits.
  void Arrive(std::uint32_t number, const MirrorArrival& arrival);
  // A receive resolved to this sender and `tag`: takes the first unassigned
  // mirror of `tag` (the op becomes kReady) or waits for it (kOwed).
  void Claim(int tag, ReceiveOp* op);
  // Promoted mirrors no receive has claimed yet, of `tag` (ReceiveOp::kAny:
  // of every tag).
  std::size_t Unassigned(int tag) const;
  // The first unassigned mirror of `tag` (a probe's), or null; of any tag
  // (ReceiveOp::kAny): the one promoted first.
  const MirrorArrival* FirstUnassigned(int tag) const;
  // Takes `op` out of the owed lines (it is given up).
  void Forget(const ReceiveOp* op);

  // Mirrors that arrived ahead of an earlier one, waiting for it.
  std::size_t early() const { return early_.size(); }

 private:
  void Promote(const MirrorArrival& arrival);

  int src_world_;
  std::uint32_t next_ = 0;  // the number promoted next
  std::map<std::uint32_t, MirrorArrival> early_;
  absl::flat_hash_map<int, std::deque<MirrorArrival>> unassigned_;
  absl::flat_hash_map<int, std::deque<ReceiveOp*>> owed_;
  std::size_t unassigned_total_ = 0;
};

}  // namespace trestle::mpi
