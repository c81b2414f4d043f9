// YamlIdMap: the one reader of the YAML files Trestle keys by id: a
// non-empty mapping of unique ids to plain scalar values, e.g. the
// gateway's node map (`n0: 10.77.0.1`) and an adapter's endpoint map
// (`node-a: 0`). It checks the document's shape and the ids; what a value
// means, and whether two ids may share one, is the caller's.
//
// Library trestle_platform_yaml (it links yaml-cpp).
#pragma once

#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"

namespace trestle::platform {

// The words the errors use.
struct YamlIdMapFormat {
  std::string_view document;  // "map file": the file, as errors open
  std::string_view mapping;   // "client id to endpoint": what it maps
  std::string_view entry;     // "client-id: endpoint": an entry's form
  std::string_view example;   // "node-a: 0"
  std::string_view id;        // "client id": an id, as errors name one
};

// Takes one entry: OK, or the error that stops the reading (it names the
// id: "node 'n0': ...").
using YamlIdMapEntry =
    absl::FunctionRef<absl::Status(const std::string& id, const std::string& value)>;

// Gives each entry of `yaml` to `take`, in the document's order, stopping
// at the first error. InvalidArgument when: it is not YAML ("<document> is
// not valid YAML: ..."), not a non-empty mapping ("<document> must be a
// non-empty YAML mapping of <mapping>, e.g. '<example>'"), an entry's key
// or value is not a plain scalar ("<document> entries must be '<entry>'
// with plain scalar values"), or an id appears twice ("<id> 'x' appears more
// than once"); or `take`'s error.
absl::Status ParseYamlIdMap(std::string_view yaml, const YamlIdMapFormat& format,
                            YamlIdMapEntry take);

// ParseYamlIdMap on the file at `path`: an unreadable file is ReadFile's
// error ("cannot read <document> '<path>': ..."), and every other error
// (`take`'s too) is prefixed with the path.
absl::Status ReadYamlIdMap(const std::string& path, const YamlIdMapFormat& format,
                           YamlIdMapEntry take);

}  // namespace trestle::platform
