// RaiseOpenFileLimit: lets this process (and the children it starts, which
// inherit the limit) hold as many file descriptors as it needs.
#pragma once

#include <cstdint>

namespace trestle::platform {

// Raises RLIMIT_NOFILE's soft limit to at least `needed`. When the hard limit
// is below `needed` it raises the hard limit too, where the process may
// (CAP_SYS_RESOURCE; being root is not enough inside a container that drops
// it); without that privilege the soft limit goes up to the hard limit. A
// soft limit already at or above `needed` is left as it is.
//
// Returns the soft limit now in force, which may still be below `needed`
// (the caller decides whether to warn, skip or refuse); 0 if the limit
// cannot even be read. Never fails otherwise; not thread-safe against other
// setrlimit callers.
std::uint64_t RaiseOpenFileLimit(std::uint64_t needed);

}  // namespace trestle::platform
