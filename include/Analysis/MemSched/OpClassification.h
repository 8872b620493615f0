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

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace mlir {
namespace memsched {

/// An op whose only effects allocate its single memref result.
bool isAllocation(Operation *op);

/// An op that allocates a memref it returns (an Allocate effect on one of its
/// memref results) but is not an allocation memsched can size and move, e.g.
/// `gpu.alloc async`, which also returns a token: asynchronous work runs in
/// the order its tokens allow, not in the order of the block. The analysis
/// refuses these rather than count them as zero bytes.
bool isUnrecognisedAllocation(Operation *op);

/// The value an op frees when its only effects free one memref operand and it
/// has no results; null otherwise.
Value getDeallocatedValue(Operation *op);

/// An asynchronous GPU op: one that returns an async token (`gpu.alloc
/// async`, `gpu.memcpy async`, `gpu.launch_func async`, `gpu.wait async`,
/// ...). The host issues it where it stands in the block; the device runs
/// it later, after the work its token operands stand for.
bool isAsyncOp(Operation *op);

/// `gpu.alloc async`: allocates its memref result (result 0) when the device
/// reaches it.
bool isAsyncAllocation(Operation *op);

/// The memref a `gpu.dealloc async` frees (when the device reaches it);
/// null for any other op.
Value getAsyncDeallocatedValue(Operation *op);

/// The async tokens `op` (isAsyncOp, or a synchronous `gpu.wait`) waits
/// for.
OperandRange getAsyncDependencies(Operation *op);

/// The shape upstream's ownership-based deallocation emits to free a buffer
/// that may be the same as some other values (e.g. a result of a call):
///
///   %base, ... = memref.extract_strided_metadata %x     (optional)
///   %p = memref.extract_aligned_pointer_as_index %base
///   %q = memref.extract_aligned_pointer_as_index %y
///   %c = arith.cmpi ne, %p, %q       (several, joined by arith.andi)
///   scf.if %c { memref.dealloc %base }
///
/// When `op` is such an scf.if: `freed` is what the dealloc frees (%base),
/// `freedSource` the memref it is the base of (%x, or %base itself),
/// `compared` the memrefs compared against (%y, ...) and `pointerOps` the
/// pointer extractions, comparisons and conjunctions that only feed the
/// condition. Where %x's buffer is provably none of the %y's, the scf.if
/// frees it unconditionally.
///
/// A conjunct that is no pointer comparison (an i1 from elsewhere, such as
/// the ownership flag a loop returns next to a buffer, RegionYields.h) is
/// in `flags`: the free depends on it.
struct ConditionalFree {
  Value freed, freedSource;
  SmallVector<Value, 2> compared;
  SmallVector<Value, 1> flags;
  SmallVector<Operation *, 4> pointerOps;
};
std::optional<ConditionalFree> matchConditionalFree(Operation *op);

/// `scf.if %cond { memref.dealloc %v }` (no else branch, no results): the
/// deallocation (whatever the condition).
memref::DeallocOp matchGuardedFree(Operation *op);

/// Whether nothing can observe `value`: no use, or only side-effect free
/// users whose results are unobservable too. Cleanups erase such values, and
/// an allocation whose result is unobservable is never made.
bool isUnobservable(Value value);

/// Ops whose region bodies run one op after the other, once or many times
/// (scf.for, scf.if, scf.while, scf.execute_region, scf.index_switch,
/// affine.for, affine.if): a body can be reordered on its own. Parallel
/// loops run their bodies together and are not among them.
bool isSequentialRegionOp(Operation *op);

/// A body memsched reorders on its own: the single block of a region of a
/// sequential region op, with at least two allocations.
bool isReorderableBody(Block &block);

/// Whether `op` holds (in its regions, at any depth) a body memsched
/// reorders on its own.
bool hasReorderableBodies(Operation *op);

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

/// The values memory effects name (those of `op`'s MemoryEffectOpInterface,
/// none without one): what mayCapture takes as `accessed`.
SmallVector<Value> getEffectValues(
    ArrayRef<MemoryEffects::EffectInstance> effects);
SmallVector<Value> getEffectValues(Operation *op);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_OPCLASSIFICATION_H
