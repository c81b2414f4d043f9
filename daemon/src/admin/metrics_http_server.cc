#include "admin/metrics_http_server.h"

#include <httplib.h>

#include <chrono>
#include <future>

#include "absl/strings/str_cat.h"
#include "admin/prometheus_text.h"
#include "session/token_equal.h"

namespace trestle::daemon {

MetricsHttpServer::MetricsHttpServer(LoopTaskQueue& tasks, AdminBackend& backend, std::string token)
    : tasks_(tasks), backend_(backend), token_(std::move(token)),
      server_(std::make_unique<httplib::Server>()) {
  server_->Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
    constexpr std::string_view kBearer = "Bearer ";
    const std::string auth = req.get_header_value("Authorization");
    const bool authorized = auth.rfind(kBearer, 0) == 0 &&
                            TokensEqual(std::string_view(auth).substr(kBearer.size()), token_);
    if (!token_.empty() && !authorized) {
      res.status = 401;
      res.set_content("this daemon requires its auth token (Authorization: Bearer ...)\n",
                      "text/plain");
      return;
    }
    struct Snapshot {
      std::promise<void> promise;
      admin::StatusReply status;
      admin::StatsReply stats;
    };
    auto snap = std::make_shared<Snapshot>();
    std::future<void> done = snap->promise.get_future();
    const bool posted = tasks_.Post([this, snap] {
      backend_.FillStatus(&snap->status);
      backend_.FillStats(&snap->stats);
      snap->promise.set_value();
    });
    if (!posted || done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      res.status = 503;
      res.set_content("the daemon did not answer\n", "text/plain");
      return;
    }
    res.set_content(RenderPrometheusText(snap->status, snap->stats),
                    "text/plain; version=0.0.4; charset=utf-8");
  });
}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

absl::StatusOr<std::uint16_t> MetricsHttpServer::Start(const std::string& host,
                                                       std::uint16_t port) {
  int bound = port;
  if (port == 0) {
    bound = server_->bind_to_any_port(host.c_str());
  } else if (!server_->bind_to_port(host.c_str(), port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return absl::UnavailableError(absl::StrCat("metrics_listen: cannot listen on ", host, ":", port));
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return static_cast<std::uint16_t>(bound);
}

void MetricsHttpServer::Stop() {
  if (!thread_.joinable()) return;
  server_->stop();
  thread_.join();
}

}  // namespace trestle::daemon
