// TrafficClassTable: which traffic classes (the SDK's `tclass`) the flow
// model tells apart, and how each shares a link: a weight and an optional
// guaranteed minimum fraction (MaxMinFairSolver's ClassShare).
//
// Classes are listed by tclass. Every tclass not listed shares one default
// class (weight 1, no minimum), so a table with no entries puts all traffic
// in one class. Dense indices for the solver: 0 is the default class, then
// the listed classes in the order given.
//
// Text forms, for the command line and a YAML file:
//   flag  "TCLASS:weight=W,min=P%"  (keys optional, any order), e.g. "1:min=80%"
//   YAML  classes:
//           - {tclass: 1, weight: 1, min: 80%}
//           - {tclass: 2, min: 20%}
// Minimums are percentages with a '%' sign. Errors are InvalidArgument and
// name the class, the key or the file: a weight <= 0, a minimum outside
// [0, 100]%, minimums adding up to more than 100 %, a tclass listed twice.
//
// Immutable once built; safe to share between threads. C++17-clean.
#ifndef TRESTLE_FABRIC_TRAFFIC_CLASS_TABLE_H_
#define TRESTLE_FABRIC_TRAFFIC_CLASS_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/link.h"
#include "trestle/fabric/max_min_fair_solver.h"

namespace trestle::fabric {

struct TrafficClassSpec {
  TrafficClass tclass = 0;
  ClassShare share;
};

class TrafficClassTable {
 public:
  // One default class for every tclass.
  TrafficClassTable() = default;

  static absl::StatusOr<TrafficClassTable> Make(std::vector<TrafficClassSpec> specs);
  // "TCLASS:weight=W,min=P%".
  static absl::StatusOr<TrafficClassSpec> ParseFlag(std::string_view text);
  // A YAML file with a `classes:` list (file comment).
  static absl::StatusOr<TrafficClassTable> FromYamlFile(const std::string& path);
  // The specs of both, `extra` after `base`; the same errors as Make.
  static absl::StatusOr<TrafficClassTable> Merge(const TrafficClassTable& base,
                                                 const std::vector<TrafficClassSpec>& extra);

  // The solver's class index of `tclass`: its position + 1, or 0 (default).
  std::uint32_t IndexOf(TrafficClass tclass) const;
  // Index -> share, for MaxMinFairSolver::Options::classes.
  std::vector<ClassShare> Shares() const;
  const std::vector<TrafficClassSpec>& specs() const { return specs_; }
  bool empty() const { return specs_.empty(); }

  // "tclass 1: weight 1, min 80%; tclass 2: weight 1, min 20%; others: weight 1",
  // or "one class" when empty.
  std::string Describe() const;

 private:
  std::vector<TrafficClassSpec> specs_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TRAFFIC_CLASS_TABLE_H_
