// PeerMessage: a message entry packed as k, id, m reads back the values it
// was written with (ids with spaces and NUL bytes, flags, the largest
// numbers); the older entry of one field per value reads the same; what is
// wrong with an entry is named.
#include "federation/peer_message.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace trestle::daemon {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::string Parse(const std::vector<std::string_view>& fields, PeerMessage* m) {
  return ParsePeerMessage(fields, m);
}

TEST(PeerMessage, APackedEntryReadsBackWhatWasWritten) {
  const std::string src("node 1\0x", 8);
  const std::string dst = "n 2";
  std::string packed;
  PackPeerMessage(64, 3, kMax, 1'000'000, 17, kPeerByKey, src, dst, packed);
  PeerMessage m;
  ASSERT_EQ(Parse({"k", "t", "id", "18014407099416588", "m", packed}, &m), "");
  EXPECT_EQ(m.kind, 't');
  EXPECT_EQ(m.id, 18014407099416588u);
  EXPECT_EQ(m.size, 64u);
  EXPECT_EQ(m.tclass, 3u);
  EXPECT_EQ(m.t_send, kMax);
  EXPECT_EQ(m.t_deliver, 1'000'000u);
  EXPECT_EQ(m.app_sent, 17u);
  EXPECT_TRUE(m.by_key);
  EXPECT_FALSE(m.notify_drop);
  EXPECT_FALSE(m.lost_in_store);
  EXPECT_EQ(m.src, src);
  EXPECT_EQ(m.dst, dst);

  packed.clear();
  PackPeerMessage(0, 0, 0, 0, 0, kPeerNotifyDrop | kPeerLostInStore, "a", "b", packed);
  EXPECT_EQ(packed, "0 0 0 0 0 6 1 ab");
  PeerMessage d;
  ASSERT_EQ(Parse({"k", "d", "id", "9", "m", packed}, &d), "");
  EXPECT_FALSE(d.by_key);
  EXPECT_TRUE(d.notify_drop);
  EXPECT_TRUE(d.lost_in_store);
  EXPECT_EQ(d.src, "a");
  EXPECT_EQ(d.dst, "b");
}

TEST(PeerMessage, AnEntryOfOneFieldPerValueReadsTheSame) {
  PeerMessage m;
  ASSERT_EQ(Parse({"k", "d", "id", "5", "src", "a", "dst", "b", "size", "64", "tclass", "1",
                   "t_send", "10", "t_deliver", "20", "app_sent", "3", "by_key", "0",
                   "notify_drop", "1", "later", "ignored"},
                  &m),
            "");
  EXPECT_EQ(m.kind, 'd');
  EXPECT_EQ(m.id, 5u);
  EXPECT_EQ(m.src, "a");
  EXPECT_EQ(m.dst, "b");
  EXPECT_EQ(m.size, 64u);
  EXPECT_EQ(m.t_deliver, 20u);
  EXPECT_TRUE(m.notify_drop);
}

TEST(PeerMessage, WhatIsWrongWithAnEntryIsNamed) {
  PeerMessage m;
  EXPECT_EQ(Parse({"k", "t", "id", "1", "m", "64 0 0 0 0 0 1"}, &m), "field 'm' has a bad value")
      << "no ids";
  EXPECT_EQ(Parse({"k", "t", "id", "1", "m", "64 0 0 0 0 8 1 ab"}, &m),
            "field 'm' has a bad value")
      << "unknown flags";
  EXPECT_EQ(Parse({"k", "t", "id", "1", "m", "64 0 0 0 0 0 2 ab"}, &m),
            "field 'm' has a bad value")
      << "no dst after src";
  EXPECT_EQ(Parse({"k", "t", "id", "1", "m", "6x4 0 0 0 0 0 1 ab"}, &m),
            "field 'm' has a bad value");
  PeerMessage n;
  EXPECT_EQ(Parse({"id", "1", "m", "0 0 0 0 0 0 1 ab"}, &n), "no kind (field k)");
  EXPECT_EQ(Parse({"k", "t", "m", "0 0 0 0 0 0 1 ab"}, &n), "no message id");
  EXPECT_EQ(Parse({"k", "t", "id"}, &n), "an odd number of fields");
  EXPECT_EQ(Parse({"k", "x", "id", "1"}, &n), "field 'k' has a bad value");
}

}  // namespace
}  // namespace trestle::daemon
