// Ns3WorkloadRun: a ValidationWorkload through the ns-3 network of a
// topology (part of trestle_ns3; `trestle-sim validate`'s ns-3 backend).
//
// In a fresh simulation of a freshly built network:
//   1. setup (not timed): over TCP, every (source, destination) pair the
//      workload uses opens its connection with an empty message, all at
//      once, as an application connects before it communicates;
//   2. the workload starts at t0, the first whole microsecond after the
//      setup ends plus one: each root message is handed to its source at
//      t0 + its t_send, each chained one when its predecessor has been read
//      at its destination; a message's latency runs from that hand-over to
//      its last byte read (TCP) or last datagram (UDP);
//   3. the run stops once every sample is in (or lost).
//
// Errors: what Ns3Network::BuildWired returns; InvalidArgument when a
// message's endpoint is outside the topology; Internal when ns-3 runs out of
// events with samples missing. Lost messages (UDP, a broken TCP
// connection) are NaN in the result. Not thread-safe: it uses the process's
// one ns-3 simulator.
#ifndef TRESTLE_NS3_NS3_WORKLOAD_RUN_H_
#define TRESTLE_NS3_NS3_WORKLOAD_RUN_H_

#include "absl/status/statusor.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/validation_workload.h"
#include "trestle/fabric/workload_times.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

class Ns3WorkloadRun {
 public:
  static absl::StatusOr<fabric::WorkloadTimes> Run(const fabric::Topology& topology,
                                                   const fabric::ValidationWorkload& workload,
                                                   const Ns3NetworkOptions& options);
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_WORKLOAD_RUN_H_
