#include "never_joined.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "rank_ids.h"

namespace trestle {
namespace {

constexpr const char* kLikelyCauses =
    "likely causes: the program's MPI calls do not go through libtrestle-mpi's MPI_* symbols "
    "(a program that calls PMPI_* itself, or uses MPICH's mpi_f08 module, whose bindings "
    "call PMPI_* directly), it is statically linked (nothing can be preloaded into it), or it is built "
    "against another MPI than the layer's (docs/mpi.md, \"Running\")";

// "ranks 2 and 3 (2 of 4)", with "and N more" past the daemon's list.
std::string Missing(const wire::LockstepStats& l, int np) {
  const std::vector<std::string> ids(l.never_joined().begin(), l.never_joined().end());
  const std::uint32_t unlisted = l.apps_never_joined() - static_cast<std::uint32_t>(ids.size());
  return absl::StrCat(RankNames(ids), unlisted > 0 ? absl::StrCat(" and ", unlisted, " more") : "",
                      " (", l.apps_never_joined(), " of ", np, ")");
}

}  // namespace

std::optional<std::string> NeverJoinedError(const wire::LockstepStats& l, int np) {
  if (l.apps_never_joined() == 0) return std::nullopt;
  return absl::StrCat(Missing(l, np),
                      " never joined the run: what ran there ran in real time, outside the "
                      "model, and its times are not modelled ones; ",
                      kLikelyCauses);
}

std::optional<std::string> JoinWatch::Check(const wire::LockstepStats& l, int np,
                                            std::chrono::steady_clock::time_point now) {
  if (warned_ || l.started() || l.apps_never_joined() == 0 || now - start_ < after_) {
    return std::nullopt;
  }
  warned_ = true;
  return absl::StrCat(Missing(l, np), l.apps_never_joined() == 1 ? " has" : " have",
                      " not joined the run ",
                      std::chrono::duration_cast<std::chrono::seconds>(now - start_).count(),
                      " s after mpirun started (a rank joins in MPI_Init; the others wait for "
                      "them). If they never join, they run outside the model: ",
                      kLikelyCauses);
}

}  // namespace trestle
