// RoleRules: what each role may send, and on which of its channels. One
// table per role replaces per-role branches in the daemon: adding a role
// (another daemon as a peer, for the federation) is adding a table.
//
//   role   ctrl                       send            recv
//   APP    Ping, StatsRequest, Bye    Send            Receive (PULL), Ack
//   SIM    Ping, StatsRequest, Bye    OutcomeBatch    Fetch (PULL)
//   PEER   (reserved: no frames yet)
//
// Hello and Attach are first frames of a connection, for every role; frames
// only the daemon sends are refused for every role.
#pragma once

#include "trestle.pb.h"

namespace trestle::daemon {

// A peer daemon of the same bridge. Not a wire role yet: peers meet through
// Redis (docs/architecture.md), so no Hello may claim it.
inline constexpr wire::Role kRolePeer = static_cast<wire::Role>(3);

class RoleRules {
 public:
  struct Rule {
    wire::Frame::BodyCase body;
    wire::Channel channel;
  };

  // The rules of `role`; an unknown role may send nothing.
  static const RoleRules& For(wire::Role role);
  // The role whose operation `body` is (for error texts), or null when no
  // role may send it.
  static const RoleRules* Owner(wire::Frame::BodyCase body);

  // The channel this role sends `body` on, or CHANNEL_UNSPECIFIED when the
  // role may not send it at all.
  wire::Channel ChannelOf(wire::Frame::BodyCase body) const;
  const char* name() const { return name_; }
  // The rules that are this role's alone (for "an APP operation").
  bool Owns(wire::Frame::BodyCase body) const;

  constexpr RoleRules(const char* name, const Rule* rules, int count)
      : name_(name), rules_(rules), count_(count) {}

 private:
  const char* name_;
  const Rule* rules_;
  int count_;
};

}  // namespace trestle::daemon
