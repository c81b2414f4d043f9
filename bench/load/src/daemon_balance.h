// DaemonBalanceProblem: the loss check of a run over several daemons of one
// federated bridge, on the daemons' own counters (docs/federation.md,
// "Accounting"), beside the generator's exactly-once check of every
// message.
//
// After a drained run, for each daemon d:
//   - it accepted exactly what its apps sent, and delivered exactly what
//     its apps received (the run's differences of StatsReply.total);
//   - its absolute counters obey accepted + from_peers + recovered =
//     delivered + dropped + expired + lost_in_store + forwarded + in_flight;
// and over the bridge every message handed on was taken over: the sum of
// `forwarded` equals the sum of `from_peers`.
//
// This assumes the daemons carry only the benchmark's traffic.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench_result.h"
#include "trestle.pb.h"

namespace trestle::bench {

// "" if everything balances, else one sentence naming each daemon (its
// number from 1 and address) and count that does not. `after[d]` is daemon
// d's absolute counters after the run (nullopt: it did not answer).
std::string DaemonBalanceProblem(const std::vector<DaemonResult>& daemons,
                                 const std::vector<std::optional<wire::Counters>>& after);

}  // namespace trestle::bench
