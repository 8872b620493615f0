//===- SchedulerTest.cpp - scheduler against brute force --------*- C++ -*-===//
//
// The scheduler and its pieces on thousands of seeded graphs of every
// generator family plus harsher arbitrary graphs: exact results equal
// bruteForceMinPeak, every order is valid and never worse than the program
// order, heuristics and search bounds never cross the optimum, results are
// deterministic. Random cases name their family, size and seed.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/Scheduler.h"
#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/SchedSegment.h"

#include "TestGraphs.h"
#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <map>
#include <optional>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// The generator seed of case i. Consecutive generator seeds give shifted
/// random streams (often the same graph), so cases use seeds far apart.
uint64_t seedOf(uint64_t i) { return i * 0x2545F4914F6CDD1DULL + 12345; }

/// The graph of case i: generateGraph with the seed that caseName prints.
MemoryGraph caseGraph(GraphFamily f, unsigned nodes, uint64_t i,
                      uint64_t maxSize = 100) {
  return generateGraph(f, nodes, seedOf(i), maxSize);
}

std::string caseName(GraphFamily f, unsigned nodes, uint64_t i) {
  return graphCaseName(f, nodes, seedOf(i));
}

/// Checks what every result must satisfy.
void checkResult(const MemoryGraph &g, const ScheduleResult &r) {
  ASSERT_TRUE(g.isValidOrder(r.order));
  EXPECT_EQ(r.peak, evaluatePeak(g, r.order));
  EXPECT_EQ(r.inputPeak, evaluatePeak(g, g.programOrder()));
  EXPECT_LE(r.peak, r.inputPeak);
  EXPECT_EQ(r.numSegments, r.exactSegments + r.heuristicSegments);
  EXPECT_EQ(r.provedOptimal, r.heuristicSegments == 0);
  EXPECT_LE(r.lowerBound, r.peak);
  if (r.provedOptimal) {
    EXPECT_EQ(r.lowerBound, r.peak);
  }
}

/// Nodes that run at the same position in every valid order, from all
/// down-sets (bitmasks): v is at position i in every order iff no down-set of
/// size i holds v and every down-set of size i+1 does.
std::vector<NodeId> fixedPositionNodes(const MemoryGraph &g) {
  size_t n = g.numNodes();
  std::vector<uint32_t> predMask(n, 0);
  for (NodeId v = 0; v < n; ++v)
    for (NodeId p : g.preds(v))
      predMask[v] |= 1u << p;
  std::vector<uint32_t> mayIn(n + 1, 0), mustIn(n + 1, ~0u);
  for (uint32_t s = 0; s < (1u << n); ++s) {
    bool down = true;
    for (NodeId v = 0; v < n && down; ++v)
      down = !(s >> v & 1) || (predMask[v] & ~s) == 0;
    if (!down)
      continue;
    unsigned k = __builtin_popcount(s);
    mayIn[k] |= s;
    mustIn[k] &= s;
  }
  std::vector<NodeId> fixed;
  for (NodeId v = 0; v < n; ++v)
    for (size_t i = 0; i < n; ++i)
      if (!(mayIn[i] >> v & 1) && (mustIn[i + 1] >> v & 1))
        fixed.push_back(v);
  return fixed;
}


using test::XorShift;

/// Two branches of two nodes each between a fork and a join.
MemoryGraph branches() {
  MemoryGraph g;
  for (int i = 0; i < 6; ++i)
    g.addNode();
  // 0 -> 1 -> 2 (branch x), 0 -> 3 -> 4 (branch y), {2, 4} -> 5.
  BufferId a = g.addBuffer(10), x1 = g.addBuffer(80), x2 = g.addBuffer(5),
           y1 = g.addBuffer(80), y2 = g.addBuffer(5), out = g.addBuffer(1);
  g.addTouch(a, 0);
  g.addTouch(a, 1);
  g.addTouch(a, 3);
  g.addTouch(x1, 1);
  g.addTouch(x1, 2);
  g.addTouch(x2, 2);
  g.addTouch(x2, 5);
  g.addTouch(y1, 3);
  g.addTouch(y1, 4);
  g.addTouch(y2, 4);
  g.addTouch(y2, 5);
  g.addTouch(out, 5);
  g.setLiveOut(out);
  g.addEdge(0, 1);
  g.addEdge(1, 2);
  g.addEdge(0, 3);
  g.addEdge(3, 4);
  g.addEdge(2, 5);
  g.addEdge(4, 5);
  g.finalize();
  return g;
}

//===----------------------------------------------------------------------===//
// Cut nodes
//===----------------------------------------------------------------------===//

TEST(SchedulerCutNodes, MatchFixedPositionsInAllOrders) {
  unsigned cases = 0;
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 60; ++seed) {
      unsigned nodes = 1 + seed % 14;
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      EXPECT_EQ(findCutNodes(g), fixedPositionNodes(g));
      ++cases;
    }
  }
  EXPECT_EQ(cases, 60u * allFamilies().size());
}

/// Split points against their definition, from the transitive closure:
/// every node before p reaches every node from p on. They include the
/// positions of cut nodes and the positions right after them.
TEST(SchedulerCutNodes, SplitPointsMatchTheClosure) {
  unsigned cases = 0, beyondCuts = 0;
  std::vector<GraphFamily> families = allFamilies();
  for (size_t fi = 0; fi <= families.size(); ++fi)
    for (uint64_t seed = 0; seed < 300; ++seed) {
      // Every family, then arbitrary DAGs (denser, with random edges).
      unsigned nodes = 1 + seed % 40;
      bool arbitrary = fi == families.size();
      SCOPED_TRACE(arbitrary ? "arbitrary seed " + std::to_string(seed)
                             : caseName(families[fi], nodes, seed));
      MemoryGraph g = arbitrary ? arbitraryGraph(seed, 30)
                                : caseGraph(families[fi], nodes, seed);
      size_t n = g.numNodes();
      std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
      for (NodeId v = static_cast<NodeId>(n); v-- > 0;)
        for (NodeId w : g.succs(v)) {
          reach[v][w] = true;
          for (NodeId z = 0; z < n; ++z)
            if (reach[w][z])
              reach[v][z] = true;
        }
      std::vector<NodeId> expected;
      for (NodeId p = 1; p < n; ++p) {
        bool all = true;
        for (NodeId u = 0; u < p && all; ++u)
          for (NodeId v = p; v < n && all; ++v)
            all = reach[u][v];
        if (all)
          expected.push_back(p);
      }
      std::vector<NodeId> splits = findSplitPoints(g);
      ASSERT_EQ(splits, expected);
      std::vector<NodeId> fromCuts;
      for (NodeId c : findCutNodes(g)) {
        if (c > 0)
          fromCuts.push_back(c);
        if (c + 1 < n)
          fromCuts.push_back(c + 1);
      }
      std::sort(fromCuts.begin(), fromCuts.end());
      fromCuts.erase(std::unique(fromCuts.begin(), fromCuts.end()),
                     fromCuts.end());
      EXPECT_TRUE(std::includes(splits.begin(), splits.end(),
                                fromCuts.begin(), fromCuts.end()));
      beyondCuts += splits.size() > fromCuts.size();
      ++cases;
    }
  std::printf("split points: %u graphs, %u with splits beyond cut nodes\n",
              cases, beyondCuts);
  EXPECT_GT(beyondCuts, 0u);
}

/// Two independent nodes that both later nodes read: a split after them,
/// and no cut node there.
TEST(SchedulerCutNodes, SplitWithoutACutNode) {
  MemoryGraph g; // 0, 1 independent; 2 and 3 each read both
  for (int i = 0; i < 4; ++i)
    g.addNode();
  for (NodeId a : {0u, 1u})
    for (NodeId b : {2u, 3u})
      g.addEdge(a, b);
  g.finalize();
  EXPECT_TRUE(findCutNodes(g).empty());
  EXPECT_EQ(findSplitPoints(g), (std::vector<NodeId>{2}));
}

