// Timeline: the Chrome trace events one rank writes, line by line: a span per
// call, compute between calls, both ends of a message's arrow with the same
// id, arrows ending inside the call that took the message in.
#include "timeline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace trestle::mpi {
namespace {

// The lines a Timeline of rank `rank` wrote, once `use` is done with it.
template <typename Use>
std::vector<std::string> Lines(int rank, Use use) {
  char* data = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  {
    Timeline t(rank, out);
    use(t);
  }
  std::vector<std::string> lines = absl::StrSplit(std::string(data, size), '\n');
  std::free(data);
  EXPECT_EQ(lines.back(), "");  // every line ends in a newline
  lines.pop_back();
  return lines;
}

MirrorHeader PointToPoint(int src, int tag, std::uint32_t number, std::uint64_t bytes) {
  MirrorHeader h;
  h.kind = MirrorHeader::Kind::kPointToPoint;
  h.src_world = src;
  h.comm_id = 7;
  h.label = tag;
  h.number = number;
  h.bytes = bytes;
  return h;
}

TEST(Timeline, NamesTheRanksTrackFirst) {
  std::vector<std::string> lines = Lines(3, [](Timeline&) {});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            R"({"ph":"M","name":"thread_name","pid":0,"tid":3,"args":{"name":"rank 3"}})");
  EXPECT_EQ(lines[1],
            R"({"ph":"M","name":"thread_sort_index","pid":0,"tid":3,"args":{"sort_index":3}})");
}

TEST(Timeline, ACallIsASpanInMicrosecondsWithNsDecimalsAndComputeFillsTheGap) {
  std::vector<std::string> lines = Lines(0, [](Timeline& t) {
    t.CallStarts("MPI_Barrier", 1234567);
    t.CallEnds(1234572);
    t.CallStarts("MPI_Wtime", 1234572);  // no gap: no compute span
    t.CallEnds(1234572);
  });
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(
      lines[2],
      R"({"ph":"X","pid":0,"tid":0,"ts":0.000,"dur":1234.567,"name":"compute","cat":"compute"})");
  EXPECT_EQ(
      lines[3],
      R"({"ph":"X","pid":0,"tid":0,"ts":1234.567,"dur":0.005,"name":"MPI_Barrier","cat":"mpi"})");
  EXPECT_EQ(
      lines[4],
      R"({"ph":"X","pid":0,"tid":0,"ts":1234.572,"dur":0.000,"name":"MPI_Wtime","cat":"mpi"})");
}

TEST(Timeline, BothEndsOfAMessageCarryOneIdAndTheArrivalEndsInsideItsCall) {
  const MirrorHeader h = PointToPoint(/*src=*/0, /*tag=*/5, /*number=*/2, /*bytes=*/4096);
  const std::string id = std::to_string(Timeline::FlowId(h, /*dst_world=*/1));
  std::vector<std::string> sender = Lines(0, [&](Timeline& t) {
    t.CallStarts("MPI_Send", 0);
    t.Sent(h, 1, 0);
    t.CallEnds(10);
  });
  ASSERT_EQ(sender.size(), 4u);
  EXPECT_EQ(sender[2],
            R"({"ph":"s","pid":0,"tid":0,"ts":0.000,"name":"message","cat":"mpi","id":)" + id +
                R"(,"args":{"to":1,"bytes":4096}})");
  EXPECT_EQ(sender[3],
            R"({"ph":"X","pid":0,"tid":0,"ts":0.000,"dur":0.010,"name":"MPI_Send",)"
            R"("cat":"mpi","args":{"peer":1,"messages_out":1,"bytes_out":4096,"messages_in":0}})");
  // Delivered at 900 ns, during the compute before the receive: the arrow
  // ends where the call that took it in begins.
  std::vector<std::string> receiver = Lines(1, [&](Timeline& t) {
    t.CallStarts("MPI_Recv", 1000);
    t.Arrived(h, 900);
    t.CallEnds(1500);
  });
  ASSERT_EQ(receiver.size(), 5u);
  EXPECT_EQ(receiver[3],
            R"({"ph":"X","pid":0,"tid":1,"ts":1.000,"dur":0.500,"name":"MPI_Recv",)"
            R"("cat":"mpi","args":{"peer":0,"messages_out":0,"bytes_out":0,"messages_in":1}})");
  EXPECT_EQ(receiver[4], R"({"ph":"f","pid":0,"tid":1,"ts":1.000,"bp":"e","name":"message",)"
                         R"("cat":"mpi","id":)" +
                             id + "}");
}

