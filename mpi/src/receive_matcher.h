// ReceiveMatcher: MPI's matching rules applied to mirrors, so that each
// receive the program posts is given the mirror of exactly the real message
// the real MPI gives it.
//
// Per communicator it keeps the unresolved receives in posting order (see
// receive_op.h). A receive resolves, and claims its key's next mirror, when
// its key is known and no earlier unresolved receive could take a message of
// that key (that one might take it first: an earlier one whose key is
// unknown and whose pattern matches, or one whose key is the same). A
// receive with a specific source and tag usually resolves at posting; a
// wildcard waits for its real receive.
//
// The real receive of an unresolved op may be waited for (it completes with
// no rank's virtual progress) once enough mirrors it could match have
// arrived unclaimed: one more than the earlier unresolved receives that
// could take them (RealReceiveIsSafe). Every such mirror's real message was
// sent before its mirror, so one of them is left for this receive. The same
// holds for a probe.
//
// Single-threaded. Ops are not owned: see receive_op.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mirror_inbox.h"
#include "receive_op.h"

namespace trestle::mpi {

class ReceiveMatcher {
 public:
  // `inbox` must outlive the matcher.
  explicit ReceiveMatcher(MirrorInbox& inbox) : inbox_(inbox) {}

  // A receive the program posted (its real receive is posted already).
  // Resolves it at once when it can.
  void Post(ReceiveOp* op);
  // Resolves, in posting order, what can be resolved on `comm_id`: call
  // after a real receive's status became known.
  void Resolve(std::uint64_t comm_id);
  // Takes an op out of every list (a receive cancelled before its mirror
  // came): the mirror it was owed goes to the next receive of its key, and
  // receives it held back resolve.
  void Withdraw(ReceiveOp* op);

  // An unresolved op: whether its real receive may be waited for.
  bool RealReceiveIsSafe(const ReceiveOp& op) const;
  // Unresolved receives posted before `op`, their key unknown, that a
  // message of key (src_world, tag) matches: once op's real receive took a
  // message of that key, their real statuses are needed (they have matched
  // already, or they would have taken that message) before `op` resolves.
  std::vector<ReceiveOp*> EarlierMatching(const ReceiveOp& op, int src_world, int tag) const;

  // A probe of pattern `probe` (comm, source, tag): whether a real probe
  // will find a message with no rank's virtual progress.
  bool RealProbeIsSafe(const ReceiveOp& probe) const;
  // Unresolved receives, their key unknown, that a message of key
  // (src_world, tag) matches: once a real probe found such a message
  // unclaimed, they have matched already.
  std::vector<ReceiveOp*> UnresolvedMatching(std::uint64_t comm_id, int src_world, int tag) const;

  // A blocking wildcard receive or probe is decided by the mirrors, in the
  // model's order, when no unresolved receive could take what it matches:
  // whether it may be, and the key (source world rank, tag) of the first
  // unclaimed mirror it matches, if one is here.
  bool MirrorsDecide(const ReceiveOp& pattern) const;
  std::optional<std::pair<int, int>> FirstCandidate(const ReceiveOp& pattern) const;

  std::size_t unresolved(std::uint64_t comm_id) const;

 private:
  // Mirrors arrived and unclaimed that `pattern` could take.
  std::size_t Candidates(const ReceiveOp& pattern) const;
  // Claims op's mirror: op's key is (src_world, tag).
  void Claim(ReceiveOp* op, int src_world, int tag);

  MirrorInbox& inbox_;
  absl::flat_hash_map<std::uint64_t, std::list<ReceiveOp*>> unresolved_;
};

}  // namespace trestle::mpi
