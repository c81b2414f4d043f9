// PeerMessage: a message entry packed as k, id, m reads back the values it
// was written with (ids with spaces and NUL bytes, flags, the largest
// numbers); the older entry of one field per value reads the same; a batch
// entry gives back each of its messages in order; what is wrong with an
// entry, or with a batch's message, is named.
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

TEST(PeerMessage, ABatchGivesBackEachOfItsMessagesInOrder) {
  const std::string src("node 1\0x", 8);
  std::string packed;
  PackPeerBatchMessage('t', 18014407099416588u, 64, 3, kMax, 1'000'000, 17, kPeerByKey, src,
                       "n 2", packed);
  PackPeerBatchMessage('d', 9, 0, 0, 0, 0, 0, kPeerNotifyDrop, "a", "b", packed);
  PackPeerBatchMessage('r', kMax, 1, 2, 3, 4, 5, kPeerNotifyDrop | kPeerLostInStore, "b", "a",
                       packed);
  EXPECT_EQ(packed.substr(packed.find("d9 ")),
            "d9 0 0 0 0 0 2 1 1 ab"
            "r18446744073709551615 1 2 3 4 5 6 1 1 ba");
  const std::vector<std::string_view> fields = {"k", "M", "m", packed};
  ASSERT_TRUE(IsPeerBatch(fields));
  std::string_view messages = PeerBatchMessages(fields);

  PeerMessage t;
  ASSERT_EQ(TakePeerBatchMessage(&messages, &t), "");
  EXPECT_EQ(t.kind, 't');
  EXPECT_EQ(t.id, 18014407099416588u);
  EXPECT_EQ(t.size, 64u);
  EXPECT_EQ(t.tclass, 3u);
  EXPECT_EQ(t.t_send, kMax);
  EXPECT_EQ(t.t_deliver, 1'000'000u);
  EXPECT_EQ(t.app_sent, 17u);
  EXPECT_TRUE(t.by_key);
  EXPECT_EQ(t.src, src);
  EXPECT_EQ(t.dst, "n 2");
  PeerMessage d;
  ASSERT_EQ(TakePeerBatchMessage(&messages, &d), "");
  EXPECT_EQ(d.kind, 'd');
  EXPECT_EQ(d.id, 9u);
  EXPECT_TRUE(d.notify_drop);
  EXPECT_FALSE(d.by_key);
  EXPECT_EQ(d.src, "a");
  EXPECT_EQ(d.dst, "b");
  PeerMessage r;
  ASSERT_EQ(TakePeerBatchMessage(&messages, &r), "");
  EXPECT_EQ(r.kind, 'r');
  EXPECT_EQ(r.id, kMax);
  EXPECT_TRUE(r.lost_in_store);
  EXPECT_EQ(r.app_sent, 5u);
  EXPECT_EQ(r.src, "b");
  EXPECT_EQ(r.dst, "a");
  EXPECT_TRUE(messages.empty());

  EXPECT_FALSE(IsPeerBatch(std::vector<std::string_view>{"k", "t", "id", "1"}));
  EXPECT_FALSE(IsPeerBatch(std::vector<std::string_view>{"k", "M", "m"}));
}

TEST(PeerMessage, WhatIsWrongWithABatchsMessageIsNamed) {
  auto take = [](std::string_view messages) {
    PeerMessage m;
    return TakePeerBatchMessage(&messages, &m);
  };
  EXPECT_EQ(take(""), "a message of no known kind");
  EXPECT_EQ(take("a1 0 0 0 0 0 0 1 1 ab"), "a message of no known kind") << "a journal entry";
  EXPECT_EQ(take("t7 0 0 0 0 0 0 1 5 ab"), "message 7 is cut short or has a bad number");
  EXPECT_EQ(take("t7 0 0 0 0 0 8 1 1 ab"), "message 7 is cut short or has a bad number")
      << "unknown flags";
  EXPECT_EQ(take("t7 0 x 0 0 0 0 1 1 ab"), "message 7 is cut short or has a bad number");
  EXPECT_EQ(take("t7 0 0 0 0 0 0 0 1 b"), "message 7 has a bad src");
  EXPECT_EQ(take("t7 0 0 0 0 0 0 1 0 a"), "message 7 has a bad dst");
}

}  // namespace
}  // namespace trestle::daemon
