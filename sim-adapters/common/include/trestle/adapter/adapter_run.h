// RunAdapter: the life of a live adapter process, shared by the trestle-sim
// subcommands. It starts a SimAdapter, runs its loop until SIGINT or SIGTERM
// (or until the daemon connection is lost), and stops it, flushing what was
// posted. Asynchronous errors are printed to stderr as "PREFIX: STATUS".
#ifndef TRESTLE_ADAPTER_ADAPTER_RUN_H_
#define TRESTLE_ADAPTER_ADAPTER_RUN_H_

#include <cstddef>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "trestle/adapter/adapter_counters.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/event_loop.h"

namespace trestle::adapter {

struct AdapterRun {
  // Start's status; when it failed, nothing ran and nothing below is set.
  absl::Status started;
  // The daemon connection was lost (already printed); the adapter was not
  // stopped gracefully.
  bool lost = false;
  AdapterCounters counters;        // as the loop ended, before Stop
  std::size_t held_discarded = 0;  // paced outcomes Stop discarded
  absl::Status closed;             // Stop's status (2 s bound)
};

// `adapter` must run on `loop`. `on_started` runs once Start succeeded, before
// the loop runs (to announce the adapter).
AdapterRun RunAdapter(EventLoop& loop, SimAdapter& adapter, const std::string& prefix,
                      const std::function<void()>& on_started);

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ADAPTER_RUN_H_
