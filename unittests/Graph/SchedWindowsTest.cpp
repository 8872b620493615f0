//===- SchedWindowsTest.cpp - the order rescheduled around its peak -*- C++ -*-===//
//
// sched::improveInWindows against exhaustive search on thousands of small
// graphs with windows smaller than the graph (valid, never worse than its
// input, never below the optimum, its peak the order's), and on a generated
// graph of ten thousand nodes where windows lower the heuristics' peak.
// Random cases name their family, size and seed.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"
#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace memsched_core;

/// From random valid orders: windows of 3-6 nodes of graphs of up to 14.
TEST(SchedWindows, SoundAgainstBruteForce) {
  unsigned lowered = 0, cases = 0;
  for (GraphFamily family : allFamilies())
    for (uint64_t i = 0; i < 250; ++i) {
      unsigned nodes = 4 + i % 11;
      uint64_t seed = 7600000 + i;
      SCOPED_TRACE(graphCaseName(family, nodes, seed));
      MemoryGraph g = generateGraph(family, nodes, seed);
      std::vector<NodeId> start = randomOrder(g, seed);
      uint64_t startPeak = evaluatePeak(g, start);
      uint64_t optimum = bruteForceMinPeak(g);
      WindowOptions options;
      options.width = 3 + i % 4;
      options.rounds = 16;
      WindowResult r = improveInWindows(g, start, options);
      ++cases;
      ASSERT_TRUE(g.isValidOrder(r.order));
      EXPECT_EQ(r.peak, evaluatePeak(g, r.order));
      EXPECT_EQ(r.initialPeak, startPeak);
      EXPECT_LE(r.peak, startPeak);
      EXPECT_GE(r.peak, optimum);
      EXPECT_LE(r.windows, options.rounds);
      lowered += r.peak < startPeak;
      // Deterministic.
      EXPECT_EQ(improveInWindows(g, start, options).order, r.order);
    }
  std::printf("windows: %u cases, %u lowered\n", cases, lowered);
  EXPECT_GT(lowered, cases / 10);
}

/// A floor at or above the peak, or no rounds, leave the order as it is.
TEST(SchedWindows, FloorAndRoundsStopIt) {
  MemoryGraph g = generateGraph(GraphFamily::Random, 60, 4);
  std::vector<NodeId> start = randomOrder(g, 4);
  WindowOptions options;
  options.width = 8;
  options.floor = evaluatePeak(g, start);
  WindowResult atFloor = improveInWindows(g, start, options);
  EXPECT_EQ(atFloor.order, start);
  EXPECT_EQ(atFloor.windows, 0u);
  options.floor = 0;
  options.rounds = 0;
  EXPECT_EQ(improveInWindows(g, start, options).order, start);
}

/// The graph of bench/synthetic.py's programs (layers of 1-4 ops, each
/// reading one or two buffers of the layer before and sometimes one up to
/// 64 layers back, buffers of 64 bytes to 16 KiB freed after their last
/// reader, the last layer accumulated into an output): one segment, on
/// which the heuristics lose more the longer it is.
static MemoryGraph synthetic(unsigned ops, uint64_t seed) {
  test::XorShift rng{seed * 2654435761u + 88172645463325252ULL};
  MemoryGraph g;
  const uint64_t sizes[] = {64, 256, 1024, 4096, 16384};
  BufferId x = g.addBuffer(4096, /*liveIn=*/true, /*liveOut=*/true);
  std::vector<BufferId> prev{x}, older;
  std::vector<NodeId> producer(1, 0);
  std::vector<bool> read(1, true);
  std::vector<BufferId> made;
  auto node = [&](const std::vector<BufferId> &ins, BufferId out) {
    NodeId v = g.addNode();
    for (BufferId b : ins) {
      g.addTouch(b, v);
      if (b != x) {
        g.addEdge(producer[b], v);
        read[b] = true;
      }
    }
    g.addTouch(out, v);
    return v;
  };
  unsigned count = 0;
  while (count < ops) {
    std::vector<BufferId> layer;
    unsigned width = 1 + rng.below(4);
    for (unsigned k = 0; k < width && count < ops; ++k, ++count) {
      std::vector<BufferId> ins{prev[rng.below(prev.size())]};
      if (rng.below(2))
        ins.push_back(prev[rng.below(prev.size())]);
      if (!older.empty() && rng.below(10) == 0)
        ins.back() = older[older.size() - 1 - rng.below(
                                                   std::min<size_t>(64, older.size()))];
      if (ins.size() == 2 && ins[0] == ins[1])
        ins.pop_back();
      BufferId out = g.addBuffer(sizes[rng.below(5)]);
      producer.resize(out + 1);
      read.resize(out + 1, false);
      producer[out] = node(ins, out);
      layer.push_back(out);
      made.push_back(out);
    }
    older.insert(older.end(), prev.begin(), prev.end());
    prev = layer;
  }
  // Every buffer nothing reads goes into the output, one accumulation each.
  BufferId result = g.addBuffer(64, /*liveIn=*/true, /*liveOut=*/true);
  NodeId last = 0;
  bool first = true;
  for (BufferId b : made)
    if (!read[b]) {
      NodeId v = g.addNode();
      g.addTouch(b, v);
      g.addTouch(result, v);
      g.addEdge(producer[b], v);
      if (!first)
        g.addEdge(last, v);
      last = v;
      first = false;
    }
  g.finalize();
  return g;
}

/// On such a graph of 10,000 ops the scheduler's windows lower the peak the
/// rest of it reaches (the same run with windows off); the result stays
/// valid and never goes below the lower bound.
TEST(SchedWindows, LowerTheSchedulersPeak) {
  MemoryGraph g = synthetic(10000, 1);
  ScheduleOptions without;
  without.windows = false;
  ScheduleResult base = schedule(g, without);
  ScheduleResult with = schedule(g, ScheduleOptions());
  ASSERT_TRUE(g.isValidOrder(with.order));
  EXPECT_EQ(with.peak, evaluatePeak(g, with.order));
  std::printf("synthetic 10000: %llu without windows, %llu with (%u windows, "
              "%u taken)\n",
              (unsigned long long)base.peak, (unsigned long long)with.peak,
              with.windows, with.windowsAccepted);
  EXPECT_LT(with.peak, base.peak);
  EXPECT_GT(with.windowsAccepted, 0u);
}
