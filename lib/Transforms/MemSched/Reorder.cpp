//===- Reorder.cpp - apply a node order to a block --------------*- C++ -*-===//

#include "Transforms/MemSched/Reorder.h"

#include "mlir/IR/IRMapping.h"

#include "Analysis/MemSched/ProducerWalk.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// Emits ops into a sequence, each after the ops of the block it uses. Only
/// non-node ops (views, constants, allocations) are pulled in as producers:
/// a node may run only where the order puts it, so a producer that is a node
/// not yet emitted is an error.
class SequenceBuilder {
public:
  SequenceBuilder(const BufferLifetimeAnalysis &analysis)
      : analysis(analysis), block(analysis.getBlock()) {}

  /// Emits `root` after its not yet emitted non-node producers (iteratively:
  /// chains of producers can be arbitrarily long).
  void emit(Operation *root) {
    if (emitted.contains(root))
      return;
    auto stop = [&](Operation *def) {
      if (def->getBlock() != block || emitted.contains(def))
        return true;
      if (analysis.getNodeIndex(def)) {
        failed = true; // a node out of its place
        return true;
      }
      return false;
    };
    auto visit = [&](Operation *op) {
      if (emitted.insert(op).second)
        sequence.push_back(op);
    };
    if (::mlir::failed(walkProducersPostOrder(root, block, stop, visit)))
      failed = true;
  }

  bool isEmitted(Operation *op) const { return emitted.contains(op); }

  SmallVector<Operation *> sequence;
  bool failed = false;

private:
  const BufferLifetimeAnalysis &analysis;
  Block *block;
  DenseSet<Operation *> emitted;
};
} // namespace

/// Checks the planned sequence before anything is moved: every op after the
/// ops of the block it uses, the nodes in the order given, every
/// deallocation after every node and floating op that uses its buffer.
static LogicalResult verifySequence(const BufferLifetimeAnalysis &analysis,
                                    ArrayRef<Operation *> sequence,
                                    ArrayRef<unsigned> nodeOrder) {
  Block *block = analysis.getBlock();
  DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(sequence))
    if (!position.try_emplace(op, i).second)
      return failure();
  unsigned expected = 0;
  for (Operation &op : *block) {
    if (op.hasTrait<OpTrait::IsTerminator>() && &op == &block->back())
      continue;
    ++expected;
    auto it = position.find(&op);
    if (it == position.end())
      return failure();
    bool ok = true;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == block && def != &op &&
            position.lookup(def) >= it->second)
          ok = false;
      }
    });
    if (!ok)
      return failure();
  }
  if (expected != sequence.size())
    return failure();
  ArrayRef<NodeInfo> nodes = analysis.getNodes();
  for (unsigned i = 1; i < nodeOrder.size(); ++i)
    if (position.lookup(nodes[nodeOrder[i - 1]].op) >
        position.lookup(nodes[nodeOrder[i]].op))
      return failure();
  for (const BufferInfo &buf : analysis.getBuffers()) {
    if (!buf.dealloc)
      continue;
    unsigned freedAt = position.lookup(buf.dealloc);
    for (unsigned t : buf.touchers)
      if (nodes[t].op != buf.dealloc && position.lookup(nodes[t].op) > freedAt)
        return failure();
    for (Operation *user : buf.danglingUsers)
      if (position.lookup(user) > freedAt)
        return failure();
    if (position.lookup(buf.allocOp) > freedAt)
      return failure();
  }
  for (const LiveInInfo &in : analysis.getLiveIn()) {
    if (!in.deallocNode)
      continue;
    unsigned freedAt = position.lookup(nodes[*in.deallocNode].op);
    for (Operation *user : in.danglingUsers)
      if (position.lookup(user) > freedAt)
        return failure();
  }
  return success();
}

