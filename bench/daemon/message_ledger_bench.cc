// The message ledger (MessageLedger, a daemon internal): what every message
// costs in the table and the accounting, from Open to its terminal state.
//
//   BM_LedgerLifecycle/N   N messages in flight at once: open and accept N,
//                          then deliver and erase them, oldest first
//
// Items/s counts messages through the ledger.
#include <benchmark/benchmark.h>

#include <vector>

#include "messages/client_registry.h"
#include "messages/message_ledger.h"

namespace {

void BM_LedgerLifecycle(benchmark::State& state) {
  const auto in_flight = static_cast<std::uint64_t>(state.range(0));
  trestle::daemon::ClientRegistry apps;
  // Held as sessions would hold them, so they outlive their messages.
  const std::uint32_t src = apps.GetOrCreate("a").index;
  const std::uint32_t dst = apps.GetOrCreate("b").index;
  apps.Retain(src);
  apps.Retain(dst);
  trestle::daemon::MessageLedger ledger(apps);
  std::uint64_t next_id = 1;
  for (auto _ : state) {
    const std::uint64_t first = next_id;
    for (std::uint64_t i = 0; i < in_flight; ++i) {
      ledger.Accept(*ledger.Open(next_id++, src, dst));
    }
    for (std::uint64_t id = first; id < next_id; ++id) {
      trestle::daemon::MessageRecord* r = ledger.Find(id);
      ledger.Written(*r, 1000);
      ledger.Delivered(*r);
      ledger.Erase(id);
    }
  }
  benchmark::DoNotOptimize(ledger.totals().delivered);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(in_flight));
}
BENCHMARK(BM_LedgerLifecycle)->Arg(1)->Arg(256)->Arg(65536);

}  // namespace
