// PeerMessage: the fields of one message entry of a peer stream or of the
// journal (docs/federation.md, "Streams"), and their parser.
//
// A daemon writes three fields: `k` (the kind), `id` (decimal) and `m`, the
// rest packed in one value (fewer fields cost Redis, and hiredis on both
// sides, far less per entry):
//
//   m = "<size> <tclass> <t_send> <t_deliver> <app_sent> <flags> <src bytes> <src><dst>"
//
// decimal numbers; flags 1: by_key, 2: notify_drop, 4: lost_in_store (a
// drop report of a payload lost in the store). An entry of one field
// per value (size, tclass, ..., src, dst, by_key, notify_drop) is read too.
//
// A batch entry carries the messages a loop pass hands to one daemon: two
// fields, `k` = `M` and `m`, the messages back to back, each
//
//   "<kind><id> <size> <tclass> <t_send> <t_deliver> <app_sent> <flags> <src bytes> <dst bytes> <src><dst>"
//
// so Redis stores, and both daemons' hiredis parse, one entry for many
// messages. Daemons write message entries to each other's streams as batches
// (of one, too); the journal keeps the three-field entry.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace trestle::daemon {

// What an entry says of its message (field `k`, or the first byte of a
// batch member): a transit, a delivery or a drop report handed on to a peer
// daemon's stream, or a message accepted here (the journal).
enum class PeerKind : char { kTransit = 't', kDelivery = 'd', kDropReport = 'r', kAccepted = 'a' };

// The client ids are views into the entry's fields (valid while they are).
struct PeerMessage {
  char kind = 0;
  std::uint64_t id = 0;
  std::string_view src;
  std::string_view dst;
  std::uint64_t size = 0;
  std::uint64_t tclass = 0;
  std::uint64_t t_send = 0;
  std::uint64_t t_deliver = 0;
  std::uint64_t app_sent = 0;
  bool by_key = false;
  bool notify_drop = false;  // its sender asked for a drop report
  bool lost_in_store = false;  // a drop report: the store lost the payload
};

// Fills `m` from an entry's field/value list: empty on success, else what
// is wrong with the entry. Unknown fields (from a newer daemon) are ignored.
std::string ParsePeerMessage(std::span<const std::string_view> fields, PeerMessage* m);

// The flags of field `m`.
inline constexpr std::uint64_t kPeerByKey = 1;
inline constexpr std::uint64_t kPeerNotifyDrop = 2;
inline constexpr std::uint64_t kPeerLostInStore = 4;
// The value of field `m` for these values (appended to `out`).
void PackPeerMessage(std::uint64_t size, std::uint64_t tclass, std::uint64_t t_send,
                     std::uint64_t t_deliver, std::uint64_t app_sent, std::uint64_t flags,
                     std::string_view src, std::string_view dst, std::string& out);

// A batch entry: `k` = kPeerBatchKind, `m` = messages (PackPeerBatchMessage).
inline constexpr char kPeerBatchKind = 'M';
bool IsPeerBatch(std::span<const std::string_view> fields);
// The messages of batch entry `fields` (IsPeerBatch).
inline std::string_view PeerBatchMessages(std::span<const std::string_view> fields) {
  return fields[3];
}
// Appends message `id` of kind `kind` (t, d or r) to a batch's `m`.
void PackPeerBatchMessage(char kind, std::uint64_t id, std::uint64_t size, std::uint64_t tclass,
                          std::uint64_t t_send, std::uint64_t t_deliver, std::uint64_t app_sent,
                          std::uint64_t flags, std::string_view src, std::string_view dst,
                          std::string& out);
// Fills `m` from the first message of `*messages` (a batch's `m`), which
// loses it: empty on success, else what is wrong with it (and the rest of
// `*messages` cannot be read).
std::string TakePeerBatchMessage(std::string_view* messages, PeerMessage* m);

}  // namespace trestle::daemon
