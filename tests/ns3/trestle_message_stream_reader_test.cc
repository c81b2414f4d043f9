// TrestleMessageStreamReader: messages come back whole from a TCP byte
// stream cut anywhere: headers split across reads, several messages in one
// read, empty messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "ns3/packet.h"
#include "trestle-message-header.h"
#include "trestle-message-stream-reader.h"

namespace ns3 {
namespace {

using Message = std::pair<uint64_t, uint64_t>;  // id, size

class Collector {
 public:
  void Add(uint64_t id, uint64_t size) { messages.emplace_back(id, size); }
  std::vector<Message> messages;
};

// The stream of `messages`, each header + zero-filled payload.
Ptr<Packet> Stream(const std::vector<Message>& messages) {
  Ptr<Packet> stream = Create<Packet>();
  for (const auto& [id, size] : messages) {
    Ptr<Packet> message = Create<Packet>(static_cast<uint32_t>(size));
    message->AddHeader(TrestleMessageHeader(id, size));
    stream->AddAtEnd(message);
  }
  return stream;
}

TEST(TrestleMessageStreamReader, MessagesComeBackWholeWhereverTheStreamIsCut) {
  const std::vector<Message> sent = {{1, 100}, {2, 0}, {0xfedcba9876543210ull, 3}, {4, 40}};
  Ptr<Packet> stream = Stream(sent);
  for (uint32_t piece = 1; piece <= stream->GetSize(); ++piece) {
    Collector collector;
    TrestleMessageStreamReader reader(MakeCallback(&Collector::Add, &collector));
    for (uint32_t offset = 0; offset < stream->GetSize(); offset += piece) {
      reader.Feed(stream->CreateFragment(offset, std::min(piece, stream->GetSize() - offset)));
    }
    EXPECT_EQ(collector.messages, sent) << "pieces of " << piece << " bytes";
  }
}

TEST(TrestleMessageStreamReader, AMessageIsReportedOnlyWithItsLastByte) {
  Collector collector;
  TrestleMessageStreamReader reader(MakeCallback(&Collector::Add, &collector));
  Ptr<Packet> stream = Stream({{9, 1000}});
  reader.Feed(stream->CreateFragment(0, 1015));
  EXPECT_TRUE(collector.messages.empty());
  reader.Feed(stream->CreateFragment(1015, 1));
  EXPECT_EQ(collector.messages, (std::vector<Message>{{9, 1000}}));
}

}  // namespace
}  // namespace ns3
