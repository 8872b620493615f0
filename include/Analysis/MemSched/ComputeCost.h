//===- ComputeCost.h - what running an op costs -----------------*- C++ -*-===//
//
// The cost model of rematerialisation: an estimate of the work of one op, in
// abstract units, used to price recomputing it against the rest of the
// function. A linalg op costs its iteration-domain size times the
// arithmetic ops of its body (at least one per point); a copy costs the
// bytes it moves; any other op the elements of the memrefs it uses (at least
// 1). Ops in nested regions are counted once each (loops are not unrolled:
// an estimate, stated as such in reports).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_COMPUTECOST_H
#define MEMSCHED_ANALYSIS_COMPUTECOST_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir {
namespace memsched {

/// The estimated work of `op` (and the ops nested in it), saturating at
/// 2^64 - 1.
uint64_t estimateComputeCost(Operation *op);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_COMPUTECOST_H
