// ChooseMirror: the way collectives are mirrored follows the setting and what
// every simulator of the run declared, never a name.
#include "mirror_choice.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace trestle::mpi {
namespace {

using Mirror = LayerOptions::Mirror;

using Declared = std::vector<std::pair<const char*, bool>>;

google::protobuf::RepeatedPtrField<wire::SimulatorInfo> Simulators(const Declared& declared) {
  google::protobuf::RepeatedPtrField<wire::SimulatorInfo> out;
  for (const auto& [id, replays] : declared) {
    wire::SimulatorInfo* sim = out.Add();
    sim->set_client_id(id);
    sim->mutable_capabilities()->set_replays_collectives(replays);
  }
  return out;
}

TEST(ChooseMirrorTest, AutoMirrorsWholeOnlyWhenEverySimulatorReplays) {
  struct Case {
    Declared simulators;
    Mirror chosen;
  };
  for (const Case& c :
       {Case{{{"fabric", true}}, Mirror::kCollectives},
        Case{{{"fabric", true}, {"other", true}}, Mirror::kCollectives},
        Case{{{"ns3", false}}, Mirror::kSteps},
        Case{{{"fabric", true}, {"ns3", false}}, Mirror::kSteps}, Case{{}, Mirror::kSteps}}) {
    absl::StatusOr<Mirror> m = ChooseMirror(Mirror::kAuto, Simulators(c.simulators), "d:1");
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(*m, c.chosen) << c.simulators.size() << " simulators";
  }
}

TEST(ChooseMirrorTest, StepsStayStepsWhateverTheSimulatorDeclares) {
  EXPECT_EQ(*ChooseMirror(Mirror::kSteps, Simulators({{"fabric", true}}), "d:1"), Mirror::kSteps);
  EXPECT_EQ(*ChooseMirror(Mirror::kSteps, Simulators({}), "d:1"), Mirror::kSteps);
}

TEST(ChooseMirrorTest, CollectivesNeedEverySimulatorToReplayAndNameTheOneThatDoesNot) {
  EXPECT_EQ(*ChooseMirror(Mirror::kCollectives, Simulators({{"fabric", true}}), "d:1"),
            Mirror::kCollectives);
  absl::StatusOr<Mirror> m =
      ChooseMirror(Mirror::kCollectives, Simulators({{"fabric", true}, {"ns3", false}}), "d:1");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("simulator 'ns3' does not replay collectives"),
            std::string_view::npos)
      << m.status();
  EXPECT_NE(m.status().message().find("--mirror steps or auto"), std::string_view::npos);

  m = ChooseMirror(Mirror::kCollectives, Simulators({}), "127.0.0.1:7000");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("trestled at 127.0.0.1:7000 had none connected"),
            std::string_view::npos)
      << m.status();
}

}  // namespace
}  // namespace trestle::mpi
