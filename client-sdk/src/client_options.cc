#include "trestle/client_options.h"

#include <cstdlib>

namespace trestle {

std::string DefaultAuthToken() {
  const char* token = std::getenv("TRESTLE_TOKEN");
  return token != nullptr ? std::string(token) : std::string();
}

}  // namespace trestle
