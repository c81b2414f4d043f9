// Connecting: immediate errors, refused and silent daemons, Error replies,
// and calls made on a client that is not connected.
#include <gtest/gtest.h>

#include <chrono>

#include "fake_daemon.h"
#include "trestle/app_client.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/sim_client.h"

namespace trestle {
namespace {

using std::chrono::milliseconds;
using testing::FakeDaemon;

ClientOptions Options(const std::string& daemon, const std::string& id = "node-a") {
  ClientOptions o;
  o.daemon = daemon;
  o.client_id = id;
  o.auth_token = "t0ken";
  o.connect_timeout = milliseconds(2000);
  return o;
}

// A port nothing listens on: bind a socket to port 0, read the port, close it.
std::string UnusedAddress(EventLoop& loop) {
  platform::UvHandle<uv_tcp_t> probe;
  probe.Init(uv_tcp_init, loop.uv_loop());
  sockaddr_in addr;
  uv_ip4_addr("127.0.0.1", 0, &addr);
  uv_tcp_bind(probe.get(), reinterpret_cast<const sockaddr*>(&addr), 0);
  sockaddr_storage bound;
  int len = sizeof(bound);
  uv_tcp_getsockname(probe.get(), reinterpret_cast<sockaddr*>(&bound), &len);
  const int port = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  probe.Close();  // closes the socket now; the handle's memory goes on the next pass
  return "127.0.0.1:" + std::to_string(port);
}

TEST(ClientConnectTest, BadAddressFailsAtOnceAndNeverRunsTheCallback) {
  EventLoop loop;
  AppClient app(loop, Options("no-port-here"));
  int calls = 0;
  absl::Status s = app.ConnectAsync([&](absl::Status) { ++calls; });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  loop.RunFor(milliseconds(20));
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(app.connected());
}

TEST(ClientConnectTest, EmptyClientIdIsRejectedBeforeAnyIo) {
  EventLoop loop;
  AppClient app(loop, Options("127.0.0.1:7878", ""));
  EXPECT_EQ(app.Connect().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ClientConnectTest, RefusedConnectionIsUnavailableAndCallbackRunsOnce) {
  EventLoop loop;
  AppClient app(loop, Options(UnusedAddress(loop)));
  int calls = 0;
  absl::Status result;
  ASSERT_TRUE(app.ConnectAsync([&](absl::Status s) {
                   ++calls;
                   result = s;
                 }).ok());
  loop.RunUntil([&] { return calls > 0; }, milliseconds(2000));
  loop.RunFor(milliseconds(20));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(result.code(), absl::StatusCode::kUnavailable) << result;
}

TEST(ClientConnectTest, SilentDaemonTimesOutWithinTheConnectTimeout) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  daemon.answer_hello = false;
  ClientOptions o = Options(daemon.address());
  o.connect_timeout = milliseconds(150);
  AppClient app(loop, o);
  const auto start = std::chrono::steady_clock::now();
  absl::Status s = app.Connect();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_NE(s.message().find("Welcome"), std::string::npos) << s;
  EXPECT_GE(elapsed, milliseconds(140));
  EXPECT_LT(elapsed, milliseconds(1000));
}

TEST(ClientConnectTest, HelloCarriesRoleIdTokenModeAndResumeToken) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  ClientOptions o = Options(daemon.address(), "sim-1");
  o.mode = DeliveryMode::kPull;
  o.resume_token = "old-token";
  SimClient sim(loop, o);
  ASSERT_TRUE(sim.Connect().ok());
  ASSERT_FALSE(daemon.ctrl_frames.empty());
  const wire::Hello& hello = daemon.ctrl_frames[0].hello();
  EXPECT_EQ(hello.protocol_version(), wire::kProtocolVersion);
  EXPECT_EQ(hello.role(), wire::ROLE_SIM);
  EXPECT_EQ(hello.client_id(), "sim-1");
  EXPECT_EQ(hello.auth_token(), "t0ken");
  EXPECT_EQ(hello.mode(), wire::PULL);
  EXPECT_EQ(hello.resume_token(), "old-token");
  EXPECT_EQ(daemon.connections_accepted, 3);
  EXPECT_EQ(sim.session_token(), "fake-token");
  EXPECT_EQ(sim.daemon_config().max_batch(), 4u);
}

TEST(ClientConnectTest, ErrorReplyToHelloMapsToStatusWithTheDaemonsText) {
  struct Case {
    wire::ErrorCode wire;
    absl::StatusCode code;
  };
  for (const Case& c : {Case{wire::UNAUTHENTICATED, absl::StatusCode::kUnauthenticated},
                        Case{wire::ALREADY_EXISTS, absl::StatusCode::kAlreadyExists},
                        Case{wire::UNSUPPORTED_VERSION, absl::StatusCode::kFailedPrecondition}}) {
    EventLoop loop;
    FakeDaemon daemon(loop);
    wire::Error error;
    error.set_code(c.wire);
    error.set_text("daemon says no");
    daemon.hello_error = error;
    AppClient app(loop, Options(daemon.address()));
    absl::Status s = app.Connect();
    EXPECT_EQ(s.code(), c.code) << s;
    EXPECT_NE(s.message().find("daemon says no"), std::string::npos) << s;
    EXPECT_FALSE(app.connected());
  }
}

TEST(ClientConnectTest, CallsBeforeConnectFailWithFailedPrecondition) {
  EventLoop loop;
  AppClient app(loop, Options("127.0.0.1:7878"));
  EXPECT_EQ(app.Send("b", "x").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(app.Receive(milliseconds(1)).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(app.Ping(milliseconds(1)).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(app.Stats(milliseconds(1)).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(app.Close(milliseconds(1)).ok());
  EXPECT_FALSE(app.TryReceive().has_value());
}

TEST(ClientConnectTest, BlockingCallsFromALoopCallbackFailInsteadOfNesting) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  AppClient app(loop, Options(daemon.address()));
  absl::Status connect_inside;
  absl::StatusOr<std::uint64_t> ping_inside = 0;
  bool done = false;
  ASSERT_TRUE(app.ConnectAsync([&](absl::Status s) {
                   ASSERT_TRUE(s.ok()) << s;
                   connect_inside = app.Connect();
                   ping_inside = app.Ping(milliseconds(100));
                   done = true;
                 }).ok());
  ASSERT_TRUE(loop.RunUntil([&] { return done; }, milliseconds(2000)));
  EXPECT_EQ(connect_inside.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ping_inside.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(app.connected());
}

TEST(ClientConnectTest, ConnectAgainWhileConnectedIsRefused) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  AppClient app(loop, Options(daemon.address()));
  ASSERT_TRUE(app.Connect().ok());
  int calls = 0;
  EXPECT_EQ(app.ConnectAsync([&](absl::Status) { ++calls; }).code(),
            absl::StatusCode::kFailedPrecondition);
  loop.RunFor(milliseconds(10));
  EXPECT_EQ(calls, 0);
}

TEST(ClientConnectTest, PingAndStatsRoundTripOnCtrl) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  daemon.stats.mutable_total()->set_accepted(42);
  AppClient app(loop, Options(daemon.address()));
  ASSERT_TRUE(app.Connect().ok());
  absl::StatusOr<std::uint64_t> rtt = app.Ping(milliseconds(1000));
  ASSERT_TRUE(rtt.ok()) << rtt.status();
  EXPECT_GT(*rtt, 0u);
  absl::StatusOr<wire::StatsReply> stats = app.Stats(milliseconds(1000));
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->total().accepted(), 42u);
}

TEST(ClientConnectTest, CloseSaysByeAndWaitsForTheDaemonToClose) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  AppClient app(loop, Options(daemon.address()));
  ASSERT_TRUE(app.Connect().ok());
  EXPECT_TRUE(app.Close(milliseconds(1000)).ok());
  EXPECT_TRUE(daemon.bye_received);
  EXPECT_FALSE(app.connected());
  EXPECT_EQ(app.Send("b", "x").status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ClientConnectTest, DestructorSaysByeWithoutWaiting) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  {
    AppClient app(loop, Options(daemon.address()));
    ASSERT_TRUE(app.Connect().ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return daemon.bye_received; }, milliseconds(1000)));
}

TEST(ClientConnectTest, DisconnectDropsWithoutByeAndReconnectCanResume) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  AppClient app(loop, Options(daemon.address()));
  ASSERT_TRUE(app.Connect().ok());
  app.Disconnect();
  loop.RunFor(milliseconds(20));
  EXPECT_FALSE(daemon.bye_received);
  app.set_resume_token(app.session_token());
  ASSERT_TRUE(app.Connect().ok());
  ASSERT_EQ(daemon.ctrl_frames.size(), 2u);
  EXPECT_EQ(daemon.ctrl_frames[1].hello().resume_token(), "fake-token");
}

TEST(ClientConnectTest, LostConnectionIsReportedOnceAsUnavailable) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  AppClient app(loop, Options(daemon.address()));
  std::vector<absl::Status> errors;
  app.OnError([&](const absl::Status& s) { errors.push_back(s); });
  ASSERT_TRUE(app.Connect().ok());
  daemon.DropConnections();
  absl::StatusOr<Message> m = app.Receive(milliseconds(2000));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnavailable) << m.status();
  loop.RunFor(milliseconds(20));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(app.connected());
  EXPECT_EQ(app.Send("b", "x").status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace trestle
