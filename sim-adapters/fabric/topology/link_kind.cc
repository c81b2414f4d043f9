#include "trestle/fabric/link.h"

namespace trestle::fabric {

std::string_view LinkKindName(LinkKind kind) {
  switch (kind) {
    case LinkKind::kHost: return "host";
    case LinkKind::kLocal: return "local";
    case LinkKind::kGlobal: return "global";
  }
  return "?";
}

}  // namespace trestle::fabric
