// PersistentTable: a persistent request is inactive until started, active
// until its operation is finished, and only one operation at a time; freeing
// an active one hands its operation back to be freed too.
#include "persistent_table.h"

#include <gtest/gtest.h>

#include <string>

namespace trestle::mpi {
namespace {

using Table = PersistentTable<int, std::string>;

TEST(PersistentTable, AStartedRequestIsActiveUntilItsOperationFinishes) {
  Table t;
  ASSERT_TRUE(t.Add(7, "recv from 1"));
  ASSERT_NE(t.Find(7), nullptr);
  EXPECT_EQ(t.Find(7)->operation, "recv from 1");
  EXPECT_FALSE(t.Find(7)->posted.has_value()) << "inactive until MPI_Start";
  EXPECT_TRUE(t.Start(7, 100));
  EXPECT_EQ(t.Find(7)->posted, 100);
  EXPECT_FALSE(t.Start(7, 101)) << "MPI_Start of an active request is erroneous";
  EXPECT_EQ(t.Find(7)->posted, 100) << "a refused start changes nothing";
  EXPECT_EQ(t.Finish(7), 100);
  EXPECT_FALSE(t.Find(7)->posted.has_value());
  EXPECT_EQ(t.Finish(7), std::nullopt) << "finishing an inactive request posts nothing";
  EXPECT_TRUE(t.Start(7, 102)) << "started again";
  EXPECT_EQ(t.Find(7)->posted, 102);
}

TEST(PersistentTable, OnlyItsOwnHandlesArePersistent) {
  Table t;
  EXPECT_EQ(t.Find(3), nullptr);
  EXPECT_FALSE(t.Start(3, 9));
  EXPECT_EQ(t.Finish(3), std::nullopt);
  ASSERT_TRUE(t.Add(3, "send to 2"));
  EXPECT_FALSE(t.Add(3, "again")) << "a handle is made once";
  EXPECT_EQ(t.Find(3)->operation, "send to 2");
}

TEST(PersistentTable, FreeingAnActiveRequestHandsBackItsOperation) {
  Table t;
  t.Add(1, "a");
  t.Add(2, "b");
  t.Start(2, 50);
  EXPECT_EQ(t.Erase(1), std::nullopt) << "inactive: nothing goes on";
  EXPECT_EQ(t.Erase(2), 50) << "active: its operation goes on, to be freed";
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.Find(2), nullptr);
  EXPECT_EQ(t.Erase(2), std::nullopt);
}

}  // namespace
}  // namespace trestle::mpi
