//===- BodyLifetimes.h - the lifetime analyses of a whole body --*- C++ -*-===//
//
// A function body is scheduled block by block: a body with one block is
// analysed as BufferLifetimeAnalysis does; a body with several blocks first
// gets the buffers allocated when each block starts (BlockEntryState), then
// one BufferLifetimeAnalysis per block with those buffers live from its
// start. Orders never cross blocks: terminators and block arguments stay.
// The body's peak is the largest of its reachable blocks' peaks (a block no
// path from the entry reaches never runs: it is analysed, but neither
// counted nor scheduled).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BODYLIFETIMES_H
#define MEMSCHED_ANALYSIS_BODYLIFETIMES_H

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"

#include <memory>

namespace mlir {
namespace memsched {

class BodyLifetimes {
public:
  /// `callDepth`: see BufferLifetimeAnalysis (a body with one block analysed
  /// for a caller is followed by the caller's own analysis instead).
  explicit BodyLifetimes(Operation *func, SizeModel sizes = {},
                         bool pinAllocations = false, unsigned callDepth = 0);

  /// Every block could be analysed; otherwise the first reason found.
  bool isSupported() const { return !unsupportedOp; }
  Operation *getUnsupportedOp() const { return unsupportedOp; }
  llvm::StringRef getUnsupportedReason() const { return unsupportedReason; }

  /// One analysis per block of the body, in body order.
  unsigned getNumBlocks() const { return blocks.size(); }
  bool hasSeveralBlocks() const { return blocks.size() > 1; }
  /// Whether some block's graph has edges that come from its current order
  /// (BufferLifetimeAnalysis::hasOrderDependentEdges).
  bool hasOrderDependentEdges() const;
  BufferLifetimeAnalysis &getBlock(unsigned i) { return *blocks[i]; }
  /// Whether some path from the entry block reaches block `i`.
  bool isReachable(unsigned i) const { return reachable[i]; }
  const BufferLifetimeAnalysis &getBlock(unsigned i) const {
    return *blocks[i];
  }

  /// The largest peak as written over the reachable blocks, and the first
  /// block that reaches it.
  uint64_t getPeakAsWritten() const;
  unsigned getPeakBlock() const;

  Operation *getFunction() const { return func; }
  SizeModel getSizes() const { return sizes; }

  /// The body the lower bounds are proved on: loop and branch bodies
  /// memsched reorders may take any of their orders, so it counts them at a
  /// bound of their peak (SizeModel::nestedBodiesAtBound). `*this` when it
  /// already does, when the body has none, or when that analysis fails;
  /// otherwise built on first use and kept (like this analysis, it holds
  /// while the IR stays as it is).
  const BodyLifetimes &getBodyForBounds() const;

private:
  Operation *func;
  SizeModel sizes;
  Operation *unsupportedOp = nullptr;
  std::string unsupportedReason;
  llvm::SmallVector<std::unique_ptr<BufferLifetimeAnalysis>, 1> blocks;
  llvm::SmallVector<bool, 1> reachable;
  mutable std::unique_ptr<BodyLifetimes> atBound;
  mutable bool atBoundChecked = false;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_BODYLIFETIMES_H
