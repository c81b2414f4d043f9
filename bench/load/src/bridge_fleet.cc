#include "bridge_fleet.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace trestle::bench {

using std::chrono::milliseconds;

namespace {

// A federated daemon learns which daemon has a simulator from that daemon's
// heartbeat (every 0.5 s; docs/federation.md). Waiting this long once the
// simulator is attached lets every daemon know of it before the first send,
// so that no measured message waits for a heartbeat.
constexpr milliseconds kFederationSettle{1'200};

}  // namespace

BridgeFleet::BridgeFleet(EventLoop& loop, const BenchConfig& config,
                         std::vector<std::string> addresses)
    : loop_(loop), config_(config), addresses_(std::move(addresses)) {}

BridgeFleet::~BridgeFleet() { clients_.clear(); }

void BridgeFleet::Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) {
  handlers_ = std::move(handlers);
  ids_.reserve(apps);
  clients_.reserve(apps);
  for (std::uint32_t i = 0; i < apps; ++i) {
    ids_.push_back(absl::StrCat("n", i));
    ClientOptions options;
    options.daemon = addresses_[config_.DaemonOf(i)];
    options.client_id = ids_.back();
    options.mode = config_.pull ? DeliveryMode::kPull : DeliveryMode::kPush;
    options.connect_timeout = milliseconds(30'000);
    options.shared_connection = config_.connections == 1;
    const bool is_stalled = i >= apps - stalled;
    if (is_stalled) options.max_buffered_messages = 1;
    auto client = std::make_unique<AppClient>(loop_, options);
    if (!is_stalled) {
      client->OnMessage([this, i](Message&& m) { handlers_.on_arrival(i, m); });
    }
    client->OnError([this](const absl::Status& s) { handlers_.on_error(s); });
    clients_.push_back(std::move(client));
  }
}

absl::Status BridgeFleet::ConnectAsync(std::uint32_t app, std::function<void(absl::Status)> done) {
  return clients_[app]->ConnectAsync(
      [this, app, done = std::move(done)](absl::Status s) {
        done(s.ok() ? s : absl::Status(s.code(), absl::StrCat(ids_[app], ": ", s.ToString())));
      });
}

absl::Status BridgeFleet::WaitUntilReady() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    // App d is the first on daemon d: ask each daemon whether a simulator
    // is attached to it.
    with_simulator_.assign(addresses_.size(), false);
    bool any = false;
    for (std::size_t d = 0; d < addresses_.size(); ++d) {
      absl::StatusOr<wire::StatsReply> stats = clients_[d]->Stats(milliseconds(10'000));
      if (!stats.ok()) return stats.status();
      for (const wire::ClientStats& c : stats->clients()) {
        if (c.role() == wire::ROLE_SIM && c.connected()) with_simulator_[d] = any = true;
      }
    }
    if (any) {
      if (addresses_.size() > 1) loop_.RunFor(kFederationSettle);
      return absl::OkStatus();
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return absl::FailedPreconditionError(
          absl::StrCat("no simulator is connected to the daemon",
                       addresses_.size() > 1 ? "s" : "", " at ", absl::StrJoin(addresses_, ", "),
                       " (start trestle-sim ghost)"));
    }
    loop_.RunFor(milliseconds(100));
  }
}

absl::StatusOr<std::uint64_t> BridgeFleet::Send(std::uint32_t sender, std::uint32_t receiver,
                                                std::string_view payload) {
  return clients_[sender]->Send(ids_[receiver], payload);
}

std::vector<std::optional<wire::Counters>> BridgeFleet::RelayCounters() {
  std::vector<std::optional<wire::Counters>> counters;
  for (std::size_t d = 0; d < addresses_.size(); ++d) {
    absl::StatusOr<wire::StatsReply> stats = clients_[d]->Stats(milliseconds(10'000));
    counters.push_back(stats.ok() ? std::optional<wire::Counters>(stats->total()) : std::nullopt);
  }
  return counters;
}

}  // namespace trestle::bench
