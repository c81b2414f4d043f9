// trestle-ring-allreduce: N ranks run an all-reduce (ring, halving-doubling
// or direct) through trestled and report the virtual time each one finished
// at.
//
//   trestle-ring-allreduce --daemon ADDR --ranks N --size 1MiB
//                          [--algorithm ring|halving-doubling|direct]
//                          [--rank K] [--reduce-bw 100GBps]
//                          [--time-mode lockstep|virtual] [--stats]
//
// The ranks are apps "rank-0" .. "rank-(N-1)"; see all_reduce_rank.h and
// all_reduce_steps.h for the algorithms and docs/fabric.md ("Collective
// sweeps") for the offline model they match. Without --rank all N ranks run in this process on one
// EventLoop (callback mode: OnMessage, and in lockstep AwaitNext); with
// --rank K this process is rank K alone (blocking Receive), and after the
// collective every other rank sends rank 0 its time in one small message
// (traffic class 1) so that rank 0 can print the summary. In lockstep time
// the run ends when it is quiescent (every rank waits and nothing is in
// flight). Prints one line per rank, then (one process, or rank 0) a summary
// with the slowest rank's time. Exits 1 if a rank fails, its data does not
// add up, or the run ends before every rank finished.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lockstep_stats_line.h"
#include "all_reduce_rank.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/status.h"

