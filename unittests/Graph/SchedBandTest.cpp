//===- SchedBandTest.cpp - band search against brute force ------*- C++ -*-===//
//
// bandSearch against an exhaustive dynamic program over every executed set
// (bitmask) of the band, on seeded graphs of every generator family and on
// arbitrary graphs, around random valid reference orders; coveringBandWidth
// against its definition from the reachability closure; a covering band's
// search and improveInBands's exact claims against bruteForceMinPeak; and
// the scheduler with and without the band search. Cases name their family,
// size and seed (or the arbitrary graph's seed) and the reference's seed.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"

#include <gtest/gtest.h>

#include <limits>
#include <numeric>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// Least peak over the orders of the band of `width` around `reference`,
/// by a dynamic program over all 2^n bitmasks: a set is in the band when it
/// is a down-set and holds nothing after position m + width, m its first
/// position missing.
uint64_t bruteForceBand(const SegmentGraph &seg,
                        const std::vector<LocalId> &reference,
                        unsigned width) {
  size_t n = seg.numNodes();
  assert(n <= 16);
  std::vector<uint32_t> pos(n), predMask(n, 0);
  for (size_t q = 0; q < n; ++q)
    pos[reference[q]] = static_cast<uint32_t>(q);
  for (LocalId v = 0; v < n; ++v)
    for (LocalId p : seg.preds(v))
      predMask[v] |= 1u << p;
  auto inBand = [&](uint32_t set) {
    size_t m = 0;
    while (m < n && (set >> reference[m] & 1))
      ++m;
    for (LocalId v = 0; v < n; ++v)
      if ((set >> v & 1) && pos[v] > m + width)
        return false;
    return true;
  };
  const uint64_t inf = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> best(size_t(1) << n, inf);
  best[0] = 0;
  for (uint32_t set = 0; set < (1u << n); ++set) {
    if (best[set] == inf)
      continue;
    uint64_t live = 0;
    for (size_t b = 0; b < seg.numBuffers(); ++b) {
      bool ran = false, pending = seg.liveOut[b];
      for (LocalId t : seg.touchers(b))
        (set >> t & 1 ? ran : pending) = true;
      if ((seg.liveIn[b] || ran) && pending)
        live += seg.size[b];
    }
    for (LocalId v = 0; v < n; ++v) {
      if ((set >> v & 1) || (predMask[v] & ~set))
        continue;
      uint32_t next = set | 1u << v;
      if (!inBand(next))
        continue;
      uint64_t mem = live + seg.transient[v];
      for (uint32_t b : seg.bufs(v)) {
        bool ran = false, pending = seg.liveOut[b];
        for (LocalId t : seg.touchers(b))
          if (t != v)
            (set >> t & 1 ? ran : pending) = true;
        if (!seg.liveIn[b] && !ran)
          mem += seg.size[b];
      }
      best[next] = std::min(best[next], std::max(best[set], mem));
    }
  }
  return best[(size_t(1) << n) - 1];
}

/// coveringBandWidth by its definition: the least w such that every node of
/// the reference is an ancestor of each node more than w positions later.
unsigned coveringWidthByClosure(const SegmentGraph &seg,
                                const std::vector<LocalId> &reference) {
  size_t n = seg.numNodes(), words = (n + 63) / 64;
  std::vector<uint64_t> desc = reachBits(seg, /*ancestors=*/false);
  for (unsigned w = 0; w <= kMaxCoveringBandWidth; ++w) {
    bool holds = true;
    for (size_t i = 0; i < n && holds; ++i)
      for (size_t j = i + w + 1; j < n && holds; ++j) {
        LocalId u = reference[i], v = reference[j];
        holds = desc[u * words + v / 64] >> (v % 64) & 1;
      }
    if (holds)
      return w;
  }
  return kNoCoveringBand;
}

std::vector<LocalId> randomLocalOrder(const MemoryGraph &g, uint64_t seed) {
  std::vector<NodeId> order = randomOrder(g, seed);
  return {order.begin(), order.end()};
}

