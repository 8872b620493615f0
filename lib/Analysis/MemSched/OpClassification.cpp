//===- OpClassification.cpp - what an op does to memory ---------*- C++ -*-===//

#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/RegionYields.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::memsched;

bool mlir::memsched::isAllocation(Operation *op) {
  if (op->getNumResults() != 1 || !isa<MemRefType>(op->getResult(0).getType()))
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return !effects.empty() && llvm::all_of(effects, [&](auto &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           e.getValue() == op->getResult(0);
  });
}

bool mlir::memsched::isUnrecognisedAllocation(Operation *op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface || isAllocation(op))
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](auto &e) {
    Value v = e.getValue();
    return isa<MemoryEffects::Allocate>(e.getEffect()) && v &&
           isa<BaseMemRefType>(v.getType()) && v.getDefiningOp() == op;
  });
}

Value mlir::memsched::getDeallocatedValue(Operation *op) {
  if (op->getNumResults() != 0 || op->getNumRegions() != 0)
    return nullptr;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return nullptr;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  Value freed;
  for (auto &e : effects) {
    if (!isa<MemoryEffects::Free>(e.getEffect()) || !e.getValue())
      return nullptr;
    if (freed && freed != e.getValue())
      return nullptr;
    freed = e.getValue();
  }
  return freed;
}

bool mlir::memsched::isSequentialRegionOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return llvm::is_contained({"scf.for", "scf.if", "scf.while",
                             "scf.execute_region", "scf.index_switch",
                             "affine.for", "affine.if"},
                            name);
}