TEST(SchedulerCutNodes, EdgeJumpingOverACutNode) {
  // 0 -> 1 -> 2 and 0 -> 2: node 1 is still a cut node.
  MemoryGraph g;
  for (int i = 0; i < 3; ++i)
    g.addNode();
  g.addEdge(0, 1);
  g.addEdge(1, 2);
  g.addEdge(0, 2);
  g.finalize();
  EXPECT_EQ(findCutNodes(g), (std::vector<NodeId>{0, 1, 2}));
}

TEST(SchedulerCutNodes, IndependentNodesHaveNone) {
  MemoryGraph g;
  g.addNode();
  g.addNode();
  g.finalize();
  EXPECT_TRUE(findCutNodes(g).empty());
}

TEST(SchedulerCutNodes, SegmentMemoryIsLocalPlusConstant) {
  // In any valid order, the memory at the nodes of a segment is the
  // segment-local memory of the same sub-order plus a constant.
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      SCOPED_TRACE(caseName(f, 120, seed));
      MemoryGraph g = caseGraph(f, 120, seed);
      std::vector<NodeId> cuts = findCutNodes(g);
      if (cuts.empty() || cuts.front() != 0)
        cuts.insert(cuts.begin(), 0);
      cuts.push_back(static_cast<NodeId>(g.numNodes()));
      std::vector<NodeId> order = randomOrder(g, seed);
      ASSERT_TRUE(g.isValidOrder(order));
      PeakInfo info;
      evaluatePeak(g, order, &info);
      size_t at = 0;
      for (size_t s = 0; s + 1 < cuts.size(); ++s) {
        SegmentGraph seg = buildSegment(g, cuts[s], cuts[s + 1]);
        std::vector<LocalId> local;
        for (size_t q = at; q < at + seg.numNodes(); ++q) {
          ASSERT_GE(order[q], cuts[s]);
          ASSERT_LT(order[q], cuts[s + 1]);
          local.push_back(order[q] - cuts[s]);
        }
        std::vector<uint64_t> mem;
        segmentPeak(seg, local, &mem);
        for (size_t q = 0; q < local.size(); ++q)
          EXPECT_EQ(info.memoryAt[at + q] - mem[q], info.memoryAt[at] - mem[0]);
        at += seg.numNodes();
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Exact scheduling against brute force
//===----------------------------------------------------------------------===//

TEST(SchedulerExact, MatchesBruteForceOnSmallGraphs) {
  unsigned cases = 0;
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 700; ++seed) {
      unsigned nodes = 2 + seed % 15; // 2..16
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed, 1 + seed % 200);
      ScheduleResult r = schedule(g);
      checkResult(g, r);
      EXPECT_TRUE(r.provedOptimal);
      EXPECT_EQ(r.peak, bruteForceMinPeak(g));
      ++cases;
    }
  }
  EXPECT_EQ(cases, 700u * allFamilies().size());
}

TEST(SchedulerExact, WholeGraphSearchMatchesBruteForce) {
  // The search alone, without decomposition: the whole graph as one segment,
  // bounded by the program order's peak + 1 so it must return an order.
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 200; ++seed) {
      unsigned nodes = 3 + seed % 14; // 3..16
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      uint64_t inputPeak = evaluatePeak(g, g.programOrder());
      uint64_t best = bruteForceMinPeak(g);
      EXPECT_LE(segmentStaticBound(seg), best);
      ExactResult r = exactSearch(seg, inputPeak + 1, 1u << 20);
      ASSERT_EQ(r.status, ExactStatus::Improved);
      EXPECT_EQ(r.peak, best);
      std::vector<NodeId> order(r.order.begin(), r.order.end());
      ASSERT_TRUE(g.isValidOrder(order));
      EXPECT_EQ(evaluatePeak(g, order), best);
      EXPECT_EQ(r.lowerBound, best);
      // A search cut short proves a lower bound, never above the optimum.
      for (uint64_t budget : {1u, 5u, 20u, 80u}) {
        ExactResult partial = exactSearch(seg, inputPeak + 1, budget);
        EXPECT_LE(partial.lowerBound, best);
        if (partial.status == ExactStatus::Improved) {
          EXPECT_EQ(partial.peak, best);
        }
      }
      // Below the optimum there is provably nothing.
      if (best > 0) {
        EXPECT_EQ(exactSearch(seg, best, 1u << 20).status,
                  ExactStatus::NoneBelowBound);
      }
    }
  }
}

TEST(SchedulerBound, SearchBoundNeverAboveTheOptimum) {
  // The bound the scheduler proves (segments' static bounds and searches,
  // each plus the bytes spanning its segment) against brute force, with
  // budgets that stop the searches early and with each floor the pass
  // passes: none, the min-cut bound, the optimum itself.
  unsigned cases = 0, aboveCuts = 0, cutShort = 0;
  auto check = [&](const MemoryGraph &g) {
    uint64_t best = bruteForceMinPeak(g);
    uint64_t cut = computeLowerBound(g).value;
    ASSERT_LE(cut, best);
    for (uint64_t floor : {uint64_t(0), cut, best}) {
      for (uint64_t budget : {1u, 4u, 16u, 64u, 1000000u}) {
        ScheduleOptions options;
        options.exactStateBudget = budget;
        options.lowerBound = floor;
        options.localSearchRounds = budget % 2;
        ScheduleResult r = schedule(g, options);
        checkResult(g, r);
        EXPECT_LE(r.lowerBound, best) << "floor " << floor << " budget "
                                      << budget;
        EXPECT_GE(r.lowerBound, floor);
        if (r.boundSegment >= 0) {
          ASSERT_LT(static_cast<size_t>(r.boundSegment), r.segments.size());
          const SegmentInfo &info = r.segments[r.boundSegment];
          EXPECT_EQ(r.lowerBound, info.provedBound + info.spanning);
        }
        if (budget == 1000000u) {
          EXPECT_TRUE(r.provedOptimal);
          EXPECT_EQ(r.lowerBound, best);
        } else if (!r.provedOptimal) {
          ++cutShort;
        }
        aboveCuts += floor == 0 && r.lowerBound > cut;
        ++cases;
      }
    }
  };
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 150; ++seed) {
      unsigned nodes = 4 + seed % 13; // 4..16
      SCOPED_TRACE(caseName(f, nodes, seed));
      check(caseGraph(f, nodes, seed, 1 + seed % 300));
    }
  }
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    check(arbitraryGraph(seed, 16));
  }
  // Not vacuous: searches were cut short.
  EXPECT_GT(cutShort, 100u);
  std::printf("[ bound    ] %u cases, %u cut short, %u above the cut bound\n",
              cases, cutShort, aboveCuts);
}

/// Minimum peak by dynamic programming over the down-sets (bitmasks, at most
/// 64 nodes), for graphs too large for bruteForceMinPeak but of small width.
/// Returns 0 when more than `maxSets` down-sets would be needed.
uint64_t downSetMinPeak(const MemoryGraph &g, size_t maxSets) {
  size_t n = g.numNodes();
  assert(n <= 64);
  std::vector<uint64_t> pred(n, 0), touch(g.numBuffers(), 0);
  for (NodeId v = 0; v < n; ++v)
    for (NodeId p : g.preds(v))
      pred[v] |= uint64_t(1) << p;
  for (BufferId b = 0; b < g.numBuffers(); ++b)
    for (NodeId t : g.buffer(b).touchers)
      touch[b] |= uint64_t(1) << t;
  uint64_t full = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  // Memory while v runs after the set s, straight from the model.
  auto memory = [&](uint64_t s, NodeId v) {
    uint64_t mem = g.transientBytes(v);
    uint64_t with = s | uint64_t(1) << v;
    for (BufferId b = 0; b < g.numBuffers(); ++b) {
      const GraphBuffer &buf = g.buffer(b);
      if (!touch[b] && !(buf.liveIn && buf.liveOut))
        continue;
      bool started = buf.liveIn || (touch[b] & with);
      bool open = buf.liveOut || (touch[b] & ~s & full);
      if (started && open)
        mem += buf.size;
    }
    return mem;
  };
  std::map<uint64_t, uint64_t> level{{0, 0}};
  size_t sets = 1;
  for (size_t k = 0; k < n; ++k) {
    std::map<uint64_t, uint64_t> next;
    for (auto [s, peak] : level)
      for (NodeId v = 0; v < n; ++v) {
        uint64_t bit = uint64_t(1) << v;
        if ((s & bit) || (pred[v] & ~s))
          continue;
        uint64_t p = std::max(peak, memory(s, v));
        auto [it, inserted] = next.try_emplace(s | bit, p);
        if (!inserted)
          it->second = std::min(it->second, p);
      }
    sets += next.size();
    if (sets > maxSets)
      return 0;
    level = std::move(next);
  }
  return level.begin()->second;
}

