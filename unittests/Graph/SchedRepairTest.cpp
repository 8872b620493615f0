//===- SchedRepairTest.cpp - the repair at the peak -------------*- C++ -*-===//
//
// sched::repairAtPeak against exhaustive search on thousands of small graphs
// (valid, never worse than its input, never below the optimum, optimal when
// it says so), on the scheduler's own results, and on generated graphs where
// it closes the gap to the lower bound that the list schedulers leave.
// Random cases name their family, size and seed.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"

#include <gtest/gtest.h>

#include <string>

using namespace memsched_core;
using namespace memsched_core::sched;

/// From random valid orders of small graphs of every family: the result is
/// valid, no worse than its input, no better than the exhaustive optimum,
/// and equal to it whenever the repair claims a proof.
TEST(SchedRepair, SoundAgainstBruteForce) {
  unsigned lowered = 0, proved = 0, cases = 0;
  for (GraphFamily family : allFamilies())
    for (uint64_t i = 0; i < 250; ++i) {
      unsigned nodes = 2 + i % 13;
      uint64_t seed = 70000 + i;
      SCOPED_TRACE(graphCaseName(family, nodes, seed));
      MemoryGraph g = generateGraph(family, nodes, seed);
      std::vector<NodeId> start = randomOrder(g, seed);
      uint64_t startPeak = evaluatePeak(g, start);
      uint64_t optimum = bruteForceMinPeak(g);
      // No floor, and a floor at the optimum (the repair stops there).
      for (uint64_t floor : {uint64_t(0), optimum}) {
        RepairResult r = repairAtPeak(g, start, floor, UINT64_MAX);
        ++cases;
        ASSERT_TRUE(g.isValidOrder(r.order));
        EXPECT_EQ(r.peak, evaluatePeak(g, r.order));
        EXPECT_EQ(r.initialPeak, startPeak);
        EXPECT_LE(r.peak, startPeak);
        EXPECT_GE(r.peak, optimum);
        if (r.provedOptimal) {
          EXPECT_EQ(r.peak, optimum);
          ++proved;
        }
        lowered += r.peak < startPeak;
        // Deterministic.
        EXPECT_EQ(repairAtPeak(g, start, floor, UINT64_MAX).order, r.order);
      }
    }
  std::printf("repair: %u cases, %u lowered, %u proved optimal\n", cases,
              lowered, proved);
  // The repair must do something on random starting orders.
  EXPECT_GT(lowered, cases / 10);
  EXPECT_GT(proved, 0u);
}

/// A budget of zero work leaves the order as it is; so does a floor at or
/// above its peak.
TEST(SchedRepair, BudgetAndFloorStopIt) {
  MemoryGraph g = generateGraph(GraphFamily::Random, 60, 4);
  std::vector<NodeId> start = randomOrder(g, 4);
  uint64_t peak = evaluatePeak(g, start);
  RepairResult none = repairAtPeak(g, start, 0, 0);
  EXPECT_EQ(none.order, start);
  EXPECT_EQ(none.cuts, 0u);
  RepairResult atFloor = repairAtPeak(g, start, peak, UINT64_MAX);
  EXPECT_EQ(atFloor.order, start);
  EXPECT_EQ(atFloor.cuts, 0u);
}

/// On generated graphs the list schedulers leave a gap that the repair
/// closes: the scheduled peak equals the lower bound (a proof independent of
/// the repair: the largest node cut or the search from the end), and without
/// the repair it stays above. Heuristic mode, so the exact search does not
/// decide instead.
TEST(SchedRepair, ClosesTheGapOnGeneratedGraphs) {
  struct Case {
    GraphFamily family;
    unsigned nodes;
  };
  for (Case c : {Case{GraphFamily::Random, 200}, Case{GraphFamily::Random, 300},
                 Case{GraphFamily::InPlace, 200}}) {
    SCOPED_TRACE(graphCaseName(c.family, c.nodes, 1));
    MemoryGraph g = generateGraph(c.family, c.nodes, 1);
    uint64_t bound = computeLowerBound(g).value;
    ScheduleOptions options;
    options.heuristicOnly = true;
    ScheduleResult with = schedule(g, options);
    ASSERT_TRUE(g.isValidOrder(with.order));
    EXPECT_EQ(with.peak, bound);
    EXPECT_GT(with.repairAccepted, 0u);
    options.cutRepair = false;
    ScheduleResult without = schedule(g, options);
    EXPECT_GT(without.peak, bound);
    EXPECT_EQ(without.repairCuts, 0u);
  }
}
