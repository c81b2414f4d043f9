#include "messages/message_trace.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <memory>

namespace trestle::daemon {
namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
}  // namespace

absl::StatusOr<std::unique_ptr<MessageTrace>> MessageTrace::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return absl::InvalidArgumentError("trace file '" + path + "': " + std::strerror(errno));
  }
  std::setvbuf(file, nullptr, _IOFBF, kBufferBytes);
  std::fputs("src,seq,dst,size,tclass,t_send,t_deliver,outcome,delivery_seq\n", file);
  return std::unique_ptr<MessageTrace>(new MessageTrace(file));
}

MessageTrace::~MessageTrace() { std::fclose(file_); }

void MessageTrace::Record(const MessageRecord& r, std::string_view src, std::string_view dst,
                          std::string_view outcome) {
  std::fprintf(file_, "%.*s,%" PRIu32 ",%.*s,%" PRIu64 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64
                      ",%.*s,%" PRIu64 "\n",
               static_cast<int>(src.size()), src.data(), static_cast<std::uint32_t>(r.id),
               static_cast<int>(dst.size()), dst.data(), r.transit_size(), r.tclass, r.t_send, r.t_deliver,
               static_cast<int>(outcome.size()), outcome.data(), r.delivery_seq);
}

}  // namespace trestle::daemon
