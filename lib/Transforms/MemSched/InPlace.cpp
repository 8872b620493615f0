//===- InPlace.cpp - elementwise ops written into a dying input -*- C++ -*-===//

#include "Transforms/MemSched/InPlace.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::memsched;

/// A static buffer allocated in `block` with the identity layout.
static memref::AllocOp getLocalBuffer(Value value, Block *block) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block ||
      !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity())
    return {};
  return alloc;
}

/// Whether every use of `value` (and of views of it) before `op` in its
/// block, or in it: then nothing reads a view of `value` once `op` ran.
static bool usedBefore(Value value, Operation *op) {
  Block *block = op->getBlock();
  for (Operation *user : value.getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(op))
      return false;
    if (isa<ViewLikeOpInterface>(user))
      for (Value result : user->getResults())
        if (!usedBefore(result, op))
          return false;
  }
  return true;
}

/// Whether every use of `value` is before `op` in its block (views of it
/// included), except `op` using `value` itself and one free of `value`
/// after `op`, returned in `free`.
static bool diesAt(Value value, Operation *op, Operation *&free) {
  Block *block = op->getBlock();
  for (Operation *user : value.getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top)
      return false;
    if (top == op) {
      if (user != op)
        return false;
      continue;
    }
    if (top->isBeforeInBlock(op)) {
      if (isa<ViewLikeOpInterface>(user))
        for (Value result : user->getResults())
          if (!usedBefore(result, op))
            return false;
      continue;
    }
    if (!isa<memref::DeallocOp>(user) || free)
      return false;
    free = user;
  }
  return free != nullptr;
}

/// Whether `value` is reached by no other memref value than its views:
/// every use (through views) is a structured op, a copy, a load, a store or
/// a free (no select, branch, call or return through which another value
/// may be it).
static bool hasOnlyKnownUses(Value value) {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() != value || !isMemoryEffectFree(user) ||
          !llvm::all_of(user->getResults(), hasOnlyKnownUses))
        return false;
      continue;
    }
    if (!isa<linalg::LinalgOp, memref::CopyOp, memref::LoadOp,
             memref::StoreOp, memref::DeallocOp>(user))
      return false;
  }
  return true;
}

std::optional<InPlaceOp> mlir::memsched::matchInPlace(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() || op->getNumRegions() != 1)
    return std::nullopt;
  Block *block = op->getBlock();
  OpOperand *init = op.getDpsInitOperand(0);
  memref::AllocOp output = getLocalBuffer(init->get(), block);
  if (!output || !op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init))
    return std::nullopt;
  // The output is fresh: nothing touches it before the op.
  for (Operation *user : output->getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || top->isBeforeInBlock(op))
      return std::nullopt;
    if (top == op && user != op)
      return std::nullopt;
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    memref::AllocOp buffer = getLocalBuffer(input->get(), block);
    // The same type and alignment: the same bytes (also as the allocator
    // counts them, with its alignment padding).
    if (!buffer || buffer == output || buffer.getType() != output.getType() ||
        buffer.getAlignment() != output.getAlignment())
      continue;
    // Every operand of the op that is the input reads it at the point's
    // own index.
    bool identity = true;
    for (OpOperand &operand : op->getOpOperands())
      if (operand.get() == buffer.getResult() &&
          !op.getMatchingIndexingMap(&operand).isIdentity())
        identity = false;
    Operation *free = nullptr;
    if (!identity || !hasOnlyKnownUses(buffer.getResult()) ||
        !diesAt(buffer.getResult(), op, free))
      continue;
    return InPlaceOp{op, buffer, free, output};
  }
  return std::nullopt;
}

void mlir::memsched::writeInPlace(const InPlaceOp &match) {
  memref::AllocOp input = match.input, output = match.output;
  match.inputFree->erase();
  output.getResult().replaceAllUsesWith(input.getResult());
  output->erase();
}
