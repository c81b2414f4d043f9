#include "trestle/fabric/fabric_adapter.h"

#include <cmath>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/text.h"

namespace trestle::fabric {
namespace {

// Loss draws use their own stream, so that turning loss on or off does not
// change the routes that random routing picks for the same seed.
constexpr std::uint64_t kLossStream = 0x9e3779b97f4a7c15ull;

}  // namespace

absl::Status FabricAdapterOptions::Validate() const {
  if (!(dilation > 0) || !std::isfinite(dilation)) {
    return absl::InvalidArgumentError(
        internal::Concat("dilation must be a positive number, got ", dilation));
  }
  if (!(loss_rate >= 0 && loss_rate <= 1)) {
    return absl::InvalidArgumentError(
        internal::Concat("loss rate must be between 0 and 1, got ", loss_rate));
  }
  return absl::OkStatus();
}

FabricAdapter::FabricAdapter(EventLoop& loop, ClientOptions client, const Topology& topology,
                             EndpointMap endpoints, FabricAdapterOptions options)
    : client_(loop, std::move(client)),
      endpoints_(std::move(endpoints)),
      options_(options),
      routing_(MakeRouting(options.routing, topology, options.seed)),
      model_(topology, MessageTimeModel::Options{options.endpoint_delay}),
      loss_rng_(options.seed ^ kLossStream) {
  if (options_.time_mode == TimeMode::kPaced) {
    scheduler_ = std::make_unique<PacedScheduler>(
        loop.uv_loop(), options_.dilation, [this](const Outcome& outcome) {
          ++counters_.delivered;
          client_.Post(outcome);
        });
  }
}

FabricAdapter::~FabricAdapter() = default;

absl::Status FabricAdapter::Start() {
  if (absl::Status s = options_.Validate(); !s.ok()) return s;
  client_.OnTransits([this](std::span<const Transit> transits) { HandleTransits(transits); });
  absl::Status connected = client_.Connect();
  // Start the pacing clock now unless a transit that arrived during the
  // handshake already started it.
  if (connected.ok() && scheduler_ && !scheduler_->started()) scheduler_->Start();
  return connected;
}

absl::Status FabricAdapter::Stop(std::chrono::milliseconds timeout) {
  scheduler_.reset();
  return client_.Close(timeout);
}

void FabricAdapter::HandleTransits(std::span<const Transit> transits) {
  for (const Transit& transit : transits) Answer(transit);
}

void FabricAdapter::Answer(const Transit& transit) {
  ++counters_.transits;
  const NodeId src = EndpointOf(transit.src);
  const NodeId dst = EndpointOf(transit.dst);
  if (src == kNoNode || dst == kNoNode) {
    ++counters_.dropped_unmapped;
    PostDropped(transit);
    return;
  }
  if (options_.loss_rate > 0 && uniform_(loss_rng_) < options_.loss_rate) {
    ++counters_.dropped_by_loss;
    PostDropped(transit);
    return;
  }
  const double ns = model_.TimeNs(src, dst, transit.size, *routing_);
  const Outcome outcome{transit.id, Outcome::Status::kDelivered,
                        transit.t_send + static_cast<std::uint64_t>(std::llround(ns)), 0};
  if (scheduler_) {
    scheduler_->Schedule(outcome);
  } else {
    ++counters_.delivered;
    client_.Post(outcome);
  }
}

void FabricAdapter::PostDropped(const Transit& transit) {
  client_.Post(Outcome{transit.id, Outcome::Status::kDropped, transit.t_send, 0});
}

NodeId FabricAdapter::EndpointOf(const std::string& client_id) {
  absl::StatusOr<NodeId> endpoint = endpoints_.Resolve(client_id);
  if (endpoint.ok()) return *endpoint;
  if (warned_ids_.insert(client_id).second) {
    spdlog::warn("fabric adapter: {}; its messages are dropped (DROPPED outcomes)",
                 std::string(endpoint.status().message()));
  }
  return kNoNode;
}

}  // namespace trestle::fabric
