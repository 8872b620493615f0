//===- InPlace.h - elementwise ops written into a dying input -*- C++ -*-===//
//
// An elementwise structured op whose output is a fresh buffer O and one of
// whose inputs is a buffer X of O's type that dies at the op (nothing but
// its free uses it afterwards) can write X instead of O: every point reads
// X at its own index and writes the same index, so no point reads what
// another wrote. O disappears and X lives until O's free: at every point of
// the block no more bytes are live than before (docs/split.md, "In place").
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_INPLACE_H
#define MEMSCHED_TRANSFORMS_INPLACE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>

namespace mlir {
namespace memsched {

struct InPlaceOp {
  linalg::LinalgOp op;
  /// The input that dies at the op, and its free.
  memref::AllocOp input;
  Operation *inputFree = nullptr;
  /// The fresh output the op writes now.
  memref::AllocOp output;
};

/// The in-place form of `op`, if it has one.
std::optional<InPlaceOp> matchInPlace(linalg::LinalgOp op);

/// Rewrites `match`: the op writes its input, the output buffer is gone
/// (its uses use the input), the input is freed where the output was.
void writeInPlace(const InPlaceOp &match);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_INPLACE_H
