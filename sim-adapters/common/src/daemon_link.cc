#include "trestle/adapter/daemon_link.h"

#include <span>
#include <utility>

#include "trestle/sim_client.h"

namespace trestle::adapter {

struct DaemonLink::Impl {
  Impl(EventLoop& loop, ClientOptions options) : client(loop, std::move(options)) {}
  SimClient client;
};

DaemonLink::DaemonLink(EventLoop& loop, ClientOptions options)
    : impl_(std::make_unique<Impl>(loop, std::move(options))) {}

DaemonLink::~DaemonLink() = default;

void DaemonLink::OnTransits(std::function<void(const TransitBatch&)> callback) {
  if (!callback) {
    impl_->client.OnTransits(nullptr);
    return;
  }
  impl_->client.OnTransits([callback = std::move(callback)](std::span<const Transit> transits) {
    callback(TransitBatch(transits.data(), transits.size()));
  });
}

void DaemonLink::OnGrant(std::function<void(std::uint64_t until_ns)> callback) {
  impl_->client.OnGrant(std::move(callback));
}

void DaemonLink::ReportReached(std::uint64_t reached_ns, std::uint64_t grant_ns) {
  impl_->client.ReportReached(reached_ns, grant_ns);
}

void DaemonLink::OnError(std::function<void(const absl::Status&)> callback) {
  impl_->client.OnError(std::move(callback));
}

absl::Status DaemonLink::Connect() { return impl_->client.Connect(); }

absl::Status DaemonLink::Close(std::chrono::milliseconds timeout) {
  return impl_->client.Close(timeout);
}

void DaemonLink::Post(const Outcome& outcome) { impl_->client.Post(outcome); }

absl::Status DaemonLink::Flush(std::chrono::milliseconds timeout) {
  return impl_->client.Flush(timeout);
}

bool DaemonLink::connected() const { return impl_->client.connected(); }

const std::string& DaemonLink::daemon_time_mode() const {
  return impl_->client.daemon_config().time_mode();
}

const ClientOptions& DaemonLink::options() const { return impl_->client.options(); }

EventLoop& DaemonLink::loop() { return impl_->client.loop(); }

}  // namespace trestle::adapter
