// AdminBackend: what the admin service and the metrics endpoint may ask of
// the daemon. Every method runs on the loop thread (the callers hop there
// through LoopTaskQueue), so implementations read daemon state freely.
#pragma once

#include <cstdint>
#include <functional>

#include "admin.pb.h"

namespace trestle::daemon {

class AdminBackend {
 public:
  virtual ~AdminBackend() = default;
  virtual void FillStatus(admin::StatusReply* reply) = 0;
  virtual void FillClients(const admin::ListClientsRequest& request,
                           admin::ListClientsReply* reply) = 0;
  virtual void FillStats(admin::StatsReply* reply) = 0;
  // Stops accepting; `done` runs once, on the loop, when nothing is in
  // flight or after timeout_ms.
  virtual void StartDrain(std::uint32_t timeout_ms,
                          std::function<void(const admin::DrainReply&)> done) = 0;
  virtual void RequestShutdown() = 0;
};

}  // namespace trestle::daemon
