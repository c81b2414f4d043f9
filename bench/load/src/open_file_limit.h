// RaiseOpenFileLimit: lets this process (and the daemon it starts, which
// inherits the limit) hold `needed` file descriptors.
#pragma once

#include <sys/resource.h>

#include "absl/status/statusor.h"

namespace trestle::bench {

// Raises RLIMIT_NOFILE's soft limit to at least `needed`, raising the hard
// limit too when the process may (root / CAP_SYS_RESOURCE). Returns the
// soft limit now in force; ResourceExhausted (naming both numbers) if it is
// still below `needed`.
absl::StatusOr<rlim_t> RaiseOpenFileLimit(rlim_t needed);

}  // namespace trestle::bench
