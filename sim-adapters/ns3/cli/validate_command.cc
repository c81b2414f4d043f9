// `trestle-sim validate`: the same workloads through the congestion-unaware
// model, the flow model and ns-3, on one topology, with each backend's p50
// and p99 message time and its error against a reference backend
// (docs/validation.md, "At scale").
#include "cli/validate_command.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/validation_report.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/model_workload_run.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/sample_statistics.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/fabric/validation_workload.h"
#include "trestle/ns3/ns3_options.h"
#include "trestle/ns3/ns3_workload_run.h"

namespace trestle::ns3_adapter::cli {
namespace {

using fabric::cli::Fail;
using fabric::cli::OrFail;

constexpr const char* kBackends[] = {"unaware", "flow", "flow-cc-off",
                                     "ns3-cubic", "ns3-newreno", "ns3-dctcp"};

struct ValidateFlags {
  std::string topology;
  std::vector<std::string> workloads;
  std::vector<std::string> backends = {"unaware", "flow", "ns3-cubic", "ns3-dctcp"};
  std::string reference;
  fabric::cli::LinkFlags links;
  std::uint64_t seed = 1;
  std::string endpoint_delay = "0ns";
  fabric::cli::QueueFlags queues;
  std::string queue_size = "1000p";
  std::uint32_t ecn_threshold = 10;
  std::uint32_t mtu = 1500;
  std::string csv;
  std::string messages;
};

bool IsNs3(const std::string& backend) { return backend.rfind("ns3-", 0) == 0; }

// One backend's run of one workload.
absl::StatusOr<fabric::WorkloadTimes> RunBackend(const std::string& backend,
                                                 const fabric::Topology& topology,
                                                 const fabric::ValidationWorkload& workload,
                                                 const fabric::NetworkModelOptions& model,
                                                 const Ns3NetworkOptions& network) {
  if (IsNs3(backend)) {
    Ns3NetworkOptions options = network;
    options.tcp = backend == "ns3-cubic"     ? TcpVariant::kCubic
                  : backend == "ns3-newreno" ? TcpVariant::kNewReno
                                             : TcpVariant::kDctcp;
    options.queue = options.tcp == TcpVariant::kDctcp ? QueueDiscipline::kCoDel : QueueDiscipline::kFifo;
    return Ns3WorkloadRun::Run(topology, workload, options);
  }
  fabric::NetworkModelOptions options = model;
  options.flow.congestion_control = backend != "flow-cc-off";
  fabric::NetworkModelPtr m = fabric::MakeNetworkModel(
      backend == "unaware" ? fabric::NetworkModelKind::kUnaware : fabric::NetworkModelKind::kFlow,
      topology, options);
  return fabric::ModelWorkloadRun::Run(*m, topology.EndpointCount(), workload);
}

void RunValidate(const ValidateFlags& flags) {
  const fabric::FabricParams defaults = OrFail(flags.links.Resolve());
  fabric::TopologyPtr topology = OrFail(fabric::TopologyBuilder::FromText(flags.topology, defaults));
  for (const std::string& backend : flags.backends) {
    bool known = false;
    for (const char* name : kBackends) known = known || backend == name;
    if (!known) {
      Fail(absl::InvalidArgumentError(absl::StrCat(
          "--backend: unknown backend '", backend,
          "' (unaware, flow, flow-cc-off, ns3-cubic, ns3-newreno, ns3-dctcp)")));
    }
  }
  std::string reference = flags.reference;
  if (reference.empty()) {
    for (const std::string& backend : flags.backends) {
      if (reference.empty() && IsNs3(backend)) reference = backend;
    }
  }
  std::vector<fabric::ValidationWorkload> workloads;
  for (const std::string& text : flags.workloads) {
    const auto spec = OrFail(fabric::ValidationWorkload::Spec::Parse(text));
    workloads.push_back(OrFail(fabric::ValidationWorkload::Make(spec, topology->EndpointCount(),
                                                                flags.seed)));
  }

  fabric::NetworkModelOptions model;
  model.seed = flags.seed;
  model.endpoint_delay = OrFail(fabric::Duration::Parse(flags.endpoint_delay));
  model.flow.queues = OrFail(flags.queues.Resolve());
  // The flow model's packet is ns-3's unless --packet-size says otherwise.
  if (flags.queues.packet_size_option->count() == 0) model.flow.queues.packet_bytes = flags.mtu;

  Ns3NetworkOptions network;
  network.seed = flags.seed;
  network.ip_routing = IpRouting::kFabric;
  network.mtu = flags.mtu;
  network.queue_size = OrFail(QueueLimit::Parse(flags.queue_size));
  network.ecn_threshold_packets = flags.ecn_threshold;
  network.delayed_acks = false;
  network.endpoint_delay_ns = static_cast<std::uint64_t>(std::llround(model.endpoint_delay.ns()));
  network.tcp = TcpVariant::kDctcp;
  network.queue = QueueDiscipline::kCoDel;
  if (absl::Status s = network.Validate(); !s.ok()) Fail(s);

  ValidationReport report(topology->Name(), reference);
  std::ofstream messages;
  if (!flags.messages.empty()) {
    messages.open(flags.messages, std::ios::trunc);
    if (!messages) {
      Fail(absl::UnavailableError(absl::StrCat("--messages: cannot write '", flags.messages,
                                               "': ", std::strerror(errno))));
    }
    messages << "workload,backend,message,src,dst,bytes,sample,latency_ns\n";
  }
  const std::size_t runs = workloads.size() * flags.backends.size();
  std::size_t run = 0;
  for (const fabric::ValidationWorkload& workload : workloads) {
    for (const std::string& backend : flags.backends) {
      std::fprintf(stderr, "validate [%zu/%zu] %s on %s, %s: ", ++run, runs,
                   workload.spec().Name().c_str(), topology->Name().c_str(), backend.c_str());
      std::fflush(stderr);
      const fabric::WorkloadTimes times =
          OrFail(RunBackend(backend, *topology, workload, model, network));
      report.Add(workload.spec().Name(), backend, times.Samples(workload), times.wall_seconds);
      if (messages.is_open()) {
        for (std::size_t i = 0; i < workload.messages().size(); ++i) {
          const fabric::WorkloadMessage& m = workload.messages()[i];
          messages << workload.spec().Name() << "," << backend << "," << i << "," << m.src << ","
                   << m.dst << "," << m.bytes << "," << (m.sample ? 1 : 0) << ","
                   << times.latency_ns[i] << "\n";
        }
      }
      const ValidationRow& row = report.rows().back();
      std::fprintf(stderr, "p50 %.3f us, p99 %.3f us (%.2f s)\n", row.p50_ns / 1000,
                   row.p99_ns / 1000, times.wall_seconds);
    }
  }
  std::printf("topology    %s, %u endpoints, minimal routing (ns-3: the same paths)\n",
              topology->Name().c_str(), topology->EndpointCount());
  std::printf("reference   %s\n", reference.empty() ? "none" : reference.c_str());
  report.PrintTable(stdout);
  if (!flags.csv.empty()) {
    if (absl::Status s = report.WriteCsv(flags.csv); !s.ok()) Fail(s);
    std::printf("wrote %s\n", flags.csv.c_str());
  }
  if (messages.is_open()) {
    messages.close();
    if (!messages) Fail(absl::UnavailableError(absl::StrCat("--messages: error writing '", flags.messages, "'")));
    std::printf("wrote %s\n", flags.messages.c_str());
  }
}

}  // namespace

void RegisterValidateCommand(CLI::App& app) {
  auto flags = std::make_shared<ValidateFlags>();
  CLI::App* validate = app.add_subcommand(
      "validate",
      "run workloads through the congestion-unaware model, the flow model and ns-3 on one "
      "topology and compare their message times");
  validate->add_option("--topology", flags->topology, "a topology spec or YAML file")->required();
  validate
      ->add_option("--workload", flags->workloads,
                   "permutation:SIZE, incast:K:SIZE, alltoall:SIZE or "
                   "victim:SIZE[+alltoall:SIZE|+incast:SIZE] (repeatable)")
      ->required();
  validate
      ->add_option("--backend", flags->backends,
                   "unaware, flow, flow-cc-off, ns3-cubic, ns3-newreno or ns3-dctcp (repeatable)")
      ->capture_default_str();
  validate->add_option("--reference", flags->reference,
                       "the backend errors are measured against (default: the first ns3 one)");
  flags->links.AddTo(validate);
  validate->add_option("--seed", flags->seed, "workloads' random choices and ECMP")
      ->capture_default_str();
  validate->add_option("--endpoint-delay", flags->endpoint_delay, "per-message endpoint overhead")
      ->capture_default_str();
  flags->queues.AddTo(validate, "Flow model");
  flags->queues.packet_size_option->default_str("--mtu");
  validate->add_option("--queue-size", flags->queue_size, "ns-3: every queue's size (packets or bytes)")
      ->capture_default_str()
      ->group("ns-3");
  validate
      ->add_option("--ecn-threshold", flags->ecn_threshold,
                   "ns3-dctcp: the codel queue marks packets that waited longer than this many full packets take")
      ->capture_default_str()
      ->group("ns-3");
  validate->add_option("--mtu", flags->mtu, "ns-3: IP bytes per frame")
      ->capture_default_str()
      ->group("ns-3");
  validate->add_option("--csv", flags->csv,
                       "write one row per workload and backend (ValidationReport's columns)");
  validate->add_option("--messages", flags->messages,
                       "write one row per message and backend: workload,backend,message,src,dst,"
                       "bytes,sample,latency_ns (nan: lost or never sent)");
  validate->footer(
      "Every backend runs the same messages (ValidationWorkload); ns-3 packets follow the fabric "
      "model's minimal paths (--ip-routing fabric), TCP connections are opened before the "
      "workload and acknowledge every segment, ns3-cubic and ns3-newreno use FIFO queues, "
      "ns3-dctcp CoDel queues marking with ECN. Errors are backend / reference - 1. See "
      "docs/validation.md.");
  validate->callback([flags] { RunValidate(*flags); });
}

}  // namespace trestle::ns3_adapter::cli