/// The graph of a layered program as bench/synthetic.py writes it: layers
/// of 1-4 ops, each reading one or two buffers of the previous layer (one in
/// ten reading an older one instead) and writing a fresh buffer of 64 to
/// 16,384 bytes, freed after its last reader; the buffers no op reads are
/// summed one after the other into an output (a chain of in-place updates).
MemoryGraph layeredProgramGraph(unsigned numOps, uint64_t seed) {
  XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 7};
  auto next = [&] { return rng.next(); };
  MemoryGraph g;
  std::vector<BufferId> out;
  std::vector<bool> read;
  std::vector<NodeId> prev, older;
  while (out.size() < numOps) {
    std::vector<NodeId> layer;
    for (unsigned w = 1 + next() % 4; w > 0 && out.size() < numOps; --w) {
      NodeId v = g.addNode();
      BufferId b = g.addBuffer(uint64_t(64) << (2 * (next() % 5)));
      g.addTouch(b, v);
      for (unsigned k = 1 + next() % 2; k > 0 && !prev.empty(); --k) {
        NodeId u = prev[next() % prev.size()];
        if (!older.empty() && next() % 10 == 0)
          u = older[older.size() - 1 - next() % std::min<size_t>(64, older.size())];
        g.addTouch(out[u], v);
        g.addEdge(u, v);
        read[u] = true;
      }
      out.push_back(b);
      read.push_back(false);
      layer.push_back(v);
    }
    older.insert(older.end(), prev.begin(), prev.end());
    prev = std::move(layer);
  }
  std::optional<NodeId> last;
  for (NodeId u = 0; u < numOps; ++u) {
    if (read[u])
      continue;
    NodeId v = g.addNode();
    g.addTouch(out[u], v);
    g.addEdge(u, v);
    if (last)
      g.addEdge(*last, v);
    last = v;
  }
  g.finalize();
  return g;
}

/// The graph memsched-opt exports for `bench/synthetic.py --ops 32 --seed 8`
/// (41 nodes: 32 ops and the 9 updates of the output), with the buffer
/// sizes given or, when `seed` is set, drawn again from the same five.
MemoryGraph syntheticOps32Seed8(uint64_t seed = 0) {
const uint64_t sizes[] = {256, 64, 64, 16384, 64, 4096, 4096, 4096, 64, 16384,
      4096, 1024, 1024, 64, 4096, 4096, 256, 256, 4096, 1024, 16384, 16384,
      1024, 1024, 256, 256, 64, 4096, 256, 1024, 4096, 16384};
  const std::vector<std::vector<NodeId>> touchers = {{0, 2}, {1, 3}, {2, 4},
      {3, 4, 5, 14}, {4, 6}, {5, 32}, {6, 7}, {7, 8, 9}, {8, 11, 12, 13}, {9,
      10, 12}, {10, 16}, {11, 33}, {12, 34}, {13, 15}, {14, 18, 19}, {15, 17},
      {16, 35}, {17, 25}, {18, 36}, {19, 20}, {20, 21, 22, 23}, {21, 24}, {22,
      26}, {23, 24}, {24, 37}, {25, 27}, {26, 28}, {27, 29, 30, 31}, {28, 29},
      {29, 38}, {30, 39}, {31, 40}};
  const NodeId edges[][2] = {{0, 2}, {1, 3}, {2, 4}, {3, 4}, {3, 5}, {3, 14},
      {4, 6}, {5, 32}, {6, 7}, {7, 8}, {7, 9}, {8, 11}, {8, 12}, {8, 13}, {9,
      10}, {9, 12}, {10, 16}, {11, 33}, {12, 34}, {13, 15}, {14, 18}, {14,
      19}, {15, 17}, {16, 35}, {17, 25}, {18, 36}, {19, 20}, {20, 21}, {20,
      22}, {20, 23}, {21, 24}, {22, 26}, {23, 24}, {24, 37}, {25, 27}, {26,
      28}, {27, 29}, {27, 30}, {27, 31}, {28, 29}, {29, 38}, {30, 39}, {31,
      40}, {32, 33}, {33, 34}, {34, 35}, {35, 36}, {36, 37}, {37, 38}, {38,
      39}, {39, 40}};
  XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 3};
  MemoryGraph g;
  for (unsigned v = 0; v < 41; ++v)
    g.addNode();
  for (size_t b = 0; b < touchers.size(); ++b) {
    uint64_t r = rng.next();
    BufferId id = g.addBuffer(seed ? uint64_t(64) << (2 * (r % 5)) : sizes[b]);
    for (NodeId t : touchers[b])
      g.addTouch(id, t);
  }
  for (auto [from, to] : edges)
    g.addEdge(from, to);
  g.finalize();
  return g;
}

TEST(SchedulerBound, SearchProvesTheOptimumWhereTheCutsStopShort) {
  // The optimum 33,920 bytes is what test/Tools/graph_exact.py (an exhaustive
  // search sharing no code with memsched) finds on this graph; the down-set
  // DP here agrees. The cuts prove less; the search proves the optimum.
  MemoryGraph g = syntheticOps32Seed8();
  EXPECT_EQ(downSetMinPeak(g, 1000000), 33920u);
  uint64_t cut = computeLowerBound(g).value;
  EXPECT_LT(cut, 33920u);
  ScheduleOptions options;
  options.lowerBound = cut;
  ScheduleResult r = schedule(g, options);
  checkResult(g, r);
  EXPECT_TRUE(r.provedOptimal);
  EXPECT_EQ(r.peak, 33920u);
  EXPECT_EQ(r.lowerBound, 33920u);
  ASSERT_GE(r.boundSegment, 0);
  // Cut short, the search still proves no more than the optimum.
  for (uint64_t budget : {1u, 10u, 100u, 1000u}) {
    options.exactStateBudget = budget;
    ScheduleResult partial = schedule(g, options);
    checkResult(g, partial);
    EXPECT_LE(partial.lowerBound, 33920u);
    EXPECT_GE(partial.lowerBound, cut);
  }
  // The same graph with other sizes.
  unsigned above = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE("synthetic ops 32 seed 8, sizes seed " + std::to_string(seed));
    MemoryGraph h = syntheticOps32Seed8(seed);
    uint64_t best = downSetMinPeak(h, 1000000);
    ASSERT_GT(best, 0u);
    uint64_t hCut = computeLowerBound(h).value;
    for (uint64_t budget : {30u, 1000000u}) {
      ScheduleOptions o;
      o.lowerBound = hCut;
      o.exactStateBudget = budget;
      ScheduleResult hr = schedule(h, o);
      checkResult(h, hr);
      EXPECT_LE(hr.lowerBound, best);
      if (budget == 1000000u) {
        EXPECT_TRUE(hr.provedOptimal);
        EXPECT_EQ(hr.lowerBound, best);
        above += best > hCut;
      }
    }
  }
  std::printf("[ bound    ] 100 resized copies, the search above the cuts on "
              "%u\n",
              above);
}

