// Ns3CollectiveSweep: the ns-3 backend of `trestle-sim sweep` (part of
// trestle_ns3). It runs a collective's schedule as real transfers through
// the ns-3 network of a topology and times it, for each size.
//
// For each size S, in a fresh simulation of a freshly built network:
//   1. setup (not timed): over TCP, each rank opens its connections, one per
//      partner the schedule names, by sending it an empty message, as a
//      collective library connects when its communicator is created;
//   2. the schedule runs as the fabric backend's timing says, its messages
//      of CollectiveStep::BytesFor(ceil(S / chunks)) bytes, each handed to
//      the network after the endpoint delay:
//        dataflow (the default): every rank at its own pace, as
//        CollectiveReplay's ranks: its next message leaves when the one it
//        waits for has arrived (plus its reduction, in whole ns);
//        bulk-synchronous: step by step; in a step every rank starts its
//        transfer at the same time, the step ends when the last arrives,
//        plus, in a reduce step, bytes / reduce-bw; the next step starts
//        then.
//      Repeated steps run again (TCP's windows carry over: no step is priced
//      alone); with C chunks the whole schedule runs C times.
//   3. the time is from the first message's start to the last rank's end.
// Ranks are endpoints 0..ranks-1. Routing is ns-3's (shortest paths), so
// --routing must be minimal; the network model option must be the default.
//
// Errors: InvalidArgument for more ranks than endpoints, zero chunks, a
// routing or model the backend cannot honour, and what Ns3Network::BuildWired
// returns; DataLoss, naming the size, when a message was lost (UDP, or a
// TCP connection that broke): such a collective never completes. Not thread-safe: it uses the process's one ns-3 simulator.
#ifndef TRESTLE_NS3_NS3_COLLECTIVE_SWEEP_H_
#define TRESTLE_NS3_NS3_COLLECTIVE_SWEEP_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
#include "trestle/fabric/topology.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

// What running the sweep cost, summed over its sizes.
struct Ns3SweepStats {
  std::uint64_t packets = 0;  // packet transmissions on links (data and acks, per hop)
  std::uint64_t events = 0;   // ns-3 events run
  double build_seconds = 0;   // building networks
  double run_seconds = 0;     // simulating (setup included)
};

class Ns3CollectiveSweep {
 public:
  // The time in ns of `schedule` for each size in `sizes_bytes`.
  // `sweep.model` is ignored only when it is the default (unaware).
  static absl::StatusOr<std::vector<double>> Run(const fabric::Topology& topology,
                                                 const fabric::CollectiveSchedule& schedule,
                                                 const std::vector<std::uint64_t>& sizes_bytes,
                                                 const fabric::SweepOptions& sweep,
                                                 const Ns3NetworkOptions& network,
                                                 Ns3SweepStats* stats = nullptr);
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_COLLECTIVE_SWEEP_H_
