//===- OpClassification.h - what an op does to memory -----------*- C++ -*-===//
//
// The roles an op can have for the lifetime analysis, read from the
// MemoryEffectOpInterface and the view and control-flow interfaces:
// allocation, deallocation, side-effect free op that follows its users, and
// whether an op lets the address of a memref operand escape in a form the
// analysis does not track (a pointer, an integer, memory).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_OPCLASSIFICATION_H
#define MEMSCHED_ANALYSIS_OPCLASSIFICATION_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace memsched {

/// An op whose only effects allocate its single memref result.
bool isAllocation(Operation *op);

/// An op that allocates a memref it returns (an Allocate effect on one of its
/// memref results) but is not an allocation memsched can size and move, e.g.
/// `gpu.alloc async`, which also returns a token. The analysis refuses these
/// rather than count them as zero bytes.
bool isUnrecognisedAllocation(Operation *op);

/// The value an op frees when its only effects free one memref operand and it
/// has no results; null otherwise.
Value getDeallocatedValue(Operation *op);

/// Whether nothing can observe `value`: no use, or only side-effect free
/// users whose results are unobservable too. Cleanups erase such values, and
/// an allocation whose result is unobservable is never made.
bool isUnobservable(Value value);

/// Side-effect free ops (views, constants, index arithmetic, loops with pure
/// bodies) follow their users when a block is reordered.
bool isFloating(Operation *op);

/// Whether `user` may make the address held by its memref operand `operand`
/// available other than through memref values the alias analysis follows:
/// as an integer or pointer (`memref.extract_aligned_pointer_as_index`,
/// casts to other types), stored into memory, passed along a branch the
/// analysis does not follow. `accessed` are the values the op's memory
/// effects name. Calls and the function's return are handled by their
/// callers.
bool mayCapture(Operation *user, Value operand, ArrayRef<Value> accessed);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_OPCLASSIFICATION_H
