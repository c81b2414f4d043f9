#include "trestle/fabric/traffic_class_table.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "common/text.h"
#include "yaml-cpp/yaml.h"

namespace trestle::fabric {
namespace {

absl::StatusOr<double> ParseNumber(std::string_view what, std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value)) {
    return absl::InvalidArgumentError(internal::Concat(what, ": '", text, "' is not a number"));
  }
  return value;
}

// "80%" -> 0.8.
absl::StatusOr<double> ParsePercent(std::string_view what, std::string_view text) {
  if (text.empty() || text.back() != '%') {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": '", text, "' needs a % sign (e.g. 80%)"));
  }
  absl::StatusOr<double> value = ParseNumber(what, text.substr(0, text.size() - 1));
  if (!value.ok()) return value.status();
  return *value / 100;
}

absl::StatusOr<TrafficClass> ParseTclass(std::string_view what, std::string_view text) {
  TrafficClass tclass = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), tclass);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": tclass '", text, "' must be a whole number"));
  }
  return tclass;
}

// Sets the key of a spec from its text form; `what` names the class in errors.
absl::Status SetKey(std::string_view what, std::string_view key, std::string_view value,
                    TrafficClassSpec* spec) {
  if (key == "weight") {
    absl::StatusOr<double> weight = ParseNumber(internal::Concat(what, ": weight"), value);
    if (!weight.ok()) return weight.status();
    spec->share.weight = *weight;
  } else if (key == "min") {
    absl::StatusOr<double> min = ParsePercent(internal::Concat(what, ": min"), value);
    if (!min.ok()) return min.status();
    spec->share.min_fraction = *min;
  } else {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": unknown key '", key, "' (weight, min)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TrafficClassTable> TrafficClassTable::Make(std::vector<TrafficClassSpec> specs) {
  MaxMinFairSolver::Options options;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (specs[j].tclass == specs[i].tclass) {
        return absl::InvalidArgumentError(
            internal::Concat("traffic class ", specs[i].tclass, " is configured twice"));
      }
    }
    const ClassShare& share = specs[i].share;
    if (!(share.weight > 0) || !std::isfinite(share.weight)) {
      return absl::InvalidArgumentError(internal::Concat(
          "traffic class ", specs[i].tclass, ": weight must be positive, got ", share.weight));
    }
    if (!(share.min_fraction >= 0 && share.min_fraction <= 1)) {
      return absl::InvalidArgumentError(
          internal::Concat("traffic class ", specs[i].tclass, ": min must be within 0-100%, got ",
                           share.min_fraction * 100, "%"));
    }
    options.classes.push_back(share);
  }
  if (absl::Status valid = MaxMinFairSolver::Validate(options); !valid.ok()) {
    return absl::InvalidArgumentError(
        internal::Concat("traffic classes: ", std::string(valid.message())));
  }
  TrafficClassTable table;
  table.specs_ = std::move(specs);
  return table;
}

absl::StatusOr<TrafficClassSpec> TrafficClassTable::ParseFlag(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string what = internal::Concat("traffic class '", text, "'");
  absl::StatusOr<TrafficClass> tclass = ParseTclass(what, text.substr(0, colon));
  if (!tclass.ok()) return tclass.status();
  TrafficClassSpec spec;
  spec.tclass = *tclass;
  if (colon == std::string_view::npos) return spec;
  for (std::string_view item : internal::Split(text.substr(colon + 1), ',')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return absl::InvalidArgumentError(
          internal::Concat(what, ": '", item, "' is not KEY=VALUE (weight=W, min=P%)"));
    }
    if (absl::Status s = SetKey(what, item.substr(0, eq), item.substr(eq + 1), &spec); !s.ok()) {
      return s;
    }
  }
  return spec;
}

absl::StatusOr<TrafficClassTable> TrafficClassTable::FromYamlFile(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        internal::Concat("traffic classes '", path, "': ", e.what()));
  }
  const std::string where = internal::Concat("traffic classes '", path, "'");
  if (!root.IsMap() || !root["classes"] || !root["classes"].IsSequence()) {
    return absl::InvalidArgumentError(
        internal::Concat(where, ": expected a map with a 'classes:' list"));
  }
  for (const auto& entry : root) {
    if (!entry.first.IsScalar() || entry.first.as<std::string>() != "classes") {
      return absl::InvalidArgumentError(
          internal::Concat(where, ": unknown key '", entry.first.Scalar(), "'"));
    }
  }
  std::vector<TrafficClassSpec> specs;
  std::size_t index = 0;
  for (const YAML::Node& item : root["classes"]) {
    const std::string what = internal::Concat(where, ", entry ", index++);
    if (!item.IsMap() || !item["tclass"]) {
      return absl::InvalidArgumentError(internal::Concat(what, ": needs a 'tclass:' key"));
    }
    TrafficClassSpec spec;
    for (const auto& kv : item) {
      if (!kv.first.IsScalar()) {
        return absl::InvalidArgumentError(internal::Concat(what, ": every key must be a plain name"));
      }
      const std::string key = kv.first.as<std::string>();
      const std::string value = kv.second.IsScalar() ? kv.second.as<std::string>() : "";
      absl::Status s;
      if (key == "tclass") {
        absl::StatusOr<TrafficClass> tclass = ParseTclass(what, value);
        if (tclass.ok()) spec.tclass = *tclass;
        s = tclass.status();
      } else {
        s = SetKey(what, key, value, &spec);
      }
      if (!s.ok()) return s;
    }
    specs.push_back(spec);
  }
  absl::StatusOr<TrafficClassTable> table = Make(std::move(specs));
  if (!table.ok()) {
    return absl::InvalidArgumentError(
        internal::Concat(where, ": ", std::string(table.status().message())));
  }
  return table;
}

absl::StatusOr<TrafficClassTable> TrafficClassTable::Merge(
    const TrafficClassTable& base, const std::vector<TrafficClassSpec>& extra) {
  std::vector<TrafficClassSpec> specs = base.specs_;
  specs.insert(specs.end(), extra.begin(), extra.end());
  return Make(std::move(specs));
}

std::uint32_t TrafficClassTable::IndexOf(TrafficClass tclass) const {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].tclass == tclass) return static_cast<std::uint32_t>(i + 1);
  }
  return 0;
}

std::vector<ClassShare> TrafficClassTable::Shares() const {
  std::vector<ClassShare> shares = {ClassShare{}};
  for (const TrafficClassSpec& spec : specs_) shares.push_back(spec.share);
  return shares;
}

std::string TrafficClassTable::Describe() const {
  if (specs_.empty()) return "one class";
  std::vector<std::string> parts;
  for (const TrafficClassSpec& spec : specs_) {
    std::string part = internal::Concat("tclass ", spec.tclass, ": weight ", spec.share.weight);
    if (spec.share.min_fraction > 0) {
      part += internal::Concat(", min ", spec.share.min_fraction * 100, "%");
    }
    parts.push_back(part);
  }
  parts.push_back("others: weight 1");
  return internal::Join(parts, "; ");
}

}  // namespace trestle::fabric
