#include "trestle/ns3/ns3_transit_handler.h"

#include <uv.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "adapter/ns3_network_impl.h"
#include "adapter/simulation.h"
#include "adapter/transfer_engine.h"
#include "trestle/adapter/connection_order.h"
#include "trestle/platform/due_time_queue.h"

namespace trestle::ns3_adapter {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > kNever - b ? kNever : a + b;
}

}  // namespace

struct Ns3TransitHandler::Impl {
  // (Nested rather than in an unnamed namespace: Impl is declared in the
  // public header, so its members' types need linkage.)
  enum class Policy { kVirtual, kWallclock, kPaced, kLockstep };

  // A transit waiting for ns-3's clock to reach its start.
  struct Waiting {
    TransferRequest request;
    std::uint32_t tclass;
  };
  using WaitingQueue = platform::DueTimeQueue<Waiting>;

  Impl(EventLoop& event_loop, Ns3Network& built, Ns3HandlerOptions handler_options)
      : loop(event_loop),
        network(built),
        simulation(built.impl().simulation),
        options(handler_options),
        warmup_ps(built.options().warmup_ns * Simulation::kPsPerNs),
        engine(simulation, built.impl().network, built.options(),
               [this](const TransferResult& result) { Finished(result); }),
        idle(new uv_idle_t),
        timer(new uv_timer_t) {
    uv_idle_init(loop.uv_loop(), idle);
    idle->data = this;
    uv_timer_init(loop.uv_loop(), timer);
    timer->data = this;
  }

  ~Impl() {
    uv_idle_stop(idle);
    uv_timer_stop(timer);
    idle->data = nullptr;
    timer->data = nullptr;
    uv_close(reinterpret_cast<uv_handle_t*>(idle),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_idle_t*>(handle); });
    uv_close(reinterpret_cast<uv_handle_t*>(timer),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
  }

  // Trestle time <-> ns-3 time.
  std::uint64_t ToSimPs(std::uint64_t t_ns) const {
    return t_ns > (kNever - warmup_ps) / Simulation::kPsPerNs ? kNever : warmup_ps + t_ns * Simulation::kPsPerNs;
  }
  std::uint64_t ToTrestleNs(std::uint64_t ps) const {
    return ps <= warmup_ps ? 0 : (ps - warmup_ps) / Simulation::kPsPerNs;
  }

  void Start(Policy mode, adapter::OutcomeSink& outcomes) {
    policy = mode;
    sink = &outcomes;
    wall_start_ns = uv_hrtime();
    Kick();
  }

  void Transit(const Transit& transit, const adapter::EndpointPair& endpoints) {
    if (sink == nullptr) return;
    if (endpoints.src >= network.endpoint_count() || endpoints.dst >= network.endpoint_count()) {
      sink->Drop(transit.id, DropTime(transit.t_send, transit.src == transit.dst));  // no endpoint
      return;
    }
    const TransferRequest request{transit.id, endpoints.src, endpoints.dst, transit.size,
                                  transit.t_send};
    // Paced: ns-3 may not have run up to the wall clock's time (it runs only
    // to its events), but that time has passed all the same.
    const std::uint64_t now = policy == Policy::kPaced
                                  ? std::max(simulation.NowPs(), ToSimPs(PacedNowNs()))
                                  : simulation.NowPs();
    const std::uint64_t at = ToSimPs(transit.t_send);
    if (policy == Policy::kWallclock || at < now) {
      // Late only if its nanosecond has passed: an app answering a message
      // at its t_deliver (ns, rounded down) sends "before" the picosecond
      // that message arrived at.
      if (policy != Policy::kWallclock && transit.t_send < ToTrestleNs(now)) ++late_transits;
      StartTransfer(now, request, transit.tclass);
    } else {
      waiting.Push({at, request.src, request.id}, Waiting{request, transit.tclass});
    }
    Kick();
  }

  // Starts a transfer; a connection's messages are sent in the order their
  // transfers start.
  void StartTransfer(std::uint64_t at_ps, const TransferRequest& request, std::uint32_t tclass) {
    if (options.ordering == fabric::MessageOrdering::kConnection && request.src != request.dst) {
      order.Sent(request.src, request.dst, tclass, request.id);
    }
    engine.StartAt(at_ps, request);
  }

  void Grant(std::uint64_t t_ns) {
    if (t_ns <= grant_ns) return;
    grant_ns = t_ns;
    granted = true;
    Kick();
  }

  std::uint64_t LookaheadNs() const {
    const double between = MinLatency().between_endpoints_ns;
    return std::isfinite(between) ? static_cast<std::uint64_t>(std::llround(between)) : 0;
  }
  std::uint64_t SelfLookaheadNs() const {
    return static_cast<std::uint64_t>(std::llround(MinLatency().to_itself_ns));
  }
  // Lockstep: a loss is reported no earlier than the declared bound.
  std::uint64_t DropTime(std::uint64_t t, bool to_itself) const {
    if (policy != Policy::kLockstep) return t;
    return SaturatingAdd(t, to_itself ? SelfLookaheadNs() : LookaheadNs());
  }

