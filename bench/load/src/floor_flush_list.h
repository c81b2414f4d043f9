// FloorFlushList: the floor streams with output waiting, flushed together
// just before the loop sleeps (a uv_prepare handle), so that the frames a
// loop pass produced leave in one system call per connection, as the
// bridge's do (wire::FlushQueue is tied to its protobuf frames).
//
// One per loop; not thread-safe. Close() (or the destructor) closes the
// prepare handle; its memory goes on the loop's next pass.
#pragma once

#include <uv.h>

#include <vector>

#include "trestle/platform/uv_handle.h"

namespace trestle::bench {

class FloorStream;

class FloorFlushList {
 public:
  explicit FloorFlushList(uv_loop_t* loop);
  FloorFlushList(const FloorFlushList&) = delete;
  FloorFlushList& operator=(const FloorFlushList&) = delete;

  // `stream` is flushed before the loop next sleeps (listed once).
  void Add(FloorStream* stream);
  // `stream` is closing: forget it.
  void Remove(FloorStream* stream);
  void Close() { prepare_.Close(); }

 private:
  static void OnPrepare(uv_prepare_t* prepare);

  platform::UvHandle<uv_prepare_t> prepare_;
  std::vector<FloorStream*> streams_;
  std::vector<FloorStream*> flushing_;
};

}  // namespace trestle::bench
