#include "trestle/fabric/link.h"

#include "common/enum_names.h"

namespace trestle::fabric {
namespace {

constexpr internal::EnumName<LinkKind> kLinkKindNames[] = {
    {LinkKind::kHost, "host"},
    {LinkKind::kLocal, "local"},
    {LinkKind::kGlobal, "global"},
};

}  // namespace

std::string_view LinkKindName(LinkKind kind) {
  return internal::EnumToName<LinkKind>(kLinkKindNames, kind);
}

}  // namespace trestle::fabric
