//===- OpClassification.cpp - what an op does to memory ---------*- C++ -*-===//

#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
