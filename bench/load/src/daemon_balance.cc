#include "daemon_balance.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace trestle::bench {

std::string DaemonBalanceProblem(const std::vector<DaemonResult>& daemons,
                                 const std::vector<std::optional<wire::Counters>>& after) {
  std::vector<std::string> problems;
  std::uint64_t forwarded = 0;
  std::uint64_t from_peers = 0;
  for (std::size_t d = 0; d < daemons.size(); ++d) {
    const DaemonResult& r = daemons[d];
    const std::string name = absl::StrFormat("daemon %u (%s)", d + 1, r.address);
    if (!r.counters_known || d >= after.size() || !after[d]) {
      problems.push_back(name + " did not report its counters");
      continue;
    }
    if (r.accepted != r.sent) {
      problems.push_back(
          absl::StrFormat("%s accepted %u messages, its apps sent %u", name, r.accepted, r.sent));
    }
    if (r.delivered != r.received) {
      problems.push_back(absl::StrFormat("%s delivered %u messages, its apps received %u", name,
                                         r.delivered, r.received));
    }
    const wire::Counters& c = *after[d];
    const std::uint64_t in = c.accepted() + c.from_peers() + c.recovered();
    const std::uint64_t out = c.delivered() + c.dropped() + c.expired() + c.lost_in_store() +
                              c.forwarded() + c.in_flight();
    if (in != out) {
      problems.push_back(absl::StrFormat(
          "%s: accepted + from_peers + recovered = %u, but delivered + dropped + expired + "
          "lost_in_store + forwarded + in_flight = %u",
          name, in, out));
    }
    forwarded += r.forwarded;
    from_peers += r.from_peers;
  }
  if (forwarded != from_peers) {
    problems.push_back(absl::StrFormat(
        "the daemons handed on %u messages and took over %u", forwarded, from_peers));
  }
  if (problems.empty()) return "";
  return "the daemons' counts do not balance: " + absl::StrJoin(problems, "; ");
}

}  // namespace trestle::bench
