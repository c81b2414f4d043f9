#include "decode_arena.h"

namespace trestle::wire {
namespace {
// Room for a few thousand small frames (a full 64 KiB read of Sends) before
// the arena needs a block of its own.
constexpr std::size_t kFirstBlockBytes = 512 * 1024;

google::protobuf::ArenaOptions OptionsFor(char* first_block) {
  google::protobuf::ArenaOptions options;
  options.initial_block = first_block;
  options.initial_block_size = kFirstBlockBytes;
  return options;
}
}  // namespace

DecodeArena::DecodeArena()
    : first_block_(new char[kFirstBlockBytes]), arena_(OptionsFor(first_block_.get())) {}

DecodeArena& DecodeArena::ForThisThread() {
  // Built on a thread's first frame; threads that never read frames (gRPC's)
  // pay nothing.
  thread_local DecodeArena arena;
  return arena;
}

Frame* DecodeArena::Enter() {
  ++depth_;
  return google::protobuf::Arena::CreateMessage<Frame>(&arena_);
}

void DecodeArena::Leave() {
  if (--depth_ == 0) arena_.Reset();
}

}  // namespace trestle::wire
