//===- Reorder.cpp - apply a node order to a block --------------*- C++ -*-===//

#include "Transforms/MemSched/Reorder.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// Emits ops into a sequence, each after the ops of the block it uses.
class SequenceBuilder {
public:
  explicit SequenceBuilder(Block *block) : block(block) {}

  void emit(Operation *op) {
    if (!emitted.insert(op).second)
      return;
    // Producers first: operands of the op and of its nested ops that are
    // defined by not yet emitted ops of the block.
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == block)
          emit(def);
      }
    });
    sequence.push_back(op);
  }

  bool isEmitted(Operation *op) const { return emitted.contains(op); }

  SmallVector<Operation *> sequence;

private:
  Block *block;
  DenseSet<Operation *> emitted;
};
} // namespace

SmallVector<Operation *>
mlir::memsched::planBlockOrder(const BufferLifetimeAnalysis &analysis,
                               ArrayRef<unsigned> nodeOrder) {
  Block *block = analysis.getBlock();
  ArrayRef<NodeInfo> nodes = analysis.getNodes();
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
  SequenceBuilder builder(block);

  SmallVector<unsigned> position(nodes.size());
  for (unsigned i = 0; i < nodeOrder.size(); ++i)
    position[nodeOrder[i]] = i;

  // Per position: buffers first touched there and buffers last touched there.
  SmallVector<SmallVector<unsigned, 2>> firstAt(nodes.size()),
      lastAt(nodes.size());
  SmallVector<unsigned> untouched;
  for (unsigned b = 0; b < buffers.size(); ++b) {
    if (buffers[b].touchers.empty()) {
      untouched.push_back(b);
      continue;
    }
    unsigned first = UINT_MAX, last = 0;
    for (unsigned t : buffers[b].touchers) {
      first = std::min(first, position[t]);
      last = std::max(last, position[t]);
    }
    firstAt[first].push_back(b);
    lastAt[last].push_back(b);
  }

  // Buffers nobody touches: allocated and freed at once at the top (when
  // freed at all; otherwise they are needed at the end).
  for (unsigned b : untouched)
    if (buffers[b].dealloc) {
      builder.emit(buffers[b].allocOp);
      builder.emit(buffers[b].dealloc);
    }

  for (unsigned i = 0; i < nodeOrder.size(); ++i) {
    for (unsigned b : firstAt[i])
      builder.emit(buffers[b].allocOp);
    builder.emit(nodes[nodeOrder[i]].op);
    for (unsigned b : lastAt[i])
      if (buffers[b].dealloc)
        builder.emit(buffers[b].dealloc);
  }

  // What is left: ops only the terminator needs, unused side-effect free
  // ops and untouched buffers that live to the end; in block order.
  Operation *terminator =
      block->mightHaveTerminator() ? block->getTerminator() : nullptr;
  for (Operation &op : *block)
    if (&op != terminator && !builder.isEmitted(&op))
      builder.emit(&op);
  return std::move(builder.sequence);
}

uint64_t mlir::memsched::getPeakOfSequence(const BufferLifetimeAnalysis &analysis,
                                           ArrayRef<Operation *> sequence) {
  DenseMap<Operation *, uint64_t> allocSize, deallocSize;
  for (const BufferInfo &buf : analysis.getBuffers()) {
    allocSize[buf.allocOp] = buf.size;
    if (buf.dealloc)
      deallocSize[buf.dealloc] = buf.size;
  }
  uint64_t current = 0, peak = 0;
  for (Operation *op : sequence) {
    if (auto it = allocSize.find(op); it != allocSize.end()) {
      current += it->second;
      peak = std::max(peak, current);
      continue;
    }
    if (auto it = deallocSize.find(op); it != deallocSize.end()) {
      current -= it->second;
      continue;
    }
    uint64_t transient = 0;
    if (std::optional<unsigned> n = analysis.getNodeIndex(op))
      transient = analysis.getNodes()[*n].transient;
    peak = std::max(peak, current + transient);
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
