//===- AliasRoots.cpp - what memory a memref value may point into -*- C++ -*-===//

#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/PhaseTimes.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RegionYields.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::memsched;

/// Callee analyses nested deeper than this make a call's results unknown.
static constexpr unsigned kMaxSummaryDepth = 4;

AliasRoots::AliasRoots(Operation *func,
                       const DenseMap<Value, unsigned> &blockAllocs,
                       bool distinctArgs, unsigned depth)
    : depth(depth) {
  PhaseScope phase("analysis: aliases");
  unknownRoot = addRoot({RootKind::Unknown});
  sharedArgRoot = addRoot({RootKind::Argument});
  unknownOnly.push_back(unknownRoot);
  auto fn = dyn_cast<FunctionOpInterface>(func);
  Region &body = func->getRegion(0);
  if (!body.empty()) {
    for (BlockArgument arg : body.front().getArguments()) {
      if (!isa<BaseMemRefType>(arg.getType()))
        continue;
      bool noalias = distinctArgs ||
                     (fn && fn.getArgAttr(arg.getArgNumber(), "llvm.noalias"));
      seed(arg, noalias ? addRoot({RootKind::Argument}) : sharedArgRoot);
    }
  }
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func)
      return;
    asyncWork |= isAsyncOp(op);
    visit(op, blockAllocs);
  });
  // Block arguments of nested blocks that nothing flows into (unstructured
  // control flow inside regions) may be anything.
  func->walk([&](Block *b) {
    if (!body.empty() && b == &body.front())
      return;
    for (BlockArgument arg : b->getArguments())
      if (isa<BaseMemRefType>(arg.getType()) && !hasIncoming.contains(arg))
        seed(arg, unknownRoot);
  });
  propagate();
}

void AliasRoots::rebase(const DenseMap<Value, unsigned> &blockAllocs) {
  // Only the roots that change: the block's allocations before and now (a
  // walk over every root per block would make a function of many loop or
  // branch bodies quadratic).
  for (unsigned id : bufferRoots) {
    table[id].kind = RootKind::Local;
    table[id].buffer = 0;
  }
  bufferRoots.clear();
  for (const auto &[value, buffer] : blockAllocs) {
    auto it = allocationRoots.find(value);
    if (it == allocationRoots.end())
      continue;
    for (unsigned id : it->second) {
      table[id].kind = RootKind::Buffer;
      table[id].buffer = buffer;
      bufferRoots.push_back(id);
    }
  }
}

const AliasRoots::RootSet &AliasRoots::rootsOf(Value v) const {
  auto it = roots.find(v);
  return it == roots.end() ? empty : it->second;
}

const AliasRoots::RootSet &AliasRoots::effectRoots(Value v) const {
  if (!isa<BaseMemRefType>(v.getType()))
    return unknownOnly;
  const RootSet &set = rootsOf(v);
  return set.empty() ? unknownOnly : set;
}

unsigned
AliasRoots::addAllocationRoot(Operation *op, Value value,
                              const DenseMap<Value, unsigned> &blockAllocs) {
  auto it = blockAllocs.find(value);
  return it != blockAllocs.end()
             ? addRoot({RootKind::Buffer, it->second, op, value})
             : addRoot({RootKind::Local, 0, op, value});
}

unsigned AliasRoots::addRoot(Root r) {
  unsigned id = table.size();
  table.push_back(r);
  if (r.kind == RootKind::Buffer || r.kind == RootKind::Local)
    allocationRoots[r.value].push_back(id);
  if (r.kind == RootKind::Buffer)
    bufferRoots.push_back(id);
  return id;
}

void AliasRoots::seed(Value v, unsigned rootId) {
  RootSet &set = roots[v];
  if (!llvm::is_contained(set, rootId)) {
    set.insert(llvm::lower_bound(set, rootId), rootId);
    worklist.insert(v);
  }
}

void AliasRoots::flow(Value from, Value to) {
  if (!isa<BaseMemRefType>(from.getType()) || !isa<BaseMemRefType>(to.getType()))
    return;
  edges[from].push_back(to);
  hasIncoming.insert(to);
  roots[to]; // every flow target gets an entry
}

