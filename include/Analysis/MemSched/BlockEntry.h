//===- BlockEntry.h - buffers allocated when each block starts --*- C++ -*-===//
//
// For a function body with several blocks: which buffers allocated by the
// body's top-level allocations are allocated when each block starts, by a
// forward walk of the CFG to a fixed point (an allocation adds its buffer, a
// top-level `memref.dealloc` of it removes it).
//
// A block starts with every buffer some predecessor ends with: the union
// over the paths, so each block can be scheduled on its own with those
// buffers live from its start (until its own deallocation of them, if any),
// and its peak bounds every path through it. A deallocation under an
// `scf.if` (ownership-based deallocation) removes its buffer where its
// condition is decided true: always (an expression of constants, xori, andi,
// ori and select true for every value of its leaves), or on the edge of a
// `cf.cond_br` whose condition decides it; elsewhere it may not run and the
// buffer stays. Bodies are refused with a remark when an allocation in a
// loop of blocks runs again while its earlier buffer may still be
// allocated, when a deallocation frees a value that may be one of several
// buffers, or frees a buffer no path has allocated.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BLOCKENTRY_H
#define MEMSCHED_ANALYSIS_BLOCKENTRY_H

#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace memsched {

/// A buffer allocated in another block (or before the block in a loop) and
/// still allocated when the block starts.
struct LiveInBuffer {
  /// The allocation (or call returning a fresh buffer), in another block of
  /// the body.
  Operation *allocOp = nullptr;
  /// The allocated memref.
  Value value;
  /// Size in bytes (an upper bound when `sizeIsBound`).
  uint64_t size = 0;
  bool sizeIsBound = false;
  /// Buffers of one block's live-in list with the same group never come in
  /// together: no predecessor ends with two of them (e.g. the buffers two
  /// arms hand to their join). None: in no group.
  std::optional<unsigned> exclusiveGroup;
};

class BlockEntryState {
public:
  /// Analyses the body (region 0) of `func`.
  BlockEntryState(Operation *func, SizeModel sizes = {});

  bool isSupported() const { return !unsupportedOp; }
  Operation *getUnsupportedOp() const { return unsupportedOp; }
  llvm::StringRef getUnsupportedReason() const { return unsupportedReason; }

  /// The buffers allocated when `block` starts, in body order of their
  /// allocations (empty for the entry block and unreachable blocks).
  llvm::ArrayRef<LiveInBuffer> getLiveIn(Block *block) const;

  /// The position of a block in the body, from 0 for the entry block.
  unsigned getBlockNumber(Block *block) const { return blockNumber.lookup(block); }

private:
  Operation *unsupportedOp = nullptr;
  std::string unsupportedReason;
  llvm::DenseMap<Block *, llvm::SmallVector<LiveInBuffer, 2>> liveIn;
  llvm::DenseMap<Block *, unsigned> blockNumber;
  llvm::SmallVector<LiveInBuffer, 0> none;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_BLOCKENTRY_H
