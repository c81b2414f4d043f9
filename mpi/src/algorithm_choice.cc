#include "algorithm_choice.h"

#include <bit>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace trestle::mpi {
namespace {

struct Allowed {
  Collective collective;
  std::vector<Algorithm> algorithms;
};

const std::vector<Allowed>& Table() {
  static const std::vector<Allowed> kTable = {
      {Collective::kBarrier, {Algorithm::kRecursiveDoubling, Algorithm::kDissemination}},
      {Collective::kBcast, {Algorithm::kBinomial, Algorithm::kLinear}},
      {Collective::kReduce, {Algorithm::kBinomial, Algorithm::kLinear}},
      {Collective::kAllreduce, {Algorithm::kRing, Algorithm::kRecursiveDoubling}},
      {Collective::kAllgather, {Algorithm::kRing, Algorithm::kRecursiveDoubling}},
      {Collective::kAlltoall, {Algorithm::kPairwise, Algorithm::kLinear}},
  };
  return kTable;
}

bool PowerOfTwo(int n) { return n > 0 && std::has_single_bit(static_cast<unsigned>(n)); }

}  // namespace

const char* CollectiveName(Collective collective) {
  switch (collective) {
    case Collective::kBarrier: return "barrier";
    case Collective::kBcast: return "bcast";
    case Collective::kReduce: return "reduce";
    case Collective::kAllreduce: return "allreduce";
    case Collective::kAllgather: return "allgather";
    case Collective::kAlltoall: return "alltoall";
  }
  return "?";
}

absl::StatusOr<AlgorithmChoice> AlgorithmChoice::Parse(std::string_view text) {
  AlgorithmChoice choice;
  for (absl::string_view entry :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ',', absl::SkipEmpty())) {
    std::vector<absl::string_view> parts = absl::StrSplit(entry, '=');
    if (parts.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", entry, "' is not COLLECTIVE=ALGORITHM, e.g. allreduce=ring"));
    }
    const Allowed* allowed = nullptr;
    std::vector<std::string> names;
    for (const Allowed& a : Table()) {
      names.emplace_back(CollectiveName(a.collective));
      if (parts[0] == CollectiveName(a.collective)) allowed = &a;
    }
    if (allowed == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("'", entry, "': unknown collective '",
                                                     parts[0], "' (one of ",
                                                     absl::StrJoin(names, ", "), ")"));
    }
    std::vector<std::string> algorithms;
    bool found = false;
    for (Algorithm a : allowed->algorithms) {
      algorithms.emplace_back(AlgorithmName(a));
      if (parts[1] == AlgorithmName(a)) {
        choice.forced_[static_cast<int>(allowed->collective)] = a;
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat("'", entry, "': ", parts[0],
                                                     " has no algorithm '", parts[1], "' (one of ",
                                                     absl::StrJoin(algorithms, ", "), ")"));
    }
  }
  return choice;
}

Algorithm AlgorithmChoice::For(Collective collective, int size, std::uint64_t bytes,
                               bool commutative) const {
  if (Algorithm forced = forced_[static_cast<int>(collective)]; forced != Algorithm::kAuto) {
    return forced;
  }
  switch (collective) {
    case Collective::kBarrier:
      return PowerOfTwo(size) ? Algorithm::kRecursiveDoubling : Algorithm::kDissemination;
    case Collective::kBcast: return Algorithm::kBinomial;
    case Collective::kReduce:
      return (size < 20 && bytes < 512) || (size < 10 && bytes <= 1024) ? Algorithm::kLinear
                                                                        : Algorithm::kBinomial;
    case Collective::kAllreduce:
      return bytes < 10000 || !commutative ? Algorithm::kRecursiveDoubling : Algorithm::kRing;
    case Collective::kAllgather:
      return PowerOfTwo(size) && bytes * static_cast<std::uint64_t>(size) < 50000
                 ? Algorithm::kRecursiveDoubling
                 : Algorithm::kRing;
    case Collective::kAlltoall: return bytes < 3000 ? Algorithm::kLinear : Algorithm::kPairwise;
  }
  return Algorithm::kAuto;
}

}  // namespace trestle::mpi
