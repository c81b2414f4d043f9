// TunDevice: a TUN interface (layer 3, no packet-info header) and its file
// descriptor, non-blocking. Part of trestle_gateway.
//
// Create() makes the interface in the calling thread's network namespace
// (enter the node's namespace first, NodeNamespace::Enter), gives it its
// address, prefix and MTU, and brings it and the namespace's loopback up.
// The interface lives as long as the descriptor: the destructor closes it
// and the kernel removes the interface.
//
// Errors name the device and the cause: no TUN driver (no /dev/net/tun),
// no permission (root: CAP_NET_ADMIN), the name taken by another gateway.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace trestle::gateway {

inline constexpr char kDefaultTunPath[] = "/dev/net/tun";
inline constexpr char kDefaultTunName[] = "trestle0";
inline constexpr std::uint32_t kDefaultMtu = 1500;

struct TunOptions {
  std::string clone_path = kDefaultTunPath;  // the TUN clone device
  std::string name = kDefaultTunName;        // interface name, at most 15 bytes
  std::uint32_t address = 0;                 // host byte order
  int prefix_length = 24;
  std::uint32_t mtu = kDefaultMtu;           // 68..65535
};

class TunDevice {
 public:
  static absl::StatusOr<std::unique_ptr<TunDevice>> Create(const TunOptions& options);
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;
  ~TunDevice();

  // The non-blocking descriptor: read() gives one IP packet, write() takes one.
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }

 private:
  TunDevice(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

  int fd_;
  std::string name_;
};

}  // namespace trestle::gateway
