#include "lockstep/time_entry.h"

#include "store/decimal_field.h"

#include "trestle/wire/frame_format.h"

namespace trestle::daemon {
bool TimeEntry::IsTimeKind(std::string_view k) {
  return k.size() == 1 && std::string_view("jJlcwq").find(k[0]) != std::string_view::npos;
}

std::string TimeEntry::Parse(std::span<const std::string_view> fields, TimeEntry* out) {
  if (fields.size() % 2 != 0) return "an odd number of fields";
  bool has_kind = false;
  bool has_from = false;
  for (std::size_t i = 0; i < fields.size(); i += 2) {
    const std::string_view key = fields[i];
    const std::string_view value = fields[i + 1];
    std::uint64_t n = 0;
    bool ok = true;
    if (key == "k") {
      ok = has_kind = IsTimeKind(value);
      if (ok) out->kind = static_cast<Kind>(value[0]);
    } else if (key == "from") {
      ok = has_from = ParseDecimal(value, &n) && n <= 0xffffffffu;
      out->from = static_cast<std::uint32_t>(n);
    } else if (key == "app") {
      out->app = value;
    } else if (key == "now") {
      ok = ParseDecimal(value, &out->now);
    } else if (key == "blocked") {
      ok = value == "0" || value == "1";
      out->blocked = value == "1";
    } else if (key == "wake") {
      ok = ParseDecimal(value, &n);
      out->wake = n;
    } else if (key == "block") {
      ok = ParseDecimal(value, &out->block);
    } else if (key == "taken") {
      ok = ParseDecimal(value, &out->taken);
    }  // unknown fields: from a newer daemon; ignored
    if (!ok) return "field '" + std::string(key) + "' has a bad value";
  }
  if (!has_kind) return "no time kind (field k)";
  if (!has_from) return "no sending daemon (field from)";
  if (out->app.empty() || out->app.size() > wire::kMaxClientIdBytes) return "a bad app";
  return {};
}

std::span<const std::string_view> TimeEntryWriter::Fields(const TimeEntry& e) {
  kind_[0] = static_cast<char>(e.kind);
  std::size_t n = 0;
  auto add = [&](std::string_view key, std::string_view value) {
    fields_[n++] = key;
    fields_[n++] = value;
  };
  add("k", std::string_view(kind_, 1));
  add("from", numbers_.Write(0, e.from));
  add("app", e.app);
  add("now", numbers_.Write(1, e.now));
  add("block", numbers_.Write(2, e.block));
  if (e.kind == TimeEntry::Kind::kClock) {
    add("blocked", e.blocked ? "1" : "0");
    add("taken", numbers_.Write(3, e.taken));
    if (e.wake) add("wake", numbers_.Write(4, *e.wake));
  }
  return std::span<const std::string_view>(fields_.data(), n);
}

}  // namespace trestle::daemon
