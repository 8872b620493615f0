//===- Reorder.h - apply a node order to a block ----------------*- C++ -*-===//

#ifndef MEMSCHED_TRANSFORMS_REORDER_H
#define MEMSCHED_TRANSFORMS_REORDER_H

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"

namespace mlir {
namespace memsched {

/// The full op sequence of the analysed block (terminator excluded) for a
/// valid order of its nodes: each allocation right before the first node
/// touching the buffer, each deallocation right after the last one, and
/// side-effect free ops right before their first user (or, when they feed no
/// node, before the deallocations of the buffers they use). Fails, moving
/// nothing, when the order is not a permutation of the nodes or the sequence
/// would use a value before its definition, run a node out of the order or
/// use a buffer after its deallocation.
FailureOr<SmallVector<Operation *>> planBlockOrder(const BufferLifetimeAnalysis &analysis,
                                        ArrayRef<unsigned> nodeOrder);

/// Peak bytes of `sequence` as written, with the sizes of `analysis`.
uint64_t getPeakOfSequence(const BufferLifetimeAnalysis &analysis,
                           ArrayRef<Operation *> sequence);

/// Moves the ops of the analysed block into `sequence` order, before the
/// terminator.
void applyBlockOrder(const BufferLifetimeAnalysis &analysis,
                     ArrayRef<Operation *> sequence);

/// Replaces the body of `func` by a copy of `saved`'s (a clone of a
/// function taken before a rewrite that is being undone).
void restoreBody(Operation *func, Operation *saved);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_REORDER_H
