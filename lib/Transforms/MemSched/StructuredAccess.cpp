//===- StructuredAccess.cpp - how split rewrites see structured ops -------===//

#include "StructuredAccess.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::memsched;

bool mlir::memsched::isFragmentOp(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto source = dyn_cast<MemRefType>(copy.getSource().getType());
    auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
    return source && target && source.getRank() == target.getRank();
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureBufferSemantics() &&
         !linalgOp.hasIndexSemantics() && !linalgOp.hasDynamicShape();
}

SmallVector<Access> mlir::memsched::getAccesses(Operation *op) {
  SmallVector<Access> accesses;
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    AffineMap identity = AffineMap::getMultiDimIdentityMap(
        cast<MemRefType>(copy.getSource().getType()).getRank(),
        op->getContext());
    accesses.push_back({0, identity, false});
    accesses.push_back({1, identity, true});
    return accesses;
  }
  auto linalgOp = cast<linalg::LinalgOp>(op);
  for (OpOperand &operand : op->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()))
      accesses.push_back({operand.getOperandNumber(),
                          linalgOp.getMatchingIndexingMap(&operand),
                          linalgOp.isDpsInit(&operand)});
  return accesses;
}

Value mlir::memsched::getBase(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

static bool hasKnownUsers(Value value) {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() == value &&
          !llvm::all_of(user->getResults(), hasKnownUsers))
        return false;
      continue;
    }
    if (!isa<linalg::LinalgOp, memref::CopyOp, memref::DeallocOp,
             memref::LoadOp, memref::StoreOp, func::ReturnOp,
             func::CallOp>(user))
      return false;
  }
  return true;
}

bool mlir::memsched::isUnaliased(Value base) {
  if (!hasKnownUsers(base))
    return false;
  if (base.getDefiningOp<memref::AllocOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(base);
  if (!arg)
    return false;
  auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  return func && arg.getOwner() == &func.getFunctionBody().front() &&
         func.getArgAttr(arg.getArgNumber(), "llvm.noalias");
}

/// (StructuredAccess.h) allocated in `block`
/// with a static shape and identity layout, freed once in `block`, used
/// only by ops of `block` that a chain can hold, directly or through
/// subviews used only by them.
bool mlir::memsched::isFragmentIntermediate(Value value, Block &block) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != &block)
    return false;
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return false;
  unsigned frees = 0;
  for (Operation *user : value.getUsers()) {
    if (user->getBlock() != &block)
      return false;
    if (isa<memref::DeallocOp>(user)) {
      ++frees;
      continue;
    }
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      for (Operation *viewUser : view->getUsers())
        if (viewUser->getBlock() != &block || !isFragmentOp(viewUser))
          return false;
      continue;
    }
    if (!isFragmentOp(user))
      return false;
  }
  return frees == 1;
}

bool mlir::memsched::canMoveToLast(ArrayRef<Operation *> ops,
                                   const llvm::DenseSet<Operation *> &own,
                                   function_ref<bool(Value)> isInternal,
                                   SmallVectorImpl<Operation *> &sunkFrees,
                                   Operation *&at, std::string &why) {
  llvm::DenseSet<Operation *> moving(ops.begin(), ops.end());
  // Bases the moving ops touched so far (in block order), and those they
  // wrote.
  llvm::DenseSet<Value> touched, written, everWritten;
  // Whether they touched (wrote) a base other values may be: only such a
  // base may be what a base other values may be is (a buffer unaliased is
  // reached through itself alone).
  bool touchedOpen = false, writtenOpen = false;
  for (Operation *op : ops)
    for (const Access &access : getAccesses(op))
      if (access.isWrite && !isInternal(op->getOperand(access.operand)))
        everWritten.insert(getBase(op->getOperand(access.operand)));
  auto fail = [&](Operation *op, const Twine &reason) {
    at = op;
    why = reason.str();
    return false;
  };
  Operation *last = ops.back();
  for (Operation *op = ops.front(); op && op != last; op = op->getNextNode()) {
    if (moving.count(op)) {
      for (const Access &access : getAccesses(op)) {
        Value value = op->getOperand(access.operand);
        if (isInternal(value))
          continue;
        Value base = getBase(value);
        bool local = isUnaliased(base);
        touched.insert(base);
        if (!local)
          touchedOpen = true;
        if (access.isWrite) {
          written.insert(base);
          if (!local)
            writtenOpen = true;
        }
      }
      continue;
    }
    if (own.count(op))
      continue;
    if (auto free = dyn_cast<memref::DeallocOp>(op)) {
      Value base = getBase(free.getMemref());
      if (touched.count(base) && !everWritten.count(base)) {
        sunkFrees.push_back(op);
        continue;
      }
    }
    if (isMemoryEffectFree(op))
      continue;
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return fail(op, "its ops would move past " +
                          op->getName().getStringRef() +
                          ", whose effects are not known");
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      if (!value)
        return fail(op, "its ops would move past " +
                            op->getName().getStringRef() +
                            ", which touches memory no operand names");
      Value base = getBase(value);
      bool local = isUnaliased(base);
      bool writes =
          isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
      // A base that may be another (a block argument, a select, an argument
      // without `llvm.noalias`) may be any base the ops touched that may be
      // another too.
      bool conflict = writes ? touched.count(base) || (!local && touchedOpen)
                             : written.count(base) || (!local && writtenOpen);
      if (conflict)
        return fail(op, "its ops would move past " +
                            op->getName().getStringRef() +
                            ", which uses a buffer they use");
    }
  }
  return true;
}

void mlir::memsched::eraseReplaced(ArrayRef<Operation *> ops,
                                   ArrayRef<Operation *> buffers) {
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  for (Operation *alloc : buffers) {
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      user->erase(); // views, now unused
    alloc->erase();
  }
}
