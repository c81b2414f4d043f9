#include "trestle/fabric/topology_spec.h"

#include <charconv>
#include <utility>

#include "absl/status/status.h"
#include "yaml-cpp/yaml.h"
#include "common/text.h"
#include "trestle/platform/enum_names.h"

namespace trestle::fabric {
namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

constexpr platform::EnumName<TopologyKind> kKindNames[] = {
    {TopologyKind::kSwitch, "switch"},     {TopologyKind::kRing, "ring"},
    {TopologyKind::kTorus, "torus"},       {TopologyKind::kMesh, "mesh"},
    {TopologyKind::kFullMesh, "fullmesh"}, {TopologyKind::kFatTree, "fattree"},
    {TopologyKind::kDragonfly, "dragonfly"},
};

absl::Status SpecError(std::string_view spec, std::string_view message) {
  return absl::InvalidArgumentError(internal::Concat("topology '", spec, "': ", message));
}

absl::StatusOr<std::uint32_t> ParseCount(std::string_view spec, std::string_view key,
                                         std::string_view value) {
  std::uint32_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
    return SpecError(spec, internal::Concat("'", key, "' must be a whole number, not '", value, "'"));
  }
  return n;
}

// Starts a spec of the named kind or preset, with the preset's values set.
absl::StatusOr<TopologySpec> StartSpec(std::string_view name, std::string_view text) {
  TopologySpec spec;
  spec.text = std::string(text);
  if (name == "slingshot" || name == "slingshot-1k") {
    // HPE Slingshot: 64-port Rosetta switches, ~350 ns each; its 200 Gb/s
    // links are FabricParams' default, so --link-bw can still change them.
    // The 1k variant keeps p and h and shrinks to 4 groups of 16 routers.
    spec.kind = TopologyKind::kDragonfly;
    spec.dragonfly = name == "slingshot" ? DragonflyShape{16, 32, 17, 545}
                                         : DragonflyShape{16, 16, 17, 4};
    spec.switch_latency = Duration::Nanoseconds(350);
    return spec;
  }
  absl::StatusOr<TopologyKind> kind =
      platform::EnumNames<TopologyKind>(kKindNames).Parse(name, "topology");
  if (!kind.ok()) {
    return SpecError(text, internal::Concat(std::string(kind.status().message()),
                                            " or a preset (slingshot, slingshot-1k)"));
  }
  spec.kind = *kind;
  return spec;
}

bool KeyApplies(TopologyKind kind, std::string_view key) {
  if (key == "link_bw" || key == "injection_bw" || key == "link_latency" ||
      key == "switch_latency") {
    return true;
  }
  switch (kind) {
    case TopologyKind::kSwitch:
    case TopologyKind::kRing:
    case TopologyKind::kFullMesh: return key == "endpoints";
    case TopologyKind::kTorus:
    case TopologyKind::kMesh: return key == "dims";
    case TopologyKind::kFatTree: return key == "k" || key == "oversub";
    case TopologyKind::kDragonfly:
      return key == "p" || key == "a" || key == "h" || key == "g" || key == "arrangement";
  }
  return false;
}

constexpr std::string_view kKnownKeys =
    "endpoints, dims, k, oversub, p, a, h, g, arrangement, link_bw, injection_bw, "
    "link_latency, switch_latency";

