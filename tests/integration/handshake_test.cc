// Handshake rules on a real trestled: tokens, roles, duplicate ids, attach by
// session token. Each refusal names the problem; nothing else is disturbed.
#include <gtest/gtest.h>

#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

TEST(Handshake, MissingOrWrongTokenIsRefused) {
  DaemonProcess daemon({"--auth-token", "s3cret"});
  RawConnection none(daemon.port());
  wire::Frame f = none.Hello("a", wire::ROLE_APP);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::UNAUTHENTICATED);
  EXPECT_NE(f.error().text().find("requires an auth token"), std::string::npos);
  EXPECT_TRUE(none.WaitClosed());

  RawConnection wrong(daemon.port());
  f = wrong.Hello("a", wire::ROLE_APP, "guess");
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::UNAUTHENTICATED);
  EXPECT_NE(f.error().text().find("wrong auth token"), std::string::npos);

  RawConnection right(daemon.port());
  EXPECT_TRUE(right.Hello("a", wire::ROLE_APP, "s3cret").has_welcome());
}

TEST(Handshake, UnsupportedVersionIsNamed) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  wire::Frame f;
  f.mutable_hello()->set_protocol_version(99);
  f.mutable_hello()->set_role(wire::ROLE_APP);
  f.mutable_hello()->set_client_id("v");
  c.WriteFrame(f);
  auto reply = c.ReadFrame();
  ASSERT_TRUE(reply.has_value() && reply->has_error());
  EXPECT_EQ(reply->error().code(), wire::UNSUPPORTED_VERSION);
  EXPECT_NE(reply->error().text().find("99"), std::string::npos);
}

TEST(Handshake, DuplicateClientIdIsRefusedUnlessItResumes) {
  DaemonProcess daemon;
  RawConnection first(daemon.port());
  wire::Frame w = first.Hello("node-1", wire::ROLE_APP);
  ASSERT_TRUE(w.has_welcome());

  RawConnection second(daemon.port());
  wire::Frame f = second.Hello("node-1", wire::ROLE_APP);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::ALREADY_EXISTS);
  EXPECT_NE(f.error().text().find("node-1"), std::string::npos);
  EXPECT_TRUE(second.WaitClosed());

  // The same id as a simulator is another namespace.
  RawConnection sim(daemon.port());
  EXPECT_TRUE(sim.Hello("node-1", wire::ROLE_SIM).has_welcome());

  // With its session token, the client takes its session over.
  RawConnection resumed(daemon.port());
  wire::Frame hello;
  hello.mutable_hello()->set_protocol_version(1);
  hello.mutable_hello()->set_role(wire::ROLE_APP);
  hello.mutable_hello()->set_client_id("node-1");
  hello.mutable_hello()->set_resume_token(w.welcome().session_token());
  resumed.WriteFrame(hello);
  auto r = resumed.ReadFrame();
  ASSERT_TRUE(r.has_value() && r->has_welcome());
  EXPECT_TRUE(r->welcome().resumed());
  EXPECT_EQ(r->welcome().id_prefix(), w.welcome().id_prefix());
  EXPECT_TRUE(first.WaitClosed()) << "the old ctrl channel is closed on resume";
}

TEST(Handshake, AttachWithUnknownSessionTokenIsRefused) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  wire::Frame f = c.Attach("00000000feedface", wire::CHANNEL_SEND);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::NOT_FOUND);
  EXPECT_NE(f.error().text().find("unknown session token"), std::string::npos);
  EXPECT_TRUE(c.WaitClosed());
}

TEST(Handshake, SecondAttachOfTheSameChannelIsRefused) {
  DaemonProcess daemon;
  RawSession app(daemon.port(), "twice", wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  RawConnection extra(daemon.port());
  wire::Frame f = extra.Attach(app.welcome.session_token(), wire::CHANNEL_SEND);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::ALREADY_EXISTS);
}

TEST(Handshake, RoleDoingAnotherRolesOperationGetsPermissionDenied) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession app(daemon.port(), "app", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && app.ok);

  wire::Frame send;
  send.mutable_send()->set_dst("app");
  send.mutable_send()->set_payload("x");
  sim.send.WriteFrame(send);
  auto e1 = sim.send.ReadFrame();
  ASSERT_TRUE(e1.has_value() && e1->has_error());
  EXPECT_EQ(e1->error().code(), wire::PERMISSION_DENIED);
  EXPECT_NE(e1->error().text().find("role SIM may not send send"), std::string::npos)
      << e1->error().text();

  wire::Frame outcomes;
  outcomes.mutable_outcomes()->add_outcomes()->set_id(1);
  app.send.WriteFrame(outcomes);
  auto e2 = app.send.ReadFrame();
  ASSERT_TRUE(e2.has_value() && e2->has_error());
  EXPECT_EQ(e2->error().code(), wire::PERMISSION_DENIED);

  wire::Frame fetch;
  fetch.mutable_fetch()->set_max_count(1);
  app.recv.WriteFrame(fetch);
  auto e3 = app.recv.ReadFrame();
  ASSERT_TRUE(e3.has_value() && e3->has_error());
  EXPECT_EQ(e3->error().code(), wire::PERMISSION_DENIED);

  // A data frame on ctrl is refused too, and the session carries on.
  app.ctrl.WriteFrame(send);
  auto e4 = app.ctrl.ReadFrame();
  ASSERT_TRUE(e4.has_value() && e4->has_error());
  EXPECT_NE(e4->error().text().find("not allowed on the ctrl channel"), std::string::npos);

  // After all that, the app's send still goes through the simulator.
  app.send.WriteFrame(send);
  auto transits = sim.recv.ReadFrame();
  ASSERT_TRUE(transits.has_value() && transits->has_transits());
  ASSERT_EQ(transits->transits().transits_size(), 1);
  EXPECT_EQ(transits->transits().transits(0).src(), "app");
  EXPECT_EQ(transits->transits().transits(0).size(), 1u);
}

TEST(Handshake, OutcomeForATransitNotHeldIsRefusedByName) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  wire::Frame outcomes;
  wire::Outcome* o = outcomes.mutable_outcomes()->add_outcomes();
  o->set_id(424242);
  o->set_status(wire::DELIVERED);
  sim.send.WriteFrame(outcomes);
  auto e = sim.send.ReadFrame();
  ASSERT_TRUE(e.has_value() && e->has_error());
  EXPECT_EQ(e->error().code(), wire::NOT_FOUND);
  EXPECT_EQ(e->error().ref_id(), 424242u);
  EXPECT_NE(e->error().text().find("424242"), std::string::npos);
}

}  // namespace
}  // namespace trestle::testing
