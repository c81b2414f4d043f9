#include "trestle/wire/resident_time.h"

namespace trestle::wire {

std::optional<std::uint64_t> ResidentNanos(std::uint64_t daemon_accepted,
                                           std::uint64_t sim_handed, std::uint64_t sim_posted,
                                           std::uint64_t daemon_delivered) {
  if (daemon_accepted == 0 || sim_handed < daemon_accepted || sim_posted < sim_handed ||
      daemon_delivered < sim_posted) {
    return std::nullopt;
  }
  return (sim_handed - daemon_accepted) + (daemon_delivered - sim_posted);
}

}  // namespace trestle::wire
