// TokensEqual: how every door of trestled (Hello, session resume, the admin
// service, /metrics) compares a presented secret with its own. It never
// exits early, so the time taken says nothing of where a guess first differs.
#pragma once

#include <string_view>

namespace trestle::daemon {

inline bool TokensEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace trestle::daemon
