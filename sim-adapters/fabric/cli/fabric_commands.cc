#include "trestle/fabric/cli.h"

#include <cstdio>

#include "cli/commands.h"
#include "common/text.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/duration.h"

namespace trestle::fabric {
namespace cli {

void LinkFlags::AddTo(CLI::App* command) {
  command->add_option("--link-bw", link_bw,
                      "bandwidth of links the spec leaves unset, e.g. 400Gbps (default 200Gbps)");
  command->add_option("--link-latency", link_latency,
                      "latency of links the spec leaves unset, e.g. 500ns (default 100ns)");
}

absl::StatusOr<FabricParams> LinkFlags::Resolve() const {
  FabricParams params;
  if (!link_bw.empty()) {
    absl::StatusOr<Bandwidth> bw = Bandwidth::Parse(link_bw);
    if (!bw.ok()) return bw.status();
    params.link_bandwidth = *bw;
    params.injection_bandwidth = *bw;
  }
  if (!link_latency.empty()) {
    absl::StatusOr<Duration> latency = Duration::Parse(link_latency);
    if (!latency.ok()) return latency.status();
    params.link_latency = *latency;
  }
  return params;
}

void PricingFlags::AddTo(CLI::App* command, const std::string& endpoint_delay_help) {
  command->add_option("--routing", routing,
                      "minimal (ECMP hash), minimal-dmodk, valiant or adaptive")
      ->capture_default_str();
  command->add_option("--seed", seed, "seed for the model's random choices")
      ->capture_default_str();
  command->add_option("--endpoint-delay", endpoint_delay, endpoint_delay_help)
      ->capture_default_str();
}

absl::StatusOr<PricingFlags::Resolved> PricingFlags::Resolve() const {
  Resolved resolved;
  absl::StatusOr<RoutingKind> kind = ParseRoutingKind(routing);
  if (!kind.ok()) return kind.status();
  absl::StatusOr<Duration> delay = Duration::Parse(endpoint_delay);
  if (!delay.ok()) return delay.status();
  resolved.routing = *kind;
  resolved.seed = seed;
  resolved.endpoint_delay = *delay;
  return resolved;
}

void OrderingFlag::AddTo(CLI::App* command, const std::string& group) {
  command->add_option("--ordering", ordering,
                      "connection (a connection's messages, from one app to another in one "
                      "traffic class, arrive in the order sent, on one path, each one's bytes "
                      "behind the previous one's) or message (each message on its own: a later "
                      "one may arrive first)")
      ->capture_default_str()
      ->group(group);
}

QueueFlags::QueueFlags() {
  const QueueModelOptions defaults;
  buffer = ByteSize::Bytes(defaults.buffer_bytes).ToString();
  cc_queue = ByteSize::Bytes(defaults.cc_queue_bytes).ToString();
  packet_size = ByteSize::Bytes(defaults.packet_bytes).ToString();
}

void QueueFlags::AddTo(CLI::App* command, const std::string& group) {
  command->add_option("--buffer", buffer,
                      "flow model, congestion control off: a switch port's buffer per traffic "
                      "class (full where traffic backs up; the most any queue holds)")
      ->capture_default_str()
      ->group(group);
  command->add_option("--cc-queue", cc_queue,
                      "flow model, congestion control on: what each flow crossing a saturated "
                      "port keeps queued there")
      ->capture_default_str()
      ->group(group);
  packet_size_option =
      command->add_option("--packet-size", packet_size,
                          "flow model: the network's packet, the unit of its load queues")
          ->capture_default_str()
          ->group(group);
  command->add_option("--burstiness", burstiness,
                      "flow model: the calibration of its load queues, the packet arrivals' "
                      "variability (1: Poisson, 0: no load queue)")
      ->capture_default_str()
      ->group(group);
}

absl::StatusOr<QueueModelOptions> QueueFlags::Resolve() const {
  QueueModelOptions options;
  const std::pair<const char*, std::pair<const std::string*, std::uint64_t*>> sizes[] = {
      {"--buffer", {&buffer, &options.buffer_bytes}},
      {"--cc-queue", {&cc_queue, &options.cc_queue_bytes}},
      {"--packet-size", {&packet_size, &options.packet_bytes}}};
  for (const auto& [flag, field] : sizes) {
    absl::StatusOr<ByteSize> size = ByteSize::Parse(*field.first);
    if (!size.ok()) {
      return absl::InvalidArgumentError(
          internal::Concat(flag, ": ", std::string(size.status().message())));
    }
    *field.second = size->bytes();
  }
  options.burstiness = burstiness;
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return options;
}

void FlowFlags::AddTo(CLI::App* command, const std::string& group) {
  command->add_option("--cc", cc,
                      "flow model: endpoint congestion control on (sources held to their fair "
                      "share) or off (traffic backs up behind its bottleneck)")
      ->capture_default_str()
      ->group(group);
  command->add_option("--class", classes,
                      "flow model: a traffic class, TCLASS:weight=W,min=P% (repeatable), e.g. "
                      "1:min=80%")
      ->group(group);
  command->add_option("--classes", classes_file,
                      "flow model: traffic classes from a YAML file (docs/fabric.md)")
      ->group(group);
  queues.AddTo(command, group);
}

absl::StatusOr<FlowModelOptions> FlowFlags::Resolve() const {
  FlowModelOptions options;
  if (cc != "on" && cc != "off") {
    return absl::InvalidArgumentError(internal::Concat("--cc '", cc, "': expected on or off"));
  }
  options.congestion_control = cc == "on";
  absl::StatusOr<QueueModelOptions> sizes = queues.Resolve();
  if (!sizes.ok()) return sizes.status();
  options.queues = *sizes;
  TrafficClassTable table;
  if (!classes_file.empty()) {
    absl::StatusOr<TrafficClassTable> from_file = TrafficClassTable::FromYamlFile(classes_file);
    if (!from_file.ok()) return from_file.status();
    table = *std::move(from_file);
  }
  std::vector<TrafficClassSpec> specs;
  for (const std::string& text : classes) {
    absl::StatusOr<TrafficClassSpec> spec = TrafficClassTable::ParseFlag(text);
    if (!spec.ok()) return spec.status();
    specs.push_back(*spec);
  }
  absl::StatusOr<TrafficClassTable> merged = TrafficClassTable::Merge(table, specs);
  if (!merged.ok()) return merged.status();
  options.classes = *std::move(merged);
  return options;
}

void Fail(const absl::Status& status) {
  // CLI11's App::exit() prints nothing for a RuntimeError (it is meant for
  // callbacks that choose their exit code), so the message is printed here.
  std::string message(status.message());
  std::fprintf(stderr, "error: %s\n", message.c_str());
  throw CLI::RuntimeError(message, 1);
}

}  // namespace cli

void RegisterFabricCommands(CLI::App& app) {
  CLI::App* fabric = app.add_subcommand(
      "fabric",
      "analytical fabric model: run the live adapter (--daemon ADDR --topology SPEC), or "
      "describe a topology (fabric describe --topology SPEC)");
  fabric->require_subcommand(0, 1);
  cli::RegisterDescribeCommand(fabric);
  cli::AddAdapterOptions(fabric);
  cli::RegisterSweepCommand(&app);
  cli::RegisterCongestionCommand(&app);
}

}  // namespace trestle::fabric