TEST(SchedulerBound, SearchBoundOnMidSizeGraphs) {
  // Graphs of 20-40 nodes, where the min-cut bound can stay below the
  // optimum (it seldom does): the search's bound against a down-set DP.
  unsigned checked = 0, aboveCuts = 0;
  auto check = [&](const MemoryGraph &g, size_t maxSets) {
    if (g.numNodes() > 64)
      return;
    uint64_t best = downSetMinPeak(g, maxSets);
    if (best == 0)
      return; // too wide for the DP
    uint64_t cut = computeLowerBound(g).value;
    ScheduleOptions options;
    options.lowerBound = cut;
    ScheduleResult r = schedule(g, options);
    checkResult(g, r);
    EXPECT_LE(r.lowerBound, best);
    EXPECT_GE(r.lowerBound, cut);
    if (r.provedOptimal) {
      EXPECT_EQ(r.peak, best);
    }
    aboveCuts += r.lowerBound > cut;
    ++checked;
  };
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      unsigned nodes = 20 + seed % 21; // 20..40
      SCOPED_TRACE(caseName(f, nodes, seed));
      check(caseGraph(f, nodes, seed, 1 + seed % 4000), 200000);
    }
  }
  for (uint64_t seed = 0; seed < 200; ++seed) {
    unsigned ops = 16 + seed % 17; // 16..32, plus the output's updates
    SCOPED_TRACE("layered program ops " + std::to_string(ops) + " seed " +
                 std::to_string(seed));
    check(layeredProgramGraph(ops, seed), 400000);
  }
  EXPECT_GT(checked, 150u);
  std::printf("[ bound    ] %u graphs checked, %u with the search above the "
              "cut bound\n",
              checked, aboveCuts);
}

TEST(SchedulerExact, LiveInLiveOutAndTransientBytes) {
  // Random graphs with extra live-in weights read by several nodes, live-out
  // results and transient bytes everywhere.
  for (uint64_t seed = 0; seed < 600; ++seed) {
    unsigned nodes = 3 + seed % 14; // 3..16
    GraphFamily f = allFamilies()[seed % allFamilies().size()];
    SCOPED_TRACE(caseName(f, nodes, seed));
    MemoryGraph base = caseGraph(f, nodes, seed);
    MemoryGraph g;
    uint64_t x = seed + 7;
    auto next = [&] {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return x >> 33;
    };
    for (NodeId v = 0; v < base.numNodes(); ++v)
      g.addNode(base.transientBytes(v) + next() % 30);
    for (BufferId b = 0; b < base.numBuffers(); ++b) {
      const GraphBuffer &buf = base.buffer(b);
      BufferId c = g.addBuffer(buf.size, buf.liveIn || next() % 7 == 0,
                               buf.liveOut || next() % 5 == 0);
      for (NodeId t : buf.touchers)
        g.addTouch(c, t);
    }
    for (unsigned w = 0; w < 3; ++w) {
      BufferId weight = g.addBuffer(1 + next() % 60, true, next() % 2);
      for (NodeId v = 0; v < g.numNodes(); ++v)
        if (next() % 4 == 0)
          g.addTouch(weight, v);
    }
    g.addBuffer(0);              // size 0, untouched
    g.addBuffer(13, true, true); // untouched, live throughout
    for (NodeId v = 0; v < base.numNodes(); ++v)
      for (NodeId s : base.succs(v))
        g.addEdge(v, s);
    g.finalize();
    ScheduleResult r = schedule(g);
    checkResult(g, r);
    EXPECT_TRUE(r.provedOptimal);
    EXPECT_EQ(r.peak, bruteForceMinPeak(g));
  }
}

TEST(SchedulerExact, ArbitraryGraphsMatchBruteForce) {
  for (uint64_t seed = 0; seed < 4000; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    MemoryGraph g = arbitraryGraph(seed, 15);
    uint64_t best = bruteForceMinPeak(g);
    ScheduleResult r = schedule(g);
    checkResult(g, r);
    EXPECT_TRUE(r.provedOptimal);
    EXPECT_EQ(r.peak, best);
    ScheduleOptions opts;
    opts.heuristicOnly = true;
    ScheduleResult h = schedule(g, opts);
    checkResult(g, h);
    EXPECT_GE(h.peak, best);
    opts.heuristicOnly = false;
    opts.exactStateBudget = 1 + seed % 40;
    ScheduleResult small = schedule(g, opts);
    checkResult(g, small);
    EXPECT_GE(small.peak, best);
    if (small.provedOptimal) {
      EXPECT_EQ(small.peak, best);
    }
  }
}

TEST(SchedulerExact, TinyBudgetFallsBackToHeuristic) {
  // With a budget of one state no wide segment can be searched: the
  // heuristic orders stand, and optimality is only claimed where the static
  // bound proves it.
  unsigned unproved = 0;
  for (GraphFamily f : {GraphFamily::Random, GraphFamily::Layered}) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      SCOPED_TRACE(caseName(f, 150, seed));
      MemoryGraph g = caseGraph(f, 150, seed);
      ScheduleOptions opts;
      opts.exactStateBudget = 1;
      ScheduleResult r = schedule(g, opts);
      checkResult(g, r);
      unproved += !r.provedOptimal;
      opts.exactStateBudget = 5000;
      ScheduleResult full = schedule(g, opts);
      checkResult(g, full);
      if (full.provedOptimal) {
        EXPECT_GE(r.peak, full.peak);
      }
      if (r.provedOptimal && full.provedOptimal) {
        EXPECT_EQ(r.peak, full.peak);
      }
    }
  }
  EXPECT_GT(unproved, 5u);
}

TEST(SchedulerExact, BudgetExhaustionIsReported) {
  // A wide segment with a tiny budget: the search must give up rather than
  // claim anything.
  unsigned gaveUp = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    SCOPED_TRACE(caseName(GraphFamily::Random, 120, seed));
    MemoryGraph g = caseGraph(GraphFamily::Random, 120, seed);
    SegmentGraph seg = buildSegment(g, 0, g.numNodes());
    uint64_t peak = 0;
    heuristicSchedule(seg, 0, segmentStaticBound(seg), peak);
    ExactResult r = exactSearch(seg, peak, 200);
    if (r.status == ExactStatus::GaveUp) {
      ++gaveUp;
      EXPECT_TRUE(r.order.empty());
    }
    EXPECT_LE(r.expanded, 201u);
  }
  EXPECT_GT(gaveUp, 0u);
}

TEST(SchedulerExact, BudgetNotMemoryStopsLargeSegments) {
  // A 2,000-node lattice the search cannot finish: with each state's sets
  // stored as full bitsets (2 x 32 words) the memory cap stopped it at
  // about 1.1 million of its 2.5 million states; stored as spans, the
  // budget is what stops it.
  MemoryGraph g = generateGraph(GraphFamily::Lattice, 2000, 1);
  SegmentGraph seg = buildSegment(g, 0, g.numNodes());
  uint64_t peak = 0;
  heuristicSchedule(seg, 0, segmentStaticBound(seg), peak);
  const uint64_t budget = 2500000;
  ExactResult r = exactSearch(seg, peak, budget);
  ASSERT_EQ(r.status, ExactStatus::GaveUp);
  EXPECT_EQ(r.limit, ExactResult::Limit::States);
  EXPECT_GT(r.expanded, budget);
}

//===----------------------------------------------------------------------===//
// Lower bounds used by the search
//===----------------------------------------------------------------------===//

TEST(SchedulerBounds, NodeBoundsHoldInEveryOrder) {
  // Each node's bound is at most its memory in any valid order, with and
  // without reachability.
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      unsigned nodes = 10 + seed * 10;
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      NodeBounds withReach = segmentNodeBounds(seg);
      NodeBounds noReach = segmentNodeBounds(seg, 0);
      for (uint64_t k = 0; k < 10; ++k) {
        std::vector<NodeId> order = randomOrder(g, seed * 100 + k);
        std::vector<LocalId> local(order.begin(), order.end());
        std::vector<uint64_t> mem;
        uint64_t peak = segmentPeak(seg, local, &mem);
        EXPECT_LE(withReach.peakBound(), peak);
        for (size_t q = 0; q < local.size(); ++q) {
          EXPECT_LE(withReach.all[local[q]], mem[q]);
          EXPECT_LE(noReach.all[local[q]], withReach.all[local[q]]);
          EXPECT_LE(withReach.withoutLiveOut[local[q]],
                    withReach.all[local[q]]);
        }
      }
    }
  }
}

TEST(SchedulerBounds, StaticBoundNeverAboveOptimum) {
  unsigned tight = 0;
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 100; ++seed) {
      unsigned nodes = 2 + seed % 13;
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      uint64_t best = bruteForceMinPeak(g);
      uint64_t bound = segmentStaticBound(seg);
      EXPECT_LE(bound, best);
      tight += bound == best;
    }
  }
  // Tight on the chain-like families at least.
  EXPECT_GT(tight, 100u);
}

