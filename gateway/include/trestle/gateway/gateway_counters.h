// GatewayCounters: what one node's gateway did with its packets. Every
// packet read from the TUN is sent or counted in exactly one drop; every
// delivery is written or counted in exactly one drop:
//
//   read      = sent + not_ipv4 + unknown_destination + send_refused
//   delivered = written + misaddressed + held_full + write_failed (+ held now)
#pragma once

#include <cstdint>
#include <string>

namespace trestle::gateway {

struct GatewayCounters {
  // Outbound: TUN -> daemon.
  std::uint64_t read = 0;                 // packets read from the TUN
  std::uint64_t sent = 0;                 // handed to the SDK (a payload each)
  std::uint64_t not_ipv4 = 0;             // not a valid IPv4 header
  std::uint64_t unknown_destination = 0;  // no node has the destination address
  std::uint64_t send_refused = 0;         // the SDK refused it (backlog full, not connected)
  std::uint64_t rejected = 0;             // of sent: rejected by the daemon afterwards
  // Inbound: daemon -> TUN.
  std::uint64_t delivered = 0;     // payloads the daemon delivered
  std::uint64_t written = 0;       // written into the TUN at their modelled time
  std::uint64_t misaddressed = 0;  // not an IPv4 packet for this node's address
  std::uint64_t held_full = 0;     // over --max-held packets waiting
  std::uint64_t write_failed = 0;  // the TUN refused the write
  // Of delivered: arrived after their modelled arrival time (the bridge took
  // longer than the modelled latency), so written at once, late.
  std::uint64_t late = 0;
  // Modelled one-way latency (t_deliver - t_send) of delivered packets, ns.
  std::uint64_t latency_sum_ns = 0;
  std::uint64_t latency_min_ns = 0;
  std::uint64_t latency_max_ns = 0;

  // One line: "read=.. sent=.. ... latency_mean_us=..".
  std::string Summary() const;
};

}  // namespace trestle::gateway
