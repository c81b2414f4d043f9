// StatsReport: the daemon's state as the clients' StatsRequest, the admin
// service and /metrics see it. Read-only over the registries and the data
// plane; loop thread only.
//
// Per-client lists come in pages, so that no reply outgrows a frame or a
// gRPC message however many clients the daemon knows. A page starts at a
// position: apps' registry slots first, then simulators'. Positions are
// stable while the registries are; a client that comes or goes between two
// pages may be missed or shown twice, never anything worse.
#pragma once

#include <cstdint>
#include <functional>

#include "admin.pb.h"
#include "dataplane/data_plane.h"
#include "messages/client_registry.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class StatsReport {
 public:
  // The admin service's page: at most this many clients, and this many bytes.
  static constexpr std::uint32_t kAdminPageClients = 5000;
  static constexpr std::uint64_t kAdminPageBytes = 1u << 20;

  // Everything passed here must outlive the report.
  StatsReport(const ClientRegistry& apps, const ClientRegistry& sims, const DataPlane& data)
      : apps_(apps), sims_(sims), data_(data) {}

  // Totals and one page of per-client counters (the StatsRequest answer),
  // within `max_frame_bytes`.
  void FillStats(const wire::StatsRequest& request, std::uint32_t max_frame_bytes,
                 wire::StatsReply* reply) const;
  // One page of per-client detail for `trestle clients`.
  void FillClients(const admin::ListClientsRequest& request,
                   admin::ListClientsReply* reply) const;
  // Per-stage latencies and totals for `trestle stats` and /metrics.
  void FillStageLatencies(admin::StatsReply* reply) const;

 private:
  // Calls `add` for each live client from `position` on, while it returns
  // true and fewer than `max_count` were added; returns the position after
  // the last one added, or 0 when the list is done.
  std::uint64_t ForEachClient(
      std::uint64_t position, std::uint64_t max_count,
      const std::function<bool(const ClientEntry&, wire::Role)>& add) const;

  const ClientRegistry& apps_;
  const ClientRegistry& sims_;
  const DataPlane& data_;
};

}  // namespace trestle::daemon