/// Checks bandSearch around a random reference of `g` for several widths.
void checkBands(const MemoryGraph &g, uint64_t refSeed) {
  SegmentGraph seg = buildSegment(g, 0, g.numNodes());
  std::vector<LocalId> ref = randomLocalOrder(g, refSeed);
  SCOPED_TRACE("reference seed " + std::to_string(refSeed));
  uint64_t refPeak = segmentPeak(seg, ref);
  uint64_t optimum = bruteForceMinPeak(g);
  unsigned covering = coveringBandWidth(seg, ref);
  NodeBounds bounds = segmentNodeBounds(seg);
  EXPECT_EQ(covering, coveringWidthByClosure(seg, ref));
  for (unsigned width : {0u, 1u, 2u, 3u, 5u, 8u, 15u}) {
    SCOPED_TRACE("width " + std::to_string(width));
    BandResult r = bandSearch(seg, ref, width, 1u << 20);
    ASSERT_TRUE(r.complete);
    std::vector<NodeId> order(r.order.begin(), r.order.end());
    ASSERT_TRUE(g.isValidOrder(order));
    EXPECT_EQ(r.peak, segmentPeak(seg, r.order));
    EXPECT_EQ(r.peak, bruteForceBand(seg, ref, width));
    EXPECT_LE(r.peak, refPeak);
    // The whole graph's peaks (the segment drops constant buffers).
    EXPECT_GE(evaluatePeak(g, order), optimum);
    if (width >= covering || width + 1 >= g.numNodes()) {
      EXPECT_EQ(evaluatePeak(g, order), optimum);
    }
    // The estimate from the node bounds prunes, never changes the result.
    BandResult a = bandSearch(seg, ref, width, 1u << 20, 0, &bounds);
    ASSERT_TRUE(a.complete);
    EXPECT_EQ(a.peak, r.peak);
    // Peaks up to the floor count as equal: the result stays within it.
    uint64_t floor = (optimum + refPeak) / 2;
    BandResult f = bandSearch(seg, ref, width, 1u << 20, floor, &bounds);
    ASSERT_TRUE(f.complete);
    EXPECT_GE(f.peak, r.peak);
    EXPECT_LE(f.peak, std::max(floor, r.peak));
  }
  bool exact = false;
  BandResult improved = improveInBands(seg, ref, 1u << 16, 0, &bounds, exact);
  std::vector<NodeId> order(improved.order.begin(), improved.order.end());
  ASSERT_TRUE(g.isValidOrder(order));
  EXPECT_EQ(improved.peak, segmentPeak(seg, improved.order));
  EXPECT_LE(improved.peak, refPeak);
  EXPECT_GE(evaluatePeak(g, order), optimum);
  EXPECT_LE(improved.states, 1u << 16);
  if (exact) {
    EXPECT_EQ(evaluatePeak(g, order), optimum);
  }
}

TEST(SchedBand, MatchesBruteForceOfTheBandOnEveryFamily) {
  unsigned cases = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 150; ++seed) {
      unsigned nodes = 2 + seed % 13; // 2..14
      uint64_t graphSeed = seed * 0x2545F4914F6CDD1DULL + 777;
      SCOPED_TRACE(graphCaseName(f, nodes, graphSeed));
      MemoryGraph g = generateGraph(f, nodes, graphSeed, 1 + seed % 150);
      checkBands(g, seed);
      ++cases;
    }
  EXPECT_EQ(cases, 150u * allFamilies().size());
}

TEST(SchedBand, MatchesBruteForceOfTheBandOnArbitraryGraphs) {
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    checkBands(arbitraryGraph(seed, 13), seed + 1);
  }
}

TEST(SchedBand, CoveringWidthOnLargerGraphs) {
  // Beyond brute force: the 64-bit induction against the closure.
  unsigned covered = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 20; ++seed) {
      unsigned nodes = 40 + 23 * seed % 300;
      SCOPED_TRACE(graphCaseName(f, nodes, seed));
      MemoryGraph g = generateGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      for (uint64_t r = 0; r < 3; ++r) {
        std::vector<LocalId> ref = randomLocalOrder(g, seed * 3 + r);
        if (r == 0)
          std::iota(ref.begin(), ref.end(), 0); // the program order
        unsigned w = coveringBandWidth(seg, ref);
        EXPECT_EQ(w, coveringWidthByClosure(seg, ref));
        covered += w != kNoCoveringBand;
      }
    }
  // Chains with skips and training steps are covered by narrow bands.
  EXPECT_GT(covered, 20u);
}

