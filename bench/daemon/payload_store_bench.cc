// The payload stores (daemon internals): what the daemon does per message
// with them, Put at accept and TakeBatch at delivery.
//
//   BM_MemoryStorePutTake/64/1      one 64-byte payload in, then out
//   BM_MemoryStorePutTake/64/256    256 in, then one batch of 256 out
//   BM_MemoryStorePutTake/65536/1
//   BM_RedisStorePutTake/...        the same through RedisPayloadStore, run
//                                   only with TRESTLE_BENCH_REDIS set to a
//                                   redis://HOST:PORT/DB it may write to
//
// Items/s counts payloads through the store. A backlog of 10,000 payloads
// (at most 64 MiB of them) stays in the store throughout, as under load. The
// Redis rows pipeline the Puts and the take's MGET, and wait for its reply
// (one round trip per iteration, plus the UNLINK that follows it); their CPU
// time is this process's only, so read their real time.
#include <benchmark/benchmark.h>
#include <uv.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "store/in_memory_payload_store.h"
#include "store/redis_payload_store.h"

namespace {

using trestle::daemon::InMemoryPayloadStore;
using trestle::daemon::PayloadStore;
using trestle::daemon::RedisPayloadStore;

std::uint64_t Backlog(std::size_t payload_bytes) {
  return std::min<std::uint64_t>(10'000, (64u << 20) / std::max<std::size_t>(payload_bytes, 1));
}

// Drives `store` as the daemon does: a backlog, then per iteration `batch`
// Puts and one TakeBatch of them. `wait(done)` returns once `done()` is true.
template <typename Wait>
void PutTake(benchmark::State& state, PayloadStore& store, Wait wait) {
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  const auto batch = static_cast<std::size_t>(state.range(1));
  const std::uint64_t backlog = Backlog(payload_bytes);
  bool ok = true;
  std::uint64_t stored = 0;
  for (std::uint64_t id = 0; id < backlog; ++id) {
    store.Put(id, std::string(payload_bytes, 'b'), [&](const absl::Status& s) {
      ok = ok && s.ok();
      ++stored;
    });
  }
  wait([&] { return stored == backlog; });
  const std::string payload(payload_bytes, 'p');
  std::vector<std::uint64_t> ids(batch);
  std::uint64_t next_id = backlog;
  for (auto _ : state) {
    for (std::size_t i = 0; i < batch; ++i) {
      ids[i] = next_id++;
      std::string copy = payload;  // the daemon moves in the Send's payload
      store.Put(ids[i], std::move(copy), [&](const absl::Status& s) { ok = ok && s.ok(); });
    }
    bool taken = false;
    store.TakeBatch(ids, [&](const absl::Status& s, std::span<std::string> got,
                             std::span<const PayloadStore::TakeResult> results) {
      ok = ok && s.ok();
      for (PayloadStore::TakeResult r : results) ok = ok && r == PayloadStore::TakeResult::kTaken;
      benchmark::DoNotOptimize(got.data());
      taken = true;
    });
    wait([&] { return taken; });
  }
  if (!ok) state.SkipWithError("store call failed");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch));
}

void BM_MemoryStorePutTake(benchmark::State& state) {
  InMemoryPayloadStore store;
  PutTake(state, store, [](auto) {});  // it answers before returning
}
BENCHMARK(BM_MemoryStorePutTake)->Args({64, 1})->Args({64, 256})->Args({64 << 10, 1});

void BM_RedisStorePutTake(benchmark::State& state, const std::string& url) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  {
    RedisPayloadStore store(&loop, url);
    if (absl::Status s = store.Open(); !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
    } else {
      auto wait = [&](auto done) {
        while (!done()) uv_run(&loop, UV_RUN_ONCE);
      };
      PutTake(state, store, wait);
      // The backlog would stay until its TTL: delete it now, and wait for a
      // reply queued behind the deletes.
      const std::uint64_t backlog = Backlog(static_cast<std::size_t>(state.range(0)));
      for (std::uint64_t id = 0; id < backlog; ++id) store.Erase(id);
      bool flushed = false;
      const std::uint64_t none = 0;
      store.TakeBatch(std::span<const std::uint64_t>(&none, 1),
                      [&](const absl::Status&, auto, auto) { flushed = true; });
      wait([&] { return flushed; });
    }
    store.Close();
  }
  uv_run(&loop, UV_RUN_DEFAULT);  // close callbacks
  uv_loop_close(&loop);
}

// Registered only when there is a Redis to run against.
const bool kRedisRegistered = [] {
  const char* url = std::getenv("TRESTLE_BENCH_REDIS");
  if (url == nullptr || *url == '\0') return false;
  benchmark::RegisterBenchmark("BM_RedisStorePutTake", BM_RedisStorePutTake, std::string(url))
      ->Args({64, 1})
      ->Args({64, 256})
      ->Args({64 << 10, 1})
      ->UseRealTime();
  return true;
}();

}  // namespace