  fabric::LatencyBounds MinLatency() const {
    const double delay = static_cast<double>(network.options().endpoint_delay_ns);
    fabric::LatencyBounds bounds;
    bounds.to_itself_ns = delay;
    if (network.min_transfer_ns() < kNever / Simulation::kPsPerNs) {
      bounds.between_endpoints_ns = delay + static_cast<double>(network.min_transfer_ns());
    }
    return bounds;
  }

  void Finished(const TransferResult& result) {
    const std::uint64_t t_send = result.context;
    std::uint64_t t = policy == Policy::kWallclock
                          ? t_send + (result.end_ps - result.start_ps) / Simulation::kPsPerNs
                          : ToTrestleNs(result.end_ps);
    t = std::max(t, t_send);
    if (!result.delivered) t = std::max(t, DropTime(t_send, false));
    released.clear();
    order.Finished(adapter::ConnectionOrder::Outcome{result.id, result.delivered, t}, &released);
    for (const adapter::ConnectionOrder::Outcome& outcome : released) {
      if (outcome.delivered) {
        sink->Deliver(outcome.id, outcome.t_ns);
      } else {
        sink->Drop(outcome.id, outcome.t_ns);
      }
    }
    if ((policy == Policy::kVirtual || policy == Policy::kWallclock) && engine.in_flight() == 0) {
      simulation.EndSlice();  // nothing left to finish: stop the clock here
    }
  }

  // The horizon of the next slice (Simulation::kNoHorizon: run until
  // stopped), or nullopt when ns-3 has nothing to run now.
  std::optional<std::uint64_t> Horizon() const {
    const std::uint64_t next_waiting = waiting.EarliestDue();
    switch (policy) {
      case Policy::kVirtual:
        if (!waiting.empty()) return next_waiting;
        if (engine.in_flight() > 0) return Simulation::kNoHorizon;
        return std::nullopt;
      case Policy::kWallclock:
        if (engine.in_flight() > 0) return Simulation::kNoHorizon;
        return std::nullopt;
      case Policy::kPaced:
        return std::min(next_waiting, ToSimPs(PacedNowNs()));
      case Policy::kLockstep:
        return std::min(next_waiting, ToSimPs(grant_ns));
    }
    return std::nullopt;
  }

  std::uint64_t PacedNowNs() const {
    const double elapsed = static_cast<double>(uv_hrtime() - wall_start_ns) / options.dilation;
    return elapsed >= 1.8e19 ? kNever : static_cast<std::uint64_t>(elapsed);
  }

  // Runs ns-3 for up to max_events_per_slice events (several horizons if
  // they come quickly), then returns to the loop: another pass runs more, or
  // a timer (paced), or nothing until a transit or grant arrives.
  void Pump() {
    std::uint64_t budget = options.max_events_per_slice;
    while (true) {
      const std::optional<std::uint64_t> next = Horizon();
      if (!next) {
        Rest();
        return;
      }
      const std::uint64_t horizon = *next;
      ++slices;
      const std::uint64_t before = simulation.events_run();
      const bool reached = simulation.RunSlice(horizon, budget);
      const std::uint64_t used = simulation.events_run() - before;
      budget -= std::min(used, budget);
      if (!reached) {
        // Out of budget (the next pass goes on), or nothing left in flight
        // (EndSlice: the loop above finds nothing to run).
        if (budget == 0 || used == 0) return;
        continue;
      }
      // Every event before the horizon has run. Start the transits due now.
      const std::size_t started = waiting.PopDue(horizon, [this](WaitingQueue::Item&& item) {
        StartTransfer(item.key.due, item.value.request, item.value.tclass);
      });
      if (started > 0) {
        if (budget == 0) return;
        continue;
      }
      // Lockstep: the grant is reached. Paced: the wall clock is (a timer
      // wakes ns-3 for what comes next). Virtual and wallclock: nothing is
      // queued any more, so nothing is in flight.
      if (policy == Policy::kLockstep) Report();
      Rest();
      return;
    }
  }