TEST(Timeline, FlowIdsTellMessagesApartAndStayExactInADouble) {
  const MirrorHeader a = PointToPoint(0, 5, 2, 1);
  std::vector<std::uint64_t> ids = {Timeline::FlowId(a, 1), Timeline::FlowId(a, 2)};
  for (MirrorHeader h :
       {PointToPoint(3, 5, 2, 1), PointToPoint(0, 6, 2, 1), PointToPoint(0, 5, 3, 1)}) {
    ids.push_back(Timeline::FlowId(h, 1));
  }
  MirrorHeader step = a;
  step.kind = MirrorHeader::Kind::kCollective;
  ids.push_back(Timeline::FlowId(step, 1));
  MirrorHeader other_comm = a;
  other_comm.comm_id = 8;
  ids.push_back(Timeline::FlowId(other_comm, 1));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_LT(ids[i], std::uint64_t{1} << 53);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(ids[i], ids[j]) << i << " " << j;
  }
  // The size is not part of a message's name: both ends agree on it anyway.
  EXPECT_EQ(Timeline::FlowId(PointToPoint(0, 5, 2, 99), 1), ids[0]);
}

TEST(Timeline, ASpanNamesItsFirstCommunicatorAndThePeerItSentTo) {
  std::vector<std::string> lines = Lines(2, [](Timeline& t) {
    t.NoteComm(9);  // outside a call: no span's
    t.CallStarts("MPI_Sendrecv", 0);
    t.NoteComm(0x1f);
    t.NoteComm(1);
    t.Sent(PointToPoint(2, 0, 0, 8), 3, 0);
    t.Arrived(PointToPoint(1, 0, 0, 8), 0);
    t.CallEnds(0);
  });
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_NE(lines[3].find(R"("name":"MPI_Sendrecv","cat":"mpi","args":{"comm":"0x1f",)"
                          R"("peer":3,"messages_out":1,"bytes_out":8,"messages_in":1}})"),
            std::string::npos)
      << lines[3];
}

TEST(Timeline, SeveralPeersAreNoPeer) {
  std::vector<std::string> lines = Lines(0, [](Timeline& t) {
    t.CallStarts("MPI_Waitall", 0);
    t.Arrived(PointToPoint(1, 0, 0, 8), 0);
    t.Arrived(PointToPoint(2, 0, 0, 8), 0);
    t.CallEnds(0);
  });
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_NE(lines[2].find(R"("args":{"messages_out":0,"bytes_out":0,"messages_in":2}})"),
            std::string::npos)
      << lines[2];
}

TEST(Timeline, BatchesOfCollectivesHaveNoArrow) {
  MirrorHeader end;
  end.kind = MirrorHeader::Kind::kCollectivesEnd;
  std::vector<std::string> lines = Lines(0, [&](Timeline& t) {
    t.CallStarts("MPI_Allreduce", 0);
    t.Sent(end, 0, 0);
    t.Arrived(end, 5);
    t.CallEnds(5);
  });
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(
      lines[2],
      R"({"ph":"X","pid":0,"tid":0,"ts":0.000,"dur":0.005,"name":"MPI_Allreduce","cat":"mpi"})");
}

TEST(Timeline, WritesTheTrackAtOnceAndEventsWhenTheFlushPeriodHasPassed) {
  char* data = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  {
    Timeline held(0, out, std::chrono::hours(1));
    const std::size_t track = size;  // open_memstream's size is what was written
    EXPECT_GT(track, 0u);
    held.CallStarts("MPI_Barrier", 0);
    held.CallEnds(5);
    held.CallStarts("MPI_Barrier", 5);
    EXPECT_EQ(size, track);  // within the period: still buffered
  }
  std::free(data);
  out = open_memstream(&data, &size);
  {
    Timeline eager(0, out, std::chrono::milliseconds(0));
    eager.CallStarts("MPI_Barrier", 0);
    eager.CallEnds(5);
    const std::size_t before = size;
    eager.CallStarts("MPI_Bcast", 5);  // the period has passed: the span is written
    EXPECT_GT(size, before);
    EXPECT_NE(std::string(data, size).find(R"("name":"MPI_Barrier")"), std::string::npos);
  }
  std::free(data);
}

TEST(TimelineDeathTest, ACallStartingInsideAnotherIsABug) {
  EXPECT_DEATH(Lines(0,
                     [](Timeline& t) {
                       t.CallStarts("MPI_Send", 0);
                       t.CallStarts("MPI_Recv", 0);
                     }),
               "MPI_Recv starts inside MPI_Send");
}

TEST(Timeline, OpenNamesTheFileItCannotWrite) {
  absl::StatusOr<std::unique_ptr<Timeline>> t = Timeline::Open("/nonexistent-dir", 4);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("/nonexistent-dir/rank-4.json"), std::string::npos)
      << t.status();
}

}  // namespace
}  // namespace trestle::mpi
