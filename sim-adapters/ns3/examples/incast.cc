// trestle-ns3-incast: the congested case of docs/validation.md. Every other
// endpoint of switch:8 (400 Gbit/s links of 500 ns) sends one message of
// SIZE bytes to endpoint 0 at time 0; the time until the last one arrives,
// for each size, from the congestion-unaware model, the flow-level
// contention model (endpoint congestion control on and off) and ns-3 (TCP
// CUBIC and NewReno, FIFO queues of 1000 packets).
//
//   trestle-ns3-incast [--senders N] [--sizes 64KiB,256KiB,1MiB,4MiB] [--queue-size 1000p]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "trestle/adapter/transit_handler.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_transit_handler.h"

namespace {

using namespace trestle;

constexpr char kSpec[] = "switch:8,link_bw=400Gbps,link_latency=500ns";

// The latest delivery (or drop) the handler posts.
class LastOutcome final : public adapter::OutcomeSink {
 public:
  void Deliver(std::uint64_t, std::uint64_t t) override { Note(t); }
  void Drop(std::uint64_t, std::uint64_t t) override {
    ++dropped;
    Note(t);
  }
  void ReportReached(std::uint64_t) override {}
  std::uint64_t last = 0;
  int count = 0;
  int dropped = 0;

 private:
  void Note(std::uint64_t t) {
    last = std::max(last, t);
    ++count;
  }
};

double ModelNs(const fabric::Topology& topology, fabric::NetworkModelKind kind, bool cc,
               std::uint32_t senders, std::uint64_t size) {
  fabric::NetworkModelOptions options;
  options.flow.congestion_control = cc;
  fabric::NetworkModelPtr model = fabric::MakeNetworkModel(kind, topology, options);
  std::vector<fabric::ModelCompletion> done;
  for (std::uint32_t s = 1; s <= senders; ++s) {
    model->Submit(fabric::ModelMessage{s, s, 0, size, 0, 0}, &done);
  }
  while (model->InFlight() > 0) model->AdvanceTo(model->NextEventNs(), &done);
  double last = 0;
  for (const fabric::ModelCompletion& c : done) last = std::max(last, c.latency_ns);
  return last;
}

double Ns3Ns(const fabric::Topology& topology, ns3_adapter::TcpVariant tcp,
             const ns3_adapter::QueueLimit& queue, std::uint32_t senders, std::uint64_t size,
             int* dropped) {
  ns3_adapter::Ns3NetworkOptions options;
  options.tcp = tcp;
  options.queue_size = queue;
  auto network = ns3_adapter::Ns3Network::BuildWired(topology, options);
  if (!network.ok()) {
    std::fprintf(stderr, "error: %s\n", network.status().ToString().c_str());
    std::exit(1);
  }
  EventLoop loop;
  LastOutcome sink;
  ns3_adapter::Ns3TransitHandler handler(loop, **network, {});
  handler.Begin(wire::TIME_MODE_VIRTUAL, sink);
  for (std::uint32_t s = 1; s <= senders; ++s) {
    Transit transit;
    transit.id = s;
    transit.size = size;
    handler.HandleTransit(transit, {s, 0});
  }
  loop.RunUntil([&] { return sink.count == static_cast<int>(senders); },
                std::chrono::minutes(10));
  *dropped = sink.dropped;
  return static_cast<double>(sink.last);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Incast on switch:8: fabric models against ns-3", "trestle-ns3-incast"};
  std::uint32_t senders = 7;
  std::string sizes_text = "64KiB,256KiB,1MiB,4MiB";
  std::string queue_text = "1000p";
  app.add_option("--senders", senders, "endpoints 1..N send to endpoint 0")
      ->check(CLI::Range(1, 7))
      ->capture_default_str();
  app.add_option("--sizes", sizes_text, "bytes per sender")->capture_default_str();
  app.add_option("--queue-size", queue_text, "ns-3: every FIFO queue's size")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  auto sizes = fabric::ByteSize::ParseList(sizes_text);
  auto queue = ns3_adapter::QueueLimit::Parse(queue_text);
  auto topology = fabric::TopologyBuilder::FromText(kSpec);
  if (!sizes.ok() || !queue.ok() || !topology.ok()) {
    std::fprintf(stderr, "error: bad --sizes or --queue-size\n");
    return 1;
  }
  std::printf("%u senders -> endpoint 0 of %s, time until the last arrival (us)\n", senders,
              kSpec);
  std::printf("%10s %10s %10s %10s %12s %12s\n", "size", "unaware", "flow cc", "flow no-cc",
              "ns3 cubic", "ns3 newreno");
  for (const fabric::ByteSize& size : *sizes) {
    const std::uint64_t bytes = size.bytes();
    int cubic_drops = 0;
    int reno_drops = 0;
    const double cubic = Ns3Ns(**topology, ns3_adapter::TcpVariant::kCubic, *queue, senders,
                               bytes, &cubic_drops);
    const double reno = Ns3Ns(**topology, ns3_adapter::TcpVariant::kNewReno, *queue, senders,
                              bytes, &reno_drops);
    std::printf("%10s %10.2f %10.2f %10.2f %12.2f %12.2f%s\n", size.ToString().c_str(),
                ModelNs(**topology, fabric::NetworkModelKind::kUnaware, true, senders, bytes) / 1e3,
                ModelNs(**topology, fabric::NetworkModelKind::kFlow, true, senders, bytes) / 1e3,
                ModelNs(**topology, fabric::NetworkModelKind::kFlow, false, senders, bytes) / 1e3,
                cubic / 1e3, reno / 1e3,
                cubic_drops + reno_drops > 0 ? "  (messages lost)" : "");
  }
  return 0;
}
