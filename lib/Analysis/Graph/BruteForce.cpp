//===- BruteForce.cpp - exhaustive minimum peak for tests -------*- C++ -*-===//
//
// Dynamic programming over every executed set (bitmask): best[S] is the lowest
// peak of any valid order of S. Exponential, for checking the real algorithms.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/Scheduler.h"

#include <cassert>
#include <limits>

using namespace memsched_core;

uint64_t memsched_core::bruteForceMinPeak(const MemoryGraph &graph,
                                     std::vector<NodeId> *bestOrder) {
  size_t n = graph.numNodes();
  assert(n <= 20 && "brute force is for small graphs");
  if (n == 0) {
    if (bestOrder)
      bestOrder->clear();
    return 0;
  }
  using Mask = uint32_t;
  const uint64_t inf = std::numeric_limits<uint64_t>::max();
  std::vector<Mask> predMask(n, 0), touchMask(graph.numBuffers(), 0);
  for (NodeId v = 0; v < n; ++v)
    for (NodeId p : graph.preds(v))
      predMask[v] |= Mask(1) << p;
  for (BufferId b = 0; b < graph.numBuffers(); ++b)
    for (NodeId t : graph.buffer(b).touchers)
      touchMask[b] |= Mask(1) << t;

  Mask full = n == 32 ? ~Mask(0) : (Mask(1) << n) - 1;
  std::vector<uint64_t> best(size_t(full) + 1, inf);
  std::vector<int8_t> lastNode(size_t(full) + 1, -1);
  best[0] = 0;
  // Masks in increasing numeric order visit every subset after its subsets.
  for (Mask s = 0; s < full; ++s) {
    if (best[s] == inf)
      continue;
    for (NodeId v = 0; v < n; ++v) {
      Mask bit = Mask(1) << v;
      if ((s & bit) || (predMask[v] & ~s))
        continue;
      Mask after = s | bit;
      uint64_t mem = graph.transientBytes(v);
      for (BufferId b = 0; b < graph.numBuffers(); ++b) {
        const GraphBuffer &buf = graph.buffer(b);
        bool touchedByV = touchMask[b] & bit;
        bool started = buf.liveIn || (touchMask[b] & s);
        bool pending = buf.liveOut || (touchMask[b] & ~after & full);
        if (touchedByV || (started && pending))
          mem += buf.size;
      }
      uint64_t peak = std::max(best[s], mem);
      if (peak < best[after]) {
        best[after] = peak;
        lastNode[after] = static_cast<int8_t>(v);
      }
    }
  }
  if (bestOrder) {
    bestOrder->assign(n, 0);
    Mask s = full;
    for (size_t i = n; i-- > 0;) {
      NodeId v = static_cast<NodeId>(lastNode[s]);
      (*bestOrder)[i] = v;
      s &= ~(Mask(1) << v);
    }
  }
  return best[full];
}
