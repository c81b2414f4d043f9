#include "trestle/gateway/tun_device.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace trestle::gateway {
namespace {

absl::Status Errno(int err, const std::string& what) {
  std::string cause = std::strerror(err);
  auto code = absl::StatusCode::kInternal;
  if (err == EPERM || err == EACCES) {
    cause += " (TUN devices need root: CAP_NET_ADMIN)";
    code = absl::StatusCode::kPermissionDenied;
  }
  return absl::Status(code, absl::StrCat(what, ": ", cause));
}

void CopyName(const std::string& name, ifreq* req) {
  std::memset(req, 0, sizeof *req);
  std::memcpy(req->ifr_name, name.data(), name.size());  // checked: < IFNAMSIZ
}

sockaddr_in Ipv4(std::uint32_t address) {
  sockaddr_in in{};
  in.sin_family = AF_INET;
  in.sin_addr.s_addr = htonl(address);
  return in;
}

// Sets IFF_UP (and IFF_RUNNING) on `name` through the AF_INET socket `s`.
absl::Status BringUp(int s, const std::string& name) {
  ifreq req;
  CopyName(name, &req);
  if (ioctl(s, SIOCGIFFLAGS, &req) != 0) return Errno(errno, absl::StrCat("SIOCGIFFLAGS ", name));
  req.ifr_flags |= IFF_UP | IFF_RUNNING;
  if (ioctl(s, SIOCSIFFLAGS, &req) != 0) return Errno(errno, absl::StrCat("bring ", name, " up"));
  return absl::OkStatus();
}

// Address, netmask and MTU of the TUN, then it and lo up.
absl::Status Configure(const TunOptions& options) {
  const int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return Errno(errno, "socket(AF_INET) to configure the TUN");
  const std::string& name = options.name;
  absl::Status status;
  ifreq req;
  CopyName(name, &req);
  sockaddr_in addr = Ipv4(options.address);
  std::memcpy(&req.ifr_addr, &addr, sizeof addr);
  if (ioctl(s, SIOCSIFADDR, &req) != 0) status = Errno(errno, absl::StrCat("set the address of ", name));
  if (status.ok()) {
    const std::uint32_t mask =
        options.prefix_length == 0 ? 0 : ~std::uint32_t{0} << (32 - options.prefix_length);
    sockaddr_in netmask = Ipv4(mask);
    std::memcpy(&req.ifr_netmask, &netmask, sizeof netmask);
    if (ioctl(s, SIOCSIFNETMASK, &req) != 0) status = Errno(errno, absl::StrCat("set the netmask of ", name));
  }
  if (status.ok()) {
    CopyName(name, &req);
    req.ifr_mtu = static_cast<int>(options.mtu);
    if (ioctl(s, SIOCSIFMTU, &req) != 0) status = Errno(errno, absl::StrCat("set the MTU of ", name));
  }
  if (status.ok()) status = BringUp(s, name);
  if (status.ok()) status = BringUp(s, "lo");
  close(s);
  return status;
}

// No IPv6 on the TUN (best effort): the kernel would otherwise send router
// solicitations through it, which no node has an address for.
void DisableIpv6(const std::string& name) {
  std::ofstream(absl::StrCat("/proc/sys/net/ipv6/conf/", name, "/disable_ipv6")) << "1\n";
}

}  // namespace

absl::StatusOr<std::unique_ptr<TunDevice>> TunDevice::Create(const TunOptions& options) {
  if (options.name.empty() || options.name.size() >= IFNAMSIZ) {
    return absl::InvalidArgumentError(absl::StrCat("TUN name '", options.name, "' must be 1..",
                                                   IFNAMSIZ - 1, " bytes"));
  }
  if (options.mtu < 68 || options.mtu > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("MTU ", options.mtu, " is out of range (68..65535)"));
  }
  const int fd = open(options.clone_path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENODEV || err == ENXIO) {
      return absl::FailedPreconditionError(absl::StrCat(
          "no TUN driver: cannot open ", options.clone_path, ": ", std::strerror(err),
          " (load it with 'modprobe tun'; in a container, pass the device /dev/net/tun)"));
    }
    return Errno(err, absl::StrCat("open ", options.clone_path));
  }
  ifreq req;
  CopyName(options.name, &req);
  req.ifr_flags = IFF_TUN | IFF_NO_PI;
  if (ioctl(fd, TUNSETIFF, &req) != 0) {
    const int err = errno;
    close(fd);
    if (err == EBUSY) {
      return absl::AlreadyExistsError(absl::StrCat(
          "TUN device ", options.name, " is in use in this namespace (another trestle-gateway?)"));
    }
    return Errno(err, absl::StrCat("create TUN device ", options.name, " (TUNSETIFF)"));
  }
  auto device = std::unique_ptr<TunDevice>(new TunDevice(fd, options.name));
  DisableIpv6(options.name);
  if (absl::Status s = Configure(options); !s.ok()) return s;
  return device;
}

TunDevice::~TunDevice() { close(fd_); }

}  // namespace trestle::gateway
