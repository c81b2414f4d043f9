// ArrivalSchedule: when the open-loop generator's next message is due.
//
// Arrival times are offsets in ns from the start of sending, at a total rate
// of `rate` messages/s: evenly spaced (constant) or a Poisson process
// (exponential gaps from a seeded generator, so a seed repeats a run's
// schedule exactly). The schedule does not look at the clock: the caller
// asks for the next due time and calls Advance() after sending one message.
#pragma once

#include <cstdint>
#include <random>

namespace trestle::bench {

enum class ArrivalKind { kConstant, kPoisson };

class ArrivalSchedule {
 public:
  // `rate` > 0 messages per second.
  ArrivalSchedule(ArrivalKind kind, double rate, std::uint64_t seed);

  // Offset (ns since the start) at which the next message is due.
  std::uint64_t next_due_ns() const { return next_due_ns_; }
  // Moves to the message after the next one.
  void Advance();
  // Messages handed out so far (calls to Advance).
  std::uint64_t count() const { return count_; }

 private:
  ArrivalKind kind_;
  double mean_gap_ns_;
  std::uint64_t count_ = 0;
  std::uint64_t next_due_ns_ = 0;
  double poisson_clock_ns_ = 0;
  std::mt19937_64 rng_;
  std::exponential_distribution<double> gap_;
};

}  // namespace trestle::bench
