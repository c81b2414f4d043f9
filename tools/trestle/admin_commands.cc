#include "admin_commands.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "admin_client.h"
#include "fmt/format.h"
#include "trestle/platform/text_table.h"
#include "virtual_time_text.h"

namespace trestle {
namespace {

using platform::TextTable;

struct AdminTarget {
  std::string address = "127.0.0.1:7879";
  std::string token = [] {
    const char* env = std::getenv("TRESTLE_TOKEN");
    return env == nullptr ? std::string() : std::string(env);
  }();
};

void AddTargetFlags(CLI::App* sub, AdminTarget* target) {
  sub->add_option("--admin", target->address, "trestled's admin address HOST:PORT")
      ->capture_default_str();
  sub->add_option("--token", target->token, "auth token (default: $TRESTLE_TOKEN)");
}

[[noreturn]] void Fail(const absl::Status& s) {
  std::cerr << "trestle: " << s.message() << "\n";
  std::exit(1);
}

std::string Us(double v) { return fmt::format("{:.1f}", v); }
std::string N(std::uint64_t v) { return std::to_string(v); }

const char* RoleName(wire::Role r) { return r == wire::ROLE_SIM ? "SIM" : "APP"; }

std::string Uptime(std::uint64_t ms) {
  const std::uint64_t s = ms / 1000;
  return fmt::format("{}h{:02}m{:02}s", s / 3600, (s / 60) % 60, s % 60);
}

// Lockstep time: the bound, each simulator's times, and who holds the bound
// back, for how long (docs/protocol.md, "Is it hung or slow?").
void AddLockstepRows(const wire::LockstepStats& l, TextTable& table) {
  table.AddRow({"lockstep bound",
                l.started() ? fmt::format("{} ns (safe before {} ns), still for {:.1f} s",
                                          l.bound_ns(), l.safe_before_ns(),
                                          l.bound_still_ms() / 1000.0)
                            : "not started"});
  table.AddRow({"lockstep apps", fmt::format("{} joined, {} running", l.apps(), l.apps_running())});
  if (l.apps_never_joined() > 0) {
    std::string ids;
    for (const std::string& id : l.never_joined()) ids += (ids.empty() ? "" : ", ") + id;
    const std::uint32_t unlisted = l.apps_never_joined() - l.never_joined_size();
    table.AddRow({"never joined", unlisted > 0 ? fmt::format("{} and {} more", ids, unlisted)
                                               : ids});
  }
  for (const wire::SimulatorTime& t : l.simulators()) {
    // 2^64-1 (and the fabric's 2^64-2): no outcome of what it holds is
    // due by any time yet (its Reached bounds nothing).
    const std::string reached = IsNoBound(t.reached_ns())
                                    ? "nothing to report yet"
                                    : fmt::format("reached {} ns", t.reached_ns());
    table.AddRow({fmt::format("simulator {}", t.client_id()),
                  fmt::format("granted {}, {}, holds {} transits{}",
                              IsNoBound(t.granted_ns()) ? std::string("to the end")
                                                        : fmt::format("{} ns", t.granted_ns()),
                              reached, t.transits_held(),
                              t.grant_outstanding()
                                  ? fmt::format(", Grant unanswered for {:.1f} s",
                                                t.granted_ms_ago() / 1000.0)
                                  : "")});
  }
  if (!l.holder().empty()) {
    table.AddRow({"held back by", fmt::format("{} '{}': {}", RoleName(l.holder_role()), l.holder(),
                                              l.holder_state())});
  } else if (!l.holder_state().empty()) {
    table.AddRow({"held back by", l.holder_state()});
  }
}

void PrintStatus(const admin::StatusReply& s, std::ostream& out) {
  const wire::Counters& t = s.totals();
  TextTable table({"field", "value"});
  table.AddRow({"version", s.version()});
  table.AddRow({"pid", N(s.pid())});
  table.AddRow({"listen", s.listen()});
  table.AddRow({"uptime", Uptime(s.uptime_ms())});
  table.AddRow({"store", s.store()});
  table.AddRow({"time mode", s.time_mode()});
  table.AddRow({"simulators", s.sim_assignment()});
  table.AddRow({"sessions", N(s.sessions())});
  table.AddRow({"connections", N(s.connections())});
  table.AddRow({"draining", s.draining() ? "yes" : "no"});
  table.AddRow({"accepted", N(t.accepted())});
  table.AddRow({"delivered", N(t.delivered())});
  table.AddRow({"dropped", N(t.dropped())});
  table.AddRow({"expired", N(t.expired())});
  table.AddRow({"in flight", N(t.in_flight())});
  table.AddRow({"rejected", N(t.rejected())});
  if (s.has_lockstep()) AddLockstepRows(s.lockstep(), table);
  if (s.has_bridge()) {
    // Federated: what this daemon handed on and took over, and the bridge.
    const admin::BridgeStatus& b = s.bridge();
    const wire::Counters& bt = b.totals();
    table.AddRow({"forwarded", N(t.forwarded())});
    table.AddRow({"from peers", N(t.from_peers())});
    table.AddRow({"recovered", N(t.recovered())});
    std::string daemons;
    for (std::uint32_t d : b.daemons()) daemons += (daemons.empty() ? "" : ", ") + N(d);
    table.AddRow({"bridge", fmt::format("run '{}', this daemon {}, daemons {} (as of {:.1f} s ago)",
                                        b.run(), b.daemon_id(), daemons.empty() ? "-" : daemons,
                                        b.age_ms() / 1000.0)});
    table.AddRow({"bridge accepted", N(bt.accepted())});
    table.AddRow({"bridge delivered", N(bt.delivered())});
    table.AddRow({"bridge dropped", N(bt.dropped())});
    table.AddRow({"bridge expired", N(bt.expired())});
    table.AddRow({"bridge lost in store", N(bt.lost_in_store())});
    table.AddRow({"bridge in flight", N(bt.in_flight())});
  }
  table.Print(out);
}

void PrintClients(const admin::ListClientsReply& r, std::ostream& out, std::size_t limit) {
  TextTable table({"client", "role", "mode", "state", "channels", "queued", "held", "sent",
                   "received", "delivered", "dropped", "expired", "in_flight", "out_bytes"});
  std::size_t shown = 0;
  for (const admin::ClientInfo& c : r.clients()) {
    if (shown++ == limit) break;
    const char* state = c.connected() ? "connected" : c.lingering() ? "lingering" : "offline";
    std::string channels = std::string(c.ctrl() ? "c" : "-") + (c.send() ? "s" : "-") +
                           (c.recv() ? "r" : "-");
    const wire::Counters& k = c.counters();
    table.AddRow({c.client_id(), RoleName(c.role()),
                  c.mode() == wire::PULL ? "pull" : "push", state, channels, N(c.queued()),
                  N(c.held()), N(c.sent()), N(c.received()), N(k.delivered()), N(k.dropped()),
                  N(k.expired()), N(k.in_flight()), N(c.output_bytes())});
  }
  table.Print(out);
  if (static_cast<std::size_t>(r.clients_size()) > limit) {
    out << "(" << r.clients_size() - static_cast<int>(limit) << " more)\n";
  }
}

void PrintStats(const admin::StatsReply& r, std::ostream& out) {
  TextTable table({"stage", "count", "mean_us", "p50_us", "p99_us", "p99.9_us"});
  for (const admin::Histogram& h : r.stages()) {
    table.AddRow({h.stage(), N(h.count()), Us(h.mean_us()), Us(h.p50_us()), Us(h.p99_us()),
                  Us(h.p999_us())});
  }
  table.Print(out);
  out << fmt::format("rates: accepted {:.0f}/s, delivered {:.0f}/s (last second)\n",
                     r.accepted_per_s(), r.delivered_per_s());
}

volatile std::sig_atomic_t g_stop_top = 0;

}  // namespace

void RegisterAdminCommands(CLI::App& app) {
  auto target = std::make_shared<AdminTarget>();

  CLI::App* status = app.add_subcommand("status", "Show the daemon's status and counters");
  AddTargetFlags(status, target.get());
  status->callback([target] {
    auto s = AdminClient(target->address, target->token).Status();
    if (!s.ok()) Fail(s.status());
    PrintStatus(*s, std::cout);
  });

  CLI::App* clients = app.add_subcommand("clients", "List the clients and their queues");
  AddTargetFlags(clients, target.get());
  clients->callback([target] {
    auto r = AdminClient(target->address, target->token).ListClients();
    if (!r.ok()) Fail(r.status());
    PrintClients(*r, std::cout, static_cast<std::size_t>(-1));
  });

  CLI::App* stats = app.add_subcommand("stats", "Show per-stage latency histograms and rates");
  AddTargetFlags(stats, target.get());
  stats->callback([target] {
    auto r = AdminClient(target->address, target->token).Stats();
    if (!r.ok()) Fail(r.status());
    PrintStats(*r, std::cout);
  });

  auto interval_ms = std::make_shared<int>(1000);
  auto iterations = std::make_shared<int>(0);
  auto rows = std::make_shared<int>(20);
  CLI::App* top = app.add_subcommand("top", "Refresh status, stats and clients live (q: Ctrl-C)");
  AddTargetFlags(top, target.get());
  top->add_option("--interval-ms", *interval_ms, "refresh period")->capture_default_str()
      ->check(CLI::Range(100, 60000));
  top->add_option("--iterations", *iterations, "stop after N refreshes (0: until Ctrl-C)")
      ->capture_default_str();
  top->add_option("--rows", *rows, "clients shown")->capture_default_str();
  top->callback([target, interval_ms, iterations, rows] {
    std::signal(SIGINT, [](int) { g_stop_top = 1; });
    AdminClient client(target->address, target->token);
    const bool tty = isatty(STDOUT_FILENO) != 0;
    for (int i = 0; !g_stop_top && (*iterations == 0 || i < *iterations); ++i) {
      auto s = client.Status();
      auto st = client.Stats();
      auto c = client.ListClients();
      if (!s.ok()) Fail(s.status());
      if (!st.ok()) Fail(st.status());
      if (!c.ok()) Fail(c.status());
      std::ostringstream screen;
      if (tty) screen << "\x1b[H\x1b[2J";
      screen << "trestle top — " << target->address << " — every " << *interval_ms << " ms\n\n";
      PrintStatus(*s, screen);
      screen << "\n";
      PrintStats(*st, screen);
      screen << "\n";
      PrintClients(*c, screen, static_cast<std::size_t>(*rows));
      std::cout << screen.str() << std::flush;
      if (*iterations != 0 && i + 1 == *iterations) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(*interval_ms));
    }
  });

  auto drain_ms = std::make_shared<int>(30000);
  CLI::App* drain = app.add_subcommand(
      "drain", "Stop accepting new apps and sends, wait for in-flight messages, report");
  AddTargetFlags(drain, target.get());
  drain->add_option("--timeout-ms", *drain_ms, "how long to wait")->capture_default_str();
  drain->callback([target, drain_ms] {
    auto r = AdminClient(target->address, target->token)
                 .Drain(std::chrono::milliseconds(*drain_ms));
    if (!r.ok()) Fail(r.status());
    const wire::Counters& t = r->totals();
    std::cout << (r->drained() ? "drained" : "NOT drained (timeout)") << ": accepted "
              << t.accepted() << " delivered " << t.delivered() << " dropped " << t.dropped()
              << " expired " << t.expired() << " in flight " << t.in_flight() << "\n";
    if (!r->drained()) std::exit(3);
  });

  CLI::App* shutdown = app.add_subcommand("shutdown", "Shut the daemon down");
  AddTargetFlags(shutdown, target.get());
  shutdown->callback([target] {
    absl::Status s = AdminClient(target->address, target->token).Shutdown();
    if (!s.ok()) Fail(s);
    std::cout << "shutting down\n";
  });
}

}  // namespace trestle
