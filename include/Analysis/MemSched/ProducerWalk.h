//===- ProducerWalk.h - post-order over an op's producers -------*- C++ -*-===//
//
// The ops of a block that define the values an op (or an op nested in it)
// uses, transitively, visited producers first. Both the graph builder (what a
// node reaches through views and scalar ops) and the reorder (which ops must
// be emitted before an op) need this walk; it is iterative, since chains of
// producers can be arbitrarily long.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_MEMSCHED_PRODUCERWALK_H
#define MEMSCHED_ANALYSIS_MEMSCHED_PRODUCERWALK_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::memsched {

/// Calls `fn` on each value `op` or an op nested in it uses that is defined
/// in `block` (a block argument of `block` or the result of one of its ops).
void forEachBlockOperand(Operation *op, Block *block,
                         function_ref<void(Value)> fn);

/// Visits `root` and, before it, every op of `block` that defines a value it
/// uses (see forEachBlockOperand), transitively, each once: a producer is
/// always visited before its users. `stop(def)` is asked for each producer
/// not visited yet: true leaves it (and what it uses) out, e.g. because it
/// was visited by an earlier walk. Fails, having visited only part of the
/// producers, on a cycle of producers (possible only in a graph region).
LogicalResult walkProducersPostOrder(Operation *root, Block *block,
                                     function_ref<bool(Operation *)> stop,
                                     function_ref<void(Operation *)> visit);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_MEMSCHED_PRODUCERWALK_H
