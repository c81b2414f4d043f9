// AttachRedisToLoop: runs a hiredis async context on a libuv loop, in place
// of hiredis/adapters/libuv.h.
//
// Debian's hiredis 0.14 adapter calls uv_poll_start on every command hiredis
// queues, and libuv restarts a started poll handle by removing its fd from
// epoll and adding it back: two epoll_ctl calls per Redis command, 7 % of a
// federated daemon's time on the cross-daemon path (docs/benchmarks.md). It
// also drops poll errors, so a dead connection waits for the caller's
// watchdog. This adapter changes the poll handle only when the set of events
// hiredis wants changes, and hands a poll error to hiredis as the events it
// waited for, so that hiredis reads or writes, meets the error and reports
// it (as hiredis 1.x's adapter does).
//
// The hooks follow hiredis's contract (async.h): idempotent add/del of read
// and write interest, and cleanup when hiredis frees the context; the poll
// handle is closed then, and its memory freed once libuv has closed it.
#pragma once

#include <uv.h>

struct redisAsyncContext;

namespace trestle::daemon {

// Attaches `ctx` to `loop`. False, with nothing attached, if `ctx` has an
// event library already or its socket cannot be polled.
bool AttachRedisToLoop(redisAsyncContext* ctx, uv_loop_t* loop);

}  // namespace trestle::daemon