bool mlir::memsched::isReorderableBody(Block &block) {
  Operation *parent = block.getParentOp();
  if (!parent || !isSequentialRegionOp(parent) ||
      !block.getParent()->hasOneBlock())
    return false;
  // Allocations, and the buffers calls and loops or branches of the body
  // hand to it (fresh results).
  auto freshResults = [](Operation *op) -> SmallVector<Value, 1> {
    SmallVector<Value, 1> fresh;
    if (isa<CallOpInterface>(op) &&
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      if (std::optional<ReturnSummary> returned =
              AliasRoots::summarizeCall(op))
        for (auto [result, value] : llvm::zip(op->getResults(), *returned))
          if (value.freshAlloc)
            fresh.push_back(result);
    for (const FreshYield &fy : findFreshYields(op))
      fresh.push_back(op->getResult(fy.position));
    if (isa<memref::ReallocOp>(op))
      fresh.push_back(op->getResult(0));
    return fresh;
  };
  unsigned allocations = 0;
  DenseSet<Value> made;
  for (Operation &op : block) {
    if (isAllocation(&op)) {
      ++allocations;
      continue;
    }
    for (Value v : freshResults(&op)) {
      made.insert(v);
      ++allocations;
    }
  }
  if (allocations < 2)
    return false;
  // A body that frees memory from outside it holds that memory until the
  // free: counted on its own, the body would not see it.
  auto inBody = [&](Operation *def) {
    return block.getParent()->isAncestor(def->getParentRegion());
  };
  auto ownBuffer = [&](Value v) {
    if (made.contains(v))
      return true;
    Operation *def = v.getDefiningOp();
    return def && isAllocation(def) && inBody(def);
  };
  WalkResult walk = block.walk([&](Operation *op) {
    // A loop of the body freeing the buffer an iteration got frees that
    // loop's own buffers.
    if (std::optional<std::pair<Operation *, unsigned>> loop =
            getCarriedFreeLoop(op))
      return inBody(loop->first) ? WalkResult::advance()
                                 : WalkResult::interrupt();
    // (bufferization.dealloc states no effects.)
    if (auto free = dyn_cast<bufferization::DeallocOp>(op))
      return llvm::all_of(free.getMemrefs(),
                          [&](Value v) {
                            while (auto view =
                                       v.getDefiningOp<ViewLikeOpInterface>())
                              v = view.getViewSource();
                            return ownBuffer(v);
                          })
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &e : effects)
      if (isa<MemoryEffects::Free>(e.getEffect()) &&
          (!e.getValue() || !ownBuffer(e.getValue())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

bool mlir::memsched::hasReorderableBodies(Operation *op) {
  return op
      ->walk([](Block *block) {
        return isReorderableBody(*block) ? WalkResult::interrupt()
                                         : WalkResult::advance();
      })
      .wasInterrupted();
}

bool mlir::memsched::isAsyncOp(Operation *op) {
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  return async && async.getAsyncToken();
}

bool mlir::memsched::isAsyncAllocation(Operation *op) {
  auto alloc = dyn_cast<gpu::AllocOp>(op);
  return alloc && alloc.getAsyncToken();
}

Value mlir::memsched::getAsyncDeallocatedValue(Operation *op) {
  auto dealloc = dyn_cast<gpu::DeallocOp>(op);
  return dealloc && dealloc.getAsyncToken() ? dealloc.getMemref() : Value();
}

OperandRange mlir::memsched::getAsyncDependencies(Operation *op) {
  return cast<gpu::AsyncOpInterface>(op).getAsyncDependencies();
}

memref::DeallocOp mlir::memsched::matchGuardedFree(Operation *op) {
  auto ifOp = dyn_cast<scf::IfOp>(op);
  if (!ifOp || ifOp->getNumResults() != 0 ||
      !ifOp.getElseRegion().empty() || !ifOp.getThenRegion().hasOneBlock())
    return nullptr;
  Block &then = ifOp.getThenRegion().front();
  if (then.getOperations().size() != 2)
    return nullptr;
  return dyn_cast<memref::DeallocOp>(then.front());
}

std::optional<ConditionalFree>
mlir::memsched::matchConditionalFree(Operation *op) {
  memref::DeallocOp dealloc = matchGuardedFree(op);
  if (!dealloc)
    return std::nullopt;
  auto ifOp = cast<scf::IfOp>(op);
  ConditionalFree result;
  result.freed = dealloc.getMemref();
  result.freedSource = result.freed;
  if (auto meta = result.freed.getDefiningOp<memref::ExtractStridedMetadataOp>())
    result.freedSource = meta.getSource();
  auto pointerOf = [&](Value v) -> Value {
    auto extract = v.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
    if (!extract)
      return nullptr;
    result.pointerOps.push_back(extract);
    return extract.getSource();
  };
  SmallVector<Value> worklist{ifOp.getCondition()};
  while (!worklist.empty()) {
    Value cond = worklist.pop_back_val();
    Operation *def = cond.getDefiningOp();
    if (!def || !isa<arith::AndIOp, arith::CmpIOp>(def)) {
      result.flags.push_back(cond);
      continue;
    }
    if (auto conj = dyn_cast<arith::AndIOp>(def)) {
      result.pointerOps.push_back(conj);
      worklist.push_back(conj.getLhs());
      worklist.push_back(conj.getRhs());
      continue;
    }
    auto cmp = dyn_cast<arith::CmpIOp>(def);
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::ne)
      return std::nullopt;
    result.pointerOps.push_back(cmp);
    Value lhs = pointerOf(cmp.getLhs()), rhs = pointerOf(cmp.getRhs());
    if (!lhs || !rhs)
      return std::nullopt;
    if (lhs == result.freed)
      result.compared.push_back(rhs);
    else if (rhs == result.freed)
      result.compared.push_back(lhs);
    else
      return std::nullopt;
  }
  // The ops of the condition must serve nothing else.
  llvm::sort(result.pointerOps);
  result.pointerOps.erase(llvm::unique(result.pointerOps),
                          result.pointerOps.end());
  for (Operation *p : result.pointerOps)
    for (Operation *user : p->getUsers())
      if (user != op && !llvm::is_contained(result.pointerOps, user))
        return std::nullopt;
  return result;
}

bool mlir::memsched::isUnobservable(Value value) {
  // Iterative: chains of pure ops can be arbitrarily long.
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (!isMemoryEffectFree(user) || user->hasTrait<OpTrait::IsTerminator>())
        return false;
      for (Value result : user->getResults())
        if (seen.insert(result).second)
          worklist.push_back(result);
    }
  }
  return true;
}

bool mlir::memsched::isFloating(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op) &&
         !isAllocation(op);
}

bool mlir::memsched::mayCapture(Operation *user, Value operand,
                                ArrayRef<Value> accessed) {
  if (llvm::is_contained(accessed, operand))
    return false;
  // Views and region forwarding produce memref values the alias analysis
  // follows.
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    if (view.getViewSource() == operand)
      return false;
  if (isa<RegionBranchOpInterface, RegionBranchTerminatorOpInterface>(user))
    return false;
  // Metadata only: sizes, strides, rank.
  if (isa<memref::DimOp, memref::RankOp>(user))
    return false;
  // Any other side-effect free op whose results are all memrefs is followed
  // as an alias (its results may be the operand); everything else may carry
  // the address away.
  if (isMemoryEffectFree(user) && user->getNumRegions() == 0 &&
      user->getNumResults() > 0 &&
      llvm::all_of(user->getResultTypes(),
                   [](Type t) { return isa<BaseMemRefType>(t); }))
    return false;
  return true;
}

SmallVector<Value> mlir::memsched::getEffectValues(
    ArrayRef<MemoryEffects::EffectInstance> effects) {
  SmallVector<Value> values;
  for (const MemoryEffects::EffectInstance &e : effects)
    if (Value v = e.getValue())
      values.push_back(v);
  return values;
}

SmallVector<Value> mlir::memsched::getEffectValues(Operation *op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return {};
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return getEffectValues(effects);
}
