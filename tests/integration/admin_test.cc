// The gRPC admin service, /metrics and the `trestle` admin commands against a
// real trestled: counters match what the test sent, Drain finishes what is in
// flight, tokens are enforced, and /metrics parses as Prometheus text.
#include <gtest/gtest.h>
#include <httplib.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>

#include "absl/strings/str_cat.h"
#include "admin_client.h"
#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;

// Sends `n` payloads from app `a` to itself through a raw PUSH simulator
// that answers them, and reads the deliveries back.
void Relay(RawSession& a, RawSession& sim, int n) {
  for (int i = 0; i < n; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst("a");
    f.mutable_send()->set_payload(absl::StrCat("m", i));
    a.send.WriteFrame(f);
  }
  ASSERT_EQ(AnswerTransits(sim, n), n);
  int got = 0;
  while (got < n) {
    auto batch = a.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries());
    got += batch->deliveries().deliveries_size();
  }
}

// Runs a command, returns its stdout and sets *code to its exit status.
std::string RunCommand(const std::string& command, int* code) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  *code = WEXITSTATUS(pclose(p));
  return out;
}

TEST(Admin, StatusClientsAndStatsMatchWhatWasSent) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  Relay(a, sim, 7);

  AdminClient admin(daemon.admin_address(), "");
  auto status = admin.Status();
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->totals().accepted(), 7u);
  EXPECT_EQ(status->totals().delivered(), 7u);
  EXPECT_EQ(status->totals().in_flight(), 0u);
  EXPECT_EQ(status->sessions(), 2u);
  EXPECT_EQ(status->connections(), 6u);
  EXPECT_EQ(status->store(), "memory");
  EXPECT_EQ(static_cast<pid_t>(status->pid()), daemon.pid());

  auto clients = admin.ListClients();
  ASSERT_TRUE(clients.ok()) << clients.status();
  ASSERT_EQ(clients->clients_size(), 2);
  const admin::ClientInfo& app = clients->clients(0);
  EXPECT_EQ(app.client_id(), "a");
  EXPECT_EQ(app.role(), wire::ROLE_APP);
  EXPECT_TRUE(app.connected() && app.ctrl() && app.send() && app.recv());
  EXPECT_EQ(app.sent(), 7u);
  EXPECT_EQ(app.received(), 7u);
  EXPECT_EQ(clients->clients(1).role(), wire::ROLE_SIM);
  EXPECT_EQ(clients->clients(1).held(), 0u);

  auto stats = admin.Stats();
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_EQ(stats->stages_size(), 4);
  for (const admin::Histogram& h : stats->stages()) {
    EXPECT_EQ(h.count(), 7u) << h.stage();
    std::uint64_t sum = 0;
    for (std::uint64_t c : h.counts()) sum += c;
    EXPECT_EQ(sum, 7u) << h.stage();
    EXPECT_LE(h.p50_us(), h.p99_us()) << h.stage();
  }
  EXPECT_EQ(stats->stages(3).stage(), "resident");
  EXPECT_EQ(stats->stages(3).sum_ns(), stats->stages(0).sum_ns() + stats->stages(2).sum_ns());
}

TEST(Admin, DrainRefusesNewWorkAndFinishesWhatIsInFlight) {
  DaemonProcess daemon;
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  for (int i = 0; i < 3; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst("a");
    f.mutable_send()->set_payload("before drain");
    a.send.WriteFrame(f);
  }
  AdminClient admin(daemon.admin_address(), "");
  // Wait until the three are accepted (no simulator yet: in flight).
  for (int i = 0; i < 100; ++i) {
    auto s = admin.Status();
    if (s.ok() && s->totals().accepted() == 3) break;
    std::this_thread::sleep_for(milliseconds(20));
  }
  auto drained = std::async(std::launch::async, [&] {
    return AdminClient(daemon.admin_address(), "").Drain(milliseconds(10000));
  });
  for (int i = 0; i < 100; ++i) {
    auto s = admin.Status();
    if (s.ok() && s->draining()) break;
    std::this_thread::sleep_for(milliseconds(20));
  }
  // New sends and new apps are refused; a simulator may still join.
  wire::Frame late;
  late.mutable_send()->set_dst("a");
  a.send.WriteFrame(late);
  auto err = a.send.ReadFrame();
  ASSERT_TRUE(err.has_value() && err->has_error());
  EXPECT_EQ(err->error().code(), wire::SHUTTING_DOWN);
  RawConnection newcomer(daemon.port());
  wire::Frame refused = newcomer.Hello("b", wire::ROLE_APP);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), wire::SHUTTING_DOWN);
  EXPECT_EQ(drained.wait_for(milliseconds(200)), std::future_status::timeout)
      << "drain must wait for the three in flight";

  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  ASSERT_EQ(AnswerTransits(sim, 3), 3);
  auto reply = drained.get();
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_TRUE(reply->drained());
  EXPECT_EQ(reply->totals().accepted(), 3u);
  EXPECT_EQ(reply->totals().delivered(), 3u);
  EXPECT_EQ(reply->totals().rejected(), 1u);
  EXPECT_EQ(reply->totals().in_flight(), 0u);
}

