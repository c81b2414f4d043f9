// BridgeFleet: the benchmark's apps as AppClients on one EventLoop, through
// trestled and its simulator (see AppFleet). App i is client "n<i>".
//
// With several daemons of one federated bridge (docs/federation.md), app i
// attaches to daemon i % daemons (BenchConfig::DaemonOf): app d is the
// first on daemon d, and the fleet asks each daemon for its counters
// through it. A simulator attached to any of the daemons serves them all.
//
// A stalled app is an AppClient in inbox mode (no OnMessage callback) that
// never calls Receive and buffers at most one message: in PUSH its SDK stops
// reading its recv channel after the first delivery, in PULL it never asks.
// Everything else sent to it stays with the daemon.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app_fleet.h"
#include "bench_config.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::bench {

class BridgeFleet : public AppFleet {
 public:
  // `loop` must outlive the fleet; `addresses` are the daemons', one per
  // config.daemons, and config.apps() must be at least config.daemons.
  BridgeFleet(EventLoop& loop, const BenchConfig& config, std::vector<std::string> addresses);
  ~BridgeFleet() override;

  void Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) override;
  absl::Status ConnectAsync(std::uint32_t app, std::function<void(absl::Status)> done) override;
  absl::Status WaitUntilReady() override;
  absl::StatusOr<std::uint64_t> Send(std::uint32_t sender, std::uint32_t receiver,
                                     std::string_view payload) override;
  std::vector<std::optional<wire::Counters>> RelayCounters() override;
  std::vector<bool> RelaysWithSimulator() const override { return with_simulator_; }

 private:
  EventLoop& loop_;
  BenchConfig config_;
  std::vector<std::string> addresses_;
  Handlers handlers_;
  std::vector<std::string> ids_;
  std::vector<std::unique_ptr<AppClient>> clients_;
  std::vector<bool> with_simulator_;  // per daemon, as WaitUntilReady found
};

}  // namespace trestle::bench
