#include "trestle/platform/yaml_id_map.h"

#include <yaml-cpp/yaml.h>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "trestle/platform/read_file.h"

namespace trestle::platform {

absl::Status ParseYamlIdMap(std::string_view yaml, const YamlIdMapFormat& format,
                            YamlIdMapEntry take) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(format.document), " is not valid YAML: ", e.what()));
  }
  if (!root.IsMap() || root.size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(format.document), " must be a non-empty YAML mapping of ",
        std::string(format.mapping), ", e.g. '", std::string(format.example), "'"));
  }
  absl::flat_hash_set<std::string> seen;
  for (const auto& item : root) {
    if (!item.first.IsScalar() || !item.second.IsScalar()) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(format.document),
                                                     " entries must be '",
                                                     std::string(format.entry),
                                                     "' with plain scalar values"));
    }
    const std::string& id = item.first.Scalar();
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(format.id), " '", id, "' appears more than once"));
    }
    if (absl::Status s = take(id, item.second.Scalar()); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ReadYamlIdMap(const std::string& path, const YamlIdMapFormat& format,
                           YamlIdMapEntry take) {
  absl::StatusOr<std::string> text = ReadFile(path, format.document);
  if (!text.ok()) return text.status();
  absl::Status s = ParseYamlIdMap(*text, format, take);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
}

}  // namespace trestle::platform