FailureOr<SmallVector<Operation *>>
mlir::memsched::planBlockOrder(const BufferLifetimeAnalysis &analysis,
                               ArrayRef<unsigned> nodeOrder) {
  Block *block = analysis.getBlock();
  ArrayRef<NodeInfo> nodes = analysis.getNodes();
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
  if (nodeOrder.size() != nodes.size())
    return failure();
  SequenceBuilder builder(analysis);

  SmallVector<unsigned> position(nodes.size(), UINT_MAX);
  for (unsigned i = 0; i < nodeOrder.size(); ++i) {
    if (nodeOrder[i] >= nodes.size() || position[nodeOrder[i]] != UINT_MAX)
      return failure();
    position[nodeOrder[i]] = i;
  }

  // Per position: buffers first touched there and buffers last touched there.
  SmallVector<SmallVector<unsigned, 2>> firstAt(nodes.size()),
      lastAt(nodes.size());
  for (unsigned b = 0; b < buffers.size(); ++b) {
    // Buffers no node touches are never freed (their deallocation would be a
    // node): they go with the ops left at the end.
    if (buffers[b].touchers.empty())
      continue;
    unsigned first = UINT_MAX, last = 0;
    for (unsigned t : buffers[b].touchers) {
      first = std::min(first, position[t]);
      last = std::max(last, position[t]);
    }
    firstAt[first].push_back(b);
    lastAt[last].push_back(b);
  }

  // Deallocations that are nodes (their buffer has no other toucher).
  // (One bufferization.dealloc may free several.)
  DenseMap<Operation *, SmallVector<unsigned, 1>> deallocNodeBuffers;
  for (unsigned b = 0; b < buffers.size(); ++b)
    if (buffers[b].dealloc && analysis.getNodeIndex(buffers[b].dealloc))
      deallocNodeBuffers[buffers[b].dealloc].push_back(b);

  // The live-in buffers each node frees.
  DenseMap<unsigned, SmallVector<unsigned, 1>> liveInFreedBy;
  for (auto [l, in] : llvm::enumerate(analysis.getLiveIn()))
    if (in.deallocNode)
      liveInFreedBy[*in.deallocNode].push_back(l);

  for (unsigned i = 0; i < nodeOrder.size(); ++i) {
    // (A node that allocates, a call or a memref.realloc, runs where the
    // order puts it, after what it frees needs.)
    for (unsigned b : firstAt[i])
      if (!analysis.getNodeIndex(buffers[b].allocOp))
        builder.emit(buffers[b].allocOp);
    Operation *op = nodes[nodeOrder[i]].op;
    if (auto it = deallocNodeBuffers.find(op); it != deallocNodeBuffers.end())
      for (unsigned b : it->second)
        for (Operation *user : buffers[b].danglingUsers)
          builder.emit(user);
    for (unsigned l : liveInFreedBy.lookup(nodeOrder[i]))
      for (Operation *user : analysis.getLiveIn()[l].danglingUsers)
        builder.emit(user);
    builder.emit(op);
    for (unsigned b : lastAt[i]) {
      if (!buffers[b].dealloc)
        continue;
      // Users of the buffer that feed no node still come before its free.
      for (Operation *user : buffers[b].danglingUsers)
        builder.emit(user);
      builder.emit(buffers[b].dealloc);
    }
  }

  // What is left: ops only the terminator needs, unused side-effect free
  // ops and untouched buffers that live to the end; in block order.
  Operation *terminator =
      block->mightHaveTerminator() ? block->getTerminator() : nullptr;
  for (Operation &op : *block)
    if (&op != terminator && !builder.isEmitted(&op))
      builder.emit(&op);
  if (builder.failed ||
      failed(verifySequence(analysis, builder.sequence, nodeOrder)))
    return failure();
  return std::move(builder.sequence);
}

uint64_t mlir::memsched::getPeakOfSequence(const BufferLifetimeAnalysis &analysis,
                                           ArrayRef<Operation *> sequence) {
  DenseMap<Operation *, uint64_t> allocSize, deallocSize;
  for (const BufferInfo &buf : analysis.getBuffers()) {
    allocSize[buf.allocOp] += buf.size;
    if (buf.dealloc)
      deallocSize[buf.dealloc] += buf.size;
  }
  // Buffers allocated before the block count from its start to the node
  // that frees them, if any.
  uint64_t current = 0;
  DenseMap<Operation *, uint64_t> liveInFreed;
  for (const LiveInInfo &in : analysis.getLiveIn()) {
    current += in.size;
    if (in.deallocNode)
      liveInFreed[analysis.getNodes()[*in.deallocNode].op] += in.size;
  }
  uint64_t peak = current;
  for (Operation *op : sequence) {
    std::optional<unsigned> n = analysis.getNodeIndex(op);
    // Allocations, and the fresh buffers of a call (a node) from the call on.
    if (auto it = allocSize.find(op); it != allocSize.end()) {
      current += it->second;
      peak = std::max(peak, current);
      if (!n)
        continue;
    }
    if (auto it = deallocSize.find(op); it != deallocSize.end()) {
      current -= it->second;
      continue;
    }
    uint64_t transient = n ? analysis.getNodes()[*n].transient : 0;
    peak = std::max(peak, current + transient);
    if (auto it = liveInFreed.find(op); it != liveInFreed.end())
      current -= it->second;
  }
  return peak;
}

void mlir::memsched::applyBlockOrder(const BufferLifetimeAnalysis &analysis,
                                     ArrayRef<Operation *> sequence) {
  Block *block = analysis.getBlock();
  if (block->mightHaveTerminator()) {
    Operation *terminator = block->getTerminator();
    for (Operation *op : sequence)
      op->moveBefore(terminator);
    return;
  }
  for (Operation *op : sequence)
    op->moveBefore(block, block->end());
}

void mlir::memsched::restoreBody(Operation *func, Operation *saved) {
  Region &body = func->getRegion(0);
  // Ops of one block may use values of another: drop every use first.
  body.dropAllReferences();
  body.getBlocks().clear();
  IRMapping map;
  saved->getRegion(0).cloneInto(&body, map);
}
