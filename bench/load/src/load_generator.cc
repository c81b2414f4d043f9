#include "load_generator.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

#include "absl/strings/str_format.h"
#include "trestle/status.h"
#include "trestle/wire/monotonic_clock.h"
#include "trestle/wire/resident_time.h"

namespace trestle::bench {
namespace {

using std::chrono::milliseconds;

constexpr std::uint64_t kTickMs = 1;
constexpr std::uint64_t kStatusMs = 250;
// After the last expected arrival, how long to keep listening for duplicates.
constexpr milliseconds kDuplicateGrace{200};

std::uint64_t ToNs(milliseconds d) { return static_cast<std::uint64_t>(d.count()) * 1'000'000; }

double Seconds(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }

// One meter per process, not started.
std::vector<CpuMeter> MetersOf(std::span<const ProcessStats> processes) {
  std::vector<CpuMeter> meters;
  for (const ProcessStats& p : processes) meters.emplace_back(&p);
  return meters;
}

void StartAll(std::vector<CpuMeter>& meters) {
  for (CpuMeter& m : meters) m.Start();
}

}  // namespace

LoadGenerator::LoadGenerator(BenchConfig config, EventLoop& loop, AppFleet& fleet, Probes probes,
                             StatusLine* status, std::vector<std::string> addresses)
    : config_(std::move(config)),
      loop_(loop),
      fleet_(fleet),
      probes_(probes),
      status_(status),
      schedule_(config_.arrivals, config_.rate > 0 ? config_.rate : 1.0, config_.seed),
      rng_(config_.seed ^ 0x9e3779b97f4a7c15ULL),
      addresses_(std::move(addresses)),
      daemon_cpu_(MetersOf(probes.daemons)),
      sim_cpu_(MetersOf(probes.sims)),
      self_stats_(getpid()),
      self_cpu_(&self_stats_) {
  result_.config = config_;
  if (config_.daemons > 1) {
    sent_by_daemon_.assign(config_.daemons, 0);
    received_by_daemon_.assign(config_.daemons, 0);
  }
  payload_.assign(std::max<std::size_t>(config_.size, sizeof(std::uint64_t)), 'x');
  warmup_ns_ = ToNs(config_.warmup);
  end_ns_ = warmup_ns_ + ToNs(config_.duration);
  // One ledger entry per message, reserved up front (closed loop: a guess of
  // 300,000 messages/s; the vector grows if the bridge beats it).
  const double seconds = Seconds(end_ns_);
  const double expected = config_.closed_loop() ? 300'000.0 * seconds : config_.rate * seconds;
  ledger_.Reserve(static_cast<std::size_t>(expected * 1.05) + 1024);
}

LoadGenerator::~LoadGenerator() { CloseTimers(); }

std::uint64_t LoadGenerator::ElapsedNs() const { return wire::MonotonicNanos() - start_ns_; }

absl::Status LoadGenerator::ConnectAll() {
  const std::uint32_t n = config_.apps();
  in_flight_.assign(n, 0);
  AppFleet::Handlers handlers;
  handlers.on_arrival = [this](std::uint32_t receiver, const Message& m) { OnArrival(receiver, m); };
  handlers.on_error = [this](const absl::Status& s) {
    ++result_.async_errors;
    if (first_error_.empty()) first_error_ = s.ToString();
    // A lost session (not a refused send, which names its message) means the
    // bridge itself failed: stop at once rather than run on to the end.
    if (s.code() == absl::StatusCode::kUnavailable && !MessageIdOf(s).has_value() &&
        bridge_lost_.empty()) {
      bridge_lost_ = s.ToString();
      sending_done_ = true;
    }
  };
  fleet_.Create(n, config_.stalled_apps, std::move(handlers));

  std::uint32_t next = 0;
  std::uint32_t outstanding = 0;
  std::uint32_t finished = 0;
  std::string failure;
  std::function<void()> start_more = [&] {
    while (next < n && outstanding < config_.connect_wave && failure.empty()) {
      const std::uint32_t i = next++;
      absl::Status s = fleet_.ConnectAsync(i, [&](absl::Status st) {
        --outstanding;
        ++finished;
        if (!st.ok() && failure.empty()) failure = st.ToString();
        start_more();
      });
      if (!s.ok()) {
        failure = s.ToString();
        return;
      }
      ++outstanding;
    }
  };
  const std::uint64_t t0 = wire::MonotonicNanos();
  start_more();
  const auto timeout = milliseconds(30'000 + 10 * static_cast<std::int64_t>(n));
  const bool done = loop_.RunUntil(
      [&] {
        if (status_->live()) {
          status_->Update(absl::StrFormat("connecting %u/%u clients", finished, n));
        }
        return finished == n || (!failure.empty() && outstanding == 0);
      },
      timeout);
  result_.connect_seconds = Seconds(wire::MonotonicNanos() - t0);
  if (!failure.empty()) return absl::UnavailableError("cannot connect " + failure);
  if (!done) {
    return absl::DeadlineExceededError(absl::StrFormat(
        "only %u of %u clients connected within %d ms", finished, n, timeout.count()));
  }
  return absl::OkStatus();
}

std::optional<double> LoadGenerator::SumPercent(const std::vector<CpuMeter>& meters) {
  if (meters.empty()) return std::nullopt;
  double sum = 0;
  for (const CpuMeter& m : meters) {
    const std::optional<double> p = m.Percent();
    if (!p) return std::nullopt;
    sum += *p;
  }
  return sum;
}

std::uint32_t LoadGenerator::PickReceiver(std::uint32_t sender) {
  const std::uint32_t n = config_.apps();
  const std::uint32_t d = config_.daemons;
  // App i is on daemon i % d; daemon k has (n - k + d - 1) / d apps.
  if (config_.peers == PeerChoice::kAcross) {
    // Another daemon, then one of its apps (every daemon has at least one).
    const std::uint32_t there =
        static_cast<std::uint32_t>((config_.DaemonOf(sender) + 1 + rng_() % (d - 1)) % d);
    const std::uint32_t on_there = (n - there + d - 1) / d;
    return there + d * static_cast<std::uint32_t>(rng_() % on_there);
  }
  if (config_.peers == PeerChoice::kWithin) {
    // Another app of the sender's daemon (each has at least two).
    const std::uint32_t here = config_.DaemonOf(sender);
    const std::uint32_t on_here = (n - here + d - 1) / d;
    auto k = static_cast<std::uint32_t>(rng_() % (on_here - 1));
    if (k >= sender / d) ++k;
    return here + d * k;
  }
  std::uint32_t dst = sender;
  if (n > 1) {
    dst = static_cast<std::uint32_t>(rng_() % (n - 1));
    if (dst >= sender) ++dst;
  }
  return dst;
}

bool LoadGenerator::SendOne(std::uint32_t sender, bool measured) {
  const std::uint32_t dst = PickReceiver(sender);
  const std::uint64_t seq = ledger_.next_seq();
  std::memcpy(payload_.data(), &seq, sizeof(seq));
  absl::StatusOr<std::uint64_t> id = fleet_.Send(sender, dst, payload_);
  if (!id.ok()) {
    if (id.status().code() == absl::StatusCode::kResourceExhausted) {
      ++result_.deferred_sends;
      return false;
    }
    ++result_.send_failures;
    if (first_error_.empty()) first_error_ = "send: " + id.status().ToString();
    return true;
  }
  ledger_.Add(*id, sender, dst, measured, dst >= config_.nodes);
  ++in_flight_[sender];
  if (!sent_by_daemon_.empty()) {
    ++sent_by_daemon_[config_.DaemonOf(sender)];
    if (config_.DaemonOf(sender) != config_.DaemonOf(dst)) ++result_.sent_across;
  }
  if (measured) {
    ++measured_sent_;
    last_measured_send_ns_ = ElapsedNs();
  }
  return true;
}

void LoadGenerator::OnArrival(std::uint32_t receiver, const Message& m) {
  if (m.dropped || m.payload.size() < sizeof(std::uint64_t)) {
    ledger_.MarkUnknown();
    return;
  }
  std::uint64_t seq = 0;
  std::memcpy(&seq, m.payload.data(), sizeof(seq));
  const DeliveryLedger::Entry* entry = ledger_.MarkArrived(seq, m.id, receiver);
  if (entry == nullptr) return;
  const std::uint32_t sender = entry->sender;
  --in_flight_[sender];
  if (!received_by_daemon_.empty()) ++received_by_daemon_[config_.DaemonOf(receiver)];
  if (entry->measured) {
    ++measured_arrived_;
    last_measured_arrival_ns_ = m.stamps.app_received;
    const Stamps& st = m.stamps;
    if (std::optional<std::uint64_t> resident = wire::ResidentNanos(
            st.daemon_accepted, st.sim_handed, st.sim_posted, st.daemon_delivered)) {
      resident_.Record(*resident);
    }
    // It stayed if its sender, its receiver and a simulator share a daemon
    // (a daemon with a simulator gives it the transit).
    const std::uint32_t from = config_.DaemonOf(sender);
    const bool stayed = from == config_.DaemonOf(receiver) && from < with_simulator_.size() &&
                        with_simulator_[from];
    ++(stayed ? measured_stayed_ : measured_crossed_);
    if (m.stamps.app_sent != 0 && m.stamps.app_received >= m.stamps.app_sent) {
      e2e_.Record(m.stamps.app_received - m.stamps.app_sent);
      if (config_.daemons > 1) {
        (stayed ? e2e_stayed_ : e2e_crossed_).Record(m.stamps.app_received - m.stamps.app_sent);
      }
    }
    RecordStages(m.stamps);
  }
  // Closed loop: replace the message that just arrived at once.
  if (config_.closed_loop() && !sending_done_ && in_flight_[sender] < config_.window) {
    SendOne(sender, measuring_);
  }
}

void LoadGenerator::RecordStages(const Stamps& s) {
  const std::array<std::uint64_t, kStageNames.size() + 1> marks = {
      s.app_sent, s.daemon_accepted, s.sim_handed, s.sim_posted, s.daemon_delivered,
      s.app_received};
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    if (marks[i] != 0 && marks[i + 1] >= marks[i]) stages_[i].Record(marks[i + 1] - marks[i]);
  }
}

void LoadGenerator::OnTick(uv_timer_t* timer) { static_cast<LoadGenerator*>(timer->data)->Tick(); }

void LoadGenerator::OnStatusTick(uv_timer_t* timer) {
  static_cast<LoadGenerator*>(timer->data)->DrawStatus();
}

void LoadGenerator::Tick() {
  if (sending_done_) return;
  const std::uint64_t now = ElapsedNs();
  if (!measuring_ && now >= warmup_ns_) {
    measuring_ = true;
    StartAll(daemon_cpu_);
    StartAll(sim_cpu_);
    self_cpu_.Start();
  }
  if (now >= end_ns_ && (config_.closed_loop() || schedule_.next_due_ns() >= end_ns_)) {
    sending_done_ = true;
    return;
  }
  if (config_.closed_loop()) {
    for (std::uint32_t c = 0; c < config_.nodes; ++c) {
      while (in_flight_[c] < config_.window) {
        if (!SendOne(c, measuring_)) break;
      }
    }
    return;
  }
  while (schedule_.next_due_ns() <= now && schedule_.next_due_ns() < end_ns_) {
    const auto sender = static_cast<std::uint32_t>(rng_() % config_.nodes);
    if (!SendOne(sender, schedule_.next_due_ns() >= warmup_ns_)) break;
    max_lag_ns_ = std::max(max_lag_ns_, now - schedule_.next_due_ns());
    schedule_.Advance();
  }
}

void LoadGenerator::DrawStatus() {
  if (!status_->live()) return;
  const std::uint64_t now = ElapsedNs();
  const std::uint64_t delivered = ledger_.delivered();
  const double rate = status_at_ns_ == 0 || now <= status_at_ns_
                          ? 0
                          : static_cast<double>(delivered - status_delivered_) /
                                Seconds(now - status_at_ns_);
  status_delivered_ = delivered;
  status_at_ns_ = now;
  const std::string what = absl::StrFormat(
      "nodes %u %s: %.0f msg/s, sent %u, delivered %u", config_.nodes,
      config_.closed_loop() ? "max" : absl::StrFormat("rate %g", config_.rate), rate,
      ledger_.sent(), delivered);
  if (!sending_done_) {
    status_->Update(absl::StrFormat("%s, ETA %.1f s", what,
                                    Seconds(end_ns_ > now ? end_ns_ - now : 0)));
  } else {
    status_->Update(absl::StrFormat("%s, draining %u", what, ledger_.lost()));
  }
}

void LoadGenerator::CloseTimers() {
  tick_timer_.Close();
  status_timer_.Close();
}

BenchResult LoadGenerator::Run() {
  if (config_.nodes == 0) {
    result_.error = "--nodes must be at least 1";
    return result_;
  }
  if (absl::Status s = ConnectAll(); !s.ok()) {
    result_.error = std::string(s.message());
    return result_;
  }
  if (absl::Status s = fleet_.WaitUntilReady(); !s.ok()) {
    result_.error = std::string(s.message());
    return result_;
  }
  with_simulator_ = fleet_.RelaysWithSimulator();
  const std::vector<std::optional<wire::Counters>> before = fleet_.RelayCounters();
  if (config_.idle.count() > 0) {
    std::vector<CpuMeter> idle = MetersOf(probes_.daemons);
    StartAll(idle);
    loop_.RunFor(config_.idle);
    result_.daemon_idle_cpu_pct = SumPercent(idle);
  }

  tick_timer_.Init(uv_timer_init, loop_.uv_loop());
  status_timer_.Init(uv_timer_init, loop_.uv_loop());
  tick_timer_->data = this;
  status_timer_->data = this;
  start_ns_ = wire::MonotonicNanos();
  uv_timer_start(tick_timer_.get(), &LoadGenerator::OnTick, 0, kTickMs);
  uv_timer_start(status_timer_.get(), &LoadGenerator::OnStatusTick, kStatusMs, kStatusMs);

  // Send, with some slack for a generator that falls behind.
  loop_.RunUntil([&] { return sending_done_; }, config_.warmup + config_.duration * 2 +
                                                    milliseconds(10'000));
  sending_done_ = true;
  const std::uint64_t sending_end_ns = ElapsedNs();
  const bool drained = bridge_lost_.empty() &&
                       loop_.RunUntil([&] { return ledger_.lost() == 0 || !bridge_lost_.empty(); },
                                      config_.drain_timeout) &&
                       bridge_lost_.empty();
  result_.drain_seconds = Seconds(ElapsedNs() - sending_end_ns);
  result_.daemon_cpu_pct = SumPercent(daemon_cpu_);
  result_.sim_cpu_pct = SumPercent(sim_cpu_);
  result_.generator_cpu_pct = self_cpu_.Percent();
  if (drained) loop_.RunFor(kDuplicateGrace);
  CloseTimers();

  return Finish(drained, before);
}

}  // namespace trestle::bench
