// The two fields the gateway routes by, read from an IPv4 header (RFC 791).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace trestle::gateway {

struct Ipv4Addresses {
  std::uint32_t source = 0;       // host byte order
  std::uint32_t destination = 0;  // host byte order
};

// The addresses of `packet`, or nullopt when it is not IPv4 (version 4, a
// header length of at least 20 bytes, a total length that fits).
inline std::optional<Ipv4Addresses> ReadIpv4Addresses(std::string_view packet) {
  if (packet.size() < 20) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(packet.data());
  const unsigned header_bytes = (p[0] & 0x0fu) * 4u;
  const unsigned total_bytes = (unsigned{p[2]} << 8) | p[3];
  if ((p[0] >> 4) != 4 || header_bytes < 20 || total_bytes < header_bytes || total_bytes > packet.size()) {
    return std::nullopt;
  }
  auto word = [p](int at) {
    return (std::uint32_t{p[at]} << 24) | (std::uint32_t{p[at + 1]} << 16) |
           (std::uint32_t{p[at + 2]} << 8) | std::uint32_t{p[at + 3]};
  };
  return Ipv4Addresses{word(12), word(16)};
}

}  // namespace trestle::gateway
