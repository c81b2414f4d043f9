// CollectiveBatch: with collectives mirrored whole (TRESTLE_MPI_MIRROR=
// collectives; docs/mpi.md, "Mirroring collectives"), this rank's part of
// each collective (its plan, peers named by client id) waiting to go to the
// simulator as one message (Send.collectives), and the compute the rank
// charged since its last collective. The simulator replays the rank's
// collectives in order, each after the previous one plus its compute, and
// delivers the message at the end of the last: the clock's answer.
//
// MpiLayer owns when a batch goes (full, a real wait that lasts, or the
// clock wanted) and the wait for its end. Pure: no MPI, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective_plan.h"
#include "trestle.pb.h"

namespace trestle::mpi {

class CollectiveBatch {
 public:
  // A batch goes once it holds this many collectives.
  static constexpr int kMaxCollectives = 128;

  // `ids`: client id of each world rank. `reduce_bytes_per_second` > 0: a
  // step's reduce_bytes cost their time at it.
  CollectiveBatch(std::vector<std::string> ids, double reduce_bytes_per_second);

  // Adds this rank's plan for collective `instance` of the communicator
  // `comm_id` of `world_of.size()` ranks (comm rank -> world rank), after
  // the compute charged so far.
  void Add(std::uint64_t comm_id, const std::vector<int>& world_of, std::uint32_t instance,
           const CollectivePlan& plan);
  // Compute charged while collectives are unresolved: it goes before the
  // next one added, or is taken back (TakeCompute) once they have ended.
  void Charge(std::uint64_t ns) { compute_ns_ += ns; }
  std::uint64_t TakeCompute();

  int size() const { return batch_.collectives_size(); }
  bool empty() const { return size() == 0; }
  bool full() const { return size() >= kMaxCollectives; }
  // Serializes what it holds into *out, empties, and counts it sent.
  void Take(std::string* out);
  // Batches taken so far.
  std::uint32_t sent() const { return sent_; }

 private:
  const std::vector<std::string> ids_;
  const double reduce_bytes_per_second_;
  wire::CollectiveBatch batch_;  // cleared, not freed: its parts are reused
  std::uint64_t compute_ns_ = 0;
  std::uint32_t sent_ = 0;
};

}  // namespace trestle::mpi
