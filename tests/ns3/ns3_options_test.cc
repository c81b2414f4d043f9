// Ns3NetworkOptions and the flag parsers: values, and errors that name the flag.
#include <gtest/gtest.h>

#include <string>

#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {
namespace {

void ExpectErrorNaming(const absl::Status& status, const std::string& text) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find(text), std::string::npos) << status;
}

TEST(Ns3Options, EnumeratedFlagsParseTheirNamesAndListThemOnError) {
  EXPECT_EQ(*ParseTransport("udp"), Transport::kUdp);
  EXPECT_EQ(*ParseQueueDiscipline("fq-codel"), QueueDiscipline::kFqCoDel);
  EXPECT_EQ(*ParseIpRouting("nix"), IpRouting::kNixVector);
  EXPECT_EQ(*ParseIpRouting("fabric"), IpRouting::kFabric);
  EXPECT_EQ(*ParseTcpVariant("dctcp"), TcpVariant::kDctcp);
  ExpectErrorNaming(ParseTcpVariant("bbr").status(), "(cubic, newreno, dctcp)");
  EXPECT_EQ(*ParseWifiRouting("olsr"), WifiRouting::kOlsr);
  EXPECT_EQ(*ParseMobility("random-waypoint"), Mobility::kRandomWaypoint);
  EXPECT_EQ(QueueDisciplineName(QueueDiscipline::kPfifoFast), "pfifo-fast");
  ExpectErrorNaming(ParseTransport("sctp").status(), "--transport: unknown value 'sctp' (tcp, udp)");
  ExpectErrorNaming(ParseQueueDiscipline("wfq").status(), "--queue");
  ExpectErrorNaming(ParseWifiRouting("dsdv").status(), "aodv, olsr");
}

TEST(Ns3Options, QueueSizesArePacketsOrBytesWithAUnit) {
  EXPECT_EQ(QueueLimit::Parse("100p")->value, 100u);
  EXPECT_TRUE(QueueLimit::Parse("100p")->packets);
  EXPECT_EQ(QueueLimit::Parse("64KiB")->value, 65536u);
  EXPECT_FALSE(QueueLimit::Parse("64KiB")->packets);
  EXPECT_EQ(QueueLimit::Parse("64KiB")->ToString(), "65536B");
  ExpectErrorNaming(QueueLimit::Parse("100").status(), "--queue-size");
  ExpectErrorNaming(QueueLimit::Parse("0p").status(), "--queue-size");
  ExpectErrorNaming(QueueLimit::Parse("xp").status(), "'xp'");
}

TEST(Ns3Options, TheScenarioIsWifiAdhocWithANodeCount) {
  EXPECT_EQ(*WifiAdhocOptions::ParseScenario("wifi-adhoc:4"), 4u);
  ExpectErrorNaming(WifiAdhocOptions::ParseScenario("wifi-adhoc:0").status(), "--scenario");
  ExpectErrorNaming(WifiAdhocOptions::ParseScenario("lte:4").status(), "'lte:4'");
  ExpectErrorNaming(WifiAdhocOptions::ParseScenario("wifi-adhoc:4x").status(), "wifi-adhoc:N");
  WifiAdhocOptions scenario;
  scenario.min_speed_mps = 6;
  ExpectErrorNaming(scenario.Validate(), "--min-speed");
  scenario = WifiAdhocOptions{};
  scenario.width_m = 0;
  ExpectErrorNaming(scenario.Validate(), "--area");
}

TEST(Ns3Options, ValidateNamesTheFlagOutOfRange) {
  Ns3NetworkOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.mtu = 70000;
  ExpectErrorNaming(options.Validate(), "--mtu");
  options = Ns3NetworkOptions{};
  options.udp_timeout_ns = 0;
  ExpectErrorNaming(options.Validate(), "--udp-timeout");

  // fq-codel and pfifo-fast count packets; the others take either.
  options = Ns3NetworkOptions{};
  options.queue_size = *QueueLimit::Parse("64KiB");
  for (QueueDiscipline queue : {QueueDiscipline::kFifo, QueueDiscipline::kRed,
                                QueueDiscipline::kCoDel, QueueDiscipline::kNone}) {
    options.queue = queue;
    EXPECT_TRUE(options.Validate().ok()) << QueueDisciplineName(queue);
  }
  options.queue = QueueDiscipline::kFqCoDel;
  ExpectErrorNaming(options.Validate(), "--queue-size: --queue fq-codel counts packets");
  options.queue = QueueDiscipline::kPfifoFast;
  ExpectErrorNaming(options.Validate(), "(65536B)");

  // DCTCP needs the queue that marks, and a threshold below its size.
  options = Ns3NetworkOptions{};
  options.tcp = TcpVariant::kDctcp;
  ExpectErrorNaming(options.Validate(), "--tcp dctcp: needs --queue codel");
  options.queue = QueueDiscipline::kCoDel;
  EXPECT_TRUE(options.Validate().ok());
  options.queue_size = *QueueLimit::Parse("10p");
  ExpectErrorNaming(options.Validate(), "--ecn-threshold: 10 packets");
  options.ecn_threshold_packets = 0;
  options.queue_size = QueueLimit{};
  ExpectErrorNaming(options.Validate(), "--ecn-threshold");
}

}  // namespace
}  // namespace trestle::ns3_adapter
