//===- BufferLifetimeAnalysis.h - buffers, aliases, dependencies -*- C++ -*-===//
//
// Bufferization-aware lifetime analysis of one block (DESIGN.md section 1,
// layer 1): the buffers allocated in the block with their byte sizes, the
// values that alias them, the ops that touch each one, whether it escapes, the
// dependencies between the block's ops, and the peak memory of the block as
// written. The result is also a plain memsched_core::MemoryGraph for the
// scheduling and bound algorithms.
//
// Schedulable ops ("nodes") are the ops of the block other than allocations,
// deallocations of buffers allocated in the block, side-effect free ops (views,
// constants, index arithmetic) and the terminator: those follow the nodes when
// the block is reordered. The deallocation of a buffer no other node touches
// is a node of its own, so the buffer is counted where it is live.
//
// The pieces, one file each: AllocationSize (bytes), OpClassification (roles
// of ops), AliasRoots (what a memref may point into), Footprint (which
// elements an access touches), CallEffects (callee summaries); this file
// builds the graph from them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BUFFERLIFETIMEANALYSIS_H
#define MEMSCHED_ANALYSIS_BUFFERLIFETIMEANALYSIS_H

#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/BlockEntry.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace memsched {

class AliasRoots;

/// A buffer allocated by an op of the analysed block.
struct BufferInfo {
  /// The allocation (memref.alloc, memref.alloca, ...), or the call that
  /// returns the buffer fresh from its callee.
  Operation *allocOp = nullptr;
  /// The allocated memref (the allocation's result, or the call's).
  Value value;
  /// Made by a node (a call returning a fresh buffer): it is allocated
  /// where the node runs, not by an op of its own.
  bool allocatedByNode = false;
  /// Size in bytes (an upper bound when `sizeIsBound`).
  uint64_t size = 0;
  /// The size came from an upper bound of dynamic dimensions.
  bool sizeIsBound = false;
  /// The allocation the size is that of (`allocOp`, or the allocation in
  /// a callee or a region that the buffer is made by), run `sizeTimes`
  /// times; `size` is 0 regardless when nothing observes the buffer
  /// (`unobservable`).
  Operation *sizedBy = nullptr;
  uint64_t sizeTimes = 1;
  bool unobservable = false;
  /// Deallocations of this buffer in the block (at most one).
  Operation *dealloc = nullptr;
  /// Why the buffer escapes the block's control (returned, captured, passed
  /// to an op with unknown effects), empty when it does not.
  std::string escape;
  /// Nodes touching the buffer or an alias of it, in block order.
  llvm::SmallVector<unsigned, 4> touchers;
  /// The touchers that may write or free it (through any alias, nested op
  /// or callee; an op with unknown effects on an alias writes), in block
  /// order: the one notion of "may write this buffer" the scheduler's
  /// dependences, rematerialisation and its checks share
  /// (docs/user-guide.md, "What may write a buffer").
  llvm::SmallVector<unsigned, 2> writers;
  /// Side-effect free ops of the block that use an alias of the buffer but
  /// feed no node (views nobody reads, the operands of the deallocation):
  /// they must still come before the deallocation.
  llvm::SmallVector<Operation *, 2> danglingUsers;
};

/// A schedulable op of the block.
struct NodeInfo {
  Operation *op = nullptr;
  /// Peak bytes of the allocations nested in the op (regions, callee body).
  uint64_t transient = 0;
  /// The op has unknown or global effects: ordered against every op with
  /// effects.
  bool barrier = false;
  /// The node is the deallocation of a buffer no other node touches.
  bool isDealloc = false;
};

/// A buffer allocated before the block starts (in another block of the
/// body): live from the block's start to its deallocation in the block, or
/// through the whole block.
struct LiveInInfo : LiveInBuffer {
  /// The node that frees it in the block, if any.
  std::optional<unsigned> deallocNode;
  /// Side-effect free ops of the block that use it but feed no node: they
  /// come before its deallocation.
  llvm::SmallVector<Operation *, 1> danglingUsers;
  /// Live through the block like a larger live-in buffer it never comes in
  /// with (LiveInBuffer::exclusiveGroup): that one's bytes count for both,
  /// `size` is then 0 and `bufferSize` its own size.
  std::optional<unsigned> countedWith;
  uint64_t bufferSize = 0;
};