//===----------------------------------------------------------------------===//
// Heuristics
//===----------------------------------------------------------------------===//

TEST(SchedulerHeuristic, NeverBelowOptimumNeverAboveInput) {
  unsigned cases = 0;
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 400; ++seed) {
      unsigned nodes = 2 + seed % 15; // 2..16
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      ScheduleOptions opts;
      opts.heuristicOnly = true;
      ScheduleResult r = schedule(g, opts);
      checkResult(g, r);
      uint64_t best = bruteForceMinPeak(g);
      EXPECT_GE(r.peak, best);
      if (r.provedOptimal) {
        EXPECT_EQ(r.peak, best);
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 400u * allFamilies().size());
}

TEST(SchedulerHeuristic, ListSchedulesAreValid) {
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 30; ++seed) {
      SCOPED_TRACE(caseName(f, 200, seed));
      MemoryGraph g = caseGraph(f, 200, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      SegmentGraph rev = reverseSegment(seg);
      for (Priority p :
           {Priority::MinNetAlloc, Priority::MinRunMemory, Priority::Depth}) {
        std::vector<LocalId> local = listSchedule(seg, p);
        std::vector<NodeId> order(local.begin(), local.end());
        ASSERT_TRUE(g.isValidOrder(order));
        EXPECT_EQ(segmentPeak(seg, local), evaluatePeak(g, order));
        // The reversed order on the reversed graph has the same peak.
        std::vector<LocalId> back(local.rbegin(), local.rend());
        for (LocalId &v : back)
          v = static_cast<LocalId>(g.numNodes() - 1 - v);
        EXPECT_EQ(segmentPeak(rev, back), segmentPeak(seg, local));
      }
    }
  }
}

TEST(SchedulerHeuristic, ReverseSegmentRoundTrips) {
  for (GraphFamily f : allFamilies()) {
    SCOPED_TRACE(caseName(f, 60, 3));
    MemoryGraph g = caseGraph(f, 60, 3);
    SegmentGraph seg = buildSegment(g, 0, g.numNodes());
    SegmentGraph back = reverseSegment(reverseSegment(seg));
    EXPECT_EQ(back.transient, seg.transient);
    EXPECT_EQ(back.predList, seg.predList);
    EXPECT_EQ(back.succList, seg.succList);
    EXPECT_EQ(back.bufList, seg.bufList);
    EXPECT_EQ(back.touchList, seg.touchList);
    EXPECT_EQ(back.liveIn, seg.liveIn);
    EXPECT_EQ(back.liveOut, seg.liveOut);
  }
}

TEST(SchedulerHeuristic, LocalSearchNeverWorsens) {
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 30; ++seed) {
      unsigned nodes = 20 + seed * 7;
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      std::vector<NodeId> start = randomOrder(g, seed);
      std::vector<LocalId> local(start.begin(), start.end());
      uint64_t before = segmentPeak(seg, local);
      uint64_t after = improveOrder(seg, local, 3);
      std::vector<NodeId> order(local.begin(), local.end());
      ASSERT_TRUE(g.isValidOrder(order));
      EXPECT_EQ(after, evaluatePeak(g, order));
      EXPECT_LE(after, before);
    }
  }
}

//===----------------------------------------------------------------------===//
// Larger graphs, determinism, hand-made cases
//===----------------------------------------------------------------------===//

TEST(SchedulerLarge, ValidNeverWorseAndDeterministic) {
  for (GraphFamily f : allFamilies()) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      unsigned nodes = 30 + seed * 20;
      SCOPED_TRACE(caseName(f, nodes, seed));
      MemoryGraph g = caseGraph(f, nodes, seed);
      // A small budget keeps failing searches cheap.
      ScheduleOptions exactOpts;
      exactOpts.exactStateBudget = 3000;
      ScheduleResult r = schedule(g, exactOpts);
      checkResult(g, r);
      ScheduleResult again = schedule(g, exactOpts);
      EXPECT_EQ(again.order, r.order);
      EXPECT_EQ(again.exactSegments, r.exactSegments);
      ScheduleOptions opts;
      opts.heuristicOnly = true;
      ScheduleResult h = schedule(g, opts);
      checkResult(g, h);
      EXPECT_EQ(schedule(g, opts).order, h.order);
      // The heuristics can not beat a proved optimum.
      if (r.provedOptimal) {
        EXPECT_GE(h.peak, r.peak);
      }
    }
  }
}

TEST(SchedulerCases, EmptyGraph) {
  MemoryGraph g;
  g.finalize();
  ScheduleResult r = schedule(g);
  EXPECT_TRUE(r.order.empty());
  EXPECT_EQ(r.peak, 0u);
  EXPECT_EQ(r.numSegments, 0u);
  EXPECT_TRUE(r.provedOptimal);
}

TEST(SchedulerCases, SingleNode) {
  MemoryGraph g;
  g.addNode(5);
  BufferId b = g.addBuffer(10, false, true);
  g.addTouch(b, 0);
  g.finalize();
  ScheduleResult r = schedule(g);
  EXPECT_EQ(r.order, (std::vector<NodeId>{0}));
  EXPECT_EQ(r.peak, 15u);
  EXPECT_EQ(r.numSegments, 1u);
  EXPECT_TRUE(r.provedOptimal);
}

TEST(SchedulerCases, ChainIsAllCutNodes) {
  MemoryGraph g;
  const unsigned n = 50;
  for (unsigned i = 0; i < n; ++i)
    g.addNode(i % 3);
  for (unsigned i = 0; i < n; ++i) {
    BufferId b = g.addBuffer(1 + i % 7, false, i + 1 == n);
    g.addTouch(b, i);
    if (i + 1 < n) {
      g.addTouch(b, i + 1);
      g.addEdge(i, i + 1);
    }
  }
  g.finalize();
  EXPECT_EQ(findCutNodes(g).size(), n);
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_EQ(r.order, g.programOrder());
  EXPECT_EQ(r.numSegments, n);
  EXPECT_EQ(r.exactSegments, n);
  EXPECT_TRUE(r.provedOptimal);
}

TEST(SchedulerCases, FinishesOneBranchFirst) {
  MemoryGraph g = branches();
  std::vector<NodeId> interleaved{0, 1, 3, 2, 4, 5};
  ASSERT_TRUE(g.isValidOrder(interleaved));
  // The program order 0 1 2 3 4 5 already finishes branch x first.
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_TRUE(r.provedOptimal);
  EXPECT_EQ(r.peak, bruteForceMinPeak(g));
  EXPECT_EQ(r.peak, 95u);                        // a + x1 + x2 while 2 runs
  EXPECT_EQ(evaluatePeak(g, interleaved), 170u); // a + x1 + y1
}

TEST(SchedulerCases, InterleavedBranchesAreSeparated) {
  // Program order x0 y0 x1 y1: two 50-byte temporaries coexist (peak 100);
  // finishing one chain first halves it.
  MemoryGraph g;
  NodeId x0 = g.addNode(), y0 = g.addNode(), x1 = g.addNode(), y1 = g.addNode();
  BufferId bx = g.addBuffer(50), by = g.addBuffer(50);
  g.addTouch(bx, x0);
  g.addTouch(bx, x1);
  g.addTouch(by, y0);
  g.addTouch(by, y1);
  g.addEdge(x0, x1);
  g.addEdge(y0, y1);
  g.finalize();
  for (bool heuristicOnly : {false, true}) {
    ScheduleOptions opts;
    opts.heuristicOnly = heuristicOnly;
    ScheduleResult r = schedule(g, opts);
    checkResult(g, r);
    EXPECT_EQ(r.inputPeak, 100u);
    EXPECT_EQ(r.peak, 50u);
  }
}

