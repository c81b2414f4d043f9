// ByteSize: a message or buffer size in bytes, parsed with an explicit unit;
// a bare number is an error.
//
// Units: B, KB MB GB (decimal, 1 KB = 1000 B), KiB MiB GiB (binary,
// 1 KiB = 1024 B). Examples: "16KiB" is 16384 bytes, "1MB" is 1000000.
// The value must be a whole number of bytes.
#ifndef TRESTLE_FABRIC_BYTE_SIZE_H_
#define TRESTLE_FABRIC_BYTE_SIZE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle::fabric {

class ByteSize {
 public:
  constexpr ByteSize() = default;
  static constexpr ByteSize Bytes(std::uint64_t b) { return ByteSize(b); }

  static absl::StatusOr<ByteSize> Parse(std::string_view text);
  // Parses a comma-separated list, e.g. "16KiB,64KiB,1MiB".
  static absl::StatusOr<std::vector<ByteSize>> ParseList(std::string_view text);

  constexpr std::uint64_t bytes() const { return bytes_; }

  // Human form with a binary unit when exact ("16KiB"), else bytes ("1000B").
  std::string ToString() const;

  constexpr bool operator==(const ByteSize& other) const { return bytes_ == other.bytes_; }
  constexpr bool operator!=(const ByteSize& other) const { return bytes_ != other.bytes_; }

 private:
  constexpr explicit ByteSize(std::uint64_t b) : bytes_(b) {}
  std::uint64_t bytes_ = 0;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_BYTE_SIZE_H_
