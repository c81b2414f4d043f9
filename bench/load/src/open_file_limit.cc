#include "open_file_limit.h"

namespace trestle::bench {

rlim_t RaiseOpenFileLimit(rlim_t needed) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  if (lim.rlim_cur >= needed) return lim.rlim_cur;
  rlimit want = lim;
  want.rlim_cur = needed;
  if (want.rlim_max < needed) want.rlim_max = needed;
  if (setrlimit(RLIMIT_NOFILE, &want) != 0) {
    want.rlim_max = lim.rlim_max;
    want.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &want);
  }
  getrlimit(RLIMIT_NOFILE, &lim);
  return lim.rlim_cur;
}

}  // namespace trestle::bench
