// AdminServer: runs the gRPC AdminService on its own address, on gRPC's
// threads, beside the libuv loop.
#pragma once

#include <grpcpp/server.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "admin/admin_service.h"

namespace trestle::daemon {

class AdminServer {
 public:
  AdminServer(LoopTaskQueue& tasks, AdminBackend& backend, std::string token);
  ~AdminServer();
  AdminServer(const AdminServer&) = delete;
  AdminServer& operator=(const AdminServer&) = delete;

  // Listens on HOST:PORT (port 0: any free port); returns the bound port.
  absl::StatusOr<std::uint16_t> Start(const std::string& address);
  // Stops serving, cancelling calls still running after a short grace.
  // Call off the loop thread (handlers may be waiting for the loop).
  void Stop();

 private:
  AdminService service_;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace trestle::daemon
