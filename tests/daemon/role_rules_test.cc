// RoleRules: every (role, frame, channel) combination of the table in
// role_rules.h, for every frame body the protocol has (read from the
// descriptor, so a new frame type is checked too: no role may send it until
// the table says so), and Owner() / Owns() for error texts.
#include "session/role_rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "trestle.pb.h"

namespace trestle::daemon {
namespace {

using F = wire::Frame;
using Body = F::BodyCase;

// Every body of the Frame oneof, with its field name.
std::vector<std::pair<Body, std::string>> AllBodies() {
  std::vector<std::pair<Body, std::string>> bodies;
  const google::protobuf::OneofDescriptor* oneof = F::descriptor()->FindOneofByName("body");
  for (int i = 0; i < oneof->field_count(); ++i) {
    bodies.emplace_back(static_cast<Body>(oneof->field(i)->number()), oneof->field(i)->name());
  }
  return bodies;
}

// The table of role_rules.h.
const std::map<Body, wire::Channel>& Expected(wire::Role role) {
  static const std::map<Body, wire::Channel> kApp = {
      {F::kPing, wire::CHANNEL_CTRL},    {F::kStatsRequest, wire::CHANNEL_CTRL},
      {F::kBye, wire::CHANNEL_CTRL},     {F::kSend, wire::CHANNEL_SEND},
      {F::kReceive, wire::CHANNEL_RECV}, {F::kAck, wire::CHANNEL_RECV},
      {F::kClock, wire::CHANNEL_SEND},
  };
  static const std::map<Body, wire::Channel> kSim = {
      {F::kPing, wire::CHANNEL_CTRL},     {F::kStatsRequest, wire::CHANNEL_CTRL},
      {F::kBye, wire::CHANNEL_CTRL},      {F::kOutcomes, wire::CHANNEL_SEND},
      {F::kFetch, wire::CHANNEL_RECV},    {F::kReached, wire::CHANNEL_SEND},
  };
  static const std::map<Body, wire::Channel> kNothing;
  switch (role) {
    case wire::ROLE_APP: return kApp;
    case wire::ROLE_SIM: return kSim;
    default: return kNothing;
  }
}

TEST(RoleRules, TheProtocolHasTheFramesThisTableKnows) {
  // A guard for the loop below: if the oneof were read wrongly, every
  // expectation of "may not send" would pass vacuously.
  const auto bodies = AllBodies();
  EXPECT_GE(bodies.size(), 16u);
  for (wire::Role role : {wire::ROLE_APP, wire::ROLE_SIM}) {
    for (const auto& [body, channel] : Expected(role)) {
      EXPECT_TRUE(std::any_of(bodies.begin(), bodies.end(),
                              [body = body](const auto& b) { return b.first == body; }))
          << "body " << body;
    }
  }
}

TEST(RoleRules, EveryRoleFrameAndChannelIsAsTheTableSays) {
  const std::vector<std::pair<wire::Role, std::string>> roles = {
      {wire::ROLE_APP, "APP"},
      {wire::ROLE_SIM, "SIM"},
      {kRolePeer, "PEER"},
      {wire::ROLE_UNSPECIFIED, "an unknown role"},
      {static_cast<wire::Role>(42), "an unknown role"},
  };
  for (const auto& [role, name] : roles) {
    const RoleRules& rules = RoleRules::For(role);
    EXPECT_EQ(std::string(rules.name()), name) << "role " << role;
    const auto& expected = Expected(role);
    for (const auto& [body, field] : AllBodies()) {
      auto it = expected.find(body);
      const wire::Channel want = it == expected.end() ? wire::CHANNEL_UNSPECIFIED : it->second;
      EXPECT_EQ(rules.ChannelOf(body), want)
          << name << " sending " << field << ": expected " << wire::Channel_Name(want);
    }
    EXPECT_EQ(rules.ChannelOf(F::BODY_NOT_SET), wire::CHANNEL_UNSPECIFIED) << name;
  }
}

TEST(RoleRules, FirstFramesAndDaemonFramesBelongToNoRole) {
  for (Body body : {F::kHello, F::kAttach, F::kWelcome, F::kAttached, F::kPong, F::kStatsReply,
                    F::kTransits, F::kDeliveries, F::kError, F::kGrant, F::kWake,
                    F::kQuiescent, F::BODY_NOT_SET}) {
    EXPECT_EQ(RoleRules::Owner(body), nullptr) << "body " << body;
    for (wire::Role role : {wire::ROLE_APP, wire::ROLE_SIM, kRolePeer}) {
      EXPECT_FALSE(RoleRules::For(role).Owns(body)) << "role " << role << " body " << body;
    }
  }
}

TEST(RoleRules, OwnerIsTheOneRoleThatMaySendAFrame) {
  EXPECT_EQ(RoleRules::Owner(F::kSend), &RoleRules::For(wire::ROLE_APP));
  EXPECT_EQ(RoleRules::Owner(F::kReceive), &RoleRules::For(wire::ROLE_APP));
  EXPECT_EQ(RoleRules::Owner(F::kOutcomes), &RoleRules::For(wire::ROLE_SIM));
  EXPECT_EQ(RoleRules::Owner(F::kFetch), &RoleRules::For(wire::ROLE_SIM));
  EXPECT_STREQ(RoleRules::Owner(F::kSend)->name(), "APP");
  EXPECT_STREQ(RoleRules::Owner(F::kFetch)->name(), "SIM");
  // Shared by APP and SIM: nobody's alone.
  for (Body body : {F::kPing, F::kStatsRequest, F::kBye}) {
    EXPECT_EQ(RoleRules::Owner(body), nullptr) << "body " << body;
    EXPECT_FALSE(RoleRules::For(wire::ROLE_APP).Owns(body)) << "body " << body;
    EXPECT_FALSE(RoleRules::For(wire::ROLE_SIM).Owns(body)) << "body " << body;
  }
  EXPECT_TRUE(RoleRules::For(wire::ROLE_APP).Owns(F::kSend));
  EXPECT_FALSE(RoleRules::For(wire::ROLE_SIM).Owns(F::kSend));
  EXPECT_TRUE(RoleRules::For(wire::ROLE_SIM).Owns(F::kOutcomes));
  EXPECT_FALSE(RoleRules::For(wire::ROLE_APP).Owns(F::kOutcomes));
}

TEST(RoleRules, ForReturnsOneTablePerRole) {
  EXPECT_EQ(&RoleRules::For(wire::ROLE_APP), &RoleRules::For(wire::ROLE_APP));
  EXPECT_NE(&RoleRules::For(wire::ROLE_APP), &RoleRules::For(wire::ROLE_SIM));
  EXPECT_NE(&RoleRules::For(kRolePeer), &RoleRules::For(wire::ROLE_UNSPECIFIED));
}

}  // namespace
}  // namespace trestle::daemon
