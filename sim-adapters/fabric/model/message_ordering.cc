#include "trestle/fabric/message_ordering.h"

#include "common/enum_names.h"

namespace trestle::fabric {
namespace {

constexpr internal::EnumName<MessageOrdering> kOrderingNames[] = {
    {MessageOrdering::kConnection, "connection"},
    {MessageOrdering::kMessage, "message"},
};

}  // namespace

absl::StatusOr<MessageOrdering> ParseMessageOrdering(std::string_view text) {
  return internal::ParseEnum<MessageOrdering>(kOrderingNames, text, "ordering");
}

std::string_view MessageOrderingName(MessageOrdering ordering) {
  return internal::EnumToName<MessageOrdering>(kOrderingNames, ordering);
}

}  // namespace trestle::fabric
