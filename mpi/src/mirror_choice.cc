#include "mirror_choice.h"

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"

namespace trestle::mpi {

absl::StatusOr<LayerOptions::Mirror> ChooseMirror(
    LayerOptions::Mirror setting,
    const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& simulators,
    const std::string& daemon) {
  using Mirror = LayerOptions::Mirror;
  if (setting == Mirror::kSteps) return Mirror::kSteps;
  const auto refuses = absl::c_find_if(simulators, [](const wire::SimulatorInfo& sim) {
    return !sim.capabilities().replays_collectives();
  });
  if (!simulators.empty() && refuses == simulators.end()) return Mirror::kCollectives;
  if (setting == Mirror::kAuto) return Mirror::kSteps;
  constexpr char kWayOut[] =
      "; mirror them step by step instead (trestle mpirun --mirror steps or auto, "
      "TRESTLE_MPI_MIRROR=steps or auto)";
  if (refuses == simulators.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("TRESTLE_MPI_MIRROR=collectives needs a simulator that replays collectives, "
                     "and trestled at ",
                     daemon, " had none connected when this rank joined", kWayOut));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("TRESTLE_MPI_MIRROR=collectives: simulator '", refuses->client_id(),
                   "' does not replay collectives (its Hello does not declare "
                   "capabilities.replays_collectives)",
                   kWayOut));
}

}  // namespace trestle::mpi
