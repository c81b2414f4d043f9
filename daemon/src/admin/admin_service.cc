#include "admin/admin_service.h"

#include <future>
#include <string_view>
#include <utility>

#include "session/token_equal.h"

namespace trestle::daemon {
namespace {
constexpr auto kLoopTimeout = std::chrono::seconds(5);
constexpr std::uint32_t kDefaultDrainMs = 30000;

grpc::Status LoopUnavailable() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down");
}

// Waits for a reply the loop fills; a task dropped at shutdown breaks the
// promise, which reads as "unavailable".
grpc::Status Await(std::future<void>& done, std::chrono::milliseconds timeout) {
  if (done.wait_for(timeout) != std::future_status::ready) {
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                        "the daemon's event loop did not answer in time");
  }
  try {
    done.get();
  } catch (const std::future_error&) {
    return LoopUnavailable();
  }
  return grpc::Status::OK;
}
}  // namespace

AdminService::AdminService(LoopTaskQueue& tasks, AdminBackend& backend, std::string token)
    : tasks_(tasks), backend_(backend), token_(std::move(token)) {}

grpc::Status AdminService::CheckToken(const grpc::ServerContext& ctx) const {
  if (token_.empty()) return grpc::Status::OK;
  const auto& md = ctx.client_metadata();
  constexpr std::string_view kBearer = "Bearer ";
  for (const auto& [key, value] : md) {
    const std::string_view v(value.data(), value.size());
    if ((key == "x-trestle-token" && TokensEqual(v, token_)) ||
        (key == "authorization" && v.substr(0, kBearer.size()) == kBearer &&
         TokensEqual(v.substr(kBearer.size()), token_))) {
      return grpc::Status::OK;
    }
  }
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                      "this daemon requires its auth token (metadata x-trestle-token)");
}

// The loop fills a reply it shares with the handler, so that a handler that
// gave up waiting leaves nothing dangling behind.
namespace {
template <typename Reply>
struct Pending {
  std::promise<void> promise;
  Reply reply;
};
}  // namespace

template <typename Reply>
grpc::Status AdminService::OnLoop(std::function<void(AdminBackend&, Reply*)> fill,
                                  Reply* reply) {
  auto pending = std::make_shared<Pending<Reply>>();
  std::future<void> done = pending->promise.get_future();
  if (!tasks_.Post([this, fill = std::move(fill), pending] {
        fill(backend_, &pending->reply);
        pending->promise.set_value();
      })) {
    return LoopUnavailable();
  }
  grpc::Status status = Await(done, kLoopTimeout);
  if (status.ok()) *reply = std::move(pending->reply);
  return status;
}

grpc::Status AdminService::Status(grpc::ServerContext* ctx, const admin::StatusRequest*,
                                  admin::StatusReply* reply) {
  if (grpc::Status s = CheckToken(*ctx); !s.ok()) return s;
  return OnLoop<admin::StatusReply>(&AdminBackend::FillStatus, reply);
}

grpc::Status AdminService::ListClients(grpc::ServerContext* ctx,
                                       const admin::ListClientsRequest* request,
                                       admin::ListClientsReply* reply) {
  if (grpc::Status s = CheckToken(*ctx); !s.ok()) return s;
  return OnLoop<admin::ListClientsReply>(
      [page = *request](AdminBackend& backend, admin::ListClientsReply* out) {
        backend.FillClients(page, out);
      },
      reply);
}

grpc::Status AdminService::Stats(grpc::ServerContext* ctx, const admin::StatsRequest*,
                                 admin::StatsReply* reply) {
  if (grpc::Status s = CheckToken(*ctx); !s.ok()) return s;
  return OnLoop<admin::StatsReply>(&AdminBackend::FillStats, reply);
}

grpc::Status AdminService::Drain(grpc::ServerContext* ctx, const admin::DrainRequest* request,
                                 admin::DrainReply* reply) {
  if (grpc::Status s = CheckToken(*ctx); !s.ok()) return s;
  const std::uint32_t timeout_ms = request->timeout_ms() == 0 ? kDefaultDrainMs : request->timeout_ms();
  auto pending = std::make_shared<Pending<admin::DrainReply>>();
  std::future<void> done = pending->promise.get_future();
  if (!tasks_.Post([this, timeout_ms, pending] {
        backend_.StartDrain(timeout_ms, [pending](const admin::DrainReply& r) {
          pending->reply = r;
          pending->promise.set_value();
        });
      })) {
    return LoopUnavailable();
  }
  grpc::Status status = Await(done, std::chrono::milliseconds(timeout_ms) + kLoopTimeout);
  if (status.ok()) *reply = std::move(pending->reply);
  return status;
}

grpc::Status AdminService::Shutdown(grpc::ServerContext* ctx, const admin::ShutdownRequest*,
                                    admin::ShutdownReply*) {
  if (grpc::Status s = CheckToken(*ctx); !s.ok()) return s;
  // The reply does not wait for the loop: the loop ends, then the daemon
  // stops this server after the call has returned.
  if (!tasks_.Post([this] { backend_.RequestShutdown(); })) return LoopUnavailable();
  return grpc::Status::OK;
}

}  // namespace trestle::daemon
