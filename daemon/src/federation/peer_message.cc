#include "federation/peer_message.h"

#include "store/decimal_field.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

std::string ParsePeerMessage(std::span<const std::string_view> fields, PeerMessage* m) {
  if (fields.size() % 2 != 0) return "an odd number of fields";
  bool has_id = false;
  for (std::size_t i = 0; i < fields.size(); i += 2) {
    const std::string_view key = fields[i];
    const std::string_view value = fields[i + 1];
    bool ok = true;
    if (key == "k") {
      ok = value == "t" || value == "d" || value == "r" || value == "a";
      if (ok) m->kind = value[0];
    } else if (key == "id") {
      ok = has_id = ParseDecimal(value, &m->id);
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
  if (m->src.empty() || m->src.size() > wire::kMaxClientIdBytes) return "a bad src";
  if (m->dst.empty() || m->dst.size() > wire::kMaxClientIdBytes) return "a bad dst";
  return {};
}

}  // namespace trestle::daemon
