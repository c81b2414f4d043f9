// AdminClient: a blocking client of trestled's gRPC admin service
// (proto/admin.proto), used by `trestle status/clients/stats/top` and tests.
// Every call has a deadline; errors are absl::Status values carrying the
// daemon's text (UNAUTHENTICATED for a missing or wrong token).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "admin.grpc.pb.h"

namespace trestle {

class AdminClient {
 public:
  // `address` is HOST:PORT; `token` is sent as `x-trestle-token` if set.
  AdminClient(const std::string& address, std::string token,
              std::chrono::milliseconds timeout = std::chrono::seconds(5));

  absl::StatusOr<admin::StatusReply> Status();
  // Every client, fetched page by page (one deadline per page).
  absl::StatusOr<admin::ListClientsReply> ListClients();
  absl::StatusOr<admin::StatsReply> Stats();
  // Waits up to `timeout` for the daemon to finish what is in flight.
  absl::StatusOr<admin::DrainReply> Drain(std::chrono::milliseconds timeout);
  absl::Status Shutdown();

 private:
  void Prepare(grpc::ClientContext* ctx, std::chrono::milliseconds timeout) const;

  std::unique_ptr<admin::Admin::Stub> stub_;
  const std::string token_;
  const std::chrono::milliseconds timeout_;
};

}  // namespace trestle
