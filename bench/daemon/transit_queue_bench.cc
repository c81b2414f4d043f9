// The transit queue (TransitQueue, a daemon internal): ids queued for a
// simulator and taken out in batches, as the relay pumps them.
//
//   BM_TransitQueuePushPop/1     one id in, one out
//   BM_TransitQueuePushPop/256   256 in, a batch of 256 out
//
// Items/s counts ids through the queue.
#include <benchmark/benchmark.h>

#include <vector>

#include "transit_queue.h"

namespace {

void BM_TransitQueuePushPop(benchmark::State& state) {
  const auto batch = static_cast<std::size_t>(state.range(0));
  trestle::daemon::TransitQueue queue;
  std::vector<std::uint64_t> taken;
  taken.reserve(batch);
  std::uint64_t next_id = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < batch; ++i) queue.ids.push_back(next_id++);
    taken.clear();
    while (!queue.ids.empty() && taken.size() < batch) {
      taken.push_back(queue.ids.front());
      queue.ids.pop_front();
    }
    benchmark::DoNotOptimize(taken.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch));
}
BENCHMARK(BM_TransitQueuePushPop)->Arg(1)->Arg(256);

}  // namespace
