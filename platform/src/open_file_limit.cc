#include "trestle/platform/open_file_limit.h"

#include <sys/resource.h>

namespace trestle::platform {

std::uint64_t RaiseOpenFileLimit(std::uint64_t needed) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  if (lim.rlim_cur >= needed) return lim.rlim_cur;
  rlimit want = lim;
  want.rlim_cur = needed;
  if (want.rlim_max < needed) want.rlim_max = needed;
  if (setrlimit(RLIMIT_NOFILE, &want) != 0) {
    // Not allowed to raise the hard limit: go as far as it allows.
    want.rlim_max = lim.rlim_max;
    want.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &want);
  }
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  return lim.rlim_cur;
}

}  // namespace trestle::platform
