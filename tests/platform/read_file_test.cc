// ReadFile: the bytes as they are, and errors that name the file and why.
#include "trestle/platform/read_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace trestle::platform {
namespace {

class ReadFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("read_file_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(ReadFileTest, ReadsEveryByteEvenPastABufferAndANul) {
  std::string bytes(200'000, 'x');
  bytes[7] = '\0';
  bytes.back() = '\n';
  absl::StatusOr<std::string> text = ReadFile(Write("big", bytes));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, bytes);
  text = ReadFile(Write("empty", ""));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "");
}

TEST_F(ReadFileTest, AMissingFileIsNotFoundNamingWhatAndWhy) {
  const std::string path = (dir_ / "absent.yaml").string();
  absl::StatusOr<std::string> text = ReadFile(path, "map file");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(text.status().message(),
            "cannot read map file '" + path + "': No such file or directory");
}

TEST_F(ReadFileTest, ADirectoryIsAnErrorNotAnEmptyFile) {
  absl::StatusOr<std::string> text = ReadFile(dir_.string());
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(text.status().message().find("Is a directory"), std::string::npos)
      << text.status();
}

}  // namespace
}  // namespace trestle::platform