TEST(SchedulerCases, SkipConnectionSideBranchRunsLate) {
  // 0 -> 1 -> 2 -> 4, 0 -> 3 -> 4: the side branch 3 makes a big buffer that
  // only 4 reads. Program order runs it before 1 and 2, keeping it alive
  // across the chain.
  MemoryGraph g;
  for (int i = 0; i < 5; ++i)
    g.addNode();
  // Program order: 0, 3 (side), 1, 2, 4.
  NodeId n0 = 0, side = 1, c1 = 2, c2 = 3, join = 4;
  BufferId s = g.addBuffer(10), big = g.addBuffer(70), m1 = g.addBuffer(30),
           m2 = g.addBuffer(30), out = g.addBuffer(1, false, true);
  g.addTouch(s, n0);
  g.addTouch(s, side);
  g.addTouch(s, c1);
  g.addTouch(s, join);
  g.addTouch(big, side);
  g.addTouch(big, join);
  g.addTouch(m1, c1);
  g.addTouch(m1, c2);
  g.addTouch(m2, c2);
  g.addTouch(m2, join);
  g.addTouch(out, join);
  g.addEdge(n0, side);
  g.addEdge(n0, c1);
  g.addEdge(c1, c2);
  g.addEdge(c2, join);
  g.addEdge(side, join);
  g.finalize();
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_TRUE(r.provedOptimal);
  EXPECT_EQ(r.peak, bruteForceMinPeak(g));
  // s + big + m1 + m2 while c2 runs in program order.
  EXPECT_EQ(r.inputPeak, 140u);
  EXPECT_LT(r.peak, r.inputPeak);
  EXPECT_EQ(r.order, (std::vector<NodeId>{n0, c1, c2, side, join}));
}

TEST(SchedulerCases, InPlaceChainKeepsItsOrder) {
  // Three updates of one accumulator chained by edges, interleaved with
  // independent producers.
  MemoryGraph g;
  for (int i = 0; i < 6; ++i)
    g.addNode();
  BufferId acc = g.addBuffer(40, true, true);
  for (NodeId u : {1u, 3u, 5u})
    g.addTouch(acc, u);
  g.addEdge(1, 3);
  g.addEdge(3, 5);
  for (NodeId p : {0u, 2u, 4u}) {
    BufferId t = g.addBuffer(25);
    g.addTouch(t, p);
    g.addTouch(t, p + 1);
    g.addEdge(p, p + 1);
  }
  g.finalize();
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_TRUE(r.provedOptimal);
  EXPECT_EQ(r.peak, bruteForceMinPeak(g));
  EXPECT_EQ(r.peak, 65u);
  auto at = [&](NodeId v) {
    return std::find(r.order.begin(), r.order.end(), v) - r.order.begin();
  };
  EXPECT_LT(at(1), at(3));
  EXPECT_LT(at(3), at(5));
}

TEST(SchedulerCases, TransientBytesDecideTheOrder) {
  // Two independent nodes: a makes a 50-byte live-out buffer, b needs 60
  // transient bytes. Running b first avoids holding both (110).
  MemoryGraph g;
  NodeId a = g.addNode(0), b = g.addNode(60);
  BufferId out = g.addBuffer(50, false, true);
  g.addTouch(out, a);
  g.finalize();
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_EQ(r.inputPeak, 110u);
  EXPECT_EQ(r.peak, 60u);
  EXPECT_EQ(r.order, (std::vector<NodeId>{b, a}));
}

TEST(SchedulerCases, LiveInFreedEarly) {
  // A live-in buffer read by a node that can run first: reading it early
  // frees it before a big allocation.
  MemoryGraph g;
  NodeId big = g.addNode(), reader = g.addNode();
  BufferId in = g.addBuffer(40, true, false), out = g.addBuffer(100);
  g.addTouch(in, reader);
  g.addTouch(out, big);
  g.finalize();
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_EQ(r.inputPeak, 140u);
  EXPECT_EQ(r.peak, 100u);
  EXPECT_EQ(r.order, (std::vector<NodeId>{reader, big}));
}

} // namespace

namespace {

/// Contraction keeps the optimum (brute force on both graphs), expands every
/// contracted order to a valid order of the same peak, and projects every
/// valid order to a valid contracted order that is no worse.
void checkContraction(const MemoryGraph &g, unsigned &merged) {
  SegmentGraph seg = buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
  ContractedSegment c = contractSegment(seg);
  merged += seg.numNodes() - c.graph.numNodes();
  MemoryGraph cg = graphOfSegment(c.graph);
  ASSERT_TRUE(cg.isValidOrder(cg.programOrder()))
      << "contracted ids are not a topological order";
  std::vector<NodeId> best;
  uint64_t optimum = bruteForceMinPeak(graphOfSegment(seg));
  uint64_t contractedOptimum = bruteForceMinPeak(cg, &best);
  EXPECT_EQ(contractedOptimum, optimum);
  std::vector<LocalId> local(best.begin(), best.end());
  std::vector<LocalId> expanded = expandOrder(c, local);
  ASSERT_TRUE(validLocalOrder(seg, expanded));
  EXPECT_EQ(segmentPeak(seg, expanded), segmentPeak(c.graph, local));
  std::vector<LocalId> program(seg.numNodes());
  for (LocalId v = 0; v < seg.numNodes(); ++v)
    program[v] = v;
  for (const std::vector<LocalId> &order :
       {program, listSchedule(seg, Priority::MinNetAlloc),
        listSchedule(seg, Priority::Depth)}) {
    std::vector<LocalId> projected = projectOrder(c, order);
    ASSERT_TRUE(validLocalOrder(c.graph, projected));
    EXPECT_LE(segmentPeak(c.graph, projected), segmentPeak(seg, order));
  }
  // The identity order of the contracted graph is the projected program order.
  EXPECT_EQ(projectOrder(c, program), [&] {
    std::vector<LocalId> id(c.graph.numNodes());
    for (LocalId v = 0; v < id.size(); ++v)
      id[v] = v;
    return id;
  }());
}

TEST(SchedulerContract, KeepsTheOptimumOnEveryFamily) {
  unsigned merged = 0, cases = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 300; ++seed) {
      unsigned nodes = 2 + seed % 15;
      SCOPED_TRACE(caseName(f, nodes, seed));
      checkContraction(caseGraph(f, nodes, seed), merged);
      ++cases;
    }
  EXPECT_EQ(cases, 300u * allFamilies().size());
  EXPECT_GT(merged, cases / 4); // the rules do apply
}

TEST(SchedulerContract, KeepsTheOptimumOnArbitraryGraphs) {
  unsigned merged = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    checkContraction(arbitraryGraph(seed, 14), merged);
  }
  EXPECT_GT(merged, 1000u);
}

/// A fork, k twins between it and a join, and a few other nodes around
/// them: the twins read shared buffers (some of the fork's), and each has
/// private buffers (an input from the fork, an output for the join, a
/// scratch buffer); sizes, transients and live-in/out flags random. Some
/// twins also touch a buffer of an unrelated node (which rule (T) must
/// notice).
MemoryGraph twinGraph(uint64_t seed) {
  XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 5};
  auto below = [&](uint64_t m) { return rng.next() % m; };
  MemoryGraph g;
  unsigned k = 2 + below(5), others = below(4);
  unsigned n = k + 2 + others;
  unsigned fork = 0, join = n - 1, first = k + 1; // others: first..join-1
  for (unsigned i = 0; i < n; ++i)
    g.addNode(below(3) == 0 ? below(40) : 0);
  auto buffer = [&]() {
    return g.addBuffer(below(10) == 0 ? 0 : 1 + below(60), below(6) == 0,
                       below(6) == 0);
  };
  for (unsigned t = 1; t <= k; ++t) {
    g.addEdge(fork, t);
    g.addEdge(t, join);
  }
  // Other nodes: a chain off the fork, sometimes joined.
  for (unsigned i = 0; i < others; ++i) {
    unsigned v = first + i;
    g.addEdge(i == 0 ? fork : v - 1, v);
    if (below(2))
      g.addEdge(v, join);
    BufferId b = buffer();
    g.addTouch(b, v);
    if (i > 0)
      g.addTouch(b, v - 1);
  }
  for (unsigned s = below(3); s > 0; --s) { // shared, by all or by some
    BufferId b = buffer();
    g.addTouch(b, fork);
    bool all = below(4) != 0;
    for (unsigned t = 1; t <= k; ++t)
      if (all || below(2))
        g.addTouch(b, t);
  }
  for (unsigned t = 1; t <= k; ++t) {
    if (below(2)) {
      BufferId in = buffer();
      g.addTouch(in, fork);
      g.addTouch(in, t);
    }
    BufferId out = buffer();
    g.addTouch(out, t);
    if (below(4) != 0)
      g.addTouch(out, join);
    if (below(3) == 0)
      g.addTouch(buffer(), t);
    if (others > 0 && below(6) == 0) {
      BufferId b = g.addBuffer(1 + below(30));
      g.addTouch(b, t);
      g.addTouch(b, first + static_cast<unsigned>(below(others)));
    }
  }
  g.addTouch(buffer(), join);
  g.finalize();
  return g;
}

