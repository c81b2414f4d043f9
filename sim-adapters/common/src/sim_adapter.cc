#include "trestle/adapter/sim_adapter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"

namespace trestle::adapter {
namespace {
// What the Hello declares: it follows grants (lockstep), with the handler's
// lookaheads and capabilities.
ClientOptions Declaring(ClientOptions client, const TransitHandler& handler) {
  client.lockstep = true;
  client.lookahead_ns = handler.LookaheadNs();
  client.self_lookahead_ns = handler.SelfLookaheadNs();
  client.replays_collectives = handler.ReplaysCollectives();
  return client;
}
}  // namespace

absl::Status SimAdapterOptions::Validate() const {
  if (!(dilation > 0) || !std::isfinite(dilation)) {
    return absl::InvalidArgumentError(
        absl::StrCat("dilation must be a positive number, got ", dilation));
  }
  return LossPolicy::Validate(loss_rate);
}

SimAdapter::SimAdapter(EventLoop& loop, ClientOptions client, SimAdapterOptions options,
                       TransitHandler& handler, std::optional<EndpointMap> endpoints)
    : link_(loop, Declaring(std::move(client), handler)),
      options_(std::move(options)),
      handler_(handler),
      loss_(options_.loss_rate, options_.seed) {
  if (endpoints) resolver_.emplace(*std::move(endpoints), options_.name);
}

SimAdapter::~SimAdapter() = default;

absl::Status SimAdapter::Start() {
  if (absl::Status s = options_.Validate(); !s.ok()) return s;
  link_.OnTransits([this](const TransitBatch& batch) {
    // Transits can arrive while Connect still runs the loop; the session is
    // settled by the first of them or by Connect's return, whichever is first.
    if (!BeginSession().ok()) return;  // left unanswered: Start fails and closes
    if (time_mode_ == wire::TIME_MODE_LOCKSTEP) {
      // Collectives a handler replays are priced on their own, whatever
      // else comes: they need no grant (transit_handler.h).
      for (const Transit& transit : batch) {
        if (!transit.collectives.empty() && handler_.ReplaysCollectives()) {
          HandleTransit(transit);
        } else {
          waiting_.push_back(transit);
        }
      }
      return;
    }
    for (const Transit& transit : batch) HandleTransit(transit);
  });
  link_.OnGrant([this](std::uint64_t until_ns) {
    if (BeginSession().ok()) OnGrant(until_ns);
  });
  if (absl::Status connected = link_.Connect(); !connected.ok()) return connected;
  if (absl::Status begun = BeginSession(); !begun.ok()) {
    link_.Close(std::chrono::milliseconds(1000)).IgnoreError();
    return begun;
  }
  return absl::OkStatus();
}

absl::Status SimAdapter::Stop(std::chrono::milliseconds timeout) {
  scheduler_.reset();
  return link_.Close(timeout);
}

absl::Status SimAdapter::BeginSession() {
  if (time_mode_ || !session_status_.ok()) return session_status_;
  absl::StatusOr<wire::TimeMode> mode = AgreeTimeMode(link_.daemon_time_mode(), options_.time_mode);
  if (!mode.ok()) {
    session_status_ = mode.status();
    return session_status_;
  }
  time_mode_ = *mode;
  if (*mode == wire::TIME_MODE_PACED && options_.pace) {
    scheduler_ = std::make_unique<PacedScheduler>(
        link_.loop().uv_loop(), options_.dilation,
        [this](const Outcome& outcome) { PostDelivered(outcome); });
    scheduler_->Start();
  }
  handler_.Begin(*mode, *this);
  return session_status_;
}

void SimAdapter::HandleTransit(const Transit& transit) {
  ++counters_.transits;
  EndpointPair endpoints;
  if (resolver_) {
    endpoints.src = resolver_->Resolve(transit.src);
    endpoints.dst = resolver_->Resolve(transit.dst);
    if (endpoints.src == kNoEndpoint || endpoints.dst == kNoEndpoint) {
      ++counters_.dropped_unmapped;
      PostDropped(transit);
      return;
    }
  }
  if (!transit.collectives.empty() && !handler_.ReplaysCollectives()) {
    if (counters_.dropped_collectives++ == 0) {
      spdlog::warn("{} adapter: {} sent collectives to replay (Transit.collectives), which this "
                   "simulator does not do (trestle-sim fabric --model unaware does); they are "
                   "dropped (DROPPED outcomes)",
                   options_.name, transit.src);
    }
    PostDropped(transit);
    return;
  }
  if (loss_.Lose()) {
    ++counters_.dropped_by_loss;
    PostDropped(transit);
    return;
  }
  handler_.HandleTransit(transit, endpoints);
}

void SimAdapter::PostDropped(const Transit& transit) {
  // Lockstep: no earlier than its delivery could have been, as declared.
  std::uint64_t t = transit.t_send;
  if (time_mode_ == wire::TIME_MODE_LOCKSTEP) {
    const std::uint64_t lookahead =
        transit.src == transit.dst ? handler_.SelfLookaheadNs() : handler_.LookaheadNs();
    t = t > std::numeric_limits<std::uint64_t>::max() - lookahead
            ? std::numeric_limits<std::uint64_t>::max()
            : t + lookahead;
  }
  link_.Post(Outcome{transit.id, Outcome::Status::kDropped, t, 0});
}

void SimAdapter::PostDelivered(const Outcome& outcome) {
  ++counters_.delivered;
  link_.Post(outcome);
}

void SimAdapter::Deliver(std::uint64_t id, std::uint64_t t_deliver_ns) {
  const Outcome outcome{id, Outcome::Status::kDelivered, t_deliver_ns, 0};
  if (scheduler_) {
    scheduler_->Schedule(outcome);
  } else {
    PostDelivered(outcome);
  }
}

void SimAdapter::Drop(std::uint64_t id, std::uint64_t t_ns) {
  ++counters_.dropped_by_model;
  link_.Post(Outcome{id, Outcome::Status::kDropped, t_ns, 0});
}

void SimAdapter::OnGrant(std::uint64_t until_ns) {
  granted_ns_ = std::max(granted_ns_, until_ns);
  granted_ = true;
  // The covered transits, in an order that does not depend on their arrival.
  auto covered = std::partition(waiting_.begin(), waiting_.end(),
                                [&](const Transit& t) { return t.t_send < granted_ns_; });
  std::sort(waiting_.begin(), covered, [](const Transit& a, const Transit& b) {
    if (a.t_send != b.t_send) return a.t_send < b.t_send;
    if (a.src != b.src) return a.src < b.src;
    return static_cast<std::uint32_t>(a.id) < static_cast<std::uint32_t>(b.id);
  });
  in_grant_ = true;
  for (auto it = waiting_.begin(); it != covered; ++it) HandleTransit(*it);
  waiting_.erase(waiting_.begin(), covered);
  handler_.HandleGrant(granted_ns_);
  in_grant_ = false;
  SendReached(/*answer=*/true);
}

void SimAdapter::SendReached(bool answer) {
  constexpr std::uint64_t kAll = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t reached = handler_.ReportsReached() ? reached_ns_ : kAll;
  if (handler_.ReportsReached() && !handler_reported_) reached = 0;
  // Transits still waiting deliver at t_send + lookahead or later.
  const std::uint64_t between = handler_.LookaheadNs();
  const std::uint64_t to_itself = handler_.SelfLookaheadNs();
  for (const Transit& t : waiting_) {
    const std::uint64_t lookahead = t.src == t.dst ? to_itself : between;
    const std::uint64_t earliest = t.t_send > kAll - lookahead ? kAll : t.t_send + lookahead;
    if (earliest == 0) {
      reached = 0;
    } else {
      reached = std::min(reached, earliest - 1);
    }
  }
  // Every Grant gets an answer, even one that changes nothing.
  if (!answer && sent_any_ && reached == sent_reached_ && granted_ns_ == sent_grant_) return;
  sent_any_ = true;
  sent_reached_ = reached;
  sent_grant_ = granted_ns_;
  link_.ReportReached(reached, granted_ns_);
}

void SimAdapter::ReportReached(std::uint64_t t_ns) {
  reached_ns_ = t_ns;  // the latest: it covers the transits handed over since
  handler_reported_ = true;
  // A report from a later loop callback (a model that needs time to run)
  // goes out at once; one from inside HandleGrant goes with its answer.
  if (granted_ && !in_grant_) SendReached(/*answer=*/false);
}

}  // namespace trestle::adapter
