#include "trestle/gateway/node_namespace.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "trestle/platform/check.h"

namespace trestle::gateway {
namespace {

absl::Status Errno(int err, const std::string& what) {
  std::string cause = std::strerror(err);
  if (err == EPERM || err == EACCES) cause += " (network namespaces need root: CAP_SYS_ADMIN)";
  return absl::Status(err == EPERM || err == EACCES ? absl::StatusCode::kPermissionDenied
                                                    : absl::StatusCode::kInternal,
                      absl::StrCat(what, ": ", cause));
}

// /run/netns as iproute2 leaves it: a shared mount, so that namespaces
// mounted under it show in every mount namespace that shares it.
absl::Status PrepareRunDir() {
  if (mkdir(kNetnsRunDir, 0755) != 0 && errno != EEXIST) {
    return Errno(errno, absl::StrCat("mkdir ", kNetnsRunDir));
  }
  if (mount("", kNetnsRunDir, "none", MS_SHARED | MS_REC, nullptr) == 0) return absl::OkStatus();
  if (errno != EINVAL) return Errno(errno, absl::StrCat("mount --make-shared ", kNetnsRunDir));
  // Not a mount point yet: bind it onto itself first.
  if (mount(kNetnsRunDir, kNetnsRunDir, "none", MS_BIND | MS_REC, nullptr) != 0) {
    return Errno(errno, absl::StrCat("mount --bind ", kNetnsRunDir));
  }
  if (mount("", kNetnsRunDir, "none", MS_SHARED | MS_REC, nullptr) != 0) {
    return Errno(errno, absl::StrCat("mount --make-shared ", kNetnsRunDir));
  }
  return absl::OkStatus();
}

// A new namespace, mounted at `path`; the calling thread ends where it was.
absl::Status CreateAt(const std::string& path) {
  if (absl::Status s = PrepareRunDir(); !s.ok()) return s;
  const int file = open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
  if (file < 0) return Errno(errno, absl::StrCat("create ", path));
  close(file);
  const int original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original < 0) {
    const int err = errno;
    unlink(path.c_str());
    return Errno(err, "open /proc/thread-self/ns/net");
  }
  absl::Status status;
  if (unshare(CLONE_NEWNET) != 0) {
    status = Errno(errno, absl::StrCat("unshare(CLONE_NEWNET) for ", path));
  } else {
    if (mount("/proc/thread-self/ns/net", path.c_str(), "none", MS_BIND, nullptr) != 0) {
      status = Errno(errno, absl::StrCat("mount --bind the new namespace on ", path));
    }
    if (setns(original, CLONE_NEWNET) != 0 && status.ok()) {
      status = Errno(errno, "setns back to the original namespace");
    }
  }
  close(original);
  if (!status.ok()) unlink(path.c_str());
  return status;
}

}  // namespace

NodeNamespace::Guard::~Guard() {
  // Failing to return would leave the thread in the node's namespace, where
  // it cannot reach the daemon: nothing sensible can continue.
  TRESTLE_CHECK(setns(original_fd_, CLONE_NEWNET) == 0,
                "cannot return the thread to its own network namespace");
  close(original_fd_);
}

absl::StatusOr<std::unique_ptr<NodeNamespace>> NodeNamespace::Open(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    return absl::InvalidArgumentError(
        absl::StrCat("namespace name '", name, "' must be a plain file name (no '/')"));
  }
  const std::string path = absl::StrCat(kNetnsRunDir, "/", name);
  bool created = false;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    if (absl::Status s = CreateAt(path); !s.ok()) return s;
    created = true;
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) return Errno(errno, absl::StrCat("open network namespace ", path));
  return std::unique_ptr<NodeNamespace>(new NodeNamespace(name, fd, created));
}

NodeNamespace::~NodeNamespace() {
  close(fd_);
  if (!created_) return;
  const std::string path = absl::StrCat(kNetnsRunDir, "/", name_);
  umount2(path.c_str(), MNT_DETACH);
  unlink(path.c_str());
}

absl::StatusOr<std::unique_ptr<NodeNamespace::Guard>> NodeNamespace::Enter() {
  const int original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original < 0) return Errno(errno, "open /proc/thread-self/ns/net");
  if (setns(fd_, CLONE_NEWNET) != 0) {
    const int err = errno;
    close(original);
    return Errno(err, absl::StrCat("enter network namespace ", name_));
  }
  return std::make_unique<Guard>(original);
}

}  // namespace trestle::gateway
