// AllReduceSteps: what one rank of an all-reduce sends and takes in each
// step, for the three algorithms `trestle-sim sweep` prices (ring,
// halving-doubling, direct), over a vector of N chunks of equal size.
//
// Every step is an exchange: the rank sends some of its chunks to one rank
// and takes some from one rank (the same rank for halving-doubling), adding
// them in (reduce-scatter steps) or copying them (all-gather steps). The
// partners and the number of chunks per message are the sweep's
// (CollectiveSchedule), so that a message of c chunks is c × chunk bytes:
//   ring              2(N-1) steps to i+1, from i-1, one chunk each;
//   halving-doubling  reduce-scatter with partners i^(N/2), i^(N/4), ..., i^1
//                     and N/2, N/4, ..., 1 chunks (the rank keeps the half
//                     of its segment on its side of the partner and sends
//                     the other); all-gather with partners i^1, ..., i^(N/2),
//                     each sending the segment it holds; N a power of two;
//   direct            reduce-scatter: in step d (1..N-1) to i+d chunk i+d,
//                     from i-d chunk i; all-gather: to i+d chunk i, from i-d
//                     chunk i-d.
// After the last step every rank holds every chunk's sum over all ranks.
//
// Pure functions of their arguments; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "trestle/fabric/collective_schedule.h"

namespace trestle::examples {

// Chunks first .. first + count - 1 of the vector.
struct ChunkRange {
  std::uint32_t first = 0;
  std::uint32_t count = 1;
};

struct RankStep {
  std::uint32_t send_to = 0;
  std::uint32_t receive_from = 0;
  ChunkRange send;
  ChunkRange receive;
  bool reduce = false;  // add what comes in (else copy it)
};

// The steps of rank `rank` of `ranks` (>= 2; a power of two for
// halving-doubling), in order.
std::vector<RankStep> AllReduceSteps(fabric::CollectiveAlgorithm algorithm, std::uint32_t ranks,
                                     std::uint32_t rank);

}  // namespace trestle::examples
