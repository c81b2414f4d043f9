#include "bridge_fleet.h"

#include "absl/strings/str_cat.h"

namespace trestle::bench {

using std::chrono::milliseconds;

BridgeFleet::BridgeFleet(EventLoop& loop, const BenchConfig& config, std::string address)
    : loop_(loop), config_(config), address_(std::move(address)) {}

BridgeFleet::~BridgeFleet() { clients_.clear(); }

void BridgeFleet::Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) {
  handlers_ = std::move(handlers);
  ids_.reserve(apps);
  clients_.reserve(apps);
  for (std::uint32_t i = 0; i < apps; ++i) {
    ids_.push_back(absl::StrCat("n", i));
    ClientOptions options;
    options.daemon = address_;
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
    absl::StatusOr<wire::StatsReply> stats = clients_.front()->Stats(milliseconds(10'000));
    if (!stats.ok()) return stats.status();
    for (const wire::ClientStats& c : stats->clients()) {
      if (c.role() == wire::ROLE_SIM && c.connected()) return absl::OkStatus();
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return absl::FailedPreconditionError("no simulator is connected to the daemon at " +
                                           address_ + " (start trestle-sim ghost)");
    }
    loop_.RunFor(milliseconds(100));
  }
}

absl::StatusOr<std::uint64_t> BridgeFleet::Send(std::uint32_t sender, std::uint32_t receiver,
                                                std::string_view payload) {
  return clients_[sender]->Send(ids_[receiver], payload);
}

std::optional<wire::Counters> BridgeFleet::RelayCounters() {
  absl::StatusOr<wire::StatsReply> stats = clients_.front()->Stats(milliseconds(10'000));
  if (!stats.ok()) return std::nullopt;
  return stats->total();
}

}  // namespace trestle::bench
