//===- SchedParallelTest.cpp - rule (P) against brute force -----*- C++ -*-===//
//
// mergeParallelChains (rule (P), SchedParallel.cpp) on nested series-parallel
// graphs with independent and shared buffers, on every generator family and
// on arbitrary graphs: the merged graph is topologically numbered, has the
// optimum bruteForceMinPeak finds on the segment, and its optimal orders are
// orders of the segment with the same peak. Plus a case by hand, series-
// parallel pieces that become paths, and the search's states on wide pieces.
// Cases name their generator and seed.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"
#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// A nested series-parallel graph: series of pieces, each a chain of one to
/// three nodes or a fork into two or three branches (pieces themselves, up
/// to depth 2) and a join. Every node writes one output its successors read;
/// the join also reads the fork's output with probability `joinReadsFork`
/// percent (else the branches' first nodes free it, the last of them). With
/// `extras`, some nodes get scratch buffers of their own, transient bytes,
/// or a buffer shared with a random other node, and some outputs are
/// live-out or live-in. `maxNodes` nodes.
MemoryGraph seriesParallelGraph(uint64_t seed, unsigned maxNodes,
                                unsigned joinReadsFork, bool extras) {
  test::XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 7};
  auto below = [&](uint64_t m) { return rng.next() % m; };
  MemoryGraph g;
  std::vector<BufferId> out;
  auto node = [&](const std::vector<NodeId> &in) {
    NodeId v = g.addNode(extras && below(5) == 0 ? 1 + below(60) : 0);
    for (NodeId i : in) {
      g.addEdge(i, v);
      g.addTouch(out[i], v);
    }
    out.push_back(g.addBuffer(1 + below(100), extras && below(12) == 0));
    g.addTouch(out.back(), v);
    if (extras && below(6) == 0)
      g.addTouch(g.addBuffer(1 + below(80)), v);
    return v;
  };
  // A piece after `from` of at most `budget` nodes (at least one); returns
  // its last node.
  std::function<NodeId(NodeId, unsigned, unsigned)> piece =
      [&](NodeId from, unsigned depth, unsigned budget) {
        if (depth >= 2 || budget < 4 || below(5) < 2) {
          NodeId cur = from;
          for (unsigned i = std::min<unsigned>(1 + below(3), budget); i > 0;
               --i)
            cur = node({cur});
          return cur;
        }
        unsigned branches = std::min<unsigned>(2 + below(2), budget - 1);
        unsigned share = (budget - 1) / branches;
        std::vector<NodeId> tails;
        for (unsigned k = 0; k < branches; ++k)
          tails.push_back(piece(from, depth + 1, share));
        if (below(100) < joinReadsFork)
          tails.push_back(from);
        return node(tails);
      };
  NodeId cur = node({});
  while (g.numNodes() < maxNodes)
    cur = piece(cur, 0, maxNodes - static_cast<unsigned>(g.numNodes()));
  if (extras)
    for (unsigned s = below(3); s > 0; --s) {
      BufferId b = g.addBuffer(1 + below(50));
      g.addTouch(b, static_cast<NodeId>(below(g.numNodes())));
      g.addTouch(b, static_cast<NodeId>(below(g.numNodes())));
    }
  g.setLiveOut(out[cur]);
  for (NodeId v = 0; v < g.numNodes(); ++v)
    if (extras && below(10) == 0)
      g.setLiveOut(out[v]);
  g.finalize();
  return g;
}

/// checkEdgeRule with rule (P) on 3,000 series-parallel graphs whose joins
/// read their fork's output with probability `joinReadsFork` percent;
/// returns the edges added.
unsigned mergeOnSeriesParallelGraphs(unsigned joinReadsFork) {
  unsigned edges = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    SCOPED_TRACE("series-parallel seed " + std::to_string(seed));
    checkEdgeRule(seriesParallelGraph(seed, 6 + seed % 10, joinReadsFork,
                                      seed % 3 != 0),
                  mergeParallelChains, edges);
  }
  return edges;
}

TEST(SchedParallel, KeepTheOptimumOnSeriesParallelGraphs) {
  EXPECT_GT(mergeOnSeriesParallelGraphs(60), 3000u); // the rule does apply
}

TEST(SchedParallel, KeepTheOptimumWithSharedInputs) {
  // No join reads its fork's output: the branches' first nodes share it,
  // and a merge holds only with an owner whose touches come first and last.
  // 1,060 edges when written (388 without owners).
  EXPECT_GT(mergeOnSeriesParallelGraphs(0), 1000u);
}

TEST(SchedParallel, KeepTheOptimumOnEveryFamily) {
  unsigned edges = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 200; ++seed) {
      unsigned nodes = 2 + seed % 15;
      SCOPED_TRACE(graphCaseName(f, nodes, seed));
      checkEdgeRule(generateGraph(f, nodes, seed * 0x2545F4914F6CDD1DULL + 5),
                    mergeParallelChains, edges);
    }
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    SCOPED_TRACE("arbitrary seed " + std::to_string(seed));
    checkEdgeRule(arbitraryGraph(seed, 14), mergeParallelChains, edges);
  }
  EXPECT_GT(edges, 300u);
}

