// FloorFleet: the benchmark's apps as bare floor connections on one
// EventLoop, through the floor relay and echo (see AppFleet, floor_frame.h).
// Each app has one connection (send and receive), says hello with its index
// and then exchanges FloorHeader + payload frames; a stalled app never
// starts reading. Message ids are the fleet's own (1, 2, 3, ...).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "app_fleet.h"
#include "floor_flush_list.h"
#include "floor_stream.h"
#include "trestle/event_loop.h"
#include "trestle/platform/socket_address.h"

namespace trestle::bench {

class FloorFleet : public AppFleet, private FloorStream::Handler {
 public:
  // `loop` must outlive the fleet; `relay` is the floor relay's address.
  FloorFleet(EventLoop& loop, platform::SocketAddress relay);
  // Closes every connection and lets the loop finish the closes.
  ~FloorFleet() override;

  void Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) override;
  absl::Status ConnectAsync(std::uint32_t app, std::function<void(absl::Status)> done) override;
  absl::Status WaitUntilReady() override { return absl::OkStatus(); }
  absl::StatusOr<std::uint64_t> Send(std::uint32_t sender, std::uint32_t receiver,
                                     std::string_view payload) override;
  std::vector<std::optional<wire::Counters>> RelayCounters() override { return {}; }
  std::vector<bool> RelaysWithSimulator() const override { return {}; }

 private:
  void OnFrame(FloorStream& stream, std::span<char> body) override;
  void OnClosed(FloorStream& stream) override;

  EventLoop& loop_;
  platform::SocketAddress relay_;
  FloorFlushList flush_list_;
  Handlers handlers_;
  std::uint32_t readers_ = 0;  // apps below this index read
  std::vector<FloorStream*> streams_;  // by app; null until connected
  std::uint64_t next_id_ = 1;
  Message arrival_;  // reused for every arrival
  bool closing_ = false;
};

}  // namespace trestle::bench
