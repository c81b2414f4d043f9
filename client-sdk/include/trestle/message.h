// trestle::Message: one delivery handed to an app (a payload, or a report
// that a payload this app sent with notify_drop was dropped).
#pragma once

#include <cstdint>
#include <string>

namespace trestle {

// Monotonic clock readings (CLOCK_MONOTONIC ns, comparable across processes
// on one host) taken at each stage of a payload's trip; 0 = not recorded.
// Mirrors trestle.wire.Stamps.
struct Stamps {
  std::uint64_t app_sent = 0;          // sender SDK wrote the Send
  std::uint64_t daemon_accepted = 0;   // daemon parsed the Send
  std::uint64_t sim_handed = 0;        // daemon handed the Transit out
  std::uint64_t sim_posted = 0;        // simulator wrote the Outcome
  std::uint64_t daemon_delivered = 0;  // daemon wrote the Delivery
  std::uint64_t app_received = 0;      // this SDK parsed the Delivery
};

struct Message {
  std::uint64_t id = 0;       // daemon-wide message id (as Send returned it)
  std::string src;            // sender client id
  std::string dst;            // destination client id
  std::string payload;        // empty for drop reports
  std::uint64_t t_send = 0;   // virtual ns, set by the sender
  std::uint64_t t_deliver = 0;  // virtual ns, set by the simulator
  std::uint32_t tclass = 0;   // traffic class
  // True: this is not a payload but a report that message `id`, which this
  // app sent with SendOptions::notify_drop, was dropped: by the network
  // model, or (lost_in_store also true) because the daemon's payload store
  // no longer had its payload.
  bool dropped = false;
  bool lost_in_store = false;
  Stamps stamps;
};

}  // namespace trestle
