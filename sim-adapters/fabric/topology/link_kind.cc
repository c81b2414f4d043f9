#include "trestle/fabric/link.h"

#include "trestle/platform/enum_names.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<LinkKind> kLinkKindNames[] = {
    {LinkKind::kHost, "host"},
    {LinkKind::kLocal, "local"},
    {LinkKind::kGlobal, "global"},
};

}  // namespace

std::string_view LinkKindName(LinkKind kind) {
  return platform::EnumNames<LinkKind>(kLinkKindNames).Name(kind);
}

}  // namespace trestle::fabric
