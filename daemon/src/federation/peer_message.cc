#include "federation/peer_message.h"

#include "store/decimal_field.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {
namespace {

// The next space-separated decimal number of `*rest`, which loses it.
bool TakeNumber(std::string_view* rest, std::uint64_t* out) {
  const std::size_t space = rest->find(' ');
  if (space == std::string_view::npos) return false;
  const bool ok = ParseDecimal(rest->substr(0, space), out);
  rest->remove_prefix(space + 1);
  return ok;
}

// The numbers both packings share, from `<size>` to `<src bytes>`.
bool TakeNumbers(std::string_view* rest, PeerMessage* m, std::uint64_t* src_bytes) {
  std::uint64_t flags = 0;
  if (!TakeNumber(rest, &m->size) || !TakeNumber(rest, &m->tclass) ||
      !TakeNumber(rest, &m->t_send) || !TakeNumber(rest, &m->t_deliver) ||
      !TakeNumber(rest, &m->app_sent) || !TakeNumber(rest, &flags) ||
      !TakeNumber(rest, src_bytes) || flags > (kPeerByKey | kPeerNotifyDrop | kPeerLostInStore)) {
    return false;
  }
  m->by_key = (flags & kPeerByKey) != 0;
  m->notify_drop = (flags & kPeerNotifyDrop) != 0;
  m->lost_in_store = (flags & kPeerLostInStore) != 0;
  return true;
}

void PackNumbers(std::uint64_t size, std::uint64_t tclass, std::uint64_t t_send,
                 std::uint64_t t_deliver, std::uint64_t app_sent, std::uint64_t flags,
                 std::string_view src, std::string& out) {
  for (std::uint64_t n : {size, tclass, t_send, t_deliver, app_sent, flags,
                          static_cast<std::uint64_t>(src.size())}) {
    AppendDecimal(out, n);
    out.push_back(' ');
  }
}

bool IsMessageKind(char kind) {
  return kind == static_cast<char>(PeerKind::kTransit) ||
         kind == static_cast<char>(PeerKind::kDelivery) ||
         kind == static_cast<char>(PeerKind::kDropReport);
}

// What is wrong with the message's client ids; empty if nothing.
std::string_view BadClientIds(const PeerMessage& m) {
  if (m.src.empty() || m.src.size() > wire::kMaxClientIdBytes) return "a bad src";
  if (m.dst.empty() || m.dst.size() > wire::kMaxClientIdBytes) return "a bad dst";
  return {};
}

// Field `m` (see the header).
bool Unpack(std::string_view packed, PeerMessage* m) {
  std::uint64_t src_bytes = 0;
  if (!TakeNumbers(&packed, m, &src_bytes) || src_bytes >= packed.size()) return false;
  m->src = packed.substr(0, src_bytes);
  m->dst = packed.substr(src_bytes);
  return true;
}

}  // namespace

void PackPeerMessage(std::uint64_t size, std::uint64_t tclass, std::uint64_t t_send,
                     std::uint64_t t_deliver, std::uint64_t app_sent, std::uint64_t flags,
                     std::string_view src, std::string_view dst, std::string& out) {
  PackNumbers(size, tclass, t_send, t_deliver, app_sent, flags, src, out);
  out.append(src);
  out.append(dst);
}

bool IsPeerBatch(std::span<const std::string_view> fields) {
  return fields.size() == 4 && fields[0] == "k" && fields[1].size() == 1 &&
         fields[1][0] == kPeerBatchKind && fields[2] == "m";
}

void PackPeerBatchMessage(char kind, std::uint64_t id, std::uint64_t size, std::uint64_t tclass,
                          std::uint64_t t_send, std::uint64_t t_deliver, std::uint64_t app_sent,
                          std::uint64_t flags, std::string_view src, std::string_view dst,
                          std::string& out) {
  out.push_back(kind);
  AppendDecimal(out, id);
  out.push_back(' ');
  PackNumbers(size, tclass, t_send, t_deliver, app_sent, flags, src, out);
  AppendDecimal(out, dst.size());
  out.push_back(' ');
  out.append(src);
  out.append(dst);
}

std::string TakePeerBatchMessage(std::string_view* messages, PeerMessage* m) {
  std::string_view& rest = *messages;
  if (rest.empty() || !IsMessageKind(rest[0])) return "a message of no known kind";
  m->kind = rest[0];
  rest.remove_prefix(1);
  std::uint64_t src_bytes = 0;
  std::uint64_t dst_bytes = 0;
  if (!TakeNumber(&rest, &m->id) || !TakeNumbers(&rest, m, &src_bytes) ||
      !TakeNumber(&rest, &dst_bytes) || src_bytes > rest.size() ||
      dst_bytes > rest.size() - src_bytes) {
    return "message " + std::to_string(m->id) + " is cut short or has a bad number";
  }
  m->src = rest.substr(0, src_bytes);
  m->dst = rest.substr(src_bytes, dst_bytes);
  rest.remove_prefix(src_bytes + dst_bytes);
  if (std::string_view bad = BadClientIds(*m); !bad.empty()) {
    return "message " + std::to_string(m->id) + " has " + std::string(bad);
  }
  return {};
}

std::string ParsePeerMessage(std::span<const std::string_view> fields, PeerMessage* m) {
  if (fields.size() % 2 != 0) return "an odd number of fields";
  bool has_id = false;
  for (std::size_t i = 0; i < fields.size(); i += 2) {
    const std::string_view key = fields[i];
    const std::string_view value = fields[i + 1];
    bool ok = true;
    if (key == "k") {
      ok = value.size() == 1 &&
           (IsMessageKind(value[0]) || value[0] == static_cast<char>(PeerKind::kAccepted));
      if (ok) m->kind = value[0];
    } else if (key == "id") {
      ok = has_id = ParseDecimal(value, &m->id);
    } else if (key == "m") {
      ok = Unpack(value, m);
    } else if (key == "src") {
      m->src = value;
    } else if (key == "dst") {
      m->dst = value;
    } else if (key == "size") {
      ok = ParseDecimal(value, &m->size);
    } else if (key == "tclass") {
      ok = ParseDecimal(value, &m->tclass);
    } else if (key == "t_send") {
      ok = ParseDecimal(value, &m->t_send);
    } else if (key == "t_deliver") {
      ok = ParseDecimal(value, &m->t_deliver);
    } else if (key == "app_sent") {
      ok = ParseDecimal(value, &m->app_sent);
    } else if (key == "by_key") {
      ok = value == "0" || value == "1";
      m->by_key = value == "1";
    } else if (key == "notify_drop") {
      ok = value == "0" || value == "1";
      m->notify_drop = value == "1";
    }  // unknown fields: from a newer daemon; ignored
    if (!ok) return "field '" + std::string(key) + "' has a bad value";
  }
  if (m->kind == 0) return "no kind (field k)";
  if (!has_id) return "no message id";
  return std::string(BadClientIds(*m));
}

}  // namespace trestle::daemon
