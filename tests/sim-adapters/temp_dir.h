// Test helper: a fresh directory per test, removed afterwards, named after
// the process and the test so parallel runs do not collide.
#ifndef TRESTLE_TESTS_SIM_ADAPTERS_TEMP_DIR_H_
#define TRESTLE_TESTS_SIM_ADAPTERS_TEMP_DIR_H_

#include <filesystem>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

namespace trestle {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sim_adapters_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

}  // namespace trestle

#endif  // TRESTLE_TESTS_SIM_ADAPTERS_TEMP_DIR_H_
