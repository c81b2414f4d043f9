// MetricsHttpServer: GET /metrics in the Prometheus text format, over HTTP
// (cpp-httplib) on its own thread. Each scrape hops to the event loop for a
// snapshot through the LoopTaskQueue; the loop never waits for HTTP.
// With a token, requests must carry `Authorization: Bearer <token>`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "admin/admin_backend.h"
#include "admin/loop_task_queue.h"

namespace httplib {
class Server;
}

namespace trestle::daemon {

class MetricsHttpServer {
 public:
  MetricsHttpServer(LoopTaskQueue& tasks, AdminBackend& backend, std::string token);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // Binds HOST:PORT (port 0: any) and starts serving; returns the port.
  absl::StatusOr<std::uint16_t> Start(const std::string& host, std::uint16_t port);
  // Stops serving and joins the thread. Safe to call twice.
  void Stop();

 private:
  LoopTaskQueue& tasks_;
  AdminBackend& backend_;
  const std::string token_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
};

}  // namespace trestle::daemon
