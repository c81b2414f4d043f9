// TRESTLE_CHECK: the one way an impossible state ends the process.
//
//   TRESTLE_CHECK(id < kFirstDaemonId, "2^32 messages replayed");
//
// When `condition` is false, prints "CHECK failed at FILE:LINE: CONDITION:
// MESSAGE" on stderr and aborts. `message` (anything std::string_view
// takes) is evaluated only then. For states the code's own logic rules out,
// never for bad input: that gets an error naming it. Header-only C++17, so
// that ns-3 code can use it too.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace trestle::platform {

[[noreturn]] inline void CheckFailed(const char* condition, const char* file, int line,
                                     std::string_view message) {
  std::fprintf(stderr, "CHECK failed at %s:%d: %s: %.*s\n", file, line, condition,
               static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

}  // namespace trestle::platform

#define TRESTLE_CHECK(condition, message)                                          \
  do {                                                                             \
    if (!(condition)) {                                                            \
      ::trestle::platform::CheckFailed(#condition, __FILE__, __LINE__, (message)); \
    }                                                                              \
  } while (false)
