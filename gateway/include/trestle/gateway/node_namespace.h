// NodeNamespace: the named network namespace of one gateway node, as
// `ip netns` names them (/run/netns/NAME), so that `ip netns exec NAME` and
// `trestle gateway run NODE` enter it. Part of trestle_gateway.
//
// Open() joins the namespace if it exists, and otherwise creates it the way
// iproute2 does (unshare, then bind-mount the new namespace onto
// /run/netns/NAME); a namespace it created is removed by the destructor
// (processes still inside keep it alive until they exit). Enter() moves the
// calling thread into the namespace until the returned guard is destroyed,
// which moves it back: sockets and TUN devices opened meanwhile belong to
// the node's namespace, and stay there.
//
// Errors name the namespace and the cause; without root (CAP_SYS_ADMIN)
// they say so. Not thread-safe; Enter affects the calling thread only.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace trestle::gateway {

// Where named network namespaces live (iproute2's NETNS_RUN_DIR).
inline constexpr char kNetnsRunDir[] = "/run/netns";

class NodeNamespace {
 public:
  // Moves the thread back to the namespace it was in before Enter.
  class Guard {
   public:
    explicit Guard(int original_fd) : original_fd_(original_fd) {}
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard();

   private:
    int original_fd_;
  };

  // Joins or creates /run/netns/`name`. `name` must be a plain file name.
  static absl::StatusOr<std::unique_ptr<NodeNamespace>> Open(const std::string& name);
  NodeNamespace(const NodeNamespace&) = delete;
  NodeNamespace& operator=(const NodeNamespace&) = delete;
  ~NodeNamespace();

  // Moves the calling thread into the namespace.
  absl::StatusOr<std::unique_ptr<Guard>> Enter();

  const std::string& name() const { return name_; }
  bool created() const { return created_; }

 private:
  NodeNamespace(std::string name, int fd, bool created)
      : name_(std::move(name)), fd_(fd), created_(created) {}

  std::string name_;
  int fd_;        // the namespace (O_RDONLY on its /run/netns file)
  bool created_;  // by this process: removed on destruction
};

}  // namespace trestle::gateway
