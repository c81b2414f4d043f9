// AppFleet: the apps a LoadGenerator drives and the relay they reach. The
// generator decides who sends what to whom and when, and checks what
// arrives; a fleet only connects apps and moves their messages. Two kinds:
// BridgeFleet (AppClients through trestled and a simulator) and FloorFleet
// (length-prefixed frames through the floor relay and echo), so that the
// bridge and its floor carry exactly the same traffic.
//
// Apps are numbered 0..apps-1. The last `stalled` of them never read what
// is sent to them (`trestle bench --stalled-apps`); they still connect.
//
// Threading: everything on the loop's thread; callbacks run on the loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle.pb.h"
#include "trestle/message.h"

namespace trestle::bench {

class AppFleet {
 public:
  struct Handlers {
    // A message arrived at app `receiver`; `m` is valid during the call.
    std::function<void(std::uint32_t receiver, const Message& m)> on_arrival;
    // An error reported asynchronously (a rejected send, a lost connection).
    std::function<void(const absl::Status&)> on_error;
  };

  virtual ~AppFleet() = default;

  // Creates the apps, not yet connected. Call once, first.
  virtual void Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) = 0;
  // Starts connecting app `app`; `done` runs on the loop once it is ready to
  // send and receive, or failed. An error return: it could not even start.
  virtual absl::Status ConnectAsync(std::uint32_t app, std::function<void(absl::Status)> done) = 0;
  // Once every app is connected: returns when messages can flow, or why
  // they cannot (the bridge: no simulator attached). Runs the loop.
  virtual absl::Status WaitUntilReady() = 0;
  // Sends `payload` from app `sender` to app `receiver` and returns the
  // message's id. ResourceExhausted: the sender's backlog is full, try on a
  // later loop pass; any other error: the send failed.
  virtual absl::StatusOr<std::uint64_t> Send(std::uint32_t sender, std::uint32_t receiver,
                                             std::string_view payload) = 0;
  // Each relay's own message counters (trestled's StatsReply.total), one
  // per relay in the fleet's order (several daemons of one bridge: daemon d
  // first carries app d); empty where the relays keep none, and nullopt for
  // a relay that did not answer. Runs the loop.
  virtual std::vector<std::optional<wire::Counters>> RelayCounters() = 0;
  // Per relay, in the same order, whether a simulator is attached to it (as
  // WaitUntilReady found); empty where no relay has one of its own.
  virtual std::vector<bool> RelaysWithSimulator() const = 0;
};

}  // namespace trestle::bench
