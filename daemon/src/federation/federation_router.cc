#include "federation/federation_router.h"

#include <span>
#include <string_view>

namespace trestle::daemon {

FederationRouter::FederationRouter(uv_loop_t* loop, const DaemonConfig& config,
                                   MessageLedger& ledger, ClientRegistry& apps, PayloadStore& store,
                                   TransitDispatcher& transits, DeliveryDispatcher& deliveries,
                                   BridgeLinks& bridge, FallbackPayloadStore* fallback,
                                   LockstepCoordinatorEvents* coordinator,
                                   LockstepRelayEvents* relay)
    : ledger_(ledger),
      directory_(bridge.directory()),
      streams_(bridge.streams()),
      journal_(bridge.journal()),
      coordinator_(coordinator),
      backpressure_(loop, config, apps, transits, directory_,
                    [this](std::uint32_t daemon, std::span<const std::string_view> fields) {
                      streams_.Append(daemon, fields, {},
                                      {.message = daemon, .kind = PeerBackpressure::kKind});
                    }),
      outbound_(loop, config, ledger, apps, store, transits, deliveries, bridge, fallback,
                backpressure_, relay),
      inbound_(config, ledger, apps, bridge, backpressure_, outbound_, coordinator, relay) {
  ledger_.SetDurableObserver(&inbound_);
}

absl::Status FederationRouter::Join(std::uint64_t now_ms) {
  if (absl::Status s = streams_.Open(inbound_, outbound_); !s.ok()) return s;
  directory_.Heartbeat(ledger_.totals(), now_ms);
  inbound_.Recover();
  return absl::OkStatus();
}

void FederationRouter::Housekeeping(std::uint64_t now_ms) {
  directory_.Heartbeat(ledger_.totals(), now_ms);
  if (coordinator_ != nullptr && directory_.totals().at_ms != alive_as_of_ms_) {
    alive_as_of_ms_ = directory_.totals().at_ms;
    coordinator_->OnLiveDaemons(directory_.alive_daemons(), alive_as_of_ms_);
  }
  streams_.Retry();
  streams_.Trim(now_ms);
  journal_.Retry();
  backpressure_.Housekeeping(now_ms);
  outbound_.Housekeeping(now_ms);
}

}  // namespace trestle::daemon