  // Stops slicing; in paced mode, wakes up for the next event or transit.
  void Rest() {
    uv_idle_stop(idle);
    if (policy != Policy::kPaced) return;
    const std::uint64_t next = std::min(simulation.NextEventPs(), waiting.EarliestDue());
    if (next == kNever) return;
    // Ceil to a whole ns and a whole ms: a timer never wakes early for it.
    const double due_ns = static_cast<double>(wall_start_ns) +
                          std::ceil(static_cast<double>(next - std::min(next, warmup_ps)) /
                                    Simulation::kPsPerNs) * options.dilation;
    const double now_ns = static_cast<double>(uv_hrtime());
    const double wait_ms = due_ns > now_ns ? std::ceil((due_ns - now_ns) / 1e6) : 0;
    uv_timer_start(
        timer, [](uv_timer_t* t) { static_cast<Impl*>(t->data)->Kick(); },
        static_cast<std::uint64_t>(std::min(wait_ms, 3.6e6)), 0);
  }

  // Lockstep: every event before the grant has run.
  void Report() {
    const std::uint64_t next_event = simulation.NextEventPs();
    const std::uint64_t by_events = next_event == kNever ? kNever : ToTrestleNs(next_event);
    if (!granted) return;
    const std::uint64_t bound = std::min(by_events, SaturatingAdd(grant_ns, LookaheadNs()));
    if (bound == 0) return;
    const std::uint64_t reached = bound - 1;
    if (reported && reached <= reached_ns) return;
    reported = true;
    reached_ns = reached;
    sink->ReportReached(reached);
  }

  void Kick() {
    if (sink == nullptr) return;
    uv_timer_stop(timer);
    uv_idle_start(idle, [](uv_idle_t* handle) { static_cast<Impl*>(handle->data)->Pump(); });
  }

  bool Idle() const { return sink == nullptr || !uv_is_active(reinterpret_cast<uv_handle_t*>(idle)); }

  EventLoop& loop;
  Ns3Network& network;
  Simulation& simulation;
  Ns3HandlerOptions options;
  std::uint64_t warmup_ps;
  Policy policy = Policy::kVirtual;
  adapter::OutcomeSink* sink = nullptr;
  TransferEngine engine;
  adapter::ConnectionOrder order;  // kConnection: the messages sent, per connection
  std::vector<adapter::ConnectionOrder::Outcome> released;  // reused by Finished
  // Keyed (start ps, source endpoint, transit id): transits of the same time
  // start in a defined order, whatever order they reached the adapter in.
  WaitingQueue waiting;
  std::uint64_t grant_ns = 0;
  bool granted = false;  // a Grant above 0 came: reports follow grants only
  bool reported = false;
  std::uint64_t reached_ns = 0;
  std::uint64_t wall_start_ns = 0;
  std::uint64_t late_transits = 0;
  std::uint64_t slices = 0;
  uv_idle_t* idle;   // owned; freed by its close callback
  uv_timer_t* timer;  // owned; freed by its close callback
};

Ns3TransitHandler::Ns3TransitHandler(EventLoop& loop, Ns3Network& network,
                                     Ns3HandlerOptions options)
    : impl_(std::make_unique<Impl>(loop, network, options)) {}

Ns3TransitHandler::~Ns3TransitHandler() = default;

void Ns3TransitHandler::Begin(wire::TimeMode mode, adapter::OutcomeSink& outcomes) {
  using Policy = Impl::Policy;
  Policy policy = Policy::kVirtual;
  if (mode == wire::TIME_MODE_LOCKSTEP) {
    policy = Policy::kLockstep;
  } else if (mode == wire::TIME_MODE_WALLCLOCK) {
    policy = Policy::kWallclock;
  } else if (mode == wire::TIME_MODE_PACED) {
    policy = Policy::kPaced;
  }
  impl_->Start(policy, outcomes);
}

void Ns3TransitHandler::HandleTransit(const Transit& transit,
                                      const adapter::EndpointPair& endpoints) {
  impl_->Transit(transit, endpoints);
}

void Ns3TransitHandler::HandleGrant(std::uint64_t t_ns) { impl_->Grant(t_ns); }

std::uint64_t Ns3TransitHandler::LookaheadNs() const { return impl_->LookaheadNs(); }
std::uint64_t Ns3TransitHandler::SelfLookaheadNs() const { return impl_->SelfLookaheadNs(); }

fabric::LatencyBounds Ns3TransitHandler::MinLatency() const { return impl_->MinLatency(); }

Ns3HandlerStats Ns3TransitHandler::stats() const {
  Ns3HandlerStats stats;
  stats.late_transits = impl_->late_transits;
  stats.in_flight = impl_->engine.in_flight();
  stats.waiting = impl_->waiting.size();
  stats.delivered = impl_->engine.delivered();
  stats.dropped = impl_->engine.dropped();
  stats.events = impl_->simulation.events_run();
  stats.slices = impl_->slices;
  stats.now_ns = impl_->ToTrestleNs(impl_->simulation.NowPs());
  stats.reached_ns = impl_->reached_ns;
  return stats;
}

bool Ns3TransitHandler::idle() const { return impl_->Idle(); }

}  // namespace trestle::ns3_adapter
