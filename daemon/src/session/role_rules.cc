#include "session/role_rules.h"

namespace trestle::daemon {
namespace {
using F = wire::Frame;

constexpr RoleRules::Rule kAppRules[] = {
    {F::kPing, wire::CHANNEL_CTRL},    {F::kStatsRequest, wire::CHANNEL_CTRL},
    {F::kBye, wire::CHANNEL_CTRL},     {F::kSend, wire::CHANNEL_SEND},
    {F::kReceive, wire::CHANNEL_RECV}, {F::kAck, wire::CHANNEL_RECV},
    {F::kClock, wire::CHANNEL_SEND},
};
constexpr RoleRules::Rule kSimRules[] = {
    {F::kPing, wire::CHANNEL_CTRL},     {F::kStatsRequest, wire::CHANNEL_CTRL},
    {F::kBye, wire::CHANNEL_CTRL},      {F::kOutcomes, wire::CHANNEL_SEND},
    {F::kFetch, wire::CHANNEL_RECV},    {F::kReached, wire::CHANNEL_SEND},
};

constexpr RoleRules kApp("APP", kAppRules, sizeof kAppRules / sizeof kAppRules[0]);
constexpr RoleRules kSim("SIM", kSimRules, sizeof kSimRules / sizeof kSimRules[0]);
constexpr RoleRules kPeer("PEER", nullptr, 0);
constexpr RoleRules kNone("an unknown role", nullptr, 0);

}  // namespace

const RoleRules& RoleRules::For(wire::Role role) {
  switch (role) {
    case wire::ROLE_APP: return kApp;
    case wire::ROLE_SIM: return kSim;
    default: return role == kRolePeer ? kPeer : kNone;
  }
}

const RoleRules* RoleRules::Owner(wire::Frame::BodyCase body) {
  for (const RoleRules* rules : {&kApp, &kSim, &kPeer}) {
    if (rules->Owns(body)) return rules;
  }
  return nullptr;
}

wire::Channel RoleRules::ChannelOf(wire::Frame::BodyCase body) const {
  for (int i = 0; i < count_; ++i) {
    if (rules_[i].body == body) return rules_[i].channel;
  }
  return wire::CHANNEL_UNSPECIFIED;
}

bool RoleRules::Owns(wire::Frame::BodyCase body) const {
  if (ChannelOf(body) == wire::CHANNEL_UNSPECIFIED) return false;
  for (const RoleRules* other : {&kApp, &kSim, &kPeer}) {
    if (other != this && other->ChannelOf(body) != wire::CHANNEL_UNSPECIFIED) return false;
  }
  return true;
}

}  // namespace trestle::daemon
