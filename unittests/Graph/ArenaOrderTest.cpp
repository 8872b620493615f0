//===- ArenaOrderTest.cpp - orders that pack better -------------*- C++ -*-===//

#include "Analysis/Graph/ArenaOrder.h"
#include "Analysis/Graph/GraphGenerators.h"

#include <gtest/gtest.h>

#include <random>

using namespace memsched_core;

namespace {
/// A random DAG: each node touches a new buffer it produces and reads one or
/// two earlier nodes' buffers (edges follow the reads).
MemoryGraph randomGraph(uint64_t seed, unsigned n) {
  std::mt19937_64 rng(seed);
  MemoryGraph g;
  std::vector<BufferId> produced;
  for (unsigned i = 0; i < n; ++i) {
    NodeId node = g.addNode();
    BufferId out = g.addBuffer(16 * (1 + rng() % 8));
    g.addTouch(out, node);
    unsigned reads = i == 0 ? 0 : 1 + rng() % 2;
    for (unsigned r = 0; r < reads; ++r) {
      unsigned from = rng() % i;
      g.addTouch(produced[from], node);
      g.addEdge(from, node);
    }
    produced.push_back(out);
  }
  g.finalize();
  return g;
}
} // namespace

// The search keeps every guarantee: a valid order, the peak within the
// limit, an arena never above the start's; and it does find better orders
// (a test that fails when the search is switched off).
TEST(ArenaOrder, ValidWithinLimitNeverWorseAndSometimesBetter) {
  const uint64_t seed0 = 20261202;
  unsigned improvedCount = 0, instances = 600;
  for (unsigned k = 0; k < instances; ++k) {
    uint64_t seed = seed0 + k;
    MemoryGraph g = randomGraph(seed, 6 + seed % 20);
    std::vector<NodeId> start = g.programOrder();
    uint64_t peak = evaluatePeak(g, start);
    ArenaOrderOptions options;
    options.peakLimit = peak;
    options.evaluationBudget = 300;
    ArenaOrderResult r = improveArenaOrder(g, start, options);
    ASSERT_TRUE(g.isValidOrder(r.order)) << "seed " << seed;
    ASSERT_LE(r.peak, peak) << "seed " << seed;
    ASSERT_EQ(r.peak, evaluatePeak(g, r.order)) << "seed " << seed;
    ASSERT_LE(r.arena, r.startArena) << "seed " << seed;
    ASSERT_LE(r.evaluations, options.evaluationBudget + 1) << "seed " << seed;
    ArenaOptions heuristics;
    heuristics.heuristicOnly = true;
    std::vector<ArenaBuffer> buffers = getArenaBuffers(g, r.order, 1);
    ArenaPlan plan = planArena(buffers, heuristics);
    ASSERT_EQ(plan.arenaSize, r.arena) << "seed " << seed;
    ASSERT_TRUE(isValidPlacement(buffers, plan.offsets, plan.arenaSize))
        << "seed " << seed;
    improvedCount += r.arena < r.startArena;
  }
  EXPECT_GT(improvedCount, 0u)
      << "no instance of " << instances << " (seeds " << seed0 << "..) packed "
      << "better after reordering";
}

// The buffers an arena holds: touched, neither live in nor live out, from
// the first toucher to the last.
TEST(ArenaOrder, ArenaBuffers) {
  MemoryGraph g;
  NodeId a = g.addNode(), b = g.addNode(), c = g.addNode();
  BufferId x = g.addBuffer(8), y = g.addBuffer(16), z = g.addBuffer(4);
  g.addBuffer(32); // untouched
  g.addTouch(x, a);
  g.addTouch(x, c);
  g.addTouch(y, b);
  g.addTouch(z, c);
  g.setLiveOut(z);
  g.addEdge(a, b);
  g.addEdge(b, c);
  g.finalize();
  std::vector<BufferId> ids;
  std::vector<ArenaBuffer> buffers = getArenaBuffers(g, {a, b, c}, 4, &ids);
  ASSERT_EQ(buffers.size(), 2u);
  EXPECT_EQ(ids, (std::vector<BufferId>{x, y}));
  EXPECT_EQ(buffers[0].first, 0u);
  EXPECT_EQ(buffers[0].last, 2u);
  EXPECT_EQ(buffers[1].first, 1u);
  EXPECT_EQ(buffers[1].last, 1u);
  EXPECT_EQ(buffers[0].alignment, 4u);
}