void AliasRoots::visit(Operation *op,
                       const DenseMap<Value, unsigned> &blockAllocs) {
  if (isAllocation(op) || isAsyncAllocation(op)) {
    Value result = op->getResult(0);
    seed(result, addAllocationRoot(op, result, blockAllocs));
    return;
  }
  // memref.realloc makes a buffer of its own (and frees its operand).
  if (isa<memref::ReallocOp>(op)) {
    Value result = op->getResult(0);
    seed(result, addAllocationRoot(op, result, blockAllocs));
    return;
  }
  if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
    StringRef name = global.getName();
    auto [it, inserted] = globals.try_emplace(name, 0);
    if (inserted)
      it->second = addRoot({RootKind::Global});
    seed(global.getResult(), it->second);
    return;
  }
  if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    for (Value result : op->getResults())
      flow(view.getViewSource(), result);
    return;
  }
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op)) {
    // A result that is a buffer the op allocates (RegionYields.h) is a root
    // of its own, an allocation made by the op; in a loop, the buffer an
    // iteration gets is that root too (an earlier iteration's), or the
    // entry value. What the body allocates stays its own.
    SmallVector<FreshYield, 1> fresh = findFreshYields(op);
    // The yielded allocations that do not flow on (the op's buffer stands
    // for them).
    DenseSet<Operation *> handedOut;
    for (const FreshYield &fy : fresh) {
      handedOut.insert(fy.allocs.begin(), fy.allocs.end());
      if (fy.backAlloc)
        handedOut.insert(fy.backAlloc);
      Value result = op->getResult(fy.position);
      unsigned id = addAllocationRoot(op, result, blockAllocs);
      seed(result, id);
      for (Value inside : {fy.carried, fy.handedIn})
        if (inside) {
          seed(inside, id);
          hasIncoming.insert(inside);
        }
    }
    // A loop known to run its body hands out the body's buffer, never its
    // entry value.
    DenseSet<Value> notEntered;
    for (const FreshYield &fy : fresh)
      if (fy.bodyRuns)
        notEntered.insert(op->getResult(fy.position));
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
    for (RegionSuccessor &succ : successors)
      for (auto [from, to] : llvm::zip(branch.getEntrySuccessorOperands(succ),
                                       succ.getSuccessorInputs()))
        if (!notEntered.contains(to))
          flow(from, to);
    for (Region &region : op->getRegions())
      for (Block &b : region) {
        if (b.empty())
          continue;
        auto term = dyn_cast<RegionBranchTerminatorOpInterface>(b.back());
        if (!term)
          continue;
        SmallVector<RegionSuccessor> next;
        branch.getSuccessorRegions(RegionBranchPoint(term), next);
        for (RegionSuccessor &succ : next) {
          OperandRange operands = term.getSuccessorOperands(succ);
          for (auto [from, to] :
               llvm::zip(operands, succ.getSuccessorInputs())) {
            Operation *def = stripCasts(from).getDefiningOp();
            if (!def || !handedOut.contains(def) ||
                def->getBlock() != &b)
              flow(from, to);
          }
        }
      }
    // Memref results not produced by any terminator stay unknown.
    for (OpResult result : op->getResults())
      if (isa<BaseMemRefType>(result.getType()) &&
          !hasIncoming.contains(result) &&
          llvm::none_of(fresh, [&](const FreshYield &fy) {
            return fy.position == result.getResultNumber();
          }))
        seed(result, unknownRoot);
    return;
  }
  if (auto branch = dyn_cast<BranchOpInterface>(op)) {
    // Operands forwarded to a successor's arguments flow into them; an
    // argument the branch produces itself may be anything.
    for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
      SuccessorOperands operands = branch.getSuccessorOperands(i);
      Block *succ = op->getSuccessor(i);
      for (unsigned j = 0, n = operands.size(); j < n; ++j) {
        BlockArgument arg = succ->getArgument(j);
        if (Value from = operands[j])
          flow(from, arg);
        else if (isa<BaseMemRefType>(arg.getType()))
          seed(arg, unknownRoot);
      }
    }
    return;
  }
  if (isa<CallOpInterface>(op))
    if (auto returned = returnedValues(op)) {
      auto call = cast<CallOpInterface>(op);
      for (auto [result, value] : llvm::zip(op->getResults(), *returned)) {
        if (value.freshAlloc) {
          seed(result, addAllocationRoot(op, result, blockAllocs));
          continue;
        }
        for (unsigned arg : value.args)
          flow(call.getArgOperands()[arg], result);
      }
      return;
    }
  // Anything else: results may alias any memref operand; an op with effects
  // (or a call) may also return memory from elsewhere.
  bool mayProduceOther = !isMemoryEffectFree(op) || isa<CallOpInterface>(op);
  for (Value result : op->getResults()) {
    if (!isa<BaseMemRefType>(result.getType()))
      continue;
    for (Value operand : op->getOperands())
      flow(operand, result);
    if (mayProduceOther || !hasIncoming.contains(result))
      seed(result, unknownRoot);
  }
}

