#include "open_file_limit.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace trestle::bench {

absl::StatusOr<rlim_t> RaiseOpenFileLimit(rlim_t needed) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) {
    return absl::InternalError(std::string("getrlimit: ") + std::strerror(errno));
  }
  if (lim.rlim_cur >= needed) return lim.rlim_cur;
  rlimit want = lim;
  want.rlim_cur = needed;
  if (want.rlim_max < needed) want.rlim_max = needed;
  // Raising the hard limit needs privilege; without it, settle for the
  // soft limit at the current hard limit.
  if (setrlimit(RLIMIT_NOFILE, &want) != 0) {
    want.rlim_max = lim.rlim_max;
    want.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &want);
  }
  getrlimit(RLIMIT_NOFILE, &lim);
  if (lim.rlim_cur < needed) {
    return absl::ResourceExhaustedError(
        "open-file limit " + std::to_string(lim.rlim_cur) + " is below the " +
        std::to_string(needed) +
        " descriptors needed (3 per client); raise it (ulimit -Hn) or run as root");
  }
  return lim.rlim_cur;
}

}  // namespace trestle::bench
