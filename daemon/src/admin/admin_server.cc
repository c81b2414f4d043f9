#include "admin/admin_server.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <chrono>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {

AdminServer::AdminServer(LoopTaskQueue& tasks, AdminBackend& backend, std::string token)
    : service_(tasks, backend, std::move(token)) {}

AdminServer::~AdminServer() { Stop(); }

absl::StatusOr<std::uint16_t> AdminServer::Start(const std::string& address) {
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service_);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port == 0) {
    server_.reset();
    return absl::UnavailableError(absl::StrCat("admin_listen: cannot listen on ", address));
  }
  return static_cast<std::uint16_t>(port);
}

void AdminServer::Stop() {
  if (server_ == nullptr) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
}

}  // namespace trestle::daemon
