//===- RegionYields.h - buffers a loop or branch hands out ------*- C++ -*-===//
//
// Bufferization with `allow-return-allocs-from-loops` and upstream's
// ownership-based deallocation make region ops hand out buffers they
// allocate:
//
//   %r = scf.if %c -> memref<..> {          %r:2 = scf.for ... iter_args(
//     %a = memref.alloc()                       %buf = %init, %own = %false) {
//     ...                                     %a = memref.alloc()
//     scf.yield %a                            ... reads %buf, writes %a ...
//   } else { %b = memref.alloc() ...          %base = extract_strided_metadata %buf
//     scf.yield %b }                          scf.if %own { memref.dealloc %base }
//                                             scf.yield %a, %true
//                                           }
//
// A result of a branch op (scf.if, scf.index_switch, affine.if, ...) is a
// fresh buffer when a region yields, at its position, an allocation of its
// own block (through memref.cast only) that the region neither frees nor
// lets go anywhere else: the op allocates the result where it runs, as
// large as the largest of those allocations. When other regions yield
// something else there (an argument, a buffer allocated before: what the
// deallocation pipeline's copy-unless-owned and ownership-based yields
// look like), the result is that or the op's buffer; an i1 result true
// exactly from the allocating regions (constants in each yield) says
// which, and frees under it free the op's buffer.
//
// An scf.while bufferized the same way copies its state into a fresh
// buffer in its `before` region (freeing the state it got under the flag),
// hands that buffer to the `after` region or out as its result, and the
// `after` region computes the next state into a buffer of its own and frees
// the one it got:
//
//   %r = scf.while (%s = %init, %own = %false) {
//     %a = memref.alloc()   memref.copy %s, %a
//     scf.if %own { memref.dealloc base(%s) }
//     scf.condition(%c) %a
//   } do { ^bb0(%t):
//     %b = memref.alloc()   ... reads %t, writes %b ...
//     memref.dealloc base(%t)
//     scf.yield %b, %true }
//
// The `before` region runs at least once, so the result is always the op's
// buffer (the last `before` run's).
//
// A loop (a LoopLikeOpInterface op of one region) hands out the buffer of
// its last iteration when its body yields, at a position, an allocation of
// its block as above, and frees the buffer it got at that position (the
// previous iteration's) under an ownership flag carried next to it: false on
// entry, yielded true. The loop's result is then the last iteration's buffer
// when its flag is true, else the entry value (no iteration ran). Every
// iteration holds the buffer it got (the previous one's, or the entry
// value, which the loop never frees) until that free, and its own from its
// allocation on.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_REGIONYIELDS_H
#define MEMSCHED_ANALYSIS_REGIONYIELDS_H

#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir {
namespace memsched {

struct FreshYield {
  /// The position of the result (and of the yielded operand).
  unsigned position = 0;
  /// The allocation each region yields there (one per region for a branch
  /// op, the body's for a loop).
  SmallVector<Operation *, 2> allocs;
  /// Loops only: the body argument the buffer comes back in, the body
  /// argument saying it is an earlier iteration's buffer (not the entry
  /// value), the result saying the same of the loop's result, and the op of
  /// the body that frees the buffer it got under that flag.
  Value carried, owned, ownedResult;
  Operation *carriedFree = nullptr;
  /// Loops only: the body runs at least once (a constant trip count): the
  /// result is never the entry value.
  bool bodyRuns = false;
  /// Loops only: some iteration may get an earlier iteration's buffer (the
  /// trip count is not known to be at most 1).
  bool carriesOwned = true;
  /// scf.while only: the `after` region's argument the buffer reaches it
  /// in (the same buffer as the result, an earlier `before` run's), the op
  /// of that region freeing it unconditionally, and the allocation that
  /// region yields back to the `before` region (the buffer `carried`
  /// names there, freed under `owned`).
  Value handedIn;
  Operation *handedInFree = nullptr;
  Operation *backAlloc = nullptr;
  /// Branch ops only: some region yields something else there (an
  /// argument, a buffer allocated before): the result is the op's buffer
  /// or that. `ownedResult` is then the flag the op returns next to it, if
  /// any (true from the regions that allocate, false from the others).
  bool mayBeOther = false;
};

/// The results of `op` that are fresh buffers (see above), in position
/// order; empty for any other op.
SmallVector<FreshYield, 1> findFreshYields(Operation *op);

/// The largest of the allocations a fresh result may be (the one the op's
/// result is sized by); failure, with `why`, when one cannot be sized.
FailureOr<Operation *> largestAllocation(const FreshYield &fy,
                                         const DataLayout &layout,
                                         SizeModel sizes, std::string &why);

/// When `op` is the free (or the memref.dealloc under the scf.if that is
/// the free) by which a loop's body frees the buffer an iteration got
/// (FreshYield::carriedFree): the loop and the position of its result. It
/// frees an earlier iteration's buffer, never the loop's entry value.
std::optional<std::pair<Operation *, unsigned>>
getCarriedFreeLoop(Operation *op);

/// Whether `flag` is the flag a loop or branch returns next to the buffer
/// `memref` names whole (its result at a FreshYield's position): true
/// exactly when that result is the buffer the op allocated.
bool isLoopOwnershipFlag(Value memref, Value flag);

/// Whether `op` is a memref.dealloc under `scf.if %flag` where %flag is the
/// flag a loop or branch returns next to the buffer it frees
/// (isLoopOwnershipFlag): it frees the buffer that op made, nothing else.
bool isFreeUnderOwnershipFlag(Operation *op);

/// A memref.alloca nested in an op that outlives it (no allocation scope
/// between them, the op none itself: the stack memory stays until the
/// enclosing scope ends), with how many times one run of the op runs it.
struct LeakedAlloca {
  Operation *alloca = nullptr;
  uint64_t times = 1;
};

/// The allocas nested in `op` that outlive it. Failure, with the remark
/// `why` (the reason and the ways out) and the alloca `at`, when how many
/// times one is run has no bound the IR states (a loop without a constant
/// trip count, a region an op may run again).
LogicalResult findLeakedAllocas(Operation *op,
                                SmallVectorImpl<LeakedAlloca> &leaked,
                                std::string &why, Operation *&at);

/// Strips memref.cast: the value a cast chain starts from.
Value stripCasts(Value v);

/// Strips memref.cast and memref.extract_strided_metadata's base buffer:
/// the value whose allocation `v` names whole.
Value wholeBufferSource(Value v);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_REGIONYIELDS_H
