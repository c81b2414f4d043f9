#include "trestle/ns3/ns3_collective_sweep.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adapter/ns3_network_impl.h"
#include "adapter/simulation.h"
#include "adapter/transfer_engine.h"
#include "ns3/point-to-point-net-device.h"
#include "trestle/fabric/replay_ranks.h"
#include "trestle/ns3/ns3_network.h"

namespace trestle::ns3_adapter {
namespace {


using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

absl::Status Check(const fabric::Topology& topology, const fabric::CollectiveSchedule& schedule,
                   const fabric::SweepOptions& sweep) {
  if (schedule.ranks() > topology.EndpointCount()) {
    return absl::InvalidArgumentError(absl::StrCat(schedule.ranks(), " ranks do not fit on ",
                                                   topology.EndpointCount(), " endpoints"));
  }
  if (sweep.chunks == 0) return absl::InvalidArgumentError("--chunks must be at least 1");
  if (sweep.routing != fabric::RoutingKind::kMinimal) {
    return absl::InvalidArgumentError(
        "--routing: the ns3 backend routes with ns-3's IPv4 routing (shortest paths); only "
        "minimal applies");
  }
  if (sweep.model != fabric::NetworkModelKind::kUnaware) {
    return absl::InvalidArgumentError(
        "--model: the ns3 backend is its own network model; --model applies to the fabric "
        "backend");
  }
  return absl::OkStatus();
}

// One size of the sweep in one simulation: transfers step by step, or
// every rank at its own pace (dataflow).
class StepRunner {
 public:
  StepRunner(Ns3Network& network, std::uint32_t ranks)
      : simulation_(network.impl().simulation),
        ranks_(ranks),
        engine_(simulation_, network.impl().network, network.options(),
                [this](const TransferResult& result) { Finished(result); }) {}

  // Counts every packet a device of `network` finishes sending into *packets.
  void CountPackets(std::uint64_t* packets, const ns3::TrestleNetwork& network) {
    for (std::uint32_t n = 0; n < network.nodes.GetN(); ++n) {
      ns3::Ptr<ns3::Node> node = network.nodes.Get(n);
      for (std::uint32_t d = 0; d < node->GetNDevices(); ++d) {
        node->GetDevice(d)->TraceConnectWithoutContext("PhyTxEnd",
                                                       ns3::MakeBoundCallback(&CountPacket, packets));
      }
    }
  }

  // Every rank sends `bytes` to its partner under `pattern`, from `start_ps`
  // (not before the clock); returns when the last has arrived or been lost.
  std::uint64_t Step(std::uint64_t start_ps, const fabric::StepPattern& pattern,
                     std::uint64_t bytes) {
    for (std::uint32_t rank = 0; rank < ranks_; ++rank) {
      engine_.StartAt(start_ps, TransferRequest{next_id_++, rank, pattern.PartnerOf(rank, ranks_),
                                                bytes, 0});
    }
    while (engine_.in_flight() > 0) simulation_.RunSlice(Simulation::kNoHorizon, kUnlimited);
    return simulation_.NowPs();
  }

  // Every rank takes `steps` from `start_ps` as CollectiveReplay's ranks
  // do (ReplayRanks, in ps): its next message leaves when the one it waits
  // for has arrived, plus its reduction. Returns when the last rank is done
  // (or, a message lost, when nothing is left in flight).
  std::uint64_t Dataflow(std::uint64_t start_ps, const std::vector<fabric::ReplayStep>& steps) {
    fabric::ReplayRanks ranks(steps, ranks_, start_ps, Simulation::kPsPerNs, next_id_);
    next_id_ += static_cast<std::uint64_t>(steps.size()) * ranks_;
    dataflow_ = &ranks;
    for (std::uint32_t rank = 0; rank < ranks_ && !steps.empty(); ++rank) Send(rank);
    while (!ranks.all_done() && engine_.in_flight() > 0) {
      simulation_.RunSlice(Simulation::kNoHorizon, kUnlimited);
    }
    dataflow_ = nullptr;
    return ranks.end();
  }

  std::uint64_t NowPs() const { return simulation_.NowPs(); }
  // Transfers lost so far (UDP datagrams dropped, TCP connections broken).
  std::uint64_t lost() const { return engine_.dropped(); }

 private:
  static constexpr std::uint64_t kUnlimited = ns3::HorizonScheduler::UNLIMITED;

  static void CountPacket(std::uint64_t* count, ns3::Ptr<const ns3::Packet>) { ++*count; }