namespace {

using trestle::AppClient;
using trestle::Message;
using trestle::examples::AllReducePlan;
using trestle::examples::AllReduceRank;
using trestle::fabric::CollectiveAlgorithm;

// Traffic class of the after-run time reports to rank 0 (the chunks use 0).
constexpr std::uint32_t kReportClass = 1;

struct Args {
  std::string daemon = trestle::kDefaultDaemonAddress;
  std::uint32_t ranks = 4;
  std::string size = "1MiB";
  std::string algorithm = "ring";
  std::optional<std::uint32_t> rank;
  std::string reduce_bw;
  std::string time_mode = "lockstep";
  std::int64_t timeout_ms = 30000;
  bool stats = false;
  bool quiet = false;
};

struct Run {
  AllReducePlan plan;
  std::uint64_t size = 0;
  bool lockstep = true;
  std::chrono::milliseconds timeout{30000};
};

trestle::ClientOptions Options(const Args& args, const Run& run, std::uint32_t rank) {
  trestle::ClientOptions options;
  options.daemon = args.daemon;
  options.client_id = AllReduceRank::ClientId(rank);
  options.lockstep = run.lockstep;
  options.multiplex = true;  // the ranks of one process share one connection
  return options;
}

int Fail(const std::string& text) {
  std::fprintf(stderr, "trestle-ring-allreduce: %s\n", text.c_str());
  return 1;
}

void PrintRank(const AllReduceRank& rank) {
  std::printf("%s t_ns=%llu steps=%u verified=%s\n", AllReduceRank::ClientId(rank.rank()).c_str(),
              static_cast<unsigned long long>(rank.completion_ns()), rank.steps(),
              rank.Verified() ? "yes" : "no");
}

void PrintSummary(const Run& run, const char* layout, const std::vector<std::uint64_t>& times,
                  double wall_ms) {
  const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
  std::printf(
      "summary: ranks=%u size=%llu algorithm=%s chunk_bytes=%llu steps=%zu reduce_ns=%llu "
      "time_mode=%s layout=%s min_t_ns=%llu max_t_ns=%llu wall_ms=%.3f\n",
      run.plan.ranks, static_cast<unsigned long long>(run.size),
      std::string(trestle::fabric::CollectiveAlgorithmName(run.plan.algorithm)).c_str(),
      static_cast<unsigned long long>(run.plan.chunk_bytes),
      trestle::examples::AllReduceSteps(run.plan.algorithm, run.plan.ranks, 0).size(),
      static_cast<unsigned long long>(AllReduceRank::ReduceNs(run.plan, run.plan.chunk_bytes)),
      run.lockstep ? "lockstep" : "virtual",
      layout, static_cast<unsigned long long>(*lo), static_cast<unsigned long long>(*hi), wall_ms);
}

// The daemon's lockstep counters and its delivered count, for the benchmark.
void PrintStats(AppClient& client, const Run& run) {
  absl::StatusOr<trestle::wire::StatsReply> stats = client.Stats(run.timeout);
  if (!stats.ok()) {
    std::fprintf(stderr, "trestle-ring-allreduce: stats: %s\n", stats.status().ToString().c_str());
    return;
  }
  std::printf("%s\n", trestle::examples::LockstepStatsLine(*stats).c_str());
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// All ranks on one EventLoop, in callback mode.
int RunOnOneLoop(const Args& args, const Run& run) {
  const std::uint32_t n = run.plan.ranks;
  trestle::EventLoop loop;
  std::vector<std::unique_ptr<AppClient>> clients;
  std::vector<std::unique_ptr<AllReduceRank>> ranks;
  std::uint32_t connected = 0;
  std::string failure;
  auto fail = [&](const std::string& text) {
    if (failure.empty()) failure = text;
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    clients.push_back(std::make_unique<AppClient>(loop, Options(args, run, i)));
    AppClient& client = *clients.back();
    client.OnError([&, i](const absl::Status& s) {
      fail(absl::StrCat(AllReduceRank::ClientId(i), ": ", s.ToString()));
    });
    absl::Status s = client.ConnectAsync([&, i](absl::Status st) {
      if (st.ok()) {
        ++connected;
      } else {
        fail(absl::StrCat(AllReduceRank::ClientId(i), ": connect: ", st.ToString()));
      }
    });
    if (!s.ok()) return Fail(absl::StrCat(AllReduceRank::ClientId(i), ": connect: ", s.ToString()));
  }
  if (!loop.RunUntil([&] { return connected == n || !failure.empty(); }, run.timeout) ||
      !failure.empty()) {
    return Fail(failure.empty() ? "timed out connecting the ranks" : failure);
  }

  std::uint32_t finished = 0;
  std::uint32_t quiescent = 0;
  const auto wall_start = std::chrono::steady_clock::now();
  double wall_ms = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    ranks.push_back(std::make_unique<AllReduceRank>(*clients[i], i, run.plan));
    AppClient& client = *clients[i];
    AllReduceRank& rank = *ranks.back();
    client.OnMessage([&](Message&& m) {
      if (absl::Status s = rank.TakeMessage(m); !s.ok()) return fail(s.ToString());
      if (rank.done() && ++finished == n) wall_ms = MillisSince(wall_start);
      if (run.lockstep) {
        if (absl::Status s = client.AwaitNext(); !s.ok()) fail(s.ToString());
      }
    });
    client.OnQuiescent([&] { ++quiescent; });
    client.OnWake([&](std::uint64_t now) {
      fail(absl::StrCat(AllReduceRank::ClientId(rank.rank()), ": woken at ", now, " without asking"));
    });
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (absl::Status s = ranks[i]->Start(); !s.ok()) return Fail(s.ToString());
    if (run.lockstep) {
      if (absl::Status s = clients[i]->AwaitNext(); !s.ok()) return Fail(s.ToString());
    }
  }
  // Lockstep: until the run is quiescent (so nothing is left in flight);
  // virtual: until every rank has its last chunk.
  const bool ended = loop.RunUntil(
      [&] { return !failure.empty() || (run.lockstep ? quiescent == n : finished == n); },
      run.timeout);
  std::vector<std::uint64_t> times;
  bool ok = ended && failure.empty();
  for (const auto& rank : ranks) {
    if (!rank->done()) {
      ok = false;
      std::fprintf(stderr, "trestle-ring-allreduce: %s stopped after step %u of %u (%s)\n",
                   AllReduceRank::ClientId(rank->rank()).c_str(), rank->step(), rank->steps(),
                   !ended ? "wall-clock timeout" : quiescent > 0 ? "the run went quiescent"
                                                                : "see the error");
      continue;
    }
    ok = ok && rank->Verified();
    times.push_back(rank->completion_ns());
    if (!args.quiet) PrintRank(*rank);
  }
  if (!failure.empty()) Fail(failure);
  if (!times.empty()) PrintSummary(run, "one-loop", times, wall_ms);
  if (args.stats) PrintStats(*clients[0], run);
  for (auto& client : clients) client->Close(std::chrono::milliseconds(2000)).IgnoreError();
  return ok ? 0 : 1;
}

// This process is rank K alone, with blocking receives.
int RunOneRank(const Args& args, const Run& run, std::uint32_t k) {
  const std::uint32_t n = run.plan.ranks;
  AppClient client(Options(args, run, k));
  if (absl::Status s = client.Connect(); !s.ok()) {
    return Fail(absl::StrCat(AllReduceRank::ClientId(k), ": connect: ", s.ToString()));
  }
  AllReduceRank rank(client, k, run.plan);
  std::vector<std::uint64_t> times(n, 0);
  std::uint32_t reports = 0;  // rank 0: the other ranks' times received
  bool all_verified = true;
  auto take_report = [&](const Message& m) -> absl::Status {
    // "t_ns=<ns> verified=<yes|no>" from rank-<r>.
    std::uint32_t r = 0;
    std::uint64_t t = 0;
    const std::string_view src(m.src);
    const std::string_view payload(m.payload);
    if (k != 0 || src.rfind("rank-", 0) != 0 || !absl::SimpleAtoi(std::string(src.substr(5)), &r) || r >= n ||
        r == 0 || payload.rfind("t_ns=", 0) != 0 ||
        !absl::SimpleAtoi(std::string(payload.substr(5, payload.find(' ') - 5)), &t)) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected report '", m.payload, "' from ", m.src));
    }
    times[r] = t;
    all_verified = all_verified && payload.find("verified=yes") != std::string_view::npos;
    ++reports;
    return absl::OkStatus();
  };
  auto receive = [&](const char* waiting_for) -> absl::StatusOr<Message> {
    absl::StatusOr<Message> m = client.Receive(run.timeout);
    if (!m.ok()) {
      return absl::Status(m.status().code(),
                          absl::StrCat(AllReduceRank::ClientId(k), " at step ", rank.step(), " of ",
                                       rank.steps(), ", waiting for ", waiting_for, ": ",
                                       trestle::IsQuiescent(m.status())
                                           ? "the run went quiescent (a rank is missing?)"
                                           : m.status().ToString()));
    }
    return m;
  };

