//===- BodyLifetimes.cpp - the lifetime analyses of a whole body ------===//

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/OpClassification.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::memsched;

BodyLifetimes::BodyLifetimes(Operation *func, SizeModel sizes,
                             bool pinAllocations, unsigned callDepth)
    : func(func), sizes(sizes) {
  auto fail = [&](Operation *op, StringRef reason) {
    unsupportedOp = op;
    unsupportedReason = reason.str();
    blocks.clear();
  };
  if (func->getNumRegions() != 1 || func->getRegion(0).empty() ||
      func->getRegion(0).hasOneBlock()) {
    blocks.push_back(
        std::make_unique<BufferLifetimeAnalysis>(func, sizes, pinAllocations));
    reachable.push_back(true);
    if (!blocks.back()->isSupported())
      fail(blocks.back()->getUnsupportedOp(),
           blocks.back()->getUnsupportedReason());
    return;
  }
  BlockEntryState entry(func, sizes);
  if (!entry.isSupported()) {
    fail(entry.getUnsupportedOp(), entry.getUnsupportedReason());
    return;
  }
  DenseSet<Block *> reached;
  SmallVector<Block *> worklist{&func->getRegion(0).front()};
  reached.insert(worklist.front());
  while (!worklist.empty())
    for (Block *succ : worklist.pop_back_val()->getSuccessors())
      if (reached.insert(succ).second)
        worklist.push_back(succ);
  // One alias analysis of the function serves every block's.
  AliasRoots aliases(func, DenseMap<Value, unsigned>());
  for (Block &block : func->getRegion(0)) {
    reachable.push_back(reached.contains(&block));
    blocks.push_back(std::make_unique<BufferLifetimeAnalysis>(
        func, &block, entry.getLiveIn(&block), sizes, pinAllocations,
        callDepth, &aliases));
    if (!blocks.back()->isSupported()) {
      fail(blocks.back()->getUnsupportedOp(),
           blocks.back()->getUnsupportedReason());
      return;
    }
  }
}

uint64_t BodyLifetimes::getPeakAsWritten() const {
  return blocks.empty() ? 0 : blocks[getPeakBlock()]->getPeakAsWritten();
}

bool BodyLifetimes::hasOrderDependentEdges() const {
  return llvm::any_of(blocks, [](const auto &block) {
    return block->hasOrderDependentEdges();
  });
}

unsigned BodyLifetimes::getPeakBlock() const {
  unsigned best = 0;
  for (unsigned i = 1; i < blocks.size(); ++i)
    if (reachable[i] &&
        blocks[i]->getPeakAsWritten() > blocks[best]->getPeakAsWritten())
      best = i;
  return best;
}

const BodyLifetimes &BodyLifetimes::getBodyForBounds() const {
  if (!atBoundChecked) {
    atBoundChecked = true;
    SizeModel atBoundSizes = sizes;
    if (!sizes.nestedBodiesAtBound && hasReorderableBodies(func)) {
      atBoundSizes.nestedBodiesAtBound = true;
      atBound = std::make_unique<BodyLifetimes>(func, atBoundSizes);
      if (!atBound->isSupported())
        atBound.reset();
    }
  }
  return atBound ? *atBound : *this;
}