void AliasRoots::propagate() {
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    auto it = edges.find(v);
    if (it == edges.end())
      continue;
    RootSet src = roots[v];
    for (Value to : it->second) {
      RootSet &dst = roots[to];
      bool changed = false;
      for (unsigned r : src)
        if (!llvm::is_contained(dst, r)) {
          dst.insert(llvm::lower_bound(dst, r), r);
          changed = true;
        }
      if (changed)
        worklist.insert(to);
    }
  }
}

std::optional<ReturnSummary> AliasRoots::summarizeCall(Operation *op,
                                                       unsigned depth) {
  auto call = cast<CallOpInterface>(op);
  auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  if (!callee || callee.isExternal() || depth >= kMaxSummaryDepth ||
      !llvm::hasSingleElement(callee->getRegion(0)) ||
      callee.getNumArguments() != call.getArgOperands().size())
    return std::nullopt;
  Block &body = callee->getRegion(0).front();
  Operation *term = body.getTerminator();
  if (!term || term->getNumOperands() != op->getNumResults())
    return std::nullopt;
  // Every argument its own root, so that each returned root names one.
  AliasRoots calleeRoots(callee, DenseMap<Value, unsigned>(),
                         /*distinctArgs=*/true, depth + 1);
  return calleeRoots.returnedValuesOf(body);
}

std::optional<ReturnSummary> AliasRoots::returnedValues(Operation *op) {
  if (llvm::none_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return std::nullopt; // no memref result to summarise
  auto callee = dyn_cast_or_null<FunctionOpInterface>(
      cast<CallOpInterface>(op).resolveCallable());
  if (!callee)
    return std::nullopt;
  auto cached = summaries.find(callee);
  if (cached != summaries.end() &&
      (!cached->second || cached->second->size() == op->getNumResults()))
    return cached->second;
  std::optional<ReturnSummary> &summary = summaries[callee];
  summary = summarizeCall(op, depth);
  return summary;
}

std::optional<ReturnSummary>
AliasRoots::returnedValuesOf(Block &entry) const {
  DenseMap<unsigned, unsigned> argOfRoot;
  for (BlockArgument arg : entry.getArguments())
    for (unsigned r : rootsOf(arg))
      argOfRoot[r] = arg.getArgNumber();
  Operation *term = entry.getTerminator();
  ReturnSummary returned(term->getNumOperands());
  DenseSet<unsigned> freshRoots;
  for (auto [i, value] : llvm::enumerate(term->getOperands())) {
    if (!isa<BaseMemRefType>(value.getType()))
      continue;
    const RootSet &set = rootsOf(value);
    if (set.empty())
      return std::nullopt;
    // A fresh buffer: exactly one allocation of the body, returned itself
    // (a view of it would hand over only part of what the caller frees).
    if (set.size() == 1 && table[set.front()].kind == RootKind::Local) {
      Operation *alloc = table[set.front()].alloc;
      if (!alloc || !isAllocation(alloc) || alloc->getBlock() != &entry ||
          value != alloc->getResult(0) ||
          !freshRoots.insert(set.front()).second)
        return std::nullopt;
      returned[i].freshAlloc = alloc;
      continue;
    }
    for (unsigned r : set) {
      auto it = argOfRoot.find(r);
      if (it == argOfRoot.end())
        return std::nullopt; // an allocation, a global, unknown memory
      returned[i].args.push_back(it->second);
    }
  }
  if (freshRoots.empty())
    return returned;
  // A fresh buffer is the caller's alone: the body neither frees it nor
  // lets its address go anywhere but to the return.
  WalkResult walk = entry.getParentOp()->walk([&](Operation *op) {
    if (op == term || op == entry.getParentOp())
      return WalkResult::advance();
    SmallVector<Value> accessed = getEffectValues(op);
    for (Value operand : op->getOperands()) {
      if (!isa<BaseMemRefType>(operand.getType()) ||
          llvm::none_of(rootsOf(operand),
                        [&](unsigned r) { return freshRoots.contains(r); }))
        continue;
      if (getDeallocatedValue(op) == operand || isa<CallOpInterface>(op) ||
          mayCapture(op, operand, accessed))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return returned;
}
