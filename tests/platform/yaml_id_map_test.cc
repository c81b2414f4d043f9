// ParseYamlIdMap and ReadYamlIdMap: the document's shape, unique ids, the
// caller's checks, and errors in the caller's words.
#include "trestle/platform/yaml_id_map.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace trestle::platform {
namespace {

constexpr YamlIdMapFormat kFormat = {.document = "map file",
                                     .mapping = "client id to endpoint",
                                     .entry = "client-id: endpoint",
                                     .example = "node-a: 0",
                                     .id = "client id"};

// The entries, or the error's message.
struct Read {
  std::vector<std::pair<std::string, std::string>> entries;
  absl::Status status;
};
Read Parse(std::string_view yaml) {
  Read read;
  read.status = ParseYamlIdMap(yaml, kFormat, [&](const std::string& id, const std::string& v) {
    if (v == "bad") return absl::InvalidArgumentError(absl::StrCat("client id '", id, "': bad"));
    read.entries.emplace_back(id, v);
    return absl::OkStatus();
  });
  return read;
}

TEST(YamlIdMapTest, GivesEachEntryInTheDocumentsOrder) {
  Read read = Parse("# comment\nzeta: 3\nalpha: 1\n\"quoted id\": x\n");
  ASSERT_TRUE(read.status.ok()) << read.status;
  EXPECT_EQ(read.entries, (std::vector<std::pair<std::string, std::string>>{
                              {"zeta", "3"}, {"alpha", "1"}, {"quoted id", "x"}}));
}

TEST(YamlIdMapTest, ABadDocumentIsNamedInTheCallersWords) {
  EXPECT_EQ(Parse("a: {").status.message().substr(0, 28), "map file is not valid YAML: ");
  EXPECT_EQ(Parse("").status.message(),
            "map file must be a non-empty YAML mapping of client id to endpoint, e.g. "
            "'node-a: 0'");
  EXPECT_EQ(Parse("[a, b]").status.message(), Parse("").status.message());
  EXPECT_EQ(Parse("a: [1]").status.message(),
            "map file entries must be 'client-id: endpoint' with plain scalar values");
  EXPECT_EQ(Parse("a: 1\nb: 2\na: 3").status.message(), "client id 'a' appears more than once");
  EXPECT_EQ(Parse("a: 1\nb: 2\na: 3").status.code(), absl::StatusCode::kInvalidArgument);
}

TEST(YamlIdMapTest, TheCallersErrorStopsTheReading) {
  Read read = Parse("a: 1\nb: bad\nc: 3");
  EXPECT_EQ(read.status.message(), "client id 'b': bad");
  EXPECT_EQ(read.entries.size(), 1u);
}

TEST(YamlIdMapTest, AFilesErrorsArePrefixedWithItsPath) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            absl::StrCat("yaml_id_map_test_", ::getpid(), ".yaml"))
                               .string();
  std::ofstream(path) << "a: 1\nb: bad\n";
  int taken = 0;
  absl::Status s = ReadYamlIdMap(path, kFormat, [&](const std::string& id, const std::string& v) {
    ++taken;
    return v == "bad" ? absl::InvalidArgumentError("client id '" + id + "': bad")
                      : absl::OkStatus();
  });
  EXPECT_EQ(s.message(), path + ": client id 'b': bad");
  EXPECT_EQ(taken, 2);
  std::filesystem::remove(path);
  s = ReadYamlIdMap(path, kFormat, [](const std::string&, const std::string&) {
    return absl::OkStatus();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "cannot read map file '" + path + "': No such file or directory");
}

}  // namespace
}  // namespace trestle::platform
