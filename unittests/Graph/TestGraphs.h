//===- TestGraphs.h - small hand-made graphs shared by the tests -*- C++ -*-===//

#ifndef MEMSCHED_UNITTESTS_TESTGRAPHS_H
#define MEMSCHED_UNITTESTS_TESTGRAPHS_H

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"
#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cstdint>
#include <string>
#include <vector>

namespace memsched_core {

/// How a generated case is named in failure traces.
inline std::string graphCaseName(GraphFamily family, unsigned nodes,
                                 uint64_t seed) {
  return std::string(familyName(family)) + " nodes " +
         std::to_string(nodes) + " seed " + std::to_string(seed);
}

/// a -> {b, c} -> d, each node writing its own buffer (10, 20, 30 bytes; d's
/// 5-byte output is live-out); b and c read a, d reads b and c.
inline MemoryGraph diamondGraph() {
  MemoryGraph g;
  for (int i = 0; i < 4; ++i)
    g.addNode();
  BufferId a = g.addBuffer(10), b = g.addBuffer(20), c = g.addBuffer(30),
           d = g.addBuffer(5, false, true);
  for (NodeId n : {0, 1, 2})
    g.addTouch(a, n);
  g.addTouch(b, 1);
  g.addTouch(b, 3);
  g.addTouch(c, 2);
  g.addTouch(c, 3);
  g.addTouch(d, 3);
  g.addEdge(0, 1);
  g.addEdge(0, 2);
  g.addEdge(1, 3);
  g.addEdge(2, 3);
  g.finalize();
  return g;
}

/// A random valid order (Kahn with seeded picks).
inline std::vector<NodeId> randomOrder(const MemoryGraph &g, uint64_t seed) {
  std::vector<uint32_t> indeg(g.numNodes());
  std::vector<NodeId> ready, order;
  for (NodeId v = 0; v < g.numNodes(); ++v)
    if ((indeg[v] = g.preds(v).size()) == 0)
      ready.push_back(v);
  uint64_t x = seed * 2654435761u + 12345;
  while (!ready.empty()) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    size_t i = (x >> 33) % ready.size();
    NodeId v = ready[i];
    ready.erase(ready.begin() + i);
    order.push_back(v);
    for (NodeId s : g.succs(v))
      if (--indeg[s] == 0)
        ready.push_back(s);
  }
  return order;
}

/// A DAG with buffers touched by arbitrary node sets (not only producer and
/// consumers): random live-in/out flags, sizes (some 0), transient bytes,
/// untouched buffers. Harsher than the generator families.
inline MemoryGraph arbitraryGraph(uint64_t seed, unsigned maxNodes) {
  test::XorShift rng{seed * 0x9E3779B97F4A7C15ULL + 99};
  auto next = [&] { return rng.next(); };
  MemoryGraph g;
  unsigned n = 1 + next() % maxNodes;
  unsigned edgePercent = next() % 60;
  for (unsigned i = 0; i < n; ++i)
    g.addNode(next() % 3 == 0 ? next() % 50 : 0);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j)
      if (next() % 100 < edgePercent / (1 + (j - i) / 3))
        g.addEdge(i, j);
  unsigned numBufs = next() % (2 * n + 2);
  for (unsigned b = 0; b < numBufs; ++b) {
    uint64_t size = next() % 10 == 0 ? 0 : 1 + next() % 100;
    BufferId id = g.addBuffer(size, next() % 6 == 0, next() % 5 == 0);
    for (unsigned t = next() % 4; t > 0; --t)
      g.addTouch(id, next() % n);
  }
  g.finalize();
  return g;
}

/// A segment graph as a MemoryGraph (same nodes, buffers, edges, flags).
inline MemoryGraph graphOfSegment(const sched::SegmentGraph &seg) {
  using sched::LocalId;
  MemoryGraph g;
  for (LocalId v = 0; v < seg.numNodes(); ++v)
    g.addNode(seg.transient[v]);
  for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
    BufferId id = g.addBuffer(seg.size[b], seg.liveIn[b], seg.liveOut[b]);
    for (LocalId t : seg.touchers(b))
      g.addTouch(id, t);
  }
  for (LocalId v = 0; v < seg.numNodes(); ++v)
    for (LocalId s : seg.succs(v))
      g.addEdge(v, s);
  g.finalize();
  return g;
}

/// Is `o` a valid order of the segment (each node once, edges forward)?
inline bool validLocalOrder(const sched::SegmentGraph &seg,
                            const std::vector<sched::LocalId> &o) {
  using sched::LocalId;
  if (o.size() != seg.numNodes())
    return false;
  std::vector<size_t> pos(o.size(), SIZE_MAX);
  for (size_t i = 0; i < o.size(); ++i) {
    if (o[i] >= o.size() || pos[o[i]] != SIZE_MAX)
      return false;
    pos[o[i]] = i;
  }
  for (LocalId v = 0; v < seg.numNodes(); ++v)
    for (LocalId s : seg.succs(v))
      if (pos[v] > pos[s])
        return false;
  return true;
}

/// A rule that adds edges keeping the optimum (sched::orderTwins,
/// sched::mergeParallelChains) checked on `g` as one segment, as built and
/// contracted: the new graph keeps every edge of the segment, is
/// topologically numbered and has the same optimum (bruteForceMinPeak); an
/// optimal order of it is an order of the segment with the same peak, and
/// the exact search on it reaches that peak. Adds the rule's edges to
/// `edges`.
inline void
checkEdgeRule(const MemoryGraph &g,
              sched::OrderedSegment (*rule)(const sched::SegmentGraph &),
              unsigned &edges) {
  using namespace sched;
  SegmentGraph seg = buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
  for (bool contracted : {false, true}) {
    SCOPED_TRACE(contracted ? "contracted" : "as built");
    SegmentGraph base = contracted ? contractSegment(seg).graph : seg;
    OrderedSegment m = rule(base);
    edges += m.edges;
    if (m.edges == 0)
      continue;
    MemoryGraph mg = graphOfSegment(m.graph);
    ASSERT_TRUE(mg.isValidOrder(mg.programOrder()));
    std::vector<LocalId> newId(base.numNodes());
    for (LocalId v = 0; v < base.numNodes(); ++v)
      newId[m.oldId[v]] = v;
    for (LocalId v = 0; v < base.numNodes(); ++v)
      for (LocalId s : base.succs(v)) {
        auto succs = m.graph.succs(newId[v]);
        EXPECT_NE(std::find(succs.begin(), succs.end(), newId[s]),
                  succs.end());
      }
    std::vector<NodeId> best;
    uint64_t optimum = bruteForceMinPeak(graphOfSegment(base));
    EXPECT_EQ(bruteForceMinPeak(mg, &best), optimum);
    std::vector<LocalId> local(best.begin(), best.end()), old;
    for (LocalId v : local)
      old.push_back(m.oldId[v]);
    ASSERT_TRUE(validLocalOrder(base, old));
    uint64_t peak = segmentPeak(m.graph, local);
    EXPECT_EQ(segmentPeak(base, old), peak);
    ExactResult r = exactSearch(m.graph, peak + 1, 1u << 20);
    ASSERT_EQ(r.status, ExactStatus::Improved);
    EXPECT_EQ(r.peak, peak);
  }
}

} // namespace memsched_core

#endif // MEMSCHED_UNITTESTS_TESTGRAPHS_H
