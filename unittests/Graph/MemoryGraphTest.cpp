//===- MemoryGraphTest.cpp - graph, peak evaluator, generators --*- C++ -*-===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"

#include <gtest/gtest.h>

using namespace memsched_core;

namespace {


TEST(MemoryGraph, PeakOfProgramOrder) {
  MemoryGraph g = diamondGraph();
  PeakInfo info;
  // Positions: 0:{a}=10, 1:{a,b}=30, 2:{a,b,c}=60, 3:{b,c,d}=55.
  EXPECT_EQ(evaluatePeak(g, g.programOrder(), &info), 60u);
  EXPECT_EQ(info.peakPosition, 2u);
  EXPECT_EQ(info.memoryAt, (std::vector<uint64_t>{10, 30, 60, 55}));
  EXPECT_EQ(info.liveAtPeak, (std::vector<BufferId>{0, 1, 2}));
}

TEST(MemoryGraph, LiveInAndTransient) {
  MemoryGraph g;
  g.addNode(7);
  g.addNode();
  BufferId in = g.addBuffer(100, /*liveIn=*/true);
  BufferId both = g.addBuffer(1000, true, true);
  BufferId unusedIn = g.addBuffer(10000, true, false);
  g.addTouch(in, 0);
  (void)both;
  (void)unusedIn;
  g.finalize();
  PeakInfo info;
  evaluatePeak(g, g.programOrder(), &info);
  EXPECT_EQ(info.memoryAt, (std::vector<uint64_t>{1107, 1000}));
}

TEST(MemoryGraph, ValidOrder) {
  MemoryGraph g = diamondGraph();
  EXPECT_TRUE(g.isValidOrder({0, 2, 1, 3}));
  EXPECT_FALSE(g.isValidOrder({1, 0, 2, 3}));
  EXPECT_FALSE(g.isValidOrder({0, 1, 1, 3}));
  EXPECT_FALSE(g.isValidOrder({0, 1, 2}));
}

TEST(BruteForce, Diamond) {
  MemoryGraph g = diamondGraph();
  std::vector<NodeId> order;
  // Running the branch with the bigger output second is no better: both
  // branch outputs must coexist at node 3 (20+30+5).
  EXPECT_EQ(bruteForceMinPeak(g, &order), 60u);
  EXPECT_TRUE(g.isValidOrder(order));
  EXPECT_EQ(evaluatePeak(g, order), 60u);
}

TEST(BruteForce, PrefersFinishingABranch) {
  // Two independent chains x0->x1 and y0->y1 where x0 and y0 allocate big
  // buffers freed by x1 / y1. Program order interleaves them.
  MemoryGraph g;
  NodeId x0 = g.addNode(), y0 = g.addNode(), x1 = g.addNode(),
         y1 = g.addNode();
  BufferId bx = g.addBuffer(50), by = g.addBuffer(50);
  g.addTouch(bx, x0);
  g.addTouch(bx, x1);
  g.addTouch(by, y0);
  g.addTouch(by, y1);
  g.addEdge(x0, x1);
  g.addEdge(y0, y1);
  g.finalize();
  EXPECT_EQ(evaluatePeak(g, g.programOrder()), 100u);
  std::vector<NodeId> order;
  EXPECT_EQ(bruteForceMinPeak(g, &order), 50u);
  EXPECT_EQ(evaluatePeak(g, order), 50u);
}

TEST(Generators, ProgramOrderValidAndDeterministic) {
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      SCOPED_TRACE(std::string(familyName(f)) + " seed " +
                   std::to_string(seed));
      MemoryGraph g = generateGraph(f, 40, seed);
      MemoryGraph h = generateGraph(f, 40, seed);
      ASSERT_TRUE(g.isValidOrder(g.programOrder()));
      ASSERT_EQ(g.numNodes(), h.numNodes());
      ASSERT_EQ(g.numBuffers(), h.numBuffers());
      EXPECT_EQ(evaluatePeak(g, g.programOrder()),
                evaluatePeak(h, h.programOrder()));
      EXPECT_GE(g.numNodes(), 35u);
      EXPECT_LE(g.numNodes(), 40u);
    }
  }
}

} // namespace
