#include "trestle/platform/redis_url.h"

#include <charconv>
#include <climits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace trestle::platform {
namespace {

// All of `text` is a decimal number in [min, max].
bool Number(std::string_view text, int min, int max, int* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size() && *out >= min && *out <= max;
}

}  // namespace

absl::StatusOr<RedisUrl> ParseRedisUrl(std::string_view text, std::string_view what) {
  constexpr std::string_view kScheme = "redis://";
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " '", std::string(text),
                     "' is not redis://HOST:PORT[/DB]: ", std::string(why)));
  };
  if (text.substr(0, kScheme.size()) != kScheme) return bad("wrong scheme");
  std::string_view rest = text.substr(kScheme.size());
  RedisUrl url;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    if (!Number(rest.substr(slash + 1), 0, INT_MAX, &url.db)) return bad("bad DB number");
    rest = rest.substr(0, slash);
  }
  if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    if (!Number(rest.substr(colon + 1), 1, 65535, &url.port)) return bad("bad port");
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) return bad("no host");
  url.host = std::string(rest);
  return url;
}

}  // namespace trestle::platform