TEST(SchedulerTwins, KeepTheOptimumOnTwinGraphs) {
  unsigned edges = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    SCOPED_TRACE("twin graph seed " + std::to_string(seed));
    checkEdgeRule(twinGraph(seed), orderTwins, edges);
  }
  EXPECT_GT(edges, 4000u); // the rule does apply
}

TEST(SchedulerTwins, KeepTheOptimumOnEveryFamily) {
  unsigned edges = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 200; ++seed) {
      unsigned nodes = 2 + seed % 15;
      SCOPED_TRACE(caseName(f, nodes, seed));
      checkEdgeRule(caseGraph(f, nodes, seed), orderTwins, edges);
    }
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    checkEdgeRule(arbitraryGraph(seed, 14), orderTwins, edges);
  }
  EXPECT_GT(edges, 1500u);
}

/// A fork and a join around k twins: each twin frees its own input from
/// the fork and writes its own output for the join (sometimes live-out),
/// some with transient bytes; all read one buffer of the fork.
MemoryGraph fanOfTwins(uint64_t seed, unsigned k) {
  XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 11};
  auto below = [&](uint64_t m) { return rng.next() % m; };
  MemoryGraph g;
  static const uint64_t transients[] = {0, 0, 50, 100, 300};
  g.addNode();
  for (unsigned t = 1; t <= k; ++t)
    g.addNode(transients[below(5)]);
  g.addNode();
  NodeId join = k + 1;
  BufferId x = g.addBuffer(64);
  for (NodeId v = 0; v <= k; ++v)
    g.addTouch(x, v);
  for (NodeId t = 1; t <= k; ++t) {
    BufferId in = g.addBuffer(1 + below(100));
    BufferId out = g.addBuffer(1 + below(100), false, below(2) == 0);
    g.addTouch(in, 0);
    g.addTouch(in, t);
    g.addTouch(out, t);
    g.addTouch(out, join);
    g.addEdge(0, t);
    g.addEdge(t, join);
  }
  g.addTouch(g.addBuffer(4, false, true), join);
  g.finalize();
  return g;
}

TEST(SchedulerTwins, FewerStatesOnFans) {
  // The search of the twin-ordered segment finds the same optimum, and on
  // some fans within a budget where the plain search gives up.
  unsigned onlyWithTwins = 0, both = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE("fan seed " + std::to_string(seed));
    MemoryGraph g = fanOfTwins(seed, 30);
    SegmentGraph seg = buildSegment(g, 1, 31); // the twins
    OrderedSegment t = orderTwins(seg);
    ASSERT_GT(t.edges, 0u);
    uint64_t peak = 0;
    heuristicSchedule(seg, 0, segmentStaticBound(seg), peak);
    ExactResult plain = exactSearch(seg, peak, 2000);
    ExactResult twins = exactSearch(t.graph, peak, 2000);
    if (plain.status != ExactStatus::GaveUp &&
        twins.status != ExactStatus::GaveUp) {
      ++both;
      EXPECT_EQ(plain.status, twins.status);
      EXPECT_EQ(plain.peak, twins.peak);
    }
    if (plain.status == ExactStatus::GaveUp &&
        twins.status != ExactStatus::GaveUp) {
      ++onlyWithTwins;
      ExactResult full = exactSearch(seg, peak, 1u << 22);
      ASSERT_NE(full.status, ExactStatus::GaveUp);
      EXPECT_EQ(full.status, twins.status);
      EXPECT_EQ(full.peak, twins.peak);
    }
    EXPECT_FALSE(twins.status == ExactStatus::GaveUp &&
                 plain.status != ExactStatus::GaveUp);
  }
  EXPECT_GT(onlyWithTwins, 7u); // 14 when written
  EXPECT_GT(both, 10u);         // 24
}

TEST(SchedulerTwins, OrderByHand) {
  // A fork writes x (8 bytes, read by both twins); twin 1 writes 50 bytes
  // for the join, twin 2 writes 10 and frees a 30-byte input of its own.
  // p = transient + started: 50 and 10; w = transient + freed: 0 and 30.
  // Twin 2 first (p 10 <= 50, w 30 >= 0): the edge 2 -> 1, and twin 2
  // takes the lower id.
  MemoryGraph g;
  for (int i = 0; i < 4; ++i)
    g.addNode();
  BufferId x = g.addBuffer(8), in2 = g.addBuffer(30), o1 = g.addBuffer(50),
           o2 = g.addBuffer(10), y = g.addBuffer(1, false, true);
  for (NodeId v : {0, 1, 2})
    g.addTouch(x, v);
  g.addTouch(in2, 0);
  g.addTouch(in2, 2);
  g.addTouch(o1, 1);
  g.addTouch(o1, 3);
  g.addTouch(o2, 2);
  g.addTouch(o2, 3);
  g.addTouch(y, 3);
  for (NodeId t : {1, 2}) {
    g.addEdge(0, t);
    g.addEdge(t, 3);
  }
  g.finalize();
  SegmentGraph seg = buildSegment(g, 0, 4);
  OrderedSegment t = orderTwins(seg);
  ASSERT_EQ(t.edges, 1u);
  EXPECT_EQ(t.oldId, (std::vector<LocalId>{0, 2, 1, 3}));
  ASSERT_EQ(t.graph.succs(1).size(), 2u);
  EXPECT_EQ(t.graph.succs(1)[0], 2u); // old twin 2 -> old twin 1
  // By hand, after the fork (x and in2 live, 38 bytes): twin 2 first runs
  // at 38 + 10 = 48, then twin 1 at 8 + 10 + 50 = 68 (in2 freed), the join
  // at 50 + 10 + 1 = 61; twin 1 first runs at 38 + 50 = 88. Optimum 68,
  // reached only with twin 2 first.
  EXPECT_EQ(bruteForceMinPeak(g), 68u);
  std::vector<NodeId> best;
  EXPECT_EQ(bruteForceMinPeak(graphOfSegment(t.graph), &best), 68u);
}

TEST(SchedulerContract, FillsSinkIntoTheirConsumer) {
  // Fills of an accumulator a (node 0) and of b (node 1) before the
  // matmul-like node 2, which touches both and x; node 3 reads b and x and
  // writes the result y. Each fill's first successor touches its buffer, so
  // both merge into node 2.
  MemoryGraph g;
  for (int i = 0; i < 4; ++i)
    g.addNode();
  BufferId a = g.addBuffer(40), b = g.addBuffer(30), x = g.addBuffer(20),
           y = g.addBuffer(10, false, true);
  g.addTouch(a, 0);
  g.addTouch(a, 2);
  g.addTouch(b, 1);
  g.addTouch(b, 2);
  g.addTouch(b, 3);
  g.addTouch(x, 2);
  g.addTouch(x, 3);
  g.addTouch(y, 3);
  g.addEdge(0, 2);
  g.addEdge(1, 2);
  g.addEdge(1, 3); // implied by 1 -> 2 -> 3: node 2 is still 1's first
  g.addEdge(2, 3);
  g.finalize();
  SegmentGraph seg = buildSegment(g, 0, 4);
  ContractedSegment c = contractSegment(seg);
  // 0 and 1 sink into 2 (1's successors both come after 2); 3 touches y,
  // which 2 does not, so it stays.
  ASSERT_EQ(c.graph.numNodes(), 2u);
  EXPECT_EQ(c.members[0], (std::vector<LocalId>{1, 0, 2}));
  EXPECT_EQ(c.members[1], (std::vector<LocalId>{3}));
}

} // namespace