TEST(Admin, DrainThatCannotFinishReportsNotDrainedAtItsTimeout) {
  DaemonProcess daemon;
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  wire::Frame f;
  f.mutable_send()->set_dst("a");
  a.send.WriteFrame(f);
  AdminClient admin(daemon.admin_address(), "");
  for (int i = 0; i < 100 && admin.Status()->totals().accepted() == 0; ++i) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  auto reply = admin.Drain(milliseconds(300));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_FALSE(reply->drained());
  EXPECT_EQ(reply->totals().in_flight(), 1u);
}

TEST(Admin, BadOrMissingTokenIsRefused) {
  DaemonProcess daemon({"--auth-token", "s3cret", "--metrics-listen", "127.0.0.1:0"});
  auto none = AdminClient(daemon.admin_address(), "").Status();
  EXPECT_EQ(none.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(none.status().message().find("auth token"), absl::string_view::npos);
  auto wrong = AdminClient(daemon.admin_address(), "guess").Status();
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kUnauthenticated);
  auto right = AdminClient(daemon.admin_address(), "s3cret").Status();
  EXPECT_TRUE(right.ok()) << right.status();

  httplib::Client http("127.0.0.1", daemon.metrics_port());
  auto anonymous = http.Get("/metrics");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  auto bearer = http.Get("/metrics", {{"Authorization", "Bearer s3cret"}});
  ASSERT_TRUE(bearer);
  EXPECT_EQ(bearer->status, 200);
}

TEST(Admin, MetricsParseAsPrometheusText) {
  DaemonProcess daemon({"--metrics-listen", "127.0.0.1:0"});
  ASSERT_NE(daemon.metrics_port(), 0);
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  Relay(a, sim, 4);

  httplib::Client http("127.0.0.1", daemon.metrics_port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Type").find("text/plain"), std::string::npos);
  const std::string path = absl::StrCat("/tmp/trestle-metrics-", getpid(), ".txt");
  std::ofstream(path) << res->body;
  // The reference parser (Debian's python3-prometheus-client) reads it back.
  const std::string script =
      "import sys\n"
      "from prometheus_client.parser import text_string_to_metric_families as parse\n"
      "fams = {f.name: f for f in parse(open(sys.argv[1]).read())}\n"
      "acc = fams['trestle_messages_accepted'].samples[0].value\n"
      "hist = fams['trestle_stage_latency_seconds']\n"
      "count = [s.value for s in hist.samples if s.name.endswith('_count')"
      " and s.labels['stage'] == 'resident'][0]\n"
      "inf = [s.value for s in hist.samples if s.name.endswith('_bucket')"
      " and s.labels['stage'] == 'resident' and s.labels['le'] == '+Inf'][0]\n"
      "fed = all('trestle_messages_' + n in fams for n in ('forwarded', 'from_peers', 'recovered'))\n"
      "print(hist.type, int(acc), int(count), int(inf), len(fams), int(fed))\n";
  const std::string script_path = path + ".py";
  std::ofstream(script_path) << script;
  int code = 0;
  const std::string out = RunCommand("/usr/bin/python3 " + script_path + " " + path, &code);
  std::remove(path.c_str());
  std::remove(script_path.c_str());
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(out, "histogram 4 4 4 14 1\n");
}

TEST(Admin, TrestleCommandsPrintTablesFromARunningDaemon) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  Relay(a, sim, 5);
  const std::string base = std::string(TRESTLE_CLI_PATH) + " ";
  const std::string target = " --admin " + daemon.admin_address();
  int code = 0;
  std::string out = RunCommand(base + "status" + target, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.find("accepted"), std::string::npos) << out;
  EXPECT_NE(out.find("memory"), std::string::npos) << out;
  out = RunCommand(base + "clients" + target, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.find("connected"), std::string::npos) << out;
  EXPECT_NE(out.find("SIM"), std::string::npos) << out;
  out = RunCommand(base + "stats" + target, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.find("resident"), std::string::npos) << out;
  out = RunCommand(base + "top --iterations 2 --interval-ms 100" + target, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.find("trestle top"), std::string::npos) << out;
  // A daemon that is not there is an error that says so.
  out = RunCommand(base + "status --admin 127.0.0.1:1 2>&1", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("Status"), std::string::npos) << out;
}

TEST(Admin, ShutdownStopsTheDaemonCleanly) {
  DaemonProcess daemon;
  EXPECT_TRUE(AdminClient(daemon.admin_address(), "").Shutdown().ok());
  for (int i = 0; i < 250 && daemon.running(); ++i) std::this_thread::sleep_for(milliseconds(20));
  EXPECT_FALSE(daemon.running());
}

}  // namespace
}  // namespace trestle::testing
