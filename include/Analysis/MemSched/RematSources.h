//===- RematSources.h - buffers that can be computed again ------*- C++ -*-===//
//
// The buffers of an analysed block whose content can be recomputed by
// cloning the ops that write it (DESIGN.md section 5, rematerialisation):
// - a plain allocation of the block (not made by a call, not escaping)
//   freed by one deallocation of the allocated value itself;
// - every use of the buffer is its deallocation, a side-effect free view
//   (transitively), or an op of the block that touches it only through
//   those values and whose effects on it are all known;
// - the ops that may write or free it (BufferInfo::writers: through any
//   alias, as the scheduler's dependences see them; its producers) all
//   come before the ops that only read it (readers), and there are at
//   least two readers;
// - a producer has no results, writes nothing but the buffer, and that
//   through a chain of views of it (its other effects read memrefs), does
//   not allocate or free, and contains no call nor op with unknown effects;
//   it may read the buffer (an accumulation).
// For each such buffer, chains too: the buffers its producers read that are
// recomputable the same way (read once is enough), with their producers,
// up to three buffers deep by default, each chain a source of its own.
// Whether the producers' inputs are unchanged up to a clone is checked where
// the clone is placed (on the rewritten IR), not here.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_REMATSOURCES_H
#define MEMSCHED_ANALYSIS_REMATSOURCES_H

#include "Analysis/Graph/Remat.h"
#include "Analysis/MemSched/BufferLifetimeAnalysis.h"

#include <limits>
#include <vector>

namespace mlir {
namespace memsched {

/// The source of a side-effect free view op (its result points into it);
/// null for other ops.
Value getViewSourceOf(Operation *op);

/// True when `v` is `buffer` or a chain of side-effect free views of it.
bool isViewChainOf(Value v, Value buffer);

/// Chains at most this many buffers deep below the recomputed one, by
/// default.
constexpr unsigned kDefaultChainDepth = 3;

/// The recomputable buffers of `analysis` (graph ids: the buffer's index and
/// the nodes' indices in the analysis), chains up to `maxChainDepth` buffers
/// below the recomputed one and, with `cost` (per node), whose producers
/// cost at most `maxCost` in all.
std::vector<::memsched_core::RematSource>
findRematSources(const BufferLifetimeAnalysis &analysis,
                 unsigned maxChainDepth = kDefaultChainDepth,
                 ArrayRef<uint64_t> cost = {},
                 uint64_t maxCost = std::numeric_limits<uint64_t>::max());

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_REMATSOURCES_H
