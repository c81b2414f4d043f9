// MirrorHeader: 32 bytes that decode to what was encoded; anything else is
// not a mirror.
#include "mirror_header.h"

#include <gtest/gtest.h>

#include <string>

namespace trestle::mpi {
namespace {

TEST(MirrorHeader, DecodesWhatWasEncodedIncludingNegativeAndLargeFields) {
  MirrorHeader h;
  h.kind = MirrorHeader::Kind::kCollective;
  h.src_world = 1234567;
  h.comm_id = 0xfedcba9876543210ull;
  h.label = -5;
  h.number = 0xffffffffu;
  h.bytes = std::uint64_t{1} << 40;
  std::string bytes;
  h.EncodeTo(&bytes);
  ASSERT_EQ(bytes.size(), MirrorHeader::kBytes);
  std::optional<MirrorHeader> back = MirrorHeader::Decode(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->kind, h.kind);
  EXPECT_EQ(back->src_world, h.src_world);
  EXPECT_EQ(back->comm_id, h.comm_id);
  EXPECT_EQ(back->label, h.label);
  EXPECT_EQ(back->number, h.number);
  EXPECT_EQ(back->bytes, h.bytes);
}

TEST(MirrorHeader, AnotherLengthOrKindIsNotAMirror) {
  MirrorHeader h;
  std::string bytes;
  h.EncodeTo(&bytes);
  EXPECT_FALSE(MirrorHeader::Decode(bytes.substr(0, 31)).has_value());
  EXPECT_FALSE(MirrorHeader::Decode(bytes + "x").has_value());
  bytes[0] = 4;
  EXPECT_FALSE(MirrorHeader::Decode(bytes).has_value());
  bytes[0] = 3;  // the end of a batch of collectives
  ASSERT_TRUE(MirrorHeader::Decode(bytes).has_value());
  EXPECT_EQ(MirrorHeader::Decode(bytes)->kind, MirrorHeader::Kind::kCollectivesEnd);
  EXPECT_FALSE(MirrorHeader::Decode("").has_value());
}

}  // namespace
}  // namespace trestle::mpi