//===----------------------------------------------------------------------===//
// Rule (D): deferred nodes run right before their target
//===----------------------------------------------------------------------===//

namespace {

/// Minimum peak over the valid orders of `seg` in which, when `target` is
/// given, every node u with target[u] != kNoDeferral is immediately followed
/// by target[u]. Dynamic program over (executed set, node that must run
/// next); for segments of at most 16 nodes.
uint64_t minPeakWithPairs(const SegmentGraph &seg,
                          const std::vector<LocalId> *target) {
  size_t n = seg.numNodes();
  EXPECT_LE(n, 16u);
  std::vector<uint32_t> predMask(n, 0), touchMask(seg.numBuffers(), 0);
  for (LocalId v = 0; v < n; ++v)
    for (LocalId p : seg.preds(v))
      predMask[v] |= 1u << p;
  for (uint32_t b = 0; b < seg.numBuffers(); ++b)
    for (LocalId t : seg.touchers(b))
      touchMask[b] |= 1u << t;
  // Memory while v runs after the set s (the model of segmentPeak).
  auto stepMemory = [&](uint32_t s, LocalId v) {
    uint64_t mem = seg.transient[v];
    for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
      bool touched = (touchMask[b] >> v) & 1;
      bool started = seg.liveIn[b] || (touchMask[b] & s);
      bool pending = seg.liveOut[b] || (touchMask[b] & ~s & ~(1u << v));
      if (touched || (started && pending))
        mem += seg.size[b];
    }
    return mem;
  };
  // best[s * (n + 1) + m]: least peak reaching s with m (or n: none) next.
  const uint64_t inf = UINT64_MAX;
  std::vector<uint64_t> best((size_t(1) << n) * (n + 1), inf);
  best[n] = 0;
  for (uint32_t s = 0; s < (1u << n); ++s)
    for (size_t m = 0; m <= n; ++m) {
      uint64_t peak = best[s * (n + 1) + m];
      if (peak == inf)
        continue;
      for (LocalId v = 0; v < n; ++v) {
        if (((s >> v) & 1) || (predMask[v] & ~s) || (m < n && v != m))
          continue;
        uint32_t t = s | (1u << v);
        size_t next = target && (*target)[v] != kNoDeferral ? (*target)[v] : n;
        uint64_t &slot = best[t * (n + 1) + next];
        slot = std::min(slot, std::max(peak, stepMemory(s, v)));
      }
    }
  uint64_t result = inf;
  for (size_t m = 0; m <= n; ++m)
    result = std::min(result, best[((size_t(1) << n) - 1) * (n + 1) + m]);
  return result;
}

/// Checks deferralTargets' promises on `g` and counts the pairs.
void checkDeferral(const MemoryGraph &g, unsigned &pairs) {
  SegmentGraph seg = buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
  std::vector<LocalId> target = deferralTargets(seg);
  ASSERT_EQ(target.size(), seg.numNodes());
  std::vector<unsigned> asTarget(seg.numNodes(), 0);
  for (LocalId u = 0; u < seg.numNodes(); ++u) {
    if (target[u] == kNoDeferral)
      continue;
    ++pairs;
    LocalId v = target[u];
    ASSERT_EQ(seg.succs(u).size(), 1u);
    EXPECT_EQ(*seg.succs(u).begin(), v);
    EXPECT_EQ(target[v], kNoDeferral) << "a target is deferred itself";
    EXPECT_EQ(++asTarget[v], 1u) << "a node is the target of two nodes";
  }
  uint64_t optimum = minPeakWithPairs(seg, nullptr);
  EXPECT_EQ(optimum, bruteForceMinPeak(graphOfSegment(seg)));
  EXPECT_EQ(minPeakWithPairs(seg, &target), optimum);
}

} // namespace

TEST(SchedulerDeferral, SomeOptimalOrderRunsEveryPairAdjacent) {
  unsigned pairs = 0, cases = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 300; ++seed) {
      unsigned nodes = 2 + seed % 13; // 2..14
      SCOPED_TRACE(caseName(f, nodes, seed));
      checkDeferral(caseGraph(f, nodes, seed, 1 + seed % 200), pairs);
      ++cases;
    }
  EXPECT_GT(pairs, cases / 2); // the rule does apply
}

TEST(SchedulerDeferral, ArbitraryGraphs) {
  unsigned pairs = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    checkDeferral(arbitraryGraph(seed, 13), pairs);
  }
  EXPECT_GT(pairs, 1000u);
}

TEST(SchedulerDeferral, PaddingOfASavedActivation) {
  // A training step's weight gradient: node 0 produces the activation a,
  // node 1 the output gradient g, node 2 pads a into p (a is also read by
  // node 4, the input gradient), node 3 (the weight gradient) reads p and g
  // and writes dw, node 5 applies dw. 2 may run anywhere after 0, holding
  // p; some optimal order runs it right before 3, though 2 may then free a,
  // so the two cannot be merged: 3's step does not hold a when 2 freed it.
  MemoryGraph g;
  for (int i = 0; i < 6; ++i)
    g.addNode();
  BufferId a = g.addBuffer(32), p = g.addBuffer(50), gr = g.addBuffer(32),
           dw = g.addBuffer(144), out = g.addBuffer(144, false, true),
           gin = g.addBuffer(32, false, true);
  g.addTouch(a, 0);
  g.addTouch(a, 2);
  g.addTouch(a, 4);
  g.addTouch(gr, 1);
  g.addTouch(p, 2);
  g.addTouch(p, 3);
  g.addTouch(gr, 3);
  g.addTouch(gr, 4);
  g.addTouch(gin, 4);
  g.addTouch(dw, 3);
  g.addTouch(dw, 5);
  g.addTouch(out, 5);
  g.addEdge(0, 2);
  g.addEdge(0, 4);
  g.addEdge(2, 3);
  g.addEdge(1, 3);
  g.addEdge(1, 4);
  g.addEdge(3, 5);
  g.finalize();
  SegmentGraph seg = buildSegment(g, 0, 6);
  std::vector<LocalId> target = deferralTargets(seg);
  EXPECT_EQ(target[2], 3u);
  ContractedSegment c = contractSegment(seg);
  for (const std::vector<LocalId> &group : c.members)
    EXPECT_FALSE(std::find(group.begin(), group.end(), 2u) != group.end() &&
                 std::find(group.begin(), group.end(), 3u) != group.end())
        << "2 and 3 must not be one node";
  unsigned pairs = 0;
  checkDeferral(g, pairs);
  EXPECT_EQ(pairs, 1u);
  ScheduleResult r = schedule(g);
  checkResult(g, r);
  EXPECT_TRUE(r.provedOptimal);
  EXPECT_EQ(r.peak, bruteForceMinPeak(g));
}

TEST(SchedulerDeferral, LiveInBuffersStartNothing) {
  // Node 1 reads a (also read by node 2) and the live-in L (also read by its
  // successor 4). Running 1 right before 4 would keep a live while node 3
  // (100 transient bytes, also before 4) runs: 120 bytes where running 1
  // and 2 first needs 110. L is live before 1 whenever 1 runs, so it cannot
  // pay for holding a: 1 is not deferred.
  MemoryGraph g;
  g.addNode();
  g.addNode();
  g.addNode();
  g.addNode(100);
  g.addNode();
  g.addNode();
  BufferId a = g.addBuffer(10), l = g.addBuffer(10, true, false),
           dv = g.addBuffer(20);
  g.addTouch(a, 0);
  g.addTouch(a, 1);
  g.addTouch(a, 2);
  g.addTouch(l, 1);
  g.addTouch(l, 4);
  g.addTouch(dv, 4);
  g.addTouch(dv, 5);
  g.addEdge(0, 1);
  g.addEdge(0, 2);
  g.addEdge(1, 4);
  g.addEdge(3, 4);
  g.addEdge(4, 5);
  g.finalize();
  EXPECT_EQ(bruteForceMinPeak(g), 110u);
  SegmentGraph seg = buildSegment(g, 0, 6);
  EXPECT_EQ(deferralTargets(seg)[1], kNoDeferral);
  unsigned pairs = 0;
  checkDeferral(g, pairs);
}
