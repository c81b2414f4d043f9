// StatsReport: the daemon's state as the clients' StatsRequest, the admin
// service and /metrics see it. Read-only over the registries and the data
// plane; loop thread only.
#pragma once

#include "admin.pb.h"
#include "client_registry.h"
#include "data_plane.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class StatsReport {
 public:
  // Everything passed here must outlive the report.
  StatsReport(const ClientRegistry& apps, const ClientRegistry& sims, const DataPlane& data)
      : apps_(apps), sims_(sims), data_(data) {}

  // Totals and per-client counters (the StatsRequest answer).
  void FillStats(wire::StatsReply* reply) const;
  // Per-client detail for `trestle clients`.
  void FillClients(admin::ListClientsReply* reply) const;
  // Per-stage latencies and totals for `trestle stats` and /metrics.
  void FillStageLatencies(admin::StatsReply* reply) const;

 private:
  const ClientRegistry& apps_;
  const ClientRegistry& sims_;
  const DataPlane& data_;
};

}  // namespace trestle::daemon