  const auto wall_start = std::chrono::steady_clock::now();
  if (absl::Status s = rank.Start(); !s.ok()) return Fail(s.ToString());
  while (!rank.done()) {
    absl::StatusOr<Message> m = receive("a message");
    if (!m.ok()) return Fail(m.status().ToString());
    absl::Status s = m->tclass == kReportClass ? take_report(*m) : rank.TakeMessage(*m);
    if (!s.ok()) return Fail(s.ToString());
  }
  const double wall_ms = MillisSince(wall_start);
  times[k] = rank.completion_ns();
  all_verified = all_verified && rank.Verified();
  if (!args.quiet) PrintRank(rank);
  if (k != 0) {
    trestle::SendOptions report;
    report.tclass = kReportClass;
    const std::string text = absl::StrCat("t_ns=", rank.completion_ns(),
                                          " verified=", rank.Verified() ? "yes" : "no");
    if (absl::StatusOr<std::uint64_t> id = client.Send(AllReduceRank::ClientId(0), text, report);
        !id.ok()) {
      return Fail(absl::StrCat(AllReduceRank::ClientId(k), ": report to rank-0: ",
                               id.status().ToString()));
    }
  } else {
    while (reports < n - 1) {
      absl::StatusOr<Message> m = receive("the other ranks' times");
      if (!m.ok()) return Fail(m.status().ToString());
      if (absl::Status s = take_report(*m); !s.ok()) return Fail(s.ToString());
    }
    PrintSummary(run, "one-rank-per-process", times, wall_ms);
  }
  if (run.lockstep) {
    // Wait for the end of the run, so that a rank leaves nothing in flight.
    absl::StatusOr<Message> m = client.Receive(run.timeout);
    if (m.ok() || !trestle::IsQuiescent(m.status())) {
      return Fail(absl::StrCat(AllReduceRank::ClientId(k), ": waiting for the end of the run: ",
                               m.ok() ? absl::StrCat("a message from ", m->src)
                                      : m.status().ToString()));
    }
  }
  if (k == 0 && args.stats) PrintStats(client, run);
  client.Close(std::chrono::milliseconds(2000)).IgnoreError();
  return all_verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  CLI::App app{
      "All-reduce of --size bytes among --ranks apps (rank-0 .. rank-N-1) through trestled,\n"
      "by --algorithm: ring (2(N-1) steps, each sending ceil(size/N) bytes to the next rank),\n"
      "halving-doubling (2 log2 N steps with partners i^2^k) or direct (2(N-1) steps to i+d).\n"
      "Prints each rank's virtual completion time and a summary with the slowest. Without\n"
      "--rank all ranks run in this process on one event loop; with --rank K this process is\n"
      "rank K only.",
      "trestle-ring-allreduce"};
  app.add_option("--daemon", args.daemon, "Daemon address, HOST:PORT or unix:PATH")
      ->capture_default_str();
  app.add_option("--ranks", args.ranks, "Number of ranks N (>= 2)")
      ->check(CLI::Range(2u, 1u << 20))
      ->capture_default_str();
  app.add_option("--size", args.size,
                 "All-reduce vector size with a unit: B, KB MB GB (decimal), KiB MiB GiB "
                 "(binary); at least N bytes")
      ->capture_default_str();
  app.add_option("--algorithm", args.algorithm,
                 "ring, halving-doubling (N a power of two, --size a multiple of N) or direct, "
                 "as sweep --algorithm")
      ->capture_default_str();
  app.add_option("--rank", args.rank,
                 "Run only rank K (0 <= K < N) in this process; start all N processes. "
                 "Rank 0 prints the summary");
  app.add_option("--reduce-bw", args.reduce_bw,
                 "Model the reduction: after each reduce-scatter message, Advance(its bytes / BW, "
                 "rounded to ns), as sweep --reduce-bw. With a unit, e.g. 100GBps. "
                 "Default: reductions take no virtual time");
  app.add_option("--time-mode", args.time_mode,
                 "lockstep | virtual; must be the daemon's time_mode")
      ->check(CLI::IsMember({"lockstep", "virtual"}))
      ->capture_default_str();
  app.add_option("--timeout-ms", args.timeout_ms,
                 "Wall-clock bound on connecting, on the whole run (one process) and on each "
                 "receive (--rank)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("--stats",
               args.stats,
               "At the end, print the daemon's delivered count and lockstep counters (grants, "
               "reached, clocks, wakes) and time-control frames per delivered message");
  app.add_flag("--quiet", args.quiet, "Print only the summary (and --stats)");
  CLI11_PARSE(app, argc, argv);

