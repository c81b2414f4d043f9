// Simulation: the process's ns-3 simulator, for the lifetime of one network
// (internal to trestle_ns3; compiled as C++17 with ns-3's headers).
//
// ns-3 keeps one simulator per process, with global state (the node list,
// the address generator, the random seed, the time resolution). A
// Simulation resets that state when it is created, runs the simulator in
// slices through a HorizonScheduler, and destroys it (nodes and events
// included) when it goes. At most one exists at a time (Active()).
//
// Time: ns-3 runs in picoseconds, so that serialisation times at hundreds of
// Gbit/s are exact; callers convert to Trestle's nanoseconds. RunSlice runs
// every event before a horizon, or a bounded number of events, and returns:
// the event loop that called it gets control back in bounded time.
//
// Simulator thread only (the thread that created it).
#ifndef TRESTLE_NS3_ADAPTER_SIMULATION_H_
#define TRESTLE_NS3_ADAPTER_SIMULATION_H_

#include <cstdint>
#include <limits>

#include "horizon-scheduler.h"
#include "ns3/ptr.h"

namespace trestle::ns3_adapter {

class Simulation {
 public:
  // ns-3 time steps (ps) per Trestle nanosecond.
  static constexpr std::uint64_t kPsPerNs = 1000;
  static constexpr std::uint64_t kNoEvent = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::uint64_t kNoHorizon = std::numeric_limits<std::uint64_t>::max();

  // Resets ns-3's global state, seeds its random streams with `seed`, and
  // installs the slicing scheduler. Requires !Active().
  explicit Simulation(std::uint64_t seed);
  // Destroys the simulator: every node, application and pending event.
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  static bool Active();

  // Runs events with time < horizon_ps, at most `max_events` of them (or
  // fewer if EndSlice is called). Returns true when no event before the
  // horizon is left.
  bool RunSlice(std::uint64_t horizon_ps, std::uint64_t max_events);
  // From inside an event: the running slice returns after this event.
  void EndSlice();

  // The time of the last event run (0 before any).
  std::uint64_t NowPs() const;
  // The earliest queued event, or kNoEvent.
  std::uint64_t NextEventPs() const;
  // Events run since the simulation began.
  std::uint64_t events_run() const { return events_run_; }

 private:
  ns3::Ptr<ns3::HorizonScheduler> scheduler_;
  std::uint64_t events_run_ = 0;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_ADAPTER_SIMULATION_H_
