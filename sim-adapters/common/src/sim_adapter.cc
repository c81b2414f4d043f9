#include "trestle/adapter/sim_adapter.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace trestle::adapter {

absl::Status SimAdapterOptions::Validate() const {
  if (!(dilation > 0) || !std::isfinite(dilation)) {
    return absl::InvalidArgumentError(
        absl::StrCat("dilation must be a positive number, got ", dilation));
  }
  return LossPolicy::Validate(loss_rate);
}

SimAdapter::SimAdapter(EventLoop& loop, ClientOptions client, SimAdapterOptions options,
                       TransitHandler& handler, std::optional<EndpointMap> endpoints)
    : link_(loop, std::move(client)),
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
    for (const Transit& transit : batch) HandleTransit(transit);
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
  absl::StatusOr<TimeMode> mode = AgreeTimeMode(link_.daemon_time_mode(), options_.time_mode);
  if (!mode.ok()) {
    session_status_ = mode.status();
    return session_status_;
  }
  time_mode_ = *mode;
  if (*mode == TimeMode::kPaced && options_.pace) {
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
  if (loss_.Lose()) {
    ++counters_.dropped_by_loss;
    PostDropped(transit);
    return;
  }
  handler_.HandleTransit(transit, endpoints);
}

void SimAdapter::PostDropped(const Transit& transit) {
  link_.Post(Outcome{transit.id, Outcome::Status::kDropped, transit.t_send, 0});
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

void SimAdapter::ReportReached(std::uint64_t t_ns) { reached_ns_ = t_ns; }

}  // namespace trestle::adapter
