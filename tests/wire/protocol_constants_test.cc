// The protocol's numbers and names in C++ come from trestle.proto.
#include <gtest/gtest.h>

#include "trestle/wire/channel_name.h"
#include "trestle/wire/delivery_overhead.h"

namespace trestle::wire {
namespace {

// tests/python/test_protocol_constants.py checks the Python SDK's against
// the same enum value.
static_assert(kDeliveryOverheadBytes == DELIVERY_OVERHEAD_BYTES);

TEST(ProtocolConstants, TheDeliveryOverheadIsTheProtosValue) {
  const google::protobuf::EnumValueDescriptor* value =
      ProtocolConstant_descriptor()->FindValueByName("DELIVERY_OVERHEAD_BYTES");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(kDeliveryOverheadBytes, static_cast<std::uint64_t>(value->number()));
}

TEST(ChannelName, NamesEachChannel) {
  EXPECT_STREQ(ChannelName(CHANNEL_CTRL), "ctrl");
  EXPECT_STREQ(ChannelName(CHANNEL_SEND), "send");
  EXPECT_STREQ(ChannelName(CHANNEL_RECV), "recv");
  EXPECT_STREQ(ChannelName(CHANNEL_UNSPECIFIED), "unattached");
}

}  // namespace
}  // namespace trestle::wire