TEST(SchedParallel, OrderByHand) {
  // A fork s writes x (8 bytes, read by both chains and the join t) and b1's
  // own 40-byte input. Chain a1 -> a2: a1 writes 60 bytes for a2, a2 writes
  // 10 for t. Chain b1: writes 20 for t. Rises and falls: a1 (60, 0), a2
  // (10, 60), b1 (20, 40). a2's key (it frees more than it starts, rise 10)
  // comes before a1's, so a1 and a2 are one block (70, 60), which starts
  // more than it frees; b1 frees more: b1 runs first, the edge b1 -> a1.
  MemoryGraph g;
  NodeId s = g.addNode(), a1 = g.addNode(), a2 = g.addNode(),
         b1 = g.addNode(), t = g.addNode();
  BufferId x = g.addBuffer(8), in = g.addBuffer(40), oa1 = g.addBuffer(60),
           oa2 = g.addBuffer(10), ob1 = g.addBuffer(20),
           y = g.addBuffer(1, false, true);
  for (NodeId v : {s, a1, b1, t})
    g.addTouch(x, v);
  g.addTouch(in, s);
  g.addTouch(in, b1);
  g.addTouch(oa1, a1);
  g.addTouch(oa1, a2);
  g.addTouch(oa2, a2);
  g.addTouch(oa2, t);
  g.addTouch(ob1, b1);
  g.addTouch(ob1, t);
  g.addTouch(y, t);
  g.addEdge(s, a1);
  g.addEdge(a1, a2);
  g.addEdge(a2, t);
  g.addEdge(s, b1);
  g.addEdge(b1, t);
  g.addEdge(s, t);
  g.finalize();
  SegmentGraph seg = buildSegment(g, 0, 5);
  OrderedSegment m = mergeParallelChains(seg);
  ASSERT_EQ(m.edges, 1u);
  EXPECT_EQ(m.oldId, (std::vector<LocalId>{s, b1, a1, a2, t}));
  // By hand, after s (x and b1's input live, 48 bytes): b1 at 48 + 20 = 68,
  // a1 at 8 + 20 + 60 = 88, a2 at 88 + 10 = 98. With a1 first, a2 runs
  // next at 48 + 60 + 10 = 118 (the program order) or b1 does at
  // 48 + 60 + 20 = 128.
  EXPECT_EQ(evaluatePeak(g, g.programOrder()), 118u);
  EXPECT_EQ(bruteForceMinPeak(g), 98u);
  EXPECT_EQ(segmentPeak(m.graph, {0, 1, 2, 3, 4}), 98u);
}

TEST(SchedParallel, IndependentSeriesParallelGraphsBecomePaths) {
  // Every join reads its fork's output and nothing else is shared: each
  // piece is independent at its level, so the whole graph becomes one
  // path, with no brute force needed to know its order is optimal.
  unsigned paths = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE("series-parallel seed " + std::to_string(seed));
    MemoryGraph g = seriesParallelGraph(seed, 12 + seed % 200, 100, false);
    SegmentGraph seg = buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
    OrderedSegment m = mergeParallelChains(seg);
    const SegmentGraph &merged = m.edges ? m.graph : seg;
    bool path = true;
    for (LocalId v = 0; v + 1 < merged.numNodes(); ++v) {
      auto succs = merged.succs(v);
      path &= std::find(succs.begin(), succs.end(), v + 1) != succs.end();
    }
    EXPECT_TRUE(path);
    paths += path;
    if (g.numNodes() <= 16) {
      std::vector<LocalId> identity(merged.numNodes());
      for (LocalId v = 0; v < identity.size(); ++v)
        identity[v] = v;
      EXPECT_EQ(segmentPeak(merged, identity), bruteForceMinPeak(g));
    }
  }
  EXPECT_EQ(paths, 300u);
}

TEST(SchedParallel, SharedInputsAreLeftAlone) {
  // The fork's output is read by both chains and freed by the later: the
  // chains are not independent, and no edge is added.
  MemoryGraph g;
  NodeId s = g.addNode(), a = g.addNode(), b = g.addNode(), t = g.addNode();
  BufferId x = g.addBuffer(50), oa = g.addBuffer(10), ob = g.addBuffer(20),
           y = g.addBuffer(1, false, true);
  for (NodeId v : {s, a, b})
    g.addTouch(x, v);
  g.addTouch(oa, a);
  g.addTouch(oa, t);
  g.addTouch(ob, b);
  g.addTouch(ob, t);
  g.addTouch(y, t);
  for (NodeId v : {a, b}) {
    g.addEdge(s, v);
    g.addEdge(v, t);
  }
  g.finalize();
  EXPECT_EQ(mergeParallelChains(buildSegment(g, 0, 4)).edges, 0u);
}

