#include "store/redis_loop_adapter.h"

#include <hiredis/async.h>

namespace trestle::daemon {
namespace {

struct LoopEvents {
  redisAsyncContext* context = nullptr;  // null once hiredis has let go
  uv_poll_t handle{};
  int wanted = 0;   // UV_READABLE | UV_WRITABLE, as hiredis asked
  int started = 0;  // what the poll handle watches
};

void OnPoll(uv_poll_t* handle, int status, int events);

// Brings the poll handle in line with what hiredis wants.
void Sync(LoopEvents* p) {
  if (p->wanted == p->started) return;
  if (p->wanted == 0) {
    uv_poll_stop(&p->handle);
  } else {
    uv_poll_start(&p->handle, p->wanted, &OnPoll);
  }
  p->started = p->wanted;
}

void OnPoll(uv_poll_t* handle, int status, int events) {
  auto* p = static_cast<LoopEvents*>(handle->data);
  if (status < 0) {
    // libuv stopped the handle; hiredis finds the error by trying.
    p->started = 0;
    events = p->wanted;
  }
  if (p->context != nullptr && (events & UV_READABLE) != 0) redisAsyncHandleRead(p->context);
  if (p->context != nullptr && (events & UV_WRITABLE) != 0) redisAsyncHandleWrite(p->context);
  if (p->context != nullptr) Sync(p);
}

void AddRead(void* data) {
  auto* p = static_cast<LoopEvents*>(data);
  p->wanted |= UV_READABLE;
  Sync(p);
}

void DelRead(void* data) {
  auto* p = static_cast<LoopEvents*>(data);
  p->wanted &= ~UV_READABLE;
  Sync(p);
}

void AddWrite(void* data) {
  auto* p = static_cast<LoopEvents*>(data);
  p->wanted |= UV_WRITABLE;
  Sync(p);
}

void DelWrite(void* data) {
  auto* p = static_cast<LoopEvents*>(data);
  p->wanted &= ~UV_WRITABLE;
  Sync(p);
}

void Cleanup(void* data) {
  auto* p = static_cast<LoopEvents*>(data);
  p->context = nullptr;
  uv_close(reinterpret_cast<uv_handle_t*>(&p->handle),
           [](uv_handle_t* h) { delete static_cast<LoopEvents*>(h->data); });
}

}  // namespace

bool AttachRedisToLoop(redisAsyncContext* ctx, uv_loop_t* loop) {
  if (ctx->ev.data != nullptr) return false;
  auto* p = new LoopEvents;
  if (uv_poll_init(loop, &p->handle, ctx->c.fd) != 0) {
    delete p;
    return false;
  }
  p->context = ctx;
  p->handle.data = p;
  ctx->ev.data = p;
  ctx->ev.addRead = &AddRead;
  ctx->ev.delRead = &DelRead;
  ctx->ev.addWrite = &AddWrite;
  ctx->ev.delWrite = &DelWrite;
  ctx->ev.cleanup = &Cleanup;
  return true;
}

}  // namespace trestle::daemon
