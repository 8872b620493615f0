//===- FragmentBoundTest.cpp - the bound over all splits, exhaustively ----===//
//
// The bound over every split of a set of nodes into fragments must never
// exceed the exhaustive optimum of the finest split (every set in F
// independent fragments, built here explicitly) nor of the graph as
// given (no split). Random graphs with random sets; a chain where the bound
// is the optimum of the finest split; malformed sets.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/FragmentBound.h"
#include "Analysis/Graph/Scheduler.h"

#include "XorShift.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace memsched_core;
using memsched_core::test::XorShift;

namespace {

/// The finest split of `graph`, written independently of the quotient:
/// every node of a set becomes `fragments` nodes (one per fragment, each
/// with 1/F of its transient bytes), every internal buffer F buffers of
/// 1/F of its bytes (sizes are multiples of F here), each touched by its
/// fragment's copies; other buffers are touched by every copy. Edges within
/// a set join the copies of one fragment; other edges join every copy.
MemoryGraph finestSplit(const MemoryGraph &graph,
                        const std::vector<FragmentSet> &sets) {
  std::vector<int> setOf(graph.numNodes(), -1);
  std::vector<int> internalOf(graph.numBuffers(), -1);
  for (unsigned k = 0; k < sets.size(); ++k) {
    for (NodeId n : sets[k].nodes)
      setOf[n] = k;
    for (BufferId b : sets[k].internal)
      internalOf[b] = k;
  }
  MemoryGraph fine;
  std::vector<std::vector<NodeId>> copies(graph.numNodes());
  for (NodeId n = 0; n < graph.numNodes(); ++n) {
    uint64_t f = setOf[n] < 0 ? 1 : sets[setOf[n]].fragments;
    for (uint64_t i = 0; i < f; ++i)
      copies[n].push_back(fine.addNode(graph.transientBytes(n) / f));
  }
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buffer = graph.buffer(b);
    if (internalOf[b] < 0) {
      BufferId copy = fine.addBuffer(buffer.size, buffer.liveIn, buffer.liveOut);
      for (NodeId n : buffer.touchers)
        for (NodeId c : copies[n])
          fine.addTouch(copy, c);
      continue;
    }
    uint64_t f = sets[internalOf[b]].fragments;
    for (uint64_t i = 0; i < f; ++i) {
      BufferId piece = fine.addBuffer(buffer.size / f);
      for (NodeId n : buffer.touchers)
        fine.addTouch(piece, copies[n][i]);
    }
  }
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    for (NodeId m : graph.succs(n)) {
      if (setOf[n] >= 0 && setOf[n] == setOf[m]) {
        for (size_t i = 0; i < copies[n].size(); ++i)
          fine.addEdge(copies[n][i], copies[m][i]);
        continue;
      }
      for (NodeId a : copies[n])
        for (NodeId c : copies[m])
          fine.addEdge(a, c);
    }
  fine.finalize();
  return fine;
}

/// A random graph of `nodes` nodes with one or two sets, whose fragments
/// keep the finest split within `maxFine` nodes.
struct Case {
  MemoryGraph graph;
  std::vector<FragmentSet> sets;
};

