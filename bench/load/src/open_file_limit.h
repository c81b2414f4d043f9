// RaiseOpenFileLimit: lets this process (and the daemon it starts, which
// inherits the limit) hold as many file descriptors as a run needs.
#pragma once

#include <sys/resource.h>

namespace trestle::bench {

// Raises RLIMIT_NOFILE's soft limit to at least `needed`, raising the hard
// limit too when the process may (CAP_SYS_RESOURCE; being root is not
// enough inside a container that drops it). Without that privilege the soft
// limit goes up to the hard limit. Returns the soft limit now in force,
// which may still be below `needed`; never fails.
rlim_t RaiseOpenFileLimit(rlim_t needed);

}  // namespace trestle::bench
