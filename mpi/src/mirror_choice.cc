#include "mirror_choice.h"

#include "absl/strings/str_cat.h"

namespace trestle::mpi {

absl::StatusOr<LayerOptions::Mirror> ChooseMirror(
    LayerOptions::Mirror setting,
    const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& simulators,
    const std::string& daemon) {
  using Mirror = LayerOptions::Mirror;
  if (setting == Mirror::kSteps) return Mirror::kSteps;
  const wire::SimulatorInfo* refuses = nullptr;
  for (const wire::SimulatorInfo& sim : simulators) {
    if (!sim.capabilities().replays_collectives()) {
      refuses = &sim;
      break;
    }
  }
  if (!simulators.empty() && refuses == nullptr) return Mirror::kCollectives;
  if (setting == Mirror::kAuto) return Mirror::kSteps;
  constexpr char kWayOut[] =
      "; mirror them step by step instead (trestle mpirun --mirror steps or auto, "
      "TRESTLE_MPI_MIRROR=steps or auto)";
  if (refuses == nullptr) {
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
