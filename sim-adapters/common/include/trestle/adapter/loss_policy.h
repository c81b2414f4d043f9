// LossPolicy: drops a message with a fixed probability, drawn from a seeded
// generator so that a run repeats exactly (`--loss-rate P --seed S`).
//
// The draws use a stream of their own (the seed mixed with a constant), so
// turning loss on or off does not change the choices a model makes from the
// same seed (the fabric model's random routing).
//
// Costs: one draw per call when 0 < rate; none when rate is 0. One thread.
#ifndef TRESTLE_ADAPTER_LOSS_POLICY_H_
#define TRESTLE_ADAPTER_LOSS_POLICY_H_

#include <cstdint>
#include <random>

#include "absl/status/status.h"

namespace trestle::adapter {

class LossPolicy {
 public:
  // `rate` must be in [0, 1] (Validate says so otherwise).
  LossPolicy(double rate, std::uint64_t seed);

  // InvalidArgument naming the rate when it is outside [0, 1].
  static absl::Status Validate(double rate);

  // Whether the next message is lost.
  bool Lose() { return rate_ > 0 && uniform_(rng_) < rate_; }
  double rate() const { return rate_; }

 private:
  double rate_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_LOSS_POLICY_H_
