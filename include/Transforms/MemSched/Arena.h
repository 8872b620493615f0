//===- Arena.h - the arena of a planned function ----------------*- C++ -*-===//
//
// `--memsched-plan-arena` places a function's buffers in an arena: a
// `memref.alloc` of i8 in the body (or several, by phase, never live
// together), a function argument, or a `memref.global`, marked
// `memsched.arena`, of which every placed buffer is a `memref.view` at a
// constant byte offset (for an arena sized for a range of dynamic sizes, at
// an offset computed from them at the function's entry). These helpers find
// that arena, compute the memory the planned function needs, and check a
// placement as it stands in the IR; the pass and `--memsched-verify` share
// them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_ARENA_H
#define MEMSCHED_TRANSFORMS_ARENA_H

#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace memsched {

enum class ArenaKind { Alloc, Argument, Global };

/// Work each proof about an arena sized for a range of dynamic sizes may
/// spend (proveMaxAtMost's units).
constexpr uint64_t kArenaProofBudget = 2000000;

struct Arena {
  ArenaKind kind = ArenaKind::Alloc;
  /// The arena in the body: the allocation's result, the argument, or the
  /// `memref.get_global` of the global.
  Value value;
  /// The arena's bytes; 0 when they are dynamic.
  uint64_t size = 0;
  /// An arena sized for a range of dynamic sizes (kind Alloc): its size
  /// operand, the max of polynomials in the function's dynamic sizes
  /// (getSizeExpression); its views are at offsets that are polynomials
  /// of them (docs/dynamic.md).
  Value dynamicSize;
  /// The global (kind Global).
  memref::GlobalOp global;
};

/// Whether a region op runs its regions one at a time, each block to its end
/// before another starts (scf.for/if/while/execute_region/index_switch,
/// affine.for/if): its nested buffers may share the arena's bytes with each
/// other across its blocks and iterations.
bool runsRegionsSequentially(Operation *op);

/// The arena's bytes: its size, or for one sized for a range of dynamic
/// sizes its size at the point of `sizes` (none when the point does not
/// give every size it depends on).
std::optional<uint64_t> getArenaBytes(const Arena &arena,
                                      const SizeModel &sizes);

/// The arenas of `func`: none, one, or several allocated ones (arenas by
/// phase, each allocated and freed in the body, never live together);
/// failure (with `why`) when the markers are malformed (several arenas of
/// which one is an argument or a global).
FailureOr<SmallVector<Arena, 1>> findArenas(func::FuncOp func,
                                            std::string &why);

/// The arena of `func` when it has at most one: nullopt when it has none;
/// failure (with `why`) when it has several or the markers are malformed.
FailureOr<std::optional<Arena>> findArena(func::FuncOp func, std::string &why);

/// The ops using `root` or a value that may alias it (views, casts,
/// side-effect free ops returning memrefs such as arith.select), appended
/// to `users`. Fails, with `why` and the op `at` fault, when some use cannot
/// be followed: the value flows out of its block (a terminator, a region
/// op's operand), is freed (other than by `free`), has its address taken,
/// or may come back from an op the walk does not know.
LogicalResult collectArenaUses(Value root, Operation *free,
                               SmallVectorImpl<Operation *> &users,
                               std::string &why, Operation *&at);

/// Checks the placement as it stands: every use of the arena is a
/// memref.view at a constant offset within the arena (or, for an allocated
/// arena, its deallocation), aligned for its element type
/// (getElementTypeAlignment) in an arena aligned at least as much, no view
/// leaves the block it is defined in or is captured, and two views whose bytes overlap are never used at a common
/// time. `at` names the op at fault.
LogicalResult checkArenaPlacement(func::FuncOp func, const Arena &arena,
                                  std::string &why, Operation *&at);

/// The memory the planned function needs at its worst moment, as the
/// certificate's `peak_with_arena`: its peak as it stands (which counts an allocated
/// arena), plus the arena for an argument or a global one, plus, for global
/// arenas, those of the functions it calls (static memory in use during the
/// calls).
FailureOr<uint64_t> computeArenaMemory(func::FuncOp func, const Arena &arena,
                                       SizeModel sizes, std::string &why);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_ARENA_H
