#include "trestle/fabric/fabric_adapter.h"

#include <cmath>
#include <utility>

namespace trestle::fabric {

FabricAdapter::FabricAdapter(EventLoop& loop, ClientOptions client, const Topology& topology,
                             adapter::EndpointMap endpoints, FabricAdapterOptions options)
    : model_(MakeNetworkModel(options.model, topology, options.pricing)),
      adapter_(loop, std::move(client), std::move(options.adapter), *this, std::move(endpoints)) {}

FabricAdapter::~FabricAdapter() = default;

void FabricAdapter::Begin(adapter::TimeMode, adapter::OutcomeSink& outcomes) {
  outcomes_ = &outcomes;
}

void FabricAdapter::HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) {
  model_->Submit(ModelMessage{transit.id, endpoints.src, endpoints.dst, transit.size,
                              transit.tclass, transit.t_send},
                 &completed_);
  PostCompleted();
}

void FabricAdapter::HandleGrant(std::uint64_t t_ns) {
  model_->AdvanceTo(t_ns, &completed_);
  PostCompleted();
}

std::uint64_t FabricAdapter::LookaheadNs() const {
  // t_deliver - t_send is round(latency), and rounding keeps order, so the
  // rounded bound is a bound.
  return static_cast<std::uint64_t>(std::llround(model_->MinLatency().AnyMessageNs()));
}

void FabricAdapter::PostCompleted() {
  for (const ModelCompletion& completion : completed_) {
    if (completion.dropped) {
      outcomes_->Drop(completion.id, completion.t_deliver_ns());
    } else {
      outcomes_->Deliver(completion.id, completion.t_deliver_ns());
    }
  }
  completed_.clear();
}

}  // namespace trestle::fabric