  void Finished(const TransferResult& result) {
    if (dataflow_ == nullptr) {
      if (engine_.in_flight() == 0) simulation_.EndSlice();
      return;
    }
    if (!result.delivered) return;  // counted lost: the collective never ends
    dataflow_->Arrived(result.id, result.end_ps, &due_);
    SendDue();
    if (dataflow_->all_done()) simulation_.EndSlice();
  }

  // Dataflow: rank `r` sends its next message, and so on for every rank
  // that makes due.
  void Send(std::uint32_t r) {
    due_.push_back(fabric::ReplayRanks::Due{0, r});
    SendDue();
  }

  void SendDue() {
    while (!due_.empty()) {
      const std::uint32_t r = due_.back().rank;
      due_.pop_back();
      const fabric::ReplayRanks::Message m = dataflow_->Send(r, &due_);
      engine_.StartAt(m.t_send, TransferRequest{m.id, m.src, m.dst, m.bytes, 0});
    }
  }

  Simulation& simulation_;
  std::uint32_t ranks_;
  TransferEngine engine_;
  std::uint64_t next_id_ = 1;
  fabric::ReplayRanks* dataflow_ = nullptr;  // during Dataflow
  std::vector<fabric::ReplayRanks::Due> due_;
};

}  // namespace

absl::StatusOr<std::vector<double>> Ns3CollectiveSweep::Run(
    const fabric::Topology& topology, const fabric::CollectiveSchedule& schedule,
    const std::vector<std::uint64_t>& sizes_bytes, const fabric::SweepOptions& sweep,
    const Ns3NetworkOptions& network_options, Ns3SweepStats* stats) {
  if (absl::Status s = Check(topology, schedule, sweep); !s.ok()) return s;
  Ns3NetworkOptions options = network_options;
  options.endpoint_delay_ns = static_cast<std::uint64_t>(std::llround(sweep.endpoint_delay.ns()));
  Ns3SweepStats total;
  std::vector<double> times;
  times.reserve(sizes_bytes.size());
  for (std::uint64_t size : sizes_bytes) {
    const Clock::time_point build_start = Clock::now();
    absl::StatusOr<std::unique_ptr<Ns3Network>> network = Ns3Network::BuildWired(topology, options);
    if (!network.ok()) return network.status();
    total.build_seconds += SecondsSince(build_start);
    const Clock::time_point run_start = Clock::now();
    StepRunner runner(**network, schedule.ranks());
    if (stats != nullptr) runner.CountPackets(&total.packets, (*network)->impl().network);

    // Setup: one empty message per connection the schedule uses.
    std::uint64_t t = runner.NowPs();
    if (options.transport == Transport::kTcp) {
      std::set<std::pair<int, std::uint32_t>> opened;
      for (const fabric::CollectiveStep& step : schedule.steps()) {
        if (opened.insert({static_cast<int>(step.pattern.kind), step.pattern.operand}).second) {
          t = runner.Step(t, step.pattern, 0);
        }
      }
    }

    const std::uint64_t t0 = t;
    const std::uint64_t chunk = (size + sweep.chunks - 1) / sweep.chunks;
    if (sweep.timing == fabric::SweepTiming::kDataflow) {
      t = runner.Dataflow(t, fabric::CollectiveSweep::UnrolledSteps(schedule, size, sweep));
    }
    for (std::uint32_t c = 0; c < sweep.chunks && sweep.timing != fabric::SweepTiming::kDataflow;
         ++c) {
      for (const fabric::CollectiveStep& step : schedule.steps()) {
        const std::uint64_t bytes = step.BytesFor(chunk);
        for (std::uint32_t r = 0; r < step.repeat; ++r) {
          t = runner.Step(t, step.pattern, bytes);
          if (step.reduce && sweep.reduce_bandwidth) {
            // The reduction runs at every rank before the next step starts.
            t += static_cast<std::uint64_t>(std::ceil(
                static_cast<double>(bytes) / sweep.reduce_bandwidth->bytes_per_ns() * Simulation::kPsPerNs));
          }
        }
      }
    }
    if (runner.lost() > 0) {
      // A collective that lost a message never completes: no time to give.
      return absl::DataLossError(absl::StrCat(
          "ns3 backend: ", runner.lost(), " messages lost at ", size, " bytes on ",
          topology.Name(), " (--transport ", std::string(TransportName(options.transport)),
          ", --queue ", std::string(QueueDisciplineName(options.queue)), " ",
          options.queue_size.ToString(), "); a collective that loses a message never completes"));
    }
    times.push_back(static_cast<double>(t - t0) / Simulation::kPsPerNs);
    total.events += (*network)->impl().simulation.events_run();
    total.run_seconds += SecondsSince(run_start);
  }
  if (stats != nullptr) *stats = total;
  return times;
}

}  // namespace trestle::ns3_adapter