absl::Status ApplyKey(TopologySpec* spec, const std::string& key, const std::string& value) {
  const std::string_view text = spec->text;
  if (internal::Concat(", ", kKnownKeys, ",").find(internal::Concat(", ", key, ",")) ==
      std::string::npos) {
    return SpecError(text, internal::Concat("unknown key '", key, "' (known: ", kKnownKeys, ")"));
  }
  if (!KeyApplies(spec->kind, key)) {
    return SpecError(text, internal::Concat("key '", key, "' does not apply to this topology"));
  }
  auto with_context = [&](absl::Status s) {
    return SpecError(text, internal::Concat("key '", key, "': ", std::string(s.message())));
  };
  if (key == "link_bw" || key == "injection_bw") {
    absl::StatusOr<Bandwidth> bw = Bandwidth::Parse(value);
    if (!bw.ok()) return with_context(bw.status());
    (key == "link_bw" ? spec->link_bandwidth : spec->injection_bandwidth) = *bw;
    return absl::OkStatus();
  }
  if (key == "link_latency" || key == "switch_latency") {
    absl::StatusOr<Duration> d = Duration::Parse(value);
    if (!d.ok()) return with_context(d.status());
    (key == "link_latency" ? spec->link_latency : spec->switch_latency) = *d;
    return absl::OkStatus();
  }
  if (key == "arrangement") {
    absl::StatusOr<GlobalArrangement> a = ParseGlobalArrangement(value);
    if (!a.ok()) return with_context(a.status());
    spec->dragonfly.arrangement = *a;
    return absl::OkStatus();
  }
  if (key == "dims") {
    spec->dims.clear();
    for (std::string_view part : internal::Split(value, 'x')) {
      absl::StatusOr<std::uint32_t> n = ParseCount(text, "dims", part);
      if (!n.ok()) return n.status();
      spec->dims.push_back(*n);
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::uint32_t> n = ParseCount(text, key, value);
  if (!n.ok()) return n.status();
  if (key == "endpoints") spec->endpoints = *n;
  if (key == "k") spec->k = *n;
  if (key == "oversub") spec->oversubscription = *n;
  if (key == "p") spec->dragonfly.p = *n;
  if (key == "a") spec->dragonfly.a = *n;
  if (key == "h") spec->dragonfly.h = *n;
  if (key == "g") spec->dragonfly.g = *n;
  return absl::OkStatus();
}

// Checks ranges, and that every node and link id fits in 32 bits.
absl::Status Validate(const TopologySpec& spec) {
  const std::string_view text = spec.text;
  constexpr std::uint64_t kMaxIds = 0xfffffff0ull;
  std::uint64_t nodes = 0;
  std::uint64_t link_ids = 0;
  switch (spec.kind) {
    case TopologyKind::kSwitch:
    case TopologyKind::kRing:
    case TopologyKind::kFullMesh: {
      std::uint64_t n = spec.endpoints;
      if (n < 1) return SpecError(text, "needs at least 1 endpoint (e.g. ring:8)");
      nodes = n + 1;
      link_ids = spec.kind == TopologyKind::kFullMesh ? n * (n - 1) : 2 * n;
      break;
    }
    case TopologyKind::kTorus:
    case TopologyKind::kMesh: {
      if (spec.dims.empty()) return SpecError(text, "needs dimensions (e.g. torus:4x4x4)");
      nodes = 1;
      for (std::uint32_t k : spec.dims) {
        if (k < 1) return SpecError(text, "every dimension must be at least 1");
        nodes *= k;
        if (nodes > kMaxIds) break;
      }
      link_ids = nodes * spec.dims.size() * 2;
      break;
    }
    case TopologyKind::kFatTree: {
      std::uint64_t k = spec.k;
      if (k < 2 || k % 2 != 0) return SpecError(text, "k must be even and at least 2");
      if (spec.oversubscription < 1) return SpecError(text, "oversub must be at least 1");
      nodes = spec.oversubscription * k * k * k / 4 + 5 * k * k / 4;
      link_ids = 2 * nodes + k * k * k;
      break;
    }
    case TopologyKind::kDragonfly: {
      std::uint64_t p = spec.dragonfly.p, a = spec.dragonfly.a, h = spec.dragonfly.h,
                    g = spec.dragonfly.g;
      if (p < 1 || a < 1 || g < 1) {
        return SpecError(text, "needs p, a, g >= 1 (e.g. dragonfly:p=4,a=8,h=4,g=33)");
      }
      if (a * h < g - 1) {
        return SpecError(text, internal::Concat("a*h = ", a * h, " global ports per group cannot "
                                            "reach the other ", g - 1, " groups"));
      }
      nodes = p * a * g + a * g;
      link_ids = 2 * p * a * g + a * g * (a - 1) + g * a * h;
      break;
    }
  }
  if (nodes > kMaxIds || link_ids > kMaxIds) {
    return SpecError(text, "too large: node and link ids must fit in 32 bits");
  }
  return absl::OkStatus();
}

absl::StatusOr<TopologySpec> Assemble(std::string_view name, const KeyValues& pairs,
                                      std::string_view text) {
  absl::StatusOr<TopologySpec> spec = StartSpec(name, text);
  if (!spec.ok()) return spec.status();
  for (const auto& [key, value] : pairs) {
    absl::Status s = ApplyKey(&*spec, key, value);
    if (!s.ok()) return s;
  }
  absl::Status s = Validate(*spec);
  if (!s.ok()) return s;
  return spec;
}

}  // namespace

absl::StatusOr<TopologySpec> TopologySpec::Parse(std::string_view text) {
  if (text.ends_with(".yaml") || text.ends_with(".yml")) {
    return FromYamlFile(std::string(text));
  }
  std::size_t cut = text.find_first_of(":,");
  std::string_view name = text.substr(0, cut);
  // An unknown kind is the first thing to report, before its arguments.
  if (absl::StatusOr<TopologySpec> known = StartSpec(name, text); !known.ok()) {
    return known.status();
  }
  KeyValues pairs;
  if (cut != std::string_view::npos) {
    bool first = text[cut] == ':';
    for (std::string_view item : internal::Split(text.substr(cut + 1), ',')) {
      std::size_t eq = item.find('=');
      if (eq != std::string_view::npos) {
        pairs.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
      } else if (first && (name == "torus" || name == "mesh")) {
        pairs.emplace_back("dims", std::string(item));
      } else if (first && (name == "switch" || name == "ring" || name == "fullmesh")) {
        pairs.emplace_back("endpoints", std::string(item));
      } else {
        return SpecError(text, internal::Concat("expected KEY=VALUE, not '", item, "'"));
      }
      first = false;
    }
  }
  return Assemble(name, pairs, text);
}

absl::StatusOr<TopologySpec> TopologySpec::FromYamlFile(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return SpecError(path, internal::Concat("cannot read YAML: ", e.what()));
  }
  if (!root.IsMap()) return SpecError(path, "expected a YAML map of keys");
  std::string name;
  KeyValues pairs;
  for (const auto& entry : root) {
    if (!entry.first.IsScalar()) return SpecError(path, "every key must be a plain name");
    std::string key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    std::string scalar;
    if (value.IsSequence()) {
      std::vector<std::string> parts;
      for (const auto& item : value) {
        if (!item.IsScalar()) {
          return SpecError(path, internal::Concat("key '", key, "' must list plain values"));
        }
        parts.push_back(item.as<std::string>());
      }
      scalar = internal::Join(parts, "x");
    } else if (value.IsScalar()) {
      scalar = value.as<std::string>();
    } else {
      return SpecError(path, internal::Concat("key '", key, "' must be a scalar or a list"));
    }
    if (key == "topology") {
      name = scalar;
    } else {
      pairs.emplace_back(key, scalar);
    }
  }
  if (name.empty()) return SpecError(path, "missing key 'topology'");
  return Assemble(name, pairs, path);
}

FabricParams TopologySpec::FabricParamsOver(const FabricParams& defaults) const {
  FabricParams p = defaults;
  if (link_bandwidth) p.link_bandwidth = *link_bandwidth;
  if (link_latency) p.link_latency = *link_latency;
  if (switch_latency) p.switch_latency = *switch_latency;
  p.injection_bandwidth = injection_bandwidth ? *injection_bandwidth : p.link_bandwidth;
  return p;
}

}  // namespace trestle::fabric
