//===- MaxFlow.h - s-t minimum cuts for the lower bounds --------*- C++ -*-===//
//
// A small directed flow network with 64-bit capacities and a choice of
// max-flow algorithms: own Boykov-Kolmogorov and Dinic on CSR arcs, and
// Boost.Graph's push-relabel (kept inside MaxFlow.cpp, no Boost type leaks
// here). After a solve, the source side of a minimum cut is available.
// Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_MAXFLOW_H
#define MEMSCHED_ANALYSIS_MAXFLOW_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memsched_core {

enum class MaxFlowAlgorithm {
  /// Own Boykov-Kolmogorov (two search trees, orphan adoption; allocation
  /// free once the scratch vectors have grown).
  BoykovKolmogorov,
  /// Boost.Graph push_relabel_max_flow.
  PushRelabel,
  /// Own Dinic (BFS levels + blocking flow with current-arc pointers).
  Dinic,
  /// Dinic on small networks, Boykov-Kolmogorov on large ones.
  Auto,
};

const char *maxFlowAlgorithmName(MaxFlowAlgorithm algorithm);

/// A directed network, reusable across solves (clear() keeps allocations).
class FlowNetwork {
public:
  using Capacity = int64_t;
  /// Capacity meaning "never cut" (solve() lowers it to one more than the sum
  /// of the finite capacities, which must stay below kInfinite).
  static constexpr Capacity kInfinite = INT64_MAX / 4;

  void clear();
  /// Adds `count` nodes; returns the id of the first.
  unsigned addNodes(unsigned count = 1);
  unsigned numNodes() const { return nodeCount; }
  size_t numEdges() const { return edgeFrom.size(); }
  /// Adds the arc from -> to with capacity `cap` (>= 0).
  void addEdge(unsigned from, unsigned to, Capacity cap);

  /// Value of a maximum s-t flow (s != t). Afterwards sourceSide() describes
  /// a minimum cut.
  Capacity solve(unsigned s, unsigned t, MaxFlowAlgorithm algorithm);

  /// After solve(): true when `node` is reachable from s in the residual
  /// network (the source side of the minimum cut closest to s).
  bool sourceSide(unsigned node) const { return reached[node] != 0; }

  /// Work of the last solve(): arcs scanned (Dinic) or an estimate (Boost).
  uint64_t work() const { return lastWork; }

private:
  Capacity solveDinic(unsigned s, unsigned t);
  Capacity solveBK(unsigned s, unsigned t);
  Capacity solveBoost(unsigned s, unsigned t, MaxFlowAlgorithm algorithm);
  void buildArcs();
  void markSourceSide(unsigned s);

  unsigned nodeCount = 0;
  uint64_t lastWork = 0;
  std::vector<unsigned> edgeFrom, edgeTo;
  std::vector<Capacity> edgeCap;

  // Arcs grouped by tail (CSR), rebuilt per solve: arc k leaves its tail
  // for arcHead[k]; arcReverse[k] is the opposite arc; edgeArc[e] is edge
  // e's forward arc.
  std::vector<unsigned> firstArc, arcHead, arcReverse, edgeArc;
  std::vector<Capacity> arcResidual;
  // Scratch.
  std::vector<int> level;
  std::vector<unsigned> currentArc, queue, pathArcs, pathNodes;
  std::vector<uint8_t> reached, bkTree;
  std::vector<unsigned> bkParent, bkDist;
  std::vector<uint32_t> bkStamp;
};

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_MAXFLOW_H
