// Which network model prices messages, and the settings every model takes.
// Callers (the live adapter, sweeps) build models here and use them only
// through NetworkModel, so a new model is one more NetworkModelKind.
#ifndef TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_
#define TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/message_ordering.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/queue_model_options.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/traffic_class_table.h"

namespace trestle::fabric {

// kUnaware: UnawareNetworkModel, every message priced alone on an idle
// network. kFlow: FlowNetworkModel, messages in flight share links (flow
// level, max-min fair, traffic classes, endpoint congestion control).
enum class NetworkModelKind { kUnaware, kFlow };

// "unaware" or "flow"; anything else is InvalidArgument listing the names.
absl::StatusOr<NetworkModelKind> ParseNetworkModelKind(std::string_view text);
std::string_view NetworkModelKindName(NetworkModelKind kind);

// Settings only the flow model reads (FlowNetworkModel; docs/fabric.md,
// "Congestion").
struct FlowModelOptions {
  // On: endpoint congestion control (each flow takes one max-min fair rate
  // along its whole path). Off: a flow keeps the rate it is offered upstream
  // on every link, backing up behind its bottleneck (tree saturation).
  bool congestion_control = true;
  TrafficClassTable classes;
  // The queues that give messages their queueing delay (StandingQueues).
  QueueModelOptions queues;
  // Debug: after every event, check that no link carries more than its
  // capacity, that rates are the fair allocation, and that every finished
  // flow moved exactly its bytes (FlowNetworkModel::invariants()). Slow.
  bool check_invariants = false;
};

struct NetworkModelOptions {
  NetworkModelOptions() = default;
  NetworkModelOptions(RoutingKind routing_kind, std::uint64_t routing_seed, Duration delay,
                      FlowModelOptions flow_options = {})
      : routing(routing_kind), seed(routing_seed), endpoint_delay(delay), flow(flow_options) {}

  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;   // the routing policy's random choices
  Duration endpoint_delay;  // per-message software cost at the endpoints, paid once
  FlowModelOptions flow;
  // Connections (in order, one path, bytes queued behind the previous
  // message's) or datagrams (message_ordering.h). Valiant routing draws one
  // waypoint per connection under kConnection (PathChoice).
  MessageOrdering ordering = MessageOrdering::kConnection;

  PathChoice path_choice() const {
    return ordering == MessageOrdering::kConnection ? PathChoice::kPerConnection
                                                    : PathChoice::kPerMessage;
  }
};

// `topology` must outlive the model.
NetworkModelPtr MakeNetworkModel(NetworkModelKind kind, const Topology& topology,
                                 const NetworkModelOptions& options);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_