Case randomCase(uint64_t seed, unsigned maxFine) {
  XorShift rng{seed * 2654435761u + 17};
  Case c;
  unsigned n = 3 + rng.below(5);
  for (unsigned i = 0; i < n; ++i)
    c.graph.addNode(rng.below(3) == 0 ? 4 * rng.below(10) : 0);
  for (unsigned j = 1; j < n; ++j)
    for (unsigned i = 0; i < j; ++i)
      if (rng.below(4) == 0)
        c.graph.addEdge(i, j);
  // Sets: runs of consecutive nodes, disjoint.
  unsigned numSets = 1 + rng.below(2);
  std::vector<int> setOf(n, -1);
  unsigned fine = n;
  for (unsigned k = 0; k < numSets; ++k) {
    unsigned first = rng.below(n), length = 1 + rng.below(3);
    FragmentSet set;
    set.fragments = 2 + rng.below(2);
    for (unsigned i = first; i < std::min(n, first + length); ++i)
      if (setOf[i] < 0)
        set.nodes.push_back(i);
    if (set.nodes.empty())
      continue;
    unsigned added = set.nodes.size() * (set.fragments - 1);
    if (fine + added > maxFine)
      continue;
    fine += added;
    for (NodeId v : set.nodes)
      setOf[v] = c.sets.size();
    c.sets.push_back(set);
  }
  unsigned numBuffers = 2 + rng.below(6);
  for (unsigned b = 0; b < numBuffers; ++b) {
    // Touchers: 1 to 3 nodes; sizes multiples of 6 (every F divides them).
    std::vector<NodeId> touchers;
    unsigned count = 1 + rng.below(3);
    for (unsigned i = 0; i < count; ++i)
      touchers.push_back(rng.below(n));
    bool liveIn = rng.below(6) == 0, liveOut = rng.below(6) == 0;
    BufferId id = c.graph.addBuffer(6 * (1 + rng.below(20)), liveIn, liveOut);
    for (NodeId t : touchers)
      c.graph.addTouch(id, t);
    int k = setOf[touchers.front()];
    bool inOneSet = k >= 0 && !liveIn && !liveOut;
    for (NodeId t : touchers)
      inOneSet = inOneSet && setOf[t] == k;
    if (inOneSet && rng.below(4) != 0)
      c.sets[k].internal.push_back(id);
  }
  c.graph.finalize();
  return c;
}

TEST(FragmentBound, NeverAboveTheFinestSplitNorTheGraph) {
  const uint64_t firstSeed = 7100000;
  std::printf("seeds %llu..%llu\n", (unsigned long long)firstSeed,
              (unsigned long long)firstSeed + 2999);
  unsigned split = 0, tight = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + 3000; ++seed) {
    Case c = randomCase(seed, 13);
    FragmentBoundResult bound = computeFragmentBound(c.graph, c.sets);
    ASSERT_TRUE(bound.valid) << "seed " << seed;
    MemoryGraph fine = finestSplit(c.graph, c.sets);
    uint64_t fineOptimum = bruteForceMinPeak(fine);
    uint64_t optimum = bruteForceMinPeak(c.graph);
    ASSERT_LE(bound.value, fineOptimum) << "seed " << seed;
    ASSERT_LE(fineOptimum, optimum) << "seed " << seed;
    split += fineOptimum < optimum;
    tight += bound.value == fineOptimum;
  }
  // The cases exercise splits that help, and the bound is often exact.
  EXPECT_GT(split, 300u);
  EXPECT_GT(tight, 1500u);
  std::printf("split lowers the optimum on %u cases, bound exact on %u\n",
              split, tight);
}

