// The Trestle client ids of an MPI run's ranks under `trestle mpirun`:
// world rank K is the app "rank-K" (libtrestle-mpi's default
// TRESTLE_MPI_ID_PREFIX; docs/mpi.md), and lists of them in words.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trestle {

std::string RankClientId(int rank);
// "rank-0,rank-1,...": the daemon's --lockstep-apps for `np` ranks.
std::string RankClientIdList(int np);
// K for "rank-K"; nullopt for any other id.
std::optional<int> RankOfClientId(std::string_view id);
// "rank 3", "ranks 0, 2-4 and 7": the ranks of `ids` in increasing order,
// runs of three or more as a range; an id that is not a rank's as 'id'.
std::string RankNames(const std::vector<std::string>& ids);

}  // namespace trestle
