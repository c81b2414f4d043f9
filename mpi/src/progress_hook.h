// ProgressHook: Open MPI's progress callbacks (opal_progress_register),
// found at run time, so that the layer can act while a blocking real call
// waits inside MPI (MpiLayer::BlockingReal). Under an MPI without them
// (MPICH), Register says so and the layer keeps to nonblocking calls.
#pragma once

namespace trestle::mpi {

class ProgressHook {
 public:
  using Callback = int (*)();
  // True if `callback` now runs on every turn of Open MPI's progress loop.
  static bool Register(Callback callback);
  static void Unregister(Callback callback);
};

}  // namespace trestle::mpi
