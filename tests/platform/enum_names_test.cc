// EnumNames: both directions from one table, and the one way errors and
// choices list the names.
#include "trestle/platform/enum_names.h"

#include <gtest/gtest.h>

namespace trestle::platform {
namespace {

enum class Fruit { kApple, kPear, kQuince };

constexpr EnumName<Fruit> kFruitTable[] = {
    {Fruit::kPear, "pear"},
    {Fruit::kApple, "apple"},
    {Fruit::kApple, "malus"},  // a second name parses; the first one prints
};
constexpr EnumNames<Fruit> kFruits(kFruitTable);

TEST(EnumNamesTest, ParsesEveryNameAndPrintsTheFirst) {
  EXPECT_EQ(*kFruits.Parse("pear", "fruit"), Fruit::kPear);
  EXPECT_EQ(*kFruits.Parse("malus", "fruit"), Fruit::kApple);
  EXPECT_EQ(kFruits.Name(Fruit::kApple), "apple");
  static_assert(kFruits.Name(Fruit::kPear) == "pear", "usable at compile time");
  static_assert(*kFruits.Find("apple") == Fruit::kApple, "usable at compile time");
}

TEST(EnumNamesTest, AValueWithoutANameIsAQuestionMark) {
  EXPECT_EQ(kFruits.Name(Fruit::kQuince), "?");
  EXPECT_FALSE(kFruits.Find("quince").has_value());
}

TEST(EnumNamesTest, AnUnknownNameIsAnErrorListingTheNamesInTheTablesOrder) {
  absl::StatusOr<Fruit> fruit = kFruits.Parse("Pear", "fruit");
  ASSERT_FALSE(fruit.ok());
  EXPECT_EQ(fruit.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(fruit.status().message(), "unknown fruit 'Pear' (pear, apple, malus)");
  EXPECT_EQ(kFruits.Joined(" | "), "pear | apple | malus");
  EXPECT_EQ(kFruits.size(), 3u);
}

}  // namespace
}  // namespace trestle::platform
