//===- LowerBound.h - lower bounds on the peak of any order -----*- C++ -*-===//
//
// A lower bound L on the peak of every valid order of a MemoryGraph
// (DESIGN.md section 4). For each node v, the set S executed before v holds all
// ancestors of v and no descendant; every buffer touched both inside and
// outside S is live while v runs, plus the buffers v touches and v's transient
// bytes. The cheapest such S is an s-t min-cut; the same from the end of the
// graph gives the second family. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_LOWERBOUND_H
#define MEMSCHED_ANALYSIS_LOWERBOUND_H

#include "Analysis/MemSched/MemoryGraph.h"

#include <limits>

namespace memsched {

struct LowerBoundOptions {
  /// Stop as soon as the bound reaches this value (typically the peak of a
  /// found order: the order is then proved optimal).
  uint64_t target = std::numeric_limits<uint64_t>::max();
};

struct LowerBound {
  uint64_t value = 0;
  /// The node whose cut proves `value` (meaningless for an empty graph).
  NodeId node = 0;
  /// Buffers counted in that cut (live whenever `node` runs, in any order).
  std::vector<BufferId> cutBuffers;
  /// Which family proved it: "trivial" (touched buffers + transient),
  /// "forward" (min-cut over executed sets) or "backward".
  std::string kind = "trivial";
  /// Number of max-flow computations run.
  unsigned maxFlows = 0;
};

/// A sound lower bound: never above the minimum peak over valid orders.
LowerBound computeLowerBound(const MemoryGraph &graph,
                             const LowerBoundOptions &options = {});

} // namespace memsched

#endif // MEMSCHED_ANALYSIS_LOWERBOUND_H
