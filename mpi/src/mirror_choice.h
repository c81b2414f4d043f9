// ChooseMirror: how a rank mirrors collectives, from its setting
// (TRESTLE_MPI_MIRROR) and what the run's simulators declared in their
// Hello, as the rank's Welcome names them (Welcome.simulators):
//
//   steps        always steps
//   auto         collectives whole when at least one simulator is named and
//                every one declares replays_collectives; else steps
//   collectives  whole; an error naming the simulator that does not declare
//                it, or saying that none was connected
//
// Never from a simulator's name, never by a send that fails.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "layer_options.h"
#include "trestle.pb.h"

namespace trestle::mpi {

// `daemon`: the address the rank joined, for the error.
absl::StatusOr<LayerOptions::Mirror> ChooseMirror(
    LayerOptions::Mirror setting,
    const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& simulators,
    const std::string& daemon);

}  // namespace trestle::mpi
