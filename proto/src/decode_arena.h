// DecodeArena: where a thread's incoming frames are parsed. A Frame, its
// sub-messages and strings come from one protobuf Arena instead of one
// malloc/free each, and the arena is reset when the outermost dispatch on
// the thread ends. Handlers see a frame only during OnFrame (moving a string
// out of it is fine), so nothing outlives the reset. Dispatches nest when a
// handler resumes another stream; only the outermost one resets.
#pragma once

#include <google/protobuf/arena.h>

#include <memory>

#include "trestle.pb.h"

namespace trestle::wire {

class DecodeArena {
 public:
  static DecodeArena& ForThisThread();

  // A fresh Frame on the arena, valid until the outermost Leave().
  Frame* Enter();
  void Leave();

 private:
  DecodeArena();

  std::unique_ptr<char[]> first_block_;  // kept across resets
  google::protobuf::Arena arena_;
  int depth_ = 0;
};

}  // namespace trestle::wire
