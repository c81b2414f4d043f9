// MessageOrdering: what a network model promises about the order in which
// messages arrive (docs/fabric.md, "Connections").
//
//   kConnection  (the default) the messages from one endpoint to another in
//                one traffic class form a connection, as on a real transport
//                (TCP, an RDMA queue pair, MPI's non-overtaking rule):
//                delivered in the order they were sent (a later message's
//                t_deliver is never below an earlier one's), on one routed
//                path while the connection is busy, and a message's bytes
//                start only once the previous message's have left (they
//                queue behind them instead of sharing the connection's
//                bandwidth with them).
//   kMessage     datagram semantics: every message is routed, priced and
//                delivered on its own, so a later message may arrive first.
//
// "Sent" order is the order in which a model starts its messages: by t_send,
// then by id (the daemon's ids grow with each app's sends).
//
// C++17-clean (the ns-3 adapter shares it); no dependencies beyond absl.
#ifndef TRESTLE_FABRIC_MESSAGE_ORDERING_H_
#define TRESTLE_FABRIC_MESSAGE_ORDERING_H_

#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric {

enum class MessageOrdering { kConnection, kMessage };

// "connection" or "message"; anything else is InvalidArgument naming both.
absl::StatusOr<MessageOrdering> ParseMessageOrdering(std::string_view text);
std::string_view MessageOrderingName(MessageOrdering ordering);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_MESSAGE_ORDERING_H_
