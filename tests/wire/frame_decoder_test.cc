// FrameDecoder: whole frames out of arbitrary pieces, bounded by the maximum.
#include "trestle/wire/frame_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "trestle/wire/frame_encoder.h"

namespace trestle::wire {
namespace {

void Feed(FrameDecoder& d, const std::string& bytes) {
  std::size_t available = 0;
  char* space = d.WritableSpace(bytes.size(), &available);
  ASSERT_GE(available, bytes.size());
  std::memcpy(space, bytes.data(), bytes.size());
  d.Commit(bytes.size());
}

Frame Ping(std::uint64_t nonce) {
  Frame f;
  f.mutable_ping()->set_nonce(nonce);
  return f;
}

TEST(FrameDecoder, ByteByByteYieldsOneFrameAtTheEnd) {
  std::string bytes;
  AppendFrame(Ping(77), &bytes);
  FrameDecoder d(1024);
  Frame out;
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
    Feed(d, bytes.substr(i, 1));
    ASSERT_EQ(d.Next(&out), FrameDecoder::Result::kNeedMore) << "after byte " << i;
  }
  Feed(d, bytes.substr(bytes.size() - 1));
  ASSERT_EQ(d.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.ping().nonce(), 77u);
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kNeedMore);
  EXPECT_EQ(d.buffered_bytes(), 0u);
}

TEST(FrameDecoder, CoalescedFramesComeOutInOrder) {
  std::string bytes;
  for (std::uint64_t n = 0; n < 100; ++n) AppendFrame(Ping(n), &bytes);
  FrameDecoder d(1024);
  Feed(d, bytes);
  Frame out;
  for (std::uint64_t n = 0; n < 100; ++n) {
    ASSERT_EQ(d.Next(&out), FrameDecoder::Result::kFrame);
    EXPECT_EQ(out.ping().nonce(), n);
  }
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kNeedMore);
}

TEST(FrameDecoder, OversizedLengthIsRefusedBeforeTheBodyArrives) {
  FrameDecoder d(1000);
  Feed(d, std::string("\x00\x00\x03\xe9", 4));  // 1001
  Frame out;
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kOversized);
  EXPECT_EQ(d.last_length(), 1001u);
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kOversized) << "the error is sticky";
}

TEST(FrameDecoder, FrameOfExactlyTheMaximumIsAccepted) {
  Frame big;
  big.mutable_send()->set_payload(std::string(500, 'x'));
  std::string bytes;
  const std::size_t n = AppendFrame(big, &bytes);
  FrameDecoder d(static_cast<std::uint32_t>(n - 4));
  Feed(d, bytes);
  Frame out;
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.send().payload().size(), 500u);
}

TEST(FrameDecoder, GarbageBodyIsMalformed) {
  FrameDecoder d(1024);
  Feed(d, std::string("\x00\x00\x00\x03\xff\xff\xff", 7));
  Frame out;
  EXPECT_EQ(d.Next(&out), FrameDecoder::Result::kMalformed);
}

TEST(FrameDecoder, ZeroLengthFrameIsAnEmptyFrame) {
  FrameDecoder d(1024);
  Feed(d, std::string("\x00\x00\x00\x00", 4));
  Frame out;
  ASSERT_EQ(d.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.body_case(), Frame::BODY_NOT_SET);
}

TEST(FrameDecoder, NulBytesInPayloadSurviveTheRoundTrip) {
  Frame f;
  f.mutable_send()->set_payload(std::string(1 << 20, '\0'));
  std::string bytes;
  AppendFrame(f, &bytes);
  FrameDecoder d(2u << 20);
  // Arrives in 64 KiB reads, as from a socket.
  for (std::size_t off = 0; off < bytes.size(); off += 65536) Feed(d, bytes.substr(off, 65536));
  Frame out;
  ASSERT_EQ(d.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.send().payload(), std::string(1 << 20, '\0'));
}

// Two connections whose reads interleave: each keeps its own partial frame
// while the other's whole frames pass through the shared scratch buffer.
TEST(FrameDecoder, InterleavedPartialFramesOfTwoDecodersStayApart) {
  std::string a_bytes, b_bytes;
  AppendFrame(Ping(1), &a_bytes);
  AppendFrame(Ping(2), &b_bytes);
  AppendFrame(Ping(3), &b_bytes);
  FrameDecoder a(1024), b(1024);
  Frame out;
  auto read = [](FrameDecoder& d, const std::string& bytes) {
    std::size_t available = 0;
    char* space = d.WritableSpace(64 * 1024, &available);
    std::memcpy(space, bytes.data(), bytes.size());
    d.Commit(bytes.size());
  };
  read(a, a_bytes.substr(0, 3));
  EXPECT_EQ(a.Next(&out), FrameDecoder::Result::kNeedMore);
  a.Retain();
  read(b, b_bytes);
  ASSERT_EQ(b.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.ping().nonce(), 2u);
  ASSERT_EQ(b.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.ping().nonce(), 3u);
  b.Retain();
  EXPECT_EQ(b.buffered_bytes(), 0u);
  read(a, a_bytes.substr(3));
  ASSERT_EQ(a.Next(&out), FrameDecoder::Result::kFrame);
  EXPECT_EQ(out.ping().nonce(), 1u);
  a.Retain();
  EXPECT_EQ(a.buffered_bytes(), 0u);
}

TEST(FrameEncoder, EncodedSizeMatchesAppendedBytes) {
  Frame f = Ping(123456789);
  std::string bytes;
  EXPECT_EQ(AppendFrame(f, &bytes), EncodedFrameSize(f));
  EXPECT_EQ(bytes.size(), EncodedFrameSize(f));
}

}  // namespace
}  // namespace trestle::wire
