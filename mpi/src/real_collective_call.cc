#include "real_collective_call.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "blocked_window.h"
#include "collective_plan.h"

namespace trestle::mpi {
namespace {

constexpr std::int32_t kFanIn = 0;
constexpr std::int32_t kFanOut = 1;
constexpr std::uint64_t kBarrierMessageBytes = 8;

}  // namespace

int RunAsBarrier(MpiLayer& layer, CommState& c, const std::function<int()>& real,
                 std::uint32_t* instance_out) {
  const std::uint32_t instance = c.instances++;
  if (instance_out != nullptr) *instance_out = instance;
  MirrorInbox& inbox = layer.inbox();
  const std::vector<int> children = BinomialChildren(c.rank, c.size, 0);
  const int up = BinomialParent(c.rank, c.size, 0);
  auto arrived = [&](int peer, std::int32_t label) {
    return inbox.HasStep(c.id, instance, label, c.world_of[peer]);
  };
  layer.Block([&] {
    for (int child : children) {
      if (!arrived(child, kFanIn)) return false;
    }
    return true;
  });
  for (int child : children) inbox.TakeStep(c.id, instance, kFanIn, c.world_of[child]);

  int rc = MPI_SUCCESS;
  if (up < 0) {
    rc = real();
  } else {
    layer.MirrorStep(c, up, instance, kFanIn, kBarrierMessageBytes);
    absl::StatusOr<std::unique_ptr<BlockedWindow>> window =
        BlockedWindow::Open(layer.link(), [&] { return arrived(up, kFanOut); });
    if (!window.ok()) Fatal(absl::StrCat(layer.current_call(), ": ", window.status().message()));
    rc = real();
    if (absl::Status s = (*window)->Close(); !s.ok()) {
      Fatal(absl::StrCat(layer.current_call(), ": ", s.message()));
    }
    layer.Block([&] { return arrived(up, kFanOut); });
    inbox.TakeStep(c.id, instance, kFanOut, c.world_of[up]);
  }
  for (int child : children) {
    layer.MirrorStep(c, child, instance, kFanOut, kBarrierMessageBytes);
  }
  return rc;
}

}  // namespace trestle::mpi
