// ReceiveOp: a receive the program posted, as the layer follows it from its
// posting until the mirror of the real message it took is known.
//
// A receive names a pattern: a source (a world rank, or kAny) and a tag (or
// kAny) on a communicator. It is *resolved* once the layer knows which real
// message it takes, by key (source, tag): a receive with a specific source
// and tag at once (unless an earlier receive could take that message first),
// a wildcard once its real receive has completed and says which. A resolved
// receive then claims, in its key's order, the mirror of that message: the
// mirror may already be here (kReady), or not yet (kOwed, until it arrives).
// MPI's non-overtaking rule makes the k-th message of a key on a
// communicator the one the k-th receive resolved to that key takes, so the
// real MPI and the mirrors agree on who gets what.
//
// The ReceiveMatcher and the SourceQueues hold pointers to ops; the owner
// (the MPI layer) keeps an op alive until it is ready, or takes it out of
// them first. Single-threaded.
#pragma once

#include <cstdint>

namespace trestle::mpi {

// A mirror that arrived: when, how large the real message is, its tag, and
// its place among every mirror this rank took (the model's order).
struct MirrorArrival {
  std::uint64_t t_deliver = 0;
  std::uint64_t bytes = 0;
  std::int32_t tag = 0;
  std::uint64_t order = 0;
};

struct ReceiveOp {
  static constexpr int kAny = -1;  // any source (world rank) or any tag
  enum class State : std::uint8_t { kUnresolved, kOwed, kReady };

  std::uint64_t comm_id = 0;
  int src_world = kAny;  // the pattern
  int tag = kAny;
  State state = State::kUnresolved;
  // The real receive's status, once it completed (wildcards need it).
  bool real_known = false;
  int real_src_world = 0;
  int real_tag = 0;
  // kReady: the mirror of the message it took.
  MirrorArrival mirror;

  bool specific() const { return src_world != kAny && tag != kAny; }
  // Whether a message of key (src, tag) matches the pattern.
  bool Matches(int src, int message_tag) const {
    return (src_world == kAny || src_world == src) && (tag == kAny || tag == message_tag);
  }
  // Whether some message could match both patterns.
  bool Overlaps(const ReceiveOp& other) const {
    return (src_world == kAny || other.src_world == kAny || src_world == other.src_world) &&
           (tag == kAny || other.tag == kAny || tag == other.tag);
  }
};

}  // namespace trestle::mpi
