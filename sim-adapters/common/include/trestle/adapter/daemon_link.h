// DaemonLink: an adapter's session with trestled, as a simulator. A facade
// over the SDK's trestle::SimClient whose header C++17 code can include (the
// ns-3 adapter: ns-3's headers must be compiled as C++17, and SimClient's
// interface uses std::span). Everything C++20 stays in daemon_link.cc.
//
// Usage (answer everything at once):
//
//   trestle::EventLoop loop;
//   trestle::adapter::DaemonLink link(loop, options);
//   link.OnTransits([&](const trestle::adapter::TransitBatch& batch) {
//     for (const trestle::Transit& t : batch)
//       link.Post({t.id, trestle::Outcome::Status::kDelivered, t.t_send, 0});
//   });
//   if (absl::Status s = link.Connect(); !s.ok()) return Fail(s);
//   loop.Run();
//
// Connecting, errors, PUSH and PULL, and threading are SimClient's (see
// client-sdk/include/trestle/sim_client.h and client.h): everything runs on
// `loop`'s thread. Lockstep time: OnGrant and ReportReached forward to
// SimClient's.
#ifndef TRESTLE_ADAPTER_DAEMON_LINK_H_
#define TRESTLE_ADAPTER_DAEMON_LINK_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/outcome.h"
#include "trestle/transit.h"

namespace trestle::adapter {

// A batch of transits, valid only during the callback that receives it.
class TransitBatch {
 public:
  TransitBatch(const Transit* first, std::size_t count) : first_(first), count_(count) {}
  const Transit* begin() const { return first_; }
  const Transit* end() const { return first_ + count_; }
  std::size_t size() const { return count_; }
  const Transit& operator[](std::size_t i) const { return first_[i]; }

 private:
  const Transit* first_;
  std::size_t count_;
};

class DaemonLink {
 public:
  // `loop` must outlive the link. `options.mode` selects PUSH or PULL.
  DaemonLink(EventLoop& loop, ClientOptions options);
  ~DaemonLink();
  DaemonLink(const DaemonLink&) = delete;
  DaemonLink& operator=(const DaemonLink&) = delete;

  // Every batch of transits goes to `callback` on the loop thread (in PULL
  // mode the SDK keeps long-polls outstanding). Set it before Connect: a
  // batch may arrive while Connect is still running the loop.
  void OnTransits(std::function<void(const TransitBatch&)> callback);
  // Lockstep: every Grant, as SimClient::OnGrant (after the transits before it).
  void OnGrant(std::function<void(std::uint64_t until_ns)> callback);
  // Lockstep: as SimClient::ReportReached (writes queued outcomes first).
  void ReportReached(std::uint64_t reached_ns, std::uint64_t grant_ns);
  // Asynchronous errors, as SimClient::OnError: kUnavailable when the
  // connection is lost.
  void OnError(std::function<void(const absl::Status&)> callback);

  // As SimClient::Connect / Close: blocking (running the loop), bounded.
  absl::Status Connect();
  absl::Status Close(std::chrono::milliseconds timeout);

  // Queues an outcome (one batch per loop pass), as SimClient::Post.
  void Post(const Outcome& outcome);
  // Writes queued outcomes now and waits up to `timeout`, as SimClient::Flush.
  absl::Status Flush(std::chrono::milliseconds timeout);

  bool connected() const;
  // The time mode the daemon announced in its Welcome
  // (EffectiveConfig.time_mode, e.g. "virtual"); "" before the first session.
  const std::string& daemon_time_mode() const;
  const ClientOptions& options() const;
  EventLoop& loop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_DAEMON_LINK_H_
