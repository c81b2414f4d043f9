// AdminService: the gRPC Admin service (proto/admin.proto). Handlers run on
// gRPC's threads; each hops to the event loop through the LoopTaskQueue,
// waits (bounded) for the answer, and never touches daemon state itself, so
// the data path never waits for an admin call.
//
// Token rule: when `token` is non-empty every call must carry it as the
// metadata `x-trestle-token` (or `authorization: Bearer <token>`).
#pragma once

#include <functional>

#include <chrono>
#include <memory>
#include <string>

#include "admin.grpc.pb.h"
#include "admin/admin_backend.h"
#include "admin/loop_task_queue.h"

namespace trestle::daemon {

class AdminService final : public admin::Admin::Service {
 public:
  AdminService(LoopTaskQueue& tasks, AdminBackend& backend, std::string token);

  grpc::Status Status(grpc::ServerContext* ctx, const admin::StatusRequest*,
                      admin::StatusReply* reply) override;
  grpc::Status ListClients(grpc::ServerContext* ctx, const admin::ListClientsRequest*,
                           admin::ListClientsReply* reply) override;
  grpc::Status Stats(grpc::ServerContext* ctx, const admin::StatsRequest*,
                     admin::StatsReply* reply) override;
  grpc::Status Drain(grpc::ServerContext* ctx, const admin::DrainRequest* request,
                     admin::DrainReply* reply) override;
  grpc::Status Shutdown(grpc::ServerContext* ctx, const admin::ShutdownRequest*,
                        admin::ShutdownReply*) override;

 private:
  grpc::Status CheckToken(const grpc::ServerContext& ctx) const;
  // Runs `fill` on the loop and waits up to `timeout` for it.
  template <typename Reply>
  grpc::Status OnLoop(std::function<void(AdminBackend&, Reply*)> fill, Reply* reply);

  LoopTaskQueue& tasks_;
  AdminBackend& backend_;
  const std::string token_;
};

}  // namespace trestle::daemon
