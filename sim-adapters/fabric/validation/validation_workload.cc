#include "trestle/fabric/validation_workload.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <random>
#include <set>

#include "absl/status/status.h"
#include "common/text.h"
#include "trestle/fabric/byte_size.h"

namespace trestle::fabric {
namespace {

constexpr char kExpected[] =
    "expected permutation:SIZE, incast:K:SIZE, alltoall:SIZE or "
    "victim:SIZE[+alltoall:SIZE|+incast:SIZE]";

absl::Status Bad(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(
      internal::Concat("workload '", text, "': ", why, " (", kExpected, ")"));
}

absl::StatusOr<std::uint64_t> Size(std::string_view whole, std::string_view text) {
  absl::StatusOr<ByteSize> size = ByteSize::Parse(text);
  if (!size.ok()) return Bad(whole, std::string(size.status().message()));
  if (size->bytes() == 0) return Bad(whole, "a size of 0 bytes");
  return size->bytes();
}

// Everything after the first ':' of `text` (empty when there is none).
std::pair<std::string_view, std::string_view> Head(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {text, {}};
  return {text.substr(0, colon), text.substr(colon + 1)};
}

// Adds, for each rank r of `ranks`, its chain of messages to endpoint
// `to(r, i)`, i = 0 .. count - 1, the first at time `start`.
template <typename To>
void AddChains(const std::vector<NodeId>& ranks, std::uint32_t count, std::uint64_t bytes,
               std::uint64_t start, bool sample, To to, std::vector<WorkloadMessage>* out) {
  for (std::uint32_t r = 0; r < ranks.size(); ++r) {
    std::uint32_t before = WorkloadMessage::kRoot;
    for (std::uint32_t i = 0; i < count; ++i) {
      WorkloadMessage m;
      m.src = ranks[r];
      m.dst = to(r, i);
      m.bytes = bytes;
      m.t_send_ns = before == WorkloadMessage::kRoot ? start : 0;
      m.after = before;
      m.sample = sample;
      before = static_cast<std::uint32_t>(out->size());
      out->push_back(m);
    }
  }
}

std::vector<NodeId> Shuffled(std::uint32_t endpoints, std::mt19937_64& rng) {
  std::vector<NodeId> all(endpoints);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  return all;
}

}  // namespace

absl::StatusOr<ValidationWorkload::Spec> ValidationWorkload::Spec::Parse(std::string_view text) {
  Spec spec;
  auto [kind, rest] = Head(text);
  if (rest.empty()) return Bad(text, "needs a size");
  if (kind == "permutation" || kind == "alltoall") {
    spec.kind = kind == "permutation" ? Kind::kPermutation : Kind::kAllToAll;
    absl::StatusOr<std::uint64_t> bytes = Size(text, rest);
    if (!bytes.ok()) return bytes.status();
    spec.bytes = *bytes;
    return spec;
  }
  if (kind == "incast") {
    spec.kind = Kind::kIncast;
    auto [fan_in, size] = Head(rest);
    const char* end = fan_in.data() + fan_in.size();
    auto [ptr, error] = std::from_chars(fan_in.data(), end, spec.fan_in);
    if (error != std::errc() || ptr != end || spec.fan_in == 0 || size.empty()) {
      return Bad(text, "incast needs senders per receiver (1 or more) and a size, e.g. incast:8:1MiB");
    }
    absl::StatusOr<std::uint64_t> bytes = Size(text, size);
    if (!bytes.ok()) return bytes.status();
    spec.bytes = *bytes;
    return spec;
  }
  if (kind == "victim") {
    spec.kind = Kind::kVictim;
    const std::size_t plus = rest.find('+');
    absl::StatusOr<std::uint64_t> bytes = Size(text, rest.substr(0, plus));
    if (!bytes.ok()) return bytes.status();
    spec.bytes = *bytes;
    if (plus == std::string_view::npos) return spec;
    auto [aggressor, size] = Head(rest.substr(plus + 1));
    if (aggressor == "alltoall") {
      spec.aggressor = Aggressor::kAllToAll;
    } else if (aggressor == "incast") {
      spec.aggressor = Aggressor::kIncast;
    } else {
      return Bad(text, internal::Concat("unknown aggressor '", aggressor, "'"));
    }
    if (size.empty()) return Bad(text, "the aggressor needs a size");
    absl::StatusOr<std::uint64_t> aggressor_bytes = Size(text, size);
    if (!aggressor_bytes.ok()) return aggressor_bytes.status();
    spec.aggressor_bytes = *aggressor_bytes;
    return spec;
  }
  return Bad(text, internal::Concat("unknown kind '", kind, "'"));
}

std::string ValidationWorkload::Spec::Name() const {
  const std::string size = ByteSize::Bytes(bytes).ToString();
  switch (kind) {
    case Kind::kPermutation: return "permutation:" + size;
    case Kind::kAllToAll: return "alltoall:" + size;
    case Kind::kIncast: return internal::Concat("incast:", fan_in, ":", size);
    case Kind::kVictim: break;
  }
  if (aggressor == Aggressor::kNone) return "victim:" + size;
  return internal::Concat("victim:", size, aggressor == Aggressor::kAllToAll ? "+alltoall:" : "+incast:",
                          ByteSize::Bytes(aggressor_bytes).ToString());
}

ValidationWorkload::ValidationWorkload(Spec spec, std::vector<WorkloadMessage> messages)
    : spec_(std::move(spec)), messages_(std::move(messages)) {
  for (const WorkloadMessage& m : messages_) samples_ += m.sample ? 1 : 0;
}

absl::StatusOr<ValidationWorkload> ValidationWorkload::Make(const Spec& spec,
                                                            std::uint32_t endpoints,
                                                            std::uint64_t seed) {
  if (endpoints < 2) {
    return absl::InvalidArgumentError(
        internal::Concat("workload ", spec.Name(), " needs at least 2 endpoints, not ", endpoints));
  }
  std::mt19937_64 rng(seed);
  std::vector<WorkloadMessage> messages;
  switch (spec.kind) {
    case Kind::kPermutation: {
      // A random cyclic order: each endpoint sends to the next in it.
      const std::vector<NodeId> order = Shuffled(endpoints, rng);
      for (std::uint32_t i = 0; i < endpoints; ++i) {
        messages.push_back(WorkloadMessage{order[i], order[(i + 1) % endpoints], spec.bytes, 0,
                                           WorkloadMessage::kRoot, true});
      }
      break;
    }
    case Kind::kIncast: {
      const std::uint32_t fan_in = std::min(spec.fan_in, endpoints - 1);
      const std::uint32_t groups = std::max<std::uint32_t>(1, endpoints / (fan_in + 1));
      const std::vector<NodeId> order = Shuffled(endpoints, rng);
      for (std::uint32_t g = 0; g < groups; ++g) {
        const NodeId receiver = order[g * (fan_in + 1)];
        for (std::uint32_t s = 1; s <= fan_in; ++s) {
          messages.push_back(WorkloadMessage{order[g * (fan_in + 1) + s], receiver, spec.bytes, 0,
                                             WorkloadMessage::kRoot, true});
        }
      }
      break;
    }
    case Kind::kAllToAll: {
      std::vector<NodeId> ranks(endpoints);
      std::iota(ranks.begin(), ranks.end(), 0);
      AddChains(ranks, endpoints - 1, spec.bytes, 0, true,
                [endpoints](std::uint32_t r, std::uint32_t i) { return (r + i + 1) % endpoints; },
                &messages);
      break;
    }
    case Kind::kVictim: {
      if (spec.aggressor != Aggressor::kNone && endpoints < 4) {
        return absl::InvalidArgumentError(internal::Concat(
            "workload ", spec.Name(), " needs at least 4 endpoints, not ", endpoints));
      }
      // The victim's 20 % (at least 2) first in a seeded shuffle; the rest
      // are the aggressor's. The victim alone gets the same endpoints.
      const std::vector<NodeId> order = Shuffled(endpoints, rng);
      const std::uint32_t v = std::max<std::uint32_t>(2, endpoints / 5);
      const std::vector<NodeId> victims(order.begin(), order.begin() + v);
      const std::vector<NodeId> aggressors(order.begin() + v, order.end());
      const auto a = static_cast<std::uint32_t>(aggressors.size());
      if (spec.aggressor == Aggressor::kAllToAll) {
        AddChains(aggressors, std::min(kAggressorMessages, a - 1), spec.aggressor_bytes, 0,
                  false,
                  [&](std::uint32_t r, std::uint32_t i) { return aggressors[(r + i + 1) % a]; },
                  &messages);
      } else if (spec.aggressor == Aggressor::kIncast) {
        const std::vector<NodeId> senders(aggressors.begin() + 1, aggressors.end());
        AddChains(senders, kAggressorMessages, spec.aggressor_bytes, 0, false,
                  [&](std::uint32_t, std::uint32_t) { return aggressors[0]; }, &messages);
      }
      for (std::uint32_t i = 0; i < kVictimMessages; ++i) {
        for (std::uint32_t r = 0; r < v; ++r) {
          messages.push_back(WorkloadMessage{victims[r], victims[(r + 1) % v], spec.bytes,
                                             kVictimStartNs + i * kVictimPeriodNs,
                                             WorkloadMessage::kRoot, true});
        }
      }
      break;
    }
  }
  return ValidationWorkload(spec, std::move(messages));
}

std::vector<std::pair<NodeId, NodeId>> ValidationWorkload::Pairs() const {
  std::vector<std::pair<NodeId, NodeId>> pairs;
  std::set<std::pair<NodeId, NodeId>> seen;
  for (const WorkloadMessage& m : messages_) {
    if (m.src != m.dst && seen.insert({m.src, m.dst}).second) pairs.push_back({m.src, m.dst});
  }
  return pairs;
}

}  // namespace trestle::fabric
