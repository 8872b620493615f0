//===- SchedPeersTest.cpp - the peers' orders and never worse than them ---===//
//
// The XLA and Inductor orders (SchedPeers.cpp) on hand-made graphs whose
// orders follow from each algorithm's rule, their validity and determinism on
// every generator family, and the scheduler's promise: its peak is at most
// every peer's, on thousands of seeded graphs (family, size and seed printed).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"

#include "TestGraphs.h"

#include <gtest/gtest.h>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// A source s with two chains: a1 -> a2 (small buffers) and b1 -> b2 (large
/// buffers), joined by j. Node ids: s=0, a1=1, b1=2, a2=3, b2=4, j=5, so the
/// program order interleaves the branches.
MemoryGraph twoChains() {
  MemoryGraph g;
  for (int i = 0; i < 6; ++i)
    g.addNode();
  uint64_t sizes[] = {10, 5, 50, 5, 50, 1};
  std::vector<BufferId> out;
  for (int i = 0; i < 6; ++i) {
    out.push_back(g.addBuffer(sizes[i], false, i == 5));
    g.addTouch(out.back(), i);
  }
  auto edge = [&](NodeId from, NodeId to) {
    g.addEdge(from, to);
    g.addTouch(out[from], to);
  };
  edge(0, 1);
  edge(0, 2);
  edge(1, 3);
  edge(2, 4);
  edge(3, 5);
  edge(4, 5);
  g.finalize();
  return g;
}

std::vector<NodeId> orderOf(const MemoryGraph &g, PeerScheduler p) {
  return peerOrder(g, p);
}

TEST(SchedPeers, PostOrderVisitsOperandsInProgramOrder) {
  // DFS from the sink j: operands a2 (3) then b2 (4); a2's chain first.
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::XlaPostOrder),
            (std::vector<NodeId>{0, 1, 3, 2, 4, 5}));
}

TEST(SchedPeers, XlaDfsVisitsTheLargerSubgraphFirst) {
  // No extra users below a2 or b2 (s's second user is counted in both);
  // b2's subgraph defines 10 + 50 + 50 bytes, a2's 10 + 5 + 5: b first.
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::XlaDfs),
            (std::vector<NodeId>{0, 2, 4, 1, 3, 5}));
}

TEST(SchedPeers, InductorDfsVisitsTheSmallestNodesFirst) {
  // Bytes defined + read: s 10, a1 15, b1 60, a2 10, b2 100, j 56.
  // Visiting order s, a2, a1, j, b1, b2: a2 pulls in a1 (after s).
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::InductorDfs),
            (std::vector<NodeId>{0, 1, 3, 2, 4, 5}));
}

TEST(SchedPeers, InductorBfsRunsByEarliestPredecessors) {
  // a1 and b1 wait on s (position 0), a2 on a1 (1), b2 on b1 (2).
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::InductorBfs),
            (std::vector<NodeId>{0, 1, 2, 3, 4, 5}));
}

TEST(SchedPeers, LpmfStaysWithinThePeakSoFar) {
  // After s (peak 10): a1 runs at 15, b1 at 60: a1 (lowest memory while
  // running, none within 10). Then a2 at 20 or b1 at 65 (peak 15): a2; it
  // frees a1's 5 (net 0). Then b1 (65), b2 (110, frees b1: net 0), j.
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::InductorLpmf),
            (std::vector<NodeId>{0, 1, 3, 2, 4, 5}));
}

TEST(SchedPeers, XlaListFreesMostFirst) {
  // After s: a1 (net +5) before b1 (+50); a1 frees nothing (s still read by
  // b1). Then a2 (+5 - 5 = 0) before b1 (+50 - 10 = +40).
  EXPECT_EQ(orderOf(twoChains(), PeerScheduler::XlaList),
            (std::vector<NodeId>{0, 1, 3, 2, 4, 5}));
}

TEST(SchedPeers, EveryFamilyValidAndDeterministic) {
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 30; ++seed) {
      unsigned nodes = 1 + seed * 13;
      MemoryGraph g = generateGraph(f, nodes, seed * 7919 + 1);
      for (PeerScheduler p : allPeers()) {
        SCOPED_TRACE(std::string(familyName(f)) + " nodes " +
                     std::to_string(nodes) + " seed " +
                     std::to_string(seed * 7919 + 1) + " " + peerName(p));
        std::vector<NodeId> order = peerOrder(g, p);
        EXPECT_TRUE(g.isValidOrder(order));
        EXPECT_EQ(peerOrder(g, p), order);
      }
    }
}

TEST(SchedPeers, SchedulerNeverWorseThanAPeer) {
  unsigned cases = 0;
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 0; seed < 120; ++seed) {
      unsigned nodes = 2 + (seed * 37) % 300;
      uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 17;
      SCOPED_TRACE(std::string(familyName(f)) + " nodes " +
                   std::to_string(nodes) + " seed " + std::to_string(s));
      MemoryGraph g = generateGraph(f, nodes, s);
      ScheduleOptions opts;
      opts.exactStateBudget = 2000; // mostly heuristic: the promise must hold
      opts.localSearchRounds = seed % 3;
      ScheduleResult r = schedule(g, opts);
      ASSERT_TRUE(g.isValidOrder(r.order));
      for (PeerScheduler p : allPeers())
        EXPECT_LE(r.peak, evaluatePeak(g, peerOrder(g, p))) << peerName(p);
      ++cases;
    }
  EXPECT_EQ(cases, 120u * allFamilies().size());
}

} // namespace
