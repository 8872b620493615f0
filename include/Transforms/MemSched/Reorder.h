//===- Reorder.h - apply a node order to a block ----------------*- C++ -*-===//

#ifndef MEMSCHED_TRANSFORMS_REORDER_H
#define MEMSCHED_TRANSFORMS_REORDER_H

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"

namespace mlir {
namespace memsched {

struct PlacementOptions {
  /// Allocation right before its first toucher (else at the top).
  bool sinkAllocs = true;
  /// Deallocation right after its last toucher (else before the terminator).
  bool hoistDeallocs = true;
};

/// The full op sequence of the analysed block (terminator excluded) for a
/// valid order of its nodes, with allocations, deallocations and side-effect
/// free ops placed around them.
SmallVector<Operation *> planBlockOrder(const BufferLifetimeAnalysis &analysis,
                                        ArrayRef<unsigned> nodeOrder,
                                        PlacementOptions options = {});

/// Peak bytes of `sequence` as written, with the sizes of `analysis`.
uint64_t getPeakOfSequence(const BufferLifetimeAnalysis &analysis,
                           ArrayRef<Operation *> sequence);

/// Moves the ops of the analysed block into `sequence` order, before the
/// terminator.
void applyBlockOrder(const BufferLifetimeAnalysis &analysis,
                     ArrayRef<Operation *> sequence);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_REORDER_H