TEST(SchedBand, CoveringBandSearchIsExactOnMidSizeGraphs) {
  // Where the reference's band holds every order, the band search is an
  // exact search: it agrees with the best-first search of SchedExact.cpp.
  unsigned checked = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 30; ++seed) {
      unsigned nodes = 30 + seed % 50;
      SCOPED_TRACE(graphCaseName(f, nodes, seed));
      MemoryGraph g = generateGraph(f, nodes, seed);
      SegmentGraph seg = buildSegment(g, 0, g.numNodes());
      std::vector<LocalId> ref(g.numNodes());
      std::iota(ref.begin(), ref.end(), 0); // the program order
      unsigned w = coveringBandWidth(seg, ref);
      if (w > 14)
        continue;
      BandResult band = bandSearch(seg, ref, w, 1u << 22);
      if (!band.complete)
        continue;
      uint64_t refPeak = segmentPeak(seg, ref);
      ExactResult exact = exactSearch(seg, refPeak + 1, 1u << 22);
      if (exact.status != ExactStatus::Improved)
        continue;
      EXPECT_EQ(band.peak, exact.peak);
      ++checked;
    }
  EXPECT_GT(checked, 30u);
}

TEST(SchedBand, BudgetExhaustionKeepsTheReference) {
  unsigned incomplete = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    MemoryGraph g = generateGraph(GraphFamily::Lattice, 200, seed);
    SegmentGraph seg = buildSegment(g, 0, g.numNodes());
    std::vector<LocalId> ref = randomLocalOrder(g, seed);
    BandResult r = bandSearch(seg, ref, 12, 100);
    EXPECT_LE(r.states, 100u);
    if (!r.complete) {
      ++incomplete;
      EXPECT_EQ(r.order, ref);
      EXPECT_EQ(r.peak, segmentPeak(seg, ref));
    }
  }
  EXPECT_EQ(incomplete, 10u);
}

TEST(SchedBand, SchedulerGainsWhereTheExactSearchGivesUp) {
  // With a budget too small for the exact search, the band search must
  // lower some peaks and never raise one; a claimed optimum is the optimum
  // (checked against an exact search with a large budget).
  unsigned lower = 0, cases = 0, provedByBands = 0;
  for (GraphFamily f : {GraphFamily::Lattice, GraphFamily::Layered,
                        GraphFamily::Random, GraphFamily::InPlace,
                        GraphFamily::Training})
    for (uint64_t seed = 0; seed < 30; ++seed) {
      unsigned nodes = 30 + seed % 31;
      SCOPED_TRACE(graphCaseName(f, nodes, seed));
      MemoryGraph g = generateGraph(f, nodes, seed);
      ScheduleOptions opts;
      opts.exactStateBudget = 300;
      opts.localSearchRounds = 0;
      opts.peerCandidates = false;
      opts.cutRepair = false;
      opts.bandSearch = false;
      ScheduleResult without = schedule(g, opts);
      opts.bandSearch = true;
      ScheduleResult with = schedule(g, opts);
      ASSERT_TRUE(g.isValidOrder(with.order));
      EXPECT_EQ(with.peak, evaluatePeak(g, with.order));
      EXPECT_LE(with.peak, without.peak);
      EXPECT_LE(with.lowerBound, with.peak);
      ScheduleOptions full;
      full.exactStateBudget = 1u << 22;
      ScheduleResult best = schedule(g, full);
      if (best.provedOptimal) {
        EXPECT_GE(with.peak, best.peak);
        if (with.provedOptimal) {
          EXPECT_EQ(with.peak, best.peak);
        }
      }
      provedByBands += with.provedOptimal && !without.provedOptimal;
      lower += with.peak < without.peak;
      ++cases;
    }
  EXPECT_GT(lower, cases / 10);
  EXPECT_GT(provedByBands, 0u);
}

} // namespace
