#include "comm_creation.h"

#include "absl/strings/str_cat.h"
#include "blocked_window.h"
#include "collective_plan.h"

namespace trestle::mpi {
namespace {

constexpr std::int32_t kFanIn = 0;
constexpr std::int32_t kFanOut = 1;
constexpr std::uint64_t kCreationMessageBytes = 8;

}  // namespace

int CommCreation::RealCall(MPI_Comm* made, MPI_Comm* shadow, const std::function<int()>& real) {
  const int rc = real();
  if (rc == MPI_SUCCESS && *made != MPI_COMM_NULL) PMPI_Comm_dup(*made, shadow);
  return rc;
}

int CommCreation::Create(MPI_Comm parent, MPI_Comm* made, const std::function<int()>& real) {
  CommState& c = layer_.Comm(parent);
  const std::uint32_t instance = c.instances++;
  MirrorInbox& inbox = layer_.inbox();
  const std::vector<int> children = BinomialChildren(c.rank, c.size, 0);
  const int up = BinomialParent(c.rank, c.size, 0);
  auto arrived = [&](int peer, std::int32_t label) {
    return inbox.HasStep(c.id, instance, label, c.world_of[peer]);
  };
  layer_.Block([&] {
    for (int child : children) {
      if (!arrived(child, kFanIn)) return false;
    }
    return true;
  });
  for (int child : children) inbox.TakeStep(c.id, instance, kFanIn, c.world_of[child]);

  MPI_Comm shadow = MPI_COMM_NULL;
  int rc = MPI_SUCCESS;
  if (up < 0) {
    rc = RealCall(made, &shadow, real);
  } else {
    layer_.MirrorStep(c, up, instance, kFanIn, kCreationMessageBytes);
    absl::StatusOr<std::unique_ptr<BlockedWindow>> window =
        BlockedWindow::Open(layer_.link(), [&] { return arrived(up, kFanOut); });
    if (!window.ok()) Fatal(absl::StrCat(layer_.current_call(), ": ", window.status().message()));
    rc = RealCall(made, &shadow, real);
    if (absl::Status s = (*window)->Close(); !s.ok()) {
      Fatal(absl::StrCat(layer_.current_call(), ": ", s.message()));
    }
    layer_.Block([&] { return arrived(up, kFanOut); });
    inbox.TakeStep(c.id, instance, kFanOut, c.world_of[up]);
  }
  for (int child : children) {
    layer_.MirrorStep(c, child, instance, kFanOut, kCreationMessageBytes);
  }
  if (rc == MPI_SUCCESS && *made != MPI_COMM_NULL) {
    MPI_Group group, world;
    PMPI_Comm_group(*made, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int zero = 0, first = 0;
    PMPI_Group_translate_ranks(group, 1, &zero, world, &first);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    layer_.comms().Add(*made, shadow, CommRegistry::ChildId(c.id, instance, first));
  }
  return rc;
}

int CommCreation::Free(MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) layer_.comms().Remove(*comm);
  return PMPI_Comm_free(comm);
}

}  // namespace trestle::mpi
