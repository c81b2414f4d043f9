#include "trestle/ns3/ns3_workload_run.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapter/ns3_network_impl.h"
#include "adapter/simulation.h"
#include "adapter/transfer_engine.h"
#include "trestle/ns3/ns3_network.h"

namespace trestle::ns3_adapter {
namespace {

constexpr std::uint64_t kPsPerUs = 1'000'000;
constexpr std::uint64_t kOpening = std::numeric_limits<std::uint64_t>::max();  // context

// The workload's messages as transfers: ids are message indices; the
// context is the message index too (kOpening for setup messages).
class WorkloadDriver {
 public:
  WorkloadDriver(Ns3Network& network, const fabric::ValidationWorkload& workload)
      : simulation_(network.impl().simulation),
        workload_(workload),
        next_(workload.messages().size()),
        engine_(simulation_, network.impl().network, network.options(),
                [this](const TransferResult& r) { Done(r); }) {
    const std::vector<fabric::WorkloadMessage>& messages = workload_.messages();
    for (std::uint32_t i = 0; i < messages.size(); ++i) {
      if (messages[i].after != fabric::WorkloadMessage::kRoot) next_[messages[i].after].push_back(i);
    }
    times_.latency_ns.assign(messages.size(), std::numeric_limits<double>::quiet_NaN());
    missing_ = workload_.sample_count();
  }

  // Opens every pair's connection; returns when all are open.
  absl::Status Open() {
    std::uint64_t id = workload_.messages().size();
    for (const auto& [src, dst] : workload_.Pairs()) {
      engine_.StartAt(simulation_.NowPs(), TransferRequest{id++, src, dst, 0, kOpening});
    }
    return RunWhile([this] { return engine_.in_flight() > 0; }, "opening connections");
  }

  absl::StatusOr<fabric::WorkloadTimes> Run() {
    t0_ps_ = (simulation_.NowPs() / kPsPerUs + 1) * kPsPerUs;
    const std::vector<fabric::WorkloadMessage>& messages = workload_.messages();
    for (std::uint32_t i = 0; i < messages.size(); ++i) {
      if (messages[i].after == fabric::WorkloadMessage::kRoot) {
        Start(i, t0_ps_ + messages[i].t_send_ns * Simulation::kPsPerNs);
      }
    }
    if (absl::Status s = RunWhile([this] { return missing_ > 0; }, "the workload"); !s.ok()) {
      return s;
    }
    times_.events = simulation_.events_run();
    return times_;
  }

 private:
  void Start(std::uint32_t i, std::uint64_t at_ps) {
    const fabric::WorkloadMessage& m = workload_.messages()[i];
    engine_.StartAt(at_ps, TransferRequest{i, m.src, m.dst, m.bytes, i});
  }

  void Done(const TransferResult& r) {
    if (r.context == kOpening) return;
    const auto i = static_cast<std::uint32_t>(r.context);
    if (r.delivered) {
      times_.latency_ns[i] = static_cast<double>(r.end_ps - r.start_ps) / Simulation::kPsPerNs;
    }
    if (workload_.messages()[i].sample && --missing_ == 0) simulation_.EndSlice();
    for (std::uint32_t child : next_[i]) Start(child, r.end_ps);
  }

  template <typename Busy>
  absl::Status RunWhile(Busy busy, const char* what) {
    while (busy()) {
      if (simulation_.RunSlice(Simulation::kNoHorizon, ns3::HorizonScheduler::UNLIMITED) &&
          busy()) {
        return absl::InternalError(absl::StrCat("ns-3 ran out of events during ", what, " of ",
                                                workload_.spec().Name(), " (", missing_,
                                                " samples missing)"));
      }
    }
    return absl::OkStatus();
  }

  Simulation& simulation_;
  const fabric::ValidationWorkload& workload_;
  std::vector<std::vector<std::uint32_t>> next_;
  TransferEngine engine_;
  fabric::WorkloadTimes times_;
  std::size_t missing_ = 0;
  std::uint64_t t0_ps_ = 0;
};

}  // namespace

absl::StatusOr<fabric::WorkloadTimes> Ns3WorkloadRun::Run(const fabric::Topology& topology,
                                                          const fabric::ValidationWorkload& workload,
                                                          const Ns3NetworkOptions& options) {
  for (const fabric::WorkloadMessage& m : workload.messages()) {
    if (m.src >= topology.EndpointCount() || m.dst >= topology.EndpointCount()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "workload ", workload.spec().Name(), ": a message between endpoints ", m.src, " and ",
          m.dst, " of a topology with ", topology.EndpointCount()));
    }
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<Ns3Network>> network = Ns3Network::BuildWired(topology, options);
  if (!network.ok()) return network.status();
  absl::StatusOr<fabric::WorkloadTimes> times;
  {
    WorkloadDriver driver(**network, workload);
    if (options.transport == Transport::kTcp) {
      if (absl::Status s = driver.Open(); !s.ok()) return s;
    }
    times = driver.Run();
  }
  if (times.ok()) {
    times->wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return times;
}

}  // namespace trestle::ns3_adapter
