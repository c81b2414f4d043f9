#include "floor_flush_list.h"

#include <algorithm>

#include "floor_stream.h"

namespace trestle::bench {

FloorFlushList::FloorFlushList(uv_loop_t* loop) {
  prepare_.Init(uv_prepare_init, loop);
  prepare_->data = this;
  uv_prepare_start(prepare_.get(), &FloorFlushList::OnPrepare);
  // Output waiting to be flushed must not by itself keep the loop running.
  uv_unref(prepare_.base());
}

void FloorFlushList::Add(FloorStream* stream) { streams_.push_back(stream); }

void FloorFlushList::Remove(FloorStream* stream) {
  streams_.erase(std::remove(streams_.begin(), streams_.end(), stream), streams_.end());
}

void FloorFlushList::OnPrepare(uv_prepare_t* prepare) {
  auto* self = static_cast<FloorFlushList*>(prepare->data);
  self->flushing_.swap(self->streams_);
  for (FloorStream* s : self->flushing_) s->Flush();
  self->flushing_.clear();
}

}  // namespace trestle::bench