/// Alternatives: the cut of every node is the least over its
/// alternatives. With the graph's own sizes and nothing forced as the only
/// alternative, the bound is the plain one; adding one with smaller sizes
/// never raises it and, per node, it is never below the plain bound with
/// those sizes; forcing buffers live never lowers it.
TEST(FragmentBound, AlternativesTakeTheLeast) {
  const uint64_t firstSeed = 7400000;
  std::printf("seeds %llu..%llu\n", (unsigned long long)firstSeed,
              (unsigned long long)firstSeed + 999);
  unsigned lowered = 0, raised = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + 1000; ++seed) {
    Case c = randomCase(seed, 12);
    FragmentBoundResult plain = computeFragmentBound(c.graph, c.sets);
    ASSERT_TRUE(plain.valid) << "seed " << seed;
    CutAlternatives same;
    same.sizes.push_back({});
    for (BufferId b = 0; b < c.graph.numBuffers(); ++b)
      same.sizes[0].push_back(c.graph.buffer(b).size);
    same.perNode.assign(c.graph.numNodes(), {{0, {}}});
    ASSERT_EQ(computeFragmentBound(c.graph, c.sets, same).value, plain.value)
        << "seed " << seed;
    // Half the bytes of every buffer as a second alternative: never above
    // the plain bound, never below the bound of the halved graph.
    CutAlternatives halved = same;
    halved.sizes.push_back({});
    for (uint64_t size : same.sizes[0])
      halved.sizes[1].push_back(size / 2);
    for (auto &alts : halved.perNode)
      alts.push_back({1, {}});
    MemoryGraph half = withBufferSizes(c.graph, halved.sizes[1]);
    uint64_t least = computeFragmentBound(c.graph, c.sets, halved).value;
    ASSERT_LE(least, plain.value) << "seed " << seed;
    ASSERT_GE(least, computeFragmentBound(half, c.sets).value)
        << "seed " << seed;
    lowered += least < plain.value;
    // Every buffer forced live at every node: at least the plain bound.
    CutAlternatives forced = same;
    std::vector<BufferId> all;
    for (BufferId b = 0; b < c.graph.numBuffers(); ++b)
      all.push_back(b);
    for (auto &alts : forced.perNode)
      alts[0].alsoLive = all;
    uint64_t most = computeFragmentBound(c.graph, c.sets, forced).value;
    ASSERT_GE(most, plain.value) << "seed " << seed;
    raised += most > plain.value;
  }
  EXPECT_GT(lowered, 500u);
  EXPECT_GT(raised, 500u);
}

/// X -> e -> t1 -> a -> t2 -> p -> Y -> c, {e, a, p} in 4 fragments: the
/// intermediates are 6x the input. Some fragment runs a after another's p
/// (Y live) and before another's e (X live): X, Y and that fragment's t1
/// and t2. A cut per node alone (the fragment run first or last) does not
/// see it; the cut at the rank does.
TEST(FragmentBound, ChainNeedsInputAndOutputWhole) {
  MemoryGraph g;
  NodeId pX = g.addNode(), e = g.addNode(), a = g.addNode(), p = g.addNode(),
         c = g.addNode();
  BufferId x = g.addBuffer(100), t1 = g.addBuffer(600), t2 = g.addBuffer(600),
           y = g.addBuffer(160);
  for (auto [b, n] : {std::pair{x, pX}, {x, e}, {t1, e}, {t1, a}, {t2, a},
                      {t2, p}, {y, p}, {y, c}})
    g.addTouch(b, n);
  g.addEdge(pX, e);
  g.addEdge(e, a);
  g.addEdge(a, p);
  g.addEdge(p, c);
  g.finalize();
  std::vector<FragmentSet> sets = {{{e, a, p}, {t1, t2}, 4}};
  FragmentBoundResult bound = computeFragmentBound(g, sets);
  uint64_t fineOptimum = bruteForceMinPeak(finestSplit(g, sets));
  // Whole: 600 + 600 at a. Finest: X + Y + 600/4 + 600/4 at a middle a.
  EXPECT_EQ(bruteForceMinPeak(g), 1200u);
  EXPECT_EQ(fineOptimum, 100u + 160u + 150u + 150u);
  EXPECT_EQ(bound.value, fineOptimum);
  EXPECT_EQ(bound.set, 0);
}

TEST(FragmentBound, MalformedSetsAreRefused) {
  MemoryGraph g;
  NodeId a = g.addNode(), b = g.addNode();
  BufferId t = g.addBuffer(8);
  g.addTouch(t, a);
  g.addTouch(t, b);
  g.addEdge(a, b);
  g.finalize();
  // t is touched by b, outside the set.
  EXPECT_FALSE(computeFragmentBound(g, {{{a}, {t}, 2}}).valid);
  // Overlapping sets.
  EXPECT_FALSE(computeFragmentBound(g, {{{a}, {}, 2}, {{a, b}, {}, 2}}).valid);
  EXPECT_TRUE(computeFragmentBound(g, {{{a, b}, {t}, 2}}).valid);
  EXPECT_EQ(computeFragmentBound(g, {{{a, b}, {t}, 2}}).value, 4u);
}

} // namespace
