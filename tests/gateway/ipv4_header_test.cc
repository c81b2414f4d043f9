// ReadIpv4Addresses: the addresses of a valid header; nothing from anything else.
#include "trestle/gateway/ipv4_header.h"

#include <string>

#include <gtest/gtest.h>

namespace trestle::gateway {
namespace {

std::string Header(unsigned char version_ihl, unsigned total_length, std::size_t size) {
  std::string p(size, '\0');
  p[0] = static_cast<char>(version_ihl);
  p[2] = static_cast<char>(total_length >> 8);
  p[3] = static_cast<char>(total_length & 0xff);
  const unsigned char src[] = {10, 77, 0, 1}, dst[] = {10, 77, 0, 2};
  for (int i = 0; i < 4 && size >= 20; ++i) {
    p[12 + i] = static_cast<char>(src[i]);
    p[16 + i] = static_cast<char>(dst[i]);
  }
  return p;
}

TEST(Ipv4HeaderTest, ReadsSourceAndDestination) {
  std::optional<Ipv4Addresses> ip = ReadIpv4Addresses(Header(0x45, 84, 84));
  ASSERT_TRUE(ip.has_value());
  EXPECT_EQ(ip->source, 0x0a4d0001u);
  EXPECT_EQ(ip->destination, 0x0a4d0002u);
}

TEST(Ipv4HeaderTest, RejectsWhatIsNotAnIpv4Packet) {
  EXPECT_FALSE(ReadIpv4Addresses(Header(0x45, 84, 19)));   // shorter than a header
  EXPECT_FALSE(ReadIpv4Addresses(Header(0x60, 84, 84)));   // IPv6
  EXPECT_FALSE(ReadIpv4Addresses(Header(0x44, 84, 84)));   // header length 16
  EXPECT_FALSE(ReadIpv4Addresses(Header(0x45, 85, 84)));   // total length beyond the data
  EXPECT_FALSE(ReadIpv4Addresses(Header(0x46, 20, 84)));   // total length below the header
}

}  // namespace
}  // namespace trestle::gateway
