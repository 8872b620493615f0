//===- Placement.h - is a memsched pass where it can do its work -*- C++ -*-===//
//
// memsched works on buffers: after bufferization and after the deallocation
// pipeline has placed the frees. Placed earlier, a pass would see nothing
// (linalg on tensors: no buffer, peak 0) or every buffer live to the end
// (no free at all), and report figures that mean nothing. The passes that
// report or check a peak (schedule, certify, check-budget) say so.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_PLACEMENT_H
#define MEMSCHED_TRANSFORMS_PLACEMENT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace memsched {

enum class Misplacement {
  None,
  /// Its ops work on tensors and it allocates no buffer: not bufferized.
  NotBufferized,
  /// It allocates buffers it neither frees nor returns, and frees none:
  /// the deallocation pipeline has not run.
  NoDeallocations,
};

/// Whether `func` looks like a function memsched runs before its place.
Misplacement findMisplacement(func::FuncOp func);

/// The message for `kind` on `func`, naming `passName` and what to run
/// first (empty for None).
std::string describeMisplacement(StringRef passName, func::FuncOp func,
                                 Misplacement kind);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_PLACEMENT_H
