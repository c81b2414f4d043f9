// The memory store (InMemoryPayloadStore, a daemon internal): what the
// daemon does per message with it, Put at accept and TakeBatch at delivery.
//
//   BM_MemoryStorePutTake/64/1      one 64-byte payload in, then out
//   BM_MemoryStorePutTake/64/256    256 in, then one batch of 256 out
//   BM_MemoryStorePutTake/65536/1
//
// Items/s counts payloads through the store. A backlog of 10,000 payloads
// stays in the store throughout, as under load.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "in_memory_payload_store.h"

namespace {

using trestle::daemon::InMemoryPayloadStore;

void BM_MemoryStorePutTake(benchmark::State& state) {
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  const auto batch = static_cast<std::size_t>(state.range(1));
  InMemoryPayloadStore store;
  constexpr std::uint64_t kBacklog = 10'000;
  for (std::uint64_t id = 0; id < kBacklog; ++id) {
    store.Put(id, std::string(payload_bytes, 'b'), [](const absl::Status&) {});
  }
  const std::string payload(payload_bytes, 'p');
  std::vector<std::uint64_t> ids(batch);
  std::uint64_t next_id = kBacklog;
  bool ok = true;
  for (auto _ : state) {
    for (std::size_t i = 0; i < batch; ++i) {
      ids[i] = next_id++;
      std::string copy = payload;  // the daemon moves in the Send's payload
      store.Put(ids[i], std::move(copy), [&](const absl::Status& s) { ok = ok && s.ok(); });
    }
    store.TakeBatch(ids, [&](const absl::Status& s, std::span<std::string> taken,
                             std::span<const trestle::daemon::PayloadStore::TakeResult>) {
      ok = ok && s.ok();
      benchmark::DoNotOptimize(taken.data());
    });
  }
  if (!ok) state.SkipWithError("store call failed");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch));
}
BENCHMARK(BM_MemoryStorePutTake)->Args({64, 1})->Args({64, 256})->Args({64 << 10, 1});

}  // namespace
