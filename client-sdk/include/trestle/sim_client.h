// trestle::SimClient: a network simulator's end of the bridge. It receives
// transits (metadata of payloads in flight) and posts one Outcome per
// transit: delivered at some virtual time, or dropped.
//
// Usage (PUSH, answer everything at once):
//
//   trestle::EventLoop loop;
//   trestle::SimClient sim(loop, options);
//   sim.OnTransits([&](std::span<const trestle::Transit> ts) {
//     for (const auto& t : ts) sim.Post({t.id, trestle::Outcome::Status::kDelivered, t.t_send});
//   });
//   if (absl::Status s = sim.Connect(); !s.ok()) return Fail(s);
//   loop.Run();
//
// See client.h for connecting, errors and threading.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/client.h"
#include "trestle/outcome.h"
#include "trestle/transit.h"

namespace trestle {

class SimClient : public Client {
 public:
  explicit SimClient(ClientOptions options);
  // Shares `loop`, which must outlive this client.
  SimClient(EventLoop& loop, ClientOptions options);
  ~SimClient() override;

  // Callback mode: every batch of transits is handed to `callback` on the
  // loop thread (never an empty one: a Fetch answered empty at its timeout
  // hands nothing over); the span is valid only during the call. In PULL
  // mode the SDK keeps two Fetch long-polls outstanding. An empty function
  // returns to Fetch mode.
  void OnTransits(std::function<void(std::span<const Transit>)> callback);

  // Returns up to `max_count` transits (0 = the daemon's max_batch), waiting
  // up to `timeout` for at least one; an empty vector when none came in time.
  // PULL mode asks the daemon with a Fetch long-poll; PUSH mode returns what
  // the daemon pushed. Errors: Unavailable (session lost and nothing
  // buffered), FailedPrecondition (OnTransits set, called from a callback, or
  // not connected).
  absl::StatusOr<std::vector<Transit>> Fetch(std::uint32_t max_count,
                                             std::chrono::milliseconds timeout);

  // Queues an outcome. Outcomes leave as one OutcomeBatch frame per loop
  // pass, or at once when the daemon's max_batch is reached. Stamps
  // sim_posted if the caller left it 0. Outcomes posted while not connected
  // are discarded.
  void Post(const Outcome& outcome);
  // Writes the queued outcomes now and waits (running the loop, up to
  // `timeout`) until the kernel has taken them. Errors: DeadlineExceeded,
  // Unavailable, FailedPrecondition (called from a callback: the batch is
  // written but not waited for).
  absl::Status Flush(std::chrono::milliseconds timeout);
  // Outcomes posted and not yet written to the send channel.
  std::size_t queued_outcomes() const;

  // Lockstep time (ClientOptions::lockstep). Every Grant goes to `callback`
  // on the loop thread, after the transits that came before it: no transit
  // with t_send < until_ns will come. Set it before Connect.
  void OnGrant(std::function<void(std::uint64_t until_ns)> callback);
  // The last Grant's until_ns (0: none yet).
  std::uint64_t granted_until() const { return granted_until_; }
  // Tells the daemon that every outcome with t_deliver <= `reached_ns` of the
  // transits received so far has been posted, and that the Grant to
  // `grant_ns` has been taken in. Writes the queued outcomes first, so the
  // report follows them. Answer every Grant at least once.
  void ReportReached(std::uint64_t reached_ns, std::uint64_t grant_ns);

 private:
  class OutcomeBatcher;

  void HandleReady(const wire::Welcome& welcome) override;
  void HandleRecvFrame(wire::Frame& frame) override;
  void HandleClosing() override;
  void KeepFetching();
  // Backpressure on the recv channel (ClientOptions::max_buffered_messages).
  void PauseRecvIfFull();
  void ResumeRecvIfDrained();

  std::unique_ptr<OutcomeBatcher> batcher_;
  std::function<void(std::span<const Transit>)> on_transits_;
  std::vector<Transit> callback_batch_;  // reused for every callback
  std::vector<Transit> fetched_;         // transits waiting for Fetch
  std::function<void(std::uint64_t)> on_grant_;
  std::uint64_t granted_until_ = 0;
  wire::Frame reached_frame_;
};

}  // namespace trestle
