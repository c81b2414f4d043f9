#include "mirror_header.h"

#include <cstring>

namespace trestle::mpi {
namespace {

template <typename T>
void Put(char* at, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    at[i] = static_cast<char>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

template <typename T>
T Get(const char* at) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(at[i])) << (8 * i);
  }
  return static_cast<T>(value);
}

}  // namespace

void MirrorHeader::EncodeTo(std::string* out) const {
  out->assign(kBytes, '\0');
  char* p = out->data();
  p[0] = static_cast<char>(kind);
  Put<std::uint32_t>(p + 4, static_cast<std::uint32_t>(src_world));
  Put<std::uint64_t>(p + 8, comm_id);
  Put<std::uint32_t>(p + 16, static_cast<std::uint32_t>(label));
  Put<std::uint32_t>(p + 20, number);
  Put<std::uint64_t>(p + 24, bytes);
}

std::optional<MirrorHeader> MirrorHeader::Decode(std::string_view payload) {
  if (payload.size() != kBytes) return std::nullopt;
  const char* p = payload.data();
  const auto kind = static_cast<std::uint8_t>(p[0]);
  if (kind != static_cast<std::uint8_t>(Kind::kPointToPoint) &&
      kind != static_cast<std::uint8_t>(Kind::kCollective) &&
      kind != static_cast<std::uint8_t>(Kind::kCollectivesEnd)) {
    return std::nullopt;
  }
  MirrorHeader h;
  h.kind = static_cast<Kind>(kind);
  h.src_world = static_cast<std::int32_t>(Get<std::uint32_t>(p + 4));
  h.comm_id = Get<std::uint64_t>(p + 8);
  h.label = static_cast<std::int32_t>(Get<std::uint32_t>(p + 16));
  h.number = Get<std::uint32_t>(p + 20);
  h.bytes = Get<std::uint64_t>(p + 24);
  return h;
}

}  // namespace trestle::mpi
