#include "trestle/fabric/message_ordering.h"

#include "trestle/platform/enum_names.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<MessageOrdering> kOrderingNames[] = {
    {MessageOrdering::kConnection, "connection"},
    {MessageOrdering::kMessage, "message"},
};

}  // namespace

absl::StatusOr<MessageOrdering> ParseMessageOrdering(std::string_view text) {
  return platform::EnumNames<MessageOrdering>(kOrderingNames).Parse(text, "ordering");
}

std::string_view MessageOrderingName(MessageOrdering ordering) {
  return platform::EnumNames<MessageOrdering>(kOrderingNames).Name(ordering);
}

}  // namespace trestle::fabric
