// Bandwidth, Duration and ByteSize parsing: values, units, and errors that
// name the bad text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/duration.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

TEST(BandwidthTest, ParsesBitAndByteUnits) {
  EXPECT_DOUBLE_EQ(Bandwidth::Parse("400Gbps")->bytes_per_ns(), 50.0);
  EXPECT_DOUBLE_EQ(Bandwidth::Parse("50GBps")->bytes_per_ns(), 50.0);
  EXPECT_NEAR(Bandwidth::Parse("50GiBps")->bytes_per_ns(), 53.687, 0.001);
  EXPECT_DOUBLE_EQ(Bandwidth::Parse("1.6Tbps")->bytes_per_ns(), 200.0);
  EXPECT_DOUBLE_EQ(Bandwidth::Parse("100Mbps")->bytes_per_ns(), 0.0125);
  EXPECT_DOUBLE_EQ(Bandwidth::Parse("1600GBps")->bytes_per_ns(), 1600.0);
}

TEST(BandwidthTest, RejectsBareNumbersAndUnknownUnitsNamingTheText) {
  absl::StatusOr<Bandwidth> bare = Bandwidth::Parse("400");
  ASSERT_FALSE(bare.ok());
  EXPECT_THAT(std::string(bare.status().message()), HasSubstr("'400'"));
  EXPECT_THAT(std::string(bare.status().message()), HasSubstr("unit is required"));
  absl::StatusOr<Bandwidth> unknown = Bandwidth::Parse("400Gbit");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("unknown unit 'Gbit'"));
  EXPECT_FALSE(Bandwidth::Parse("Gbps").ok());
  EXPECT_FALSE(Bandwidth::Parse("0Gbps").ok());
  EXPECT_FALSE(Bandwidth::Parse("-5Gbps").ok());
  EXPECT_FALSE(Bandwidth::Parse("4.0.0Gbps").ok());
}

TEST(BandwidthTest, PrintsInBitUnits) {
  EXPECT_EQ(Bandwidth::Gbps(400).ToString(), "400Gbps");
  EXPECT_EQ(Bandwidth::Parse("1.6Tbps")->ToString(), "1.6Tbps");
}

TEST(DurationTest, ParsesUnits) {
  EXPECT_DOUBLE_EQ(Duration::Parse("500ns")->ns(), 500.0);
  EXPECT_DOUBLE_EQ(Duration::Parse("1.5us")->ns(), 1500.0);
  EXPECT_DOUBLE_EQ(Duration::Parse("2ms")->ns(), 2e6);
  EXPECT_DOUBLE_EQ(Duration::Parse("1s")->ns(), 1e9);
  EXPECT_DOUBLE_EQ(Duration::Parse("250ps")->ns(), 0.25);
  EXPECT_DOUBLE_EQ(Duration::Parse("0ns")->ns(), 0.0);
  EXPECT_DOUBLE_EQ(Duration::Parse("1e3ns")->ns(), 1000.0);
  EXPECT_EQ(Duration::Nanoseconds(1500).ToString(), "1.5us");
}

TEST(DurationTest, RejectsBareNumbersNamingTheText) {
  absl::StatusOr<Duration> bare = Duration::Parse("500");
  ASSERT_FALSE(bare.ok());
  EXPECT_THAT(std::string(bare.status().message()), HasSubstr("'500'"));
  EXPECT_FALSE(Duration::Parse("500 ns").ok());
  EXPECT_FALSE(Duration::Parse("5min").ok());
}

TEST(ByteSizeTest, ParsesDecimalAndBinaryUnits) {
  EXPECT_EQ(ByteSize::Parse("16KiB")->bytes(), 16384u);
  EXPECT_EQ(ByteSize::Parse("1MB")->bytes(), 1000000u);
  EXPECT_EQ(ByteSize::Parse("16MiB")->bytes(), 16u << 20);
  EXPECT_EQ(ByteSize::Parse("8B")->bytes(), 8u);
  EXPECT_FALSE(ByteSize::Parse("16").ok());
  EXPECT_FALSE(ByteSize::Parse("1.5B").ok());
  absl::StatusOr<std::vector<ByteSize>> list = ByteSize::ParseList("16KiB,64KiB,1MiB");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[2].bytes(), 1u << 20);
  EXPECT_EQ(ByteSize::Bytes(16384).ToString(), "16KiB");
  EXPECT_EQ(ByteSize::Bytes(1000).ToString(), "1000B");
}

}  // namespace
}  // namespace trestle::fabric
