#include "trestle/adapter/adapter_run.h"

#include <csignal>
#include <cstdio>

namespace trestle::adapter {

AdapterRun RunAdapter(EventLoop& loop, SimAdapter& adapter, const std::string& prefix,
                      const std::function<void()>& on_started) {
  loop.StopOnSignal(SIGINT);
  loop.StopOnSignal(SIGTERM);
  AdapterRun run;
  adapter.link().OnError([&](const absl::Status& status) {
    std::fprintf(stderr, "%s: %s\n", prefix.c_str(), status.ToString().c_str());
    if (status.code() == absl::StatusCode::kUnavailable && !adapter.link().connected()) {
      run.lost = true;
      loop.Stop();
    }
  });
  run.started = adapter.Start();
  if (!run.started.ok()) return run;
  on_started();
  loop.Run();
  run.counters = adapter.counters();
  if (run.lost) return run;
  run.held_discarded = adapter.held();
  run.closed = adapter.Stop(std::chrono::milliseconds(2000));
  return run;
}

}  // namespace trestle::adapter
