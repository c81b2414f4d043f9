// PeerMessage: the fields of one message entry of a peer stream or of the
// journal (docs/federation.md, "Streams"), and their parser.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace trestle::daemon {

struct PeerMessage {
  char kind = 0;
  std::uint64_t id = 0;
  std::string src;
  std::string dst;
  std::uint64_t size = 0;
  std::uint64_t tclass = 0;
  std::uint64_t t_send = 0;
  std::uint64_t t_deliver = 0;
  std::uint64_t app_sent = 0;
  bool by_key = false;
  bool notify_drop = false;  // its sender asked for a drop report
};

// Fills `m` from an entry's field/value list: empty on success, else what
// is wrong with the entry. Unknown fields (from a newer daemon) are ignored.
std::string ParsePeerMessage(std::span<const std::string_view> fields, PeerMessage* m);

}  // namespace trestle::daemon
