#include "net/listeners.h"

#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "trestle/daemon/listen_address.h"

namespace trestle::daemon {

absl::Status Listeners::ListenTcp(const std::string& listen) {
  auto address = ParseListenAddress(listen);
  if (!address.ok()) return address.status();
  sockaddr_storage storage{};
  int rc = address->host.find(':') == std::string::npos
               ? uv_ip4_addr(address->host.c_str(), address->port,
                             reinterpret_cast<sockaddr_in*>(&storage))
               : uv_ip6_addr(address->host.c_str(), address->port,
                             reinterpret_cast<sockaddr_in6*>(&storage));
  if (rc != 0) {
    return absl::InvalidArgumentError(absl::StrCat("listen: ", listen, ": ", uv_strerror(rc)));
  }
  rc = tcp_.Init(uv_tcp_init, loop_);
  if (rc == 0) {
    tcp_->data = this;
    rc = uv_tcp_bind(tcp_.get(), reinterpret_cast<sockaddr*>(&storage), 0);
  }
  if (rc == 0) rc = uv_listen(tcp_.stream(), 4096, &OnConnection);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("listen: cannot listen on ", listen, ": ", uv_strerror(rc)));
  }
  sockaddr_storage bound{};
  int len = sizeof bound;
  uv_tcp_getsockname(tcp_.get(), reinterpret_cast<sockaddr*>(&bound), &len);
  tcp_port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return absl::OkStatus();
}

absl::Status Listeners::ListenUnix(const std::string& path) {
  if (path.empty()) return absl::OkStatus();
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) unlink(path.c_str());
  unix_path_ = path;
  int rc = pipe_.Init(uv_pipe_init, loop_, 0);
  if (rc == 0) {
    pipe_->data = this;
    rc = uv_pipe_bind(pipe_.get(), path.c_str());
  }
  if (rc == 0) rc = uv_listen(pipe_.stream(), 4096, &OnConnection);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("unix_socket: cannot listen on ", path, ": ", uv_strerror(rc)));
  }
  return absl::OkStatus();
}

void Listeners::OnConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<Listeners*>(server->data);
  if (status < 0) {
    spdlog::warn("accept failed: {}", uv_strerror(status));
    return;
  }
  self->on_accept_(server, server->type == UV_NAMED_PIPE ? wire::FramedStream::Kind::kPipe
                                                         : wire::FramedStream::Kind::kTcp);
}

void Listeners::Close() {
  tcp_.Close();
  if (pipe_) {
    pipe_.Close();
    unlink(unix_path_.c_str());
  }
}

}  // namespace trestle::daemon