  absl::StatusOr<trestle::fabric::ByteSize> size = trestle::fabric::ByteSize::Parse(args.size);
  if (!size.ok()) return Fail(absl::StrCat("--size: ", size.status().message()));
  if (size->bytes() < args.ranks) {
    return Fail(absl::StrCat("--size ", args.size, " is less than one byte per rank (",
                             args.ranks, " ranks)"));
  }
  absl::StatusOr<CollectiveAlgorithm> algorithm =
      trestle::fabric::ParseCollectiveAlgorithm(args.algorithm);
  if (!algorithm.ok()) return Fail(absl::StrCat("--algorithm: ", algorithm.status().message()));
  if (*algorithm == CollectiveAlgorithm::kHalvingDoubling) {
    // N blocks of S/N each: a message of m blocks is then m × S/N bytes, as
    // the sweep prices it.
    if ((args.ranks & (args.ranks - 1)) != 0) {
      return Fail(absl::StrCat("--algorithm halving-doubling needs --ranks a power of two, not ",
                               args.ranks));
    }
    if (size->bytes() % args.ranks != 0) {
      return Fail(absl::StrCat("--algorithm halving-doubling needs --size a multiple of --ranks (",
                               size->bytes(), " bytes, ", args.ranks, " ranks)"));
    }
  }
  if (args.rank && *args.rank >= args.ranks) {
    return Fail(absl::StrCat("--rank ", *args.rank, " is not below --ranks ", args.ranks));
  }
  Run run;
  run.size = size->bytes();
  run.lockstep = args.time_mode == "lockstep";
  run.timeout = std::chrono::milliseconds(args.timeout_ms);
  run.plan.algorithm = *algorithm;
  run.plan.ranks = args.ranks;
  run.plan.chunk_bytes = (run.size + args.ranks - 1) / args.ranks;  // as the sweep: ceil(S/N)
  if (!args.reduce_bw.empty()) {
    absl::StatusOr<trestle::fabric::Bandwidth> bw =
        trestle::fabric::Bandwidth::Parse(args.reduce_bw);
    if (!bw.ok()) return Fail(absl::StrCat("--reduce-bw: ", bw.status().message()));
    if (!(bw->bytes_per_ns() > 0)) return Fail("--reduce-bw must be above 0");
    run.plan.reduce_bytes_per_ns = bw->bytes_per_ns();
  }
  return args.rank ? RunOneRank(args, run, *args.rank) : RunOnOneLoop(args, run);
}