/// A fork into `chains` chains of `length` nodes and a join that reads
/// the fork's output: random sizes (the chains' last outputs below
/// `lastSize`) and transient bytes.
MemoryGraph widePiece(uint64_t seed, unsigned chains, unsigned length,
                      uint64_t lastSize = 100) {
  test::XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 3};
  auto below = [&](uint64_t m) { return rng.next() % m; };
  MemoryGraph g;
  NodeId s = g.addNode();
  BufferId x = g.addBuffer(1 + below(100));
  g.addTouch(x, s);
  std::vector<NodeId> tails;
  std::vector<BufferId> outs;
  for (unsigned c = 0; c < chains; ++c) {
    NodeId prev = s;
    BufferId in = x;
    for (unsigned i = 0; i < length; ++i) {
      NodeId v = g.addNode(below(4) == 0 ? below(100) : 0);
      g.addEdge(prev, v);
      g.addTouch(in, v);
      in = g.addBuffer(1 + below(i + 1 == length ? lastSize : 100));
      g.addTouch(in, v);
      prev = v;
    }
    tails.push_back(prev);
    outs.push_back(in);
  }
  NodeId t = g.addNode();
  g.addTouch(x, t);
  for (unsigned c = 0; c < chains; ++c) {
    g.addEdge(tails[c], t);
    g.addTouch(outs[c], t);
  }
  g.addEdge(s, t);
  g.addTouch(g.addBuffer(1, false, true), t);
  g.finalize();
  return g;
}

TEST(SchedParallel, HugeSegmentsAreLeftAlone) {
  // Three independent nodes (one group, P and S empty) whose bytes add up
  // to 2^64 and more: c frees a 1000-byte live-in buffer, d starts and
  // frees 8 buffers of 2^60 bytes, a starts 8 live-out ones. Summed in 64
  // bits the bytes wrap to a small number and a's rise (2^63) to a
  // negative one, which sorted a first; the optimum is 2^63 (c, d, a) and
  // the order d, a, c peaks 1000 bytes higher. The rule leaves segments
  // of 2^60 bytes or more alone.
  MemoryGraph g;
  NodeId c = g.addNode(), d = g.addNode(), a = g.addNode();
  const uint64_t huge = uint64_t(1) << 60;
  g.addTouch(g.addBuffer(1000, /*liveIn=*/true), c);
  for (int i = 0; i < 8; ++i) {
    g.addTouch(g.addBuffer(huge), d);
    g.addTouch(g.addBuffer(huge, false, /*liveOut=*/true), a);
  }
  g.finalize();
  EXPECT_EQ(bruteForceMinPeak(g), huge * 8);
  OrderedSegment m = mergeParallelChains(buildSegment(g, 0, 3));
  EXPECT_EQ(m.edges, 0u);
}

TEST(SchedParallel, FewerStatesOnWidePieces) {
  // Six chains of four: the plain search needs many states, the merged
  // graph is a path and the search runs along it; both find the same
  // optimum.
  uint64_t plainStates = 0, mergedStates = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    MemoryGraph g = widePiece(seed, 6, 4);
    SegmentGraph seg = buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
    OrderedSegment m = mergeParallelChains(seg);
    ASSERT_GE(m.edges, 5u); // at least one between consecutive chains
    uint64_t peak = 0;
    heuristicSchedule(seg, 0, segmentStaticBound(seg), peak);
    ExactResult plain = exactSearch(seg, peak + 1, 1u << 22);
    ExactResult merged = exactSearch(m.graph, peak + 1, 1u << 22);
    ASSERT_EQ(plain.status, ExactStatus::Improved);
    ASSERT_EQ(merged.status, ExactStatus::Improved);
    EXPECT_EQ(plain.peak, merged.peak);
    EXPECT_LE(merged.expanded, 2 * g.numNodes());
    plainStates += plain.expanded;
    mergedStates += merged.expanded;
  }
  std::printf("six chains of four, 20 pieces: %llu states plain, %llu "
              "merged\n",
              (unsigned long long)plainStates,
              (unsigned long long)mergedStates);
  EXPECT_GT(plainStates, 10 * mergedStates);
}

TEST(SchedParallel, SchedulerCertifiesWidePieces) {
  // Thirty-two bottlenecks of ten (11^32 executed sets; last outputs of at
  // most 5 bytes, so the join is not what bounds the peak): with rule (P)
  // the scheduler proves every piece optimal within 20,000 states; without
  // it, the search stops on most (at the default budget of 200,000: 3 of
  // 10 proved, 10,000,010 states in all, against 2,166 with the rule).
  unsigned provedWith = 0, provedWithout = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    MemoryGraph g = widePiece(seed, 32, 10, 5);
    ScheduleOptions options;
    options.exactStateBudget = 20000;
    ScheduleResult with = schedule(g, options);
    options.parallelChains = false;
    ScheduleResult without = schedule(g, options);
    provedWith += with.provedOptimal;
    provedWithout += without.provedOptimal;
    EXPECT_LE(with.peak, without.peak);
    if (without.provedOptimal) {
      EXPECT_EQ(with.peak, without.peak);
    }
  }
  std::printf("thirty-two chains of ten, 10 pieces: %u proved optimal with "
              "rule (P), %u without\n",
              provedWith, provedWithout);
  EXPECT_EQ(provedWith, 10u);
  EXPECT_LT(provedWithout, 5u);
}

} // namespace