/// Lifetime analysis of the body block of a function-like op (or of any op
/// with a single-block region), or of one block of a body with several
/// blocks. Like mlir::Liveness, it is computed on construction and queried
/// afterwards; `isSupported()` says whether the block could be analysed,
/// otherwise `getUnsupportedOp()` and `getUnsupportedReason()` say why.
class BufferLifetimeAnalysis {
public:
  /// With `pinAllocations`, the graph keeps every allocation right before
  /// the node that follows it in the block and every deallocation right after
  /// the node that precedes it: orders then move only the other ops.
  explicit BufferLifetimeAnalysis(Operation *op, SizeModel sizes = {},
                                  bool pinAllocations = false);
  /// One block of the body of `op` (which may have several), with the
  /// buffers allocated when it starts (BlockEntryState::getLiveIn).
  /// `callDepth` counts the calls around the body when it is analysed for a
  /// caller (the memory of a callee with several blocks); calls and regions
  /// nested deeper than 64 in all are refused. `sharedAliases`, when
  /// given, is an AliasRoots of `op` built on the IR as it stands (up to
  /// ops moved within their blocks) that the analyses of several blocks of
  /// `op` share: it is rebased to this block's allocations and used during
  /// the construction instead of analysing `op`'s aliases again.
  BufferLifetimeAnalysis(Operation *op, Block *block,
                         llvm::ArrayRef<LiveInBuffer> liveIn,
                         SizeModel sizes = {}, bool pinAllocations = false,
                         unsigned callDepth = 0,
                         AliasRoots *sharedAliases = nullptr);
  BufferLifetimeAnalysis(Operation *op, AnalysisManager &)
      : BufferLifetimeAnalysis(op) {}
  ~BufferLifetimeAnalysis();

  bool isSupported() const { return !unsupportedOp; }
  Operation *getUnsupportedOp() const { return unsupportedOp; }
  llvm::StringRef getUnsupportedReason() const { return unsupportedReason; }

  /// The analysed block (null when the op has no single-block body).
  Block *getBlock() const { return block; }
  llvm::ArrayRef<NodeInfo> getNodes() const { return nodes; }
  llvm::ArrayRef<BufferInfo> getBuffers() const { return buffers; }
  /// Buffers allocated before the block starts; the graph buffer of the
  /// i-th is getBuffers().size() + i.
  llvm::ArrayRef<LiveInInfo> getLiveIn() const { return liveIn; }
  /// The dependency graph over the nodes, with one graph buffer per buffer.
  const ::memsched_core::MemoryGraph &getGraph() const { return graph; }

  /// Node index of an op of the block, if it is a node.
  std::optional<unsigned> getNodeIndex(Operation *op) const;

  /// Peak bytes of the block exactly as written: allocations and
  /// deallocations where they stand, nested allocations at their own peak.
  uint64_t getPeakAsWritten() const { return peakAsWritten; }
  /// The op at which the as-written peak is reached (null if nothing is
  /// allocated).
  Operation *getPeakAsWrittenOp() const { return peakAsWrittenOp; }
  /// The bytes live while each op of the block runs, as written (in block
  /// order, one entry per op; what getPeakAsWritten is the largest of).
  llvm::ArrayRef<uint64_t> getMemoryAsWritten() const {
    return memoryAsWritten;
  }
  /// Peak of the current node order under the tight model: every allocation
  /// right before its first toucher, every deallocation right after its last.
  uint64_t getPeakTight() const;
  /// Whether some dependencies come from the block's current order rather
  /// than from what the ops do (with asynchronous GPU work: the edges that
  /// keep device memory where the order counts it, the accesses each
  /// gpu.wait takes): another order of the same ops may get other such
  /// edges, so a bound holds for the orders of this graph only.
  bool hasOrderDependentEdges() const { return orderDependentEdges; }

  void print(llvm::raw_ostream &os) const;
  /// Prints the buffers allocated before the block starts (nothing when
  /// there are none).
  void printLiveIn(llvm::raw_ostream &os) const;

  /// Names a node for diagnostics and certificates: `name#index`.
  std::string describeNode(unsigned node) const;

private:
  friend class LifetimeBuilder;
  void build();

  Operation *rootOp;
  /// The block asked for, or null for the single block of the body.
  Block *requestedBlock = nullptr;
  llvm::SmallVector<LiveInInfo, 2> liveIn;
  SizeModel sizes;
  bool pinAllocations = false;
  unsigned callDepth = 0;
  /// The constructor's `sharedAliases` (used while building only).
  AliasRoots *sharedAliases = nullptr;
  Block *block = nullptr;
  Operation *unsupportedOp = nullptr;
  std::string unsupportedReason;
  llvm::SmallVector<NodeInfo> nodes;
  llvm::SmallVector<BufferInfo> buffers;
  llvm::DenseMap<Operation *, unsigned> nodeIndex;
  ::memsched_core::MemoryGraph graph;
  uint64_t peakAsWritten = 0;
  Operation *peakAsWrittenOp = nullptr;
  std::vector<uint64_t> memoryAsWritten;
  bool orderDependentEdges = false;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_BUFFERLIFETIMEANALYSIS_H
