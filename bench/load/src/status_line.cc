#include "status_line.h"

#include <unistd.h>

#include "trestle/wire/monotonic_clock.h"

namespace trestle::bench {
namespace {
constexpr std::uint64_t kMinRedrawNs = 250'000'000;
}  // namespace

StatusLine::StatusLine(std::FILE* out) : out_(out), live_(isatty(fileno(out)) == 1) {}

void StatusLine::Update(std::string_view text) {
  if (!live_) return;
  const std::uint64_t now = wire::MonotonicNanos();
  if (last_update_ns_ != 0 && now - last_update_ns_ < kMinRedrawNs) return;
  last_update_ns_ = now;
  // Pad with spaces so a shorter line fully covers the previous one.
  const std::size_t pad = last_width_ > text.size() ? last_width_ - text.size() : 0;
  std::fprintf(out_, "\r%.*s%*s", static_cast<int>(text.size()), text.data(),
               static_cast<int>(pad), "");
  std::fflush(out_);
  last_width_ = text.size();
}

void StatusLine::Finish(std::string_view text) {
  if (live_ && last_width_ > 0) {
    std::fprintf(out_, "\r%*s\r", static_cast<int>(last_width_), "");
    last_width_ = 0;
    last_update_ns_ = 0;
  }
  std::fprintf(out_, "%.*s\n", static_cast<int>(text.size()), text.data());
  std::fflush(out_);
}

}  // namespace trestle::bench
