// trestle::Outcome: a simulator's verdict on one Transit.
#pragma once

#include <cstdint>

namespace trestle {

struct Outcome {
  enum class Status { kDelivered, kDropped };
  std::uint64_t id = 0;  // the Transit's id
  Status status = Status::kDelivered;
  std::uint64_t t_deliver = 0;   // virtual ns at which it arrives (or drops)
  std::uint64_t sim_posted = 0;  // monotonic ns; 0 = let Post() stamp it
};

}  // namespace trestle
