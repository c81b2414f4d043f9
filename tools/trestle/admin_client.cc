#include "admin_client.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

namespace trestle {
namespace {

absl::Status FromGrpc(const grpc::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      what + ": " + s.error_message());
}

// Runs one unary call, `rpc(&reply)`, and turns its status into ours.
template <typename Reply, typename Rpc>
absl::StatusOr<Reply> Unary(const std::string& what, Rpc rpc) {
  Reply reply;
  if (absl::Status s = FromGrpc(rpc(&reply), what); !s.ok()) return s;
  return reply;
}

}  // namespace

AdminClient::AdminClient(const std::string& address, std::string token,
                         std::chrono::milliseconds timeout)
    : stub_(admin::Admin::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()))),
      token_(std::move(token)),
      timeout_(timeout) {}

void AdminClient::Prepare(grpc::ClientContext* ctx, std::chrono::milliseconds timeout) const {
  ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  if (!token_.empty()) ctx->AddMetadata("x-trestle-token", token_);
}

absl::StatusOr<admin::StatusReply> AdminClient::Status() {
  grpc::ClientContext ctx;
  Prepare(&ctx, timeout_);
  return Unary<admin::StatusReply>("Status", [&](auto* reply) {
    return stub_->Status(&ctx, {}, reply);
  });
}

absl::StatusOr<admin::ListClientsReply> AdminClient::ListClients() {
  // The daemon answers a page at a time (admin.proto); gather them all.
  admin::ListClientsReply all;
  admin::ListClientsRequest request;
  do {
    grpc::ClientContext ctx;
    Prepare(&ctx, timeout_);
    absl::StatusOr<admin::ListClientsReply> page = Unary<admin::ListClientsReply>(
        "ListClients", [&](auto* reply) { return stub_->ListClients(&ctx, request, reply); });
    if (!page.ok()) return page.status();
    for (admin::ClientInfo& c : *page->mutable_clients()) *all.add_clients() = std::move(c);
    all.set_total(page->total());
    request.set_offset(page->next_offset());
  } while (request.offset() != 0);
  return all;
}

absl::StatusOr<admin::StatsReply> AdminClient::Stats() {
  grpc::ClientContext ctx;
  Prepare(&ctx, timeout_);
  return Unary<admin::StatsReply>("Stats", [&](auto* reply) {
    return stub_->Stats(&ctx, {}, reply);
  });
}

absl::StatusOr<admin::DrainReply> AdminClient::Drain(std::chrono::milliseconds timeout) {
  grpc::ClientContext ctx;
  Prepare(&ctx, timeout + timeout_);
  admin::DrainRequest request;
  request.set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
  return Unary<admin::DrainReply>("Drain", [&](auto* reply) {
    return stub_->Drain(&ctx, request, reply);
  });
}

absl::Status AdminClient::Shutdown() {
  grpc::ClientContext ctx;
  Prepare(&ctx, timeout_);
  admin::ShutdownReply reply;
  return FromGrpc(stub_->Shutdown(&ctx, {}, &reply), "Shutdown");
}

}  // namespace trestle
