#include "trestle/platform/check.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace trestle::platform {
namespace {

TEST(CheckTest, AHoldingConditionGoesOnWithoutEvaluatingTheMessage) {
  int evaluated = 0;
  auto message = [&] {
    ++evaluated;
    return std::string("never");
  };
  TRESTLE_CHECK(1 + 1 == 2, message());
  EXPECT_EQ(evaluated, 0);
}

TEST(CheckDeathTest, AFailingConditionAbortsNamingTheConditionThePlaceAndTheMessage) {
  const int id = 7;
  EXPECT_DEATH(TRESTLE_CHECK(id < 5, absl::StrCat("id ", id, " out of range")),
               "CHECK failed at .*check_test.cc:[0-9]+: id < 5: id 7 out of range");
}

}  // namespace
}  // namespace trestle::platform
