//===- RegionYields.cpp - buffers a loop or branch hands out ----*- C++ -*-===//

#include "Analysis/MemSched/RegionYields.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::memsched;

Value mlir::memsched::stripCasts(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  return v;
}

Value mlir::memsched::wholeBufferSource(Value v) {
  while (true) {
    v = stripCasts(v);
    auto meta = v.getDefiningOp<memref::ExtractStridedMetadataOp>();
    if (!meta || v != meta.getBaseBuffer())
      return v;
    v = meta.getSource();
  }
}

static bool isConstantBool(Value v, bool value) {
  return v.getType().isInteger(1) &&
         (value ? matchPattern(v, m_One()) : matchPattern(v, m_Zero()));
}

/// Whether `op` may free memory it is given.
static bool mayFree(Operation *op) {
  if (isa<CallOpInterface>(op))
    return true;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [](auto &e) {
    return isa<MemoryEffects::Free>(e.getEffect());
  });
}

/// Whether every use of `buffer` and of its views is an access that neither
/// frees the memory nor lets its address go elsewhere, except the uses
/// `allowed` accepts (which are not followed further).
static bool onlyAccessed(Value buffer,
                         function_ref<bool(OpOperand &)> allowed) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (allowed(use))
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<RegionBranchOpInterface>(user) || mayFree(user))
        return false;
      if (mayCapture(user, v, getEffectValues(user)))
        return false;
    }
  }
  return true;
}

/// The allocation of `block` that its terminator `term` yields at
/// `position` (through casts) and hands out: nothing else frees it or
/// takes its address. Null otherwise.
static Operation *handedOutAllocation(Block &block, Operation *term,
                                      unsigned position) {
  Value yielded = term->getOperand(position);
  Value source = stripCasts(yielded);
  auto alloc = source.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != &block)
    return nullptr;
  bool yieldedOnce = false;
  bool ok = onlyAccessed(source, [&](OpOperand &use) {
    // Casts on the way to the terminator are followed as views.
    if (use.getOwner() == term && use.getOperandNumber() == position &&
        use.get() == yielded && !yieldedOnce) {
      yieldedOnce = true;
      return true;
    }
    return false;
  });
  return ok && yieldedOnce ? alloc.getOperation() : nullptr;
}

/// The op of `body` that frees the buffer `carried` names when `owned`
/// holds: `scf.if %owned { memref.dealloc base(%carried) }` or
/// `bufferization.dealloc (base(%carried)) if (%owned)`.
static Operation *findCarriedFree(Block &body, Value carried, Value owned) {
  for (Operation &op : body) {
    if (memref::DeallocOp free = matchGuardedFree(&op)) {
      if (cast<scf::IfOp>(op).getCondition() == owned &&
          wholeBufferSource(free.getMemref()) == carried)
        return &op;
      continue;
    }
    if (auto free = dyn_cast<bufferization::DeallocOp>(op))
      if (free.getMemrefs().size() == 1 && free.getRetained().empty() &&
          free.getConditions()[0] == owned &&
          wholeBufferSource(free.getMemrefs()[0]) == carried)
        return &op;
  }
  return nullptr;
}

/// The op of `block` that frees `buffer` whatever happens: a memref.dealloc
/// of it (or its base), or a bufferization.dealloc of it alone under a
/// constant true condition.
static Operation *findUnconditionalFree(Block &block, Value buffer) {
  for (Operation &op : block) {
    if (auto free = dyn_cast<memref::DeallocOp>(op))
      if (wholeBufferSource(free.getMemref()) == buffer)
        return &op;
    if (auto free = dyn_cast<bufferization::DeallocOp>(op))
      if (free.getMemrefs().size() == 1 && free.getRetained().empty() &&
          isConstantBool(free.getConditions()[0], true) &&
          wholeBufferSource(free.getMemrefs()[0]) == buffer)
        return &op;
  }
  return nullptr;
}

/// Whether `arg` goes nowhere but to reads and the one op `free` (and the
/// views leading to it).
static bool onlyFreedBy(Value arg, Operation *free) {
  return onlyAccessed(arg, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return user == free || user->getParentOp() == free;
  });
}

/// The ownership flag next to `iterArgs[i]` (arguments of `body`, each
/// with its entry value in `inits` and the value yielded for it in
/// `yielded`): an argument false on entry and yielded true, used only by
/// the op of `body` freeing `iterArgs[i]` under it, which is returned with
/// the flag's position.
static std::optional<std::pair<unsigned, Operation *>>
findOwnershipFlag(Block &body, ValueRange iterArgs, unsigned i,
                  ValueRange inits, ValueRange yielded) {
  Value carried = iterArgs[i];
  for (unsigned j = 0, e = iterArgs.size(); j < e; ++j) {
    if (j == i || j >= inits.size() || j >= yielded.size() ||
        !isConstantBool(inits[j], false) || !isConstantBool(yielded[j], true))
      continue;
    Value flag = iterArgs[j];
    Operation *free = findCarriedFree(body, carried, flag);
    if (!free || !onlyFreedBy(carried, free) ||
        !llvm::all_of(flag.getUsers(), [&](Operation *u) { return u == free; }))
      continue;
    return std::make_pair(j, free);
  }
  return std::nullopt;
}

static SmallVector<FreshYield, 1> loopYields(LoopLikeOpInterface loop) {
  SmallVector<FreshYield, 1> result;
  SmallVector<Region *> regions = loop.getLoopRegions();
  std::optional<ResultRange> results = loop.getLoopResults();
  if (regions.size() != 1 || !regions[0]->hasOneBlock() || !results)
    return result;
  Block &body = regions[0]->front();
  Operation *term = body.getTerminator();
  Block::BlockArgListType iterArgs = loop.getRegionIterArgs();
  auto inits = loop.getInits();
  if (!term || iterArgs.size() != inits.size() ||
      term->getNumOperands() != iterArgs.size() ||
      results->size() != iterArgs.size())
    return result;
  for (unsigned i = 0, e = iterArgs.size(); i < e; ++i) {
    if (!isa<MemRefType>(iterArgs[i].getType()))
      continue;
    Operation *alloc = handedOutAllocation(body, term, i);
    if (!alloc)
      continue;
    // The ownership flag next to it: false on entry, yielded true, and the
    // body frees the buffer it got when the flag holds; that buffer goes
    // nowhere else (not yielded on, not freed another way), and the flag
    // says nothing else.
    std::optional<std::pair<unsigned, Operation *>> flag =
        findOwnershipFlag(body, ValueRange(iterArgs), i, ValueRange(inits),
                          term->getOperands());
    if (!flag)
      continue;
    FreshYield fy;
    fy.position = i;
    fy.allocs.push_back(alloc);
    fy.carried = iterArgs[i];
    fy.owned = iterArgs[flag->first];
    fy.ownedResult = (*results)[flag->first];
    fy.carriedFree = flag->second;
    std::optional<APInt> trips = loop.getStaticTripCount();
    fy.bodyRuns = trips && !trips->isZero();
    fy.carriesOwned = !trips || trips->ugt(1);
    result.push_back(std::move(fy));
  }
  return result;
}

static SmallVector<FreshYield, 1> whileYields(scf::WhileOp loop) {
  SmallVector<FreshYield, 1> result;
  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  scf::ConditionOp cond = loop.getConditionOp();
  scf::YieldOp yield = loop.getYieldOp();
  ValueRange inits = loop.getInits();
  if (before.getNumArguments() != inits.size() ||
      yield.getNumOperands() != inits.size() ||
      after.getNumArguments() != loop.getNumResults())
    return result;
  for (unsigned p = 0, e = loop.getNumResults(); p < e; ++p) {
    if (!isa<MemRefType>(loop.getResult(p).getType()))
      continue;
    // The `before` region hands out a buffer of its own at p (operand 0 of
    // scf.condition is the condition).
    Operation *alloc = handedOutAllocation(before, cond, p + 1);
    if (!alloc)
      continue;
    // The `after` region frees it, and yields a buffer of its own back to
    // a `before` argument the `before` region frees under a flag.
    BlockArgument handedIn = after.getArgument(p);
    Operation *argFree = findUnconditionalFree(after, handedIn);
    if (!argFree || !onlyFreedBy(handedIn, argFree))
      continue;
    for (unsigned k = 0, n = inits.size(); k < n; ++k) {
      if (!isa<MemRefType>(before.getArgument(k).getType()))
        continue;
      Operation *back = handedOutAllocation(after, yield, k);
      if (!back)
        continue;
      std::optional<std::pair<unsigned, Operation *>> flag =
          findOwnershipFlag(before, before.getArguments(), k, inits,
                            yield->getOperands());
      if (!flag)
        continue;
      FreshYield fy;
      fy.position = p;
      fy.allocs.push_back(alloc);
      fy.carried = before.getArgument(k);
      fy.owned = before.getArgument(flag->first);
      fy.carriedFree = flag->second;
      fy.handedIn = handedIn;
      fy.handedInFree = argFree;
      fy.backAlloc = back;
      fy.bodyRuns = true;
      fy.carriesOwned = true;
      result.push_back(std::move(fy));
      break;
    }
  }
  return result;
}

SmallVector<FreshYield, 1> mlir::memsched::findFreshYields(Operation *op) {
  if (op->getNumResults() == 0 || op->getNumRegions() == 0 ||
      llvm::none_of(op->getResultTypes(), llvm::IsaPred<MemRefType>))
    return {};
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return whileYields(loop);
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    return loopYields(loop);
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return {};
  // A branch op: every region runs at most once and yields to the op.
  SmallVector<Operation *> terms;
  for (Region &region : op->getRegions()) {
    if (region.empty())
      continue;
    if (!region.hasOneBlock())
      return {};
    auto term =
        dyn_cast<RegionBranchTerminatorOpInterface>(region.front().back());
    if (!term || term->getNumOperands() != op->getNumResults())
      return {};
    SmallVector<RegionSuccessor> next;
    branch.getSuccessorRegions(RegionBranchPoint(term), next);
    if (next.size() != 1 || !next.front().isParent())
      return {};
    terms.push_back(term);
  }
  if (terms.empty())
    return {};
  SmallVector<FreshYield, 1> result;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    if (!isa<MemRefType>(op->getResult(i).getType()))
      continue;
    FreshYield fy;
    fy.position = i;
    SmallVector<Operation *> others;
    for (Operation *term : terms) {
      if (Operation *alloc = handedOutAllocation(*term->getBlock(), term, i))
        fy.allocs.push_back(alloc);
      else
        others.push_back(term);
    }
    if (fy.allocs.empty())
      continue;
    // Some regions yield something else (an argument, an earlier buffer):
    // the result is the op's buffer or that. An ownership flag next to it,
    // true from the regions that allocate and false from the others, says
    // which.
    if (!others.empty()) {
      fy.mayBeOther = true;
      for (unsigned j = 0; j < e && !fy.ownedResult; ++j) {
        if (j == i || !op->getResult(j).getType().isInteger(1))
          continue;
        bool isFlag = llvm::all_of(terms, [&](Operation *term) {
          bool fresh = !llvm::is_contained(others, term);
          return isConstantBool(term->getOperand(j), fresh);
        });
        if (isFlag)
          fy.ownedResult = op->getResult(j);
      }
    }
    result.push_back(std::move(fy));
  }
  return result;
}

FailureOr<Operation *> mlir::memsched::largestAllocation(
    const FreshYield &fy, const DataLayout &layout, SizeModel sizes,
    std::string &why) {
  Operation *largest = nullptr;
  uint64_t largestSize = 0;
  for (Operation *alloc : fy.allocs) {
    bool isBound = false;
    FailureOr<uint64_t> size =
        getAllocationSize(alloc, layout, sizes, isBound, why);
    if (failed(size))
      return failure();
    if (!largest || *size > largestSize) {
      largest = alloc;
      largestSize = *size;
    }
  }
  return largest;
}

std::optional<std::pair<Operation *, unsigned>>
mlir::memsched::getCarriedFreeLoop(Operation *op) {
  if (!isa<memref::DeallocOp, bufferization::DeallocOp>(op))
    return std::nullopt;
  // The free itself, or the scf.if around the memref.dealloc.
  for (Operation *free : {op, op->getParentOp()}) {
    Operation *loop = free ? free->getParentOp() : nullptr;
    if (!loop || !isa<LoopLikeOpInterface>(loop))
      continue;
    for (const FreshYield &fy : findFreshYields(loop))
      if (fy.carriedFree == free || fy.handedInFree == free)
        return std::make_pair(loop, fy.position);
  }
  return std::nullopt;
}

bool mlir::memsched::isLoopOwnershipFlag(Value memref, Value flag) {
  Value source = wholeBufferSource(memref);
  Operation *loop = source.getDefiningOp();
  if (!loop || flag.getDefiningOp() != loop)
    return false;
  return llvm::any_of(findFreshYields(loop), [&](const FreshYield &fy) {
    return fy.ownedResult == flag && loop->getResult(fy.position) == source;
  });
}

bool mlir::memsched::isFreeUnderOwnershipFlag(Operation *op) {
  auto free = dyn_cast<memref::DeallocOp>(op);
  auto ifOp = free ? dyn_cast_or_null<scf::IfOp>(op->getParentOp())
                   : scf::IfOp();
  return ifOp && matchGuardedFree(ifOp) == free &&
         isLoopOwnershipFlag(free.getMemref(), ifOp.getCondition());
}

LogicalResult mlir::memsched::findLeakedAllocas(
    Operation *op, SmallVectorImpl<LeakedAlloca> &leaked, std::string &why,
    Operation *&at) {
  // The remark: what bounds the runs is missing, and the ways out.
  auto refuse = [&](Operation *alloca, const Twine &reason) {
    why = ("memref.alloca in a region without its own allocation scope "
           "outlives the region, and " +
           reason +
           ": wrap the region's ops in memref.alloca_scope, or allocate "
           "with memref.alloc and free it in the region")
              .str();
    at = alloca;
  };
  if (op->getNumRegions() == 0 ||
      op->hasTrait<OpTrait::AutomaticAllocationScope>())
    return success();
  LogicalResult result = success();
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (nested != op &&
        nested->hasTrait<OpTrait::AutomaticAllocationScope>())
      return WalkResult::skip(); // its allocas end with it
    if (!isa<memref::AllocaOp>(nested))
      return WalkResult::advance();
    // Runs per run of `op`: the product over the ops between them.
    uint64_t times = 1;
    for (Operation *child = nested; child != op;
         child = child->getParentOp()) {
      Operation *parent = child->getParentOp();
      Region *region = child->getParentRegion();
      uint64_t runs = 1;
      if (auto loop = dyn_cast<LoopLikeOpInterface>(parent)) {
        std::optional<APInt> trips = loop.getStaticTripCount();
        if (!trips || trips->getActiveBits() > 32) {
          refuse(nested, parent->getName().getStringRef() +
                             " runs it a number of times with no constant "
                             "bound");
          result = failure();
          return WalkResult::interrupt();
        }
        runs = trips->getZExtValue();
      } else if (auto branch = dyn_cast<RegionBranchOpInterface>(parent)) {
        if (branch.isRepetitiveRegion(region->getRegionNumber())) {
          refuse(nested, parent->getName().getStringRef() +
                             " may run its region again and again");
          result = failure();
          return WalkResult::interrupt();
        }
      } else {
        refuse(nested, parent->getName().getStringRef() +
                           " runs its region a number of times memsched "
                           "does not know");
        result = failure();
        return WalkResult::interrupt();
      }
      std::optional<uint64_t> product = llvm::checkedMulUnsigned(times, runs);
      if (!product) {
        refuse(nested, "it runs more than 2^64 times");
        result = failure();
        return WalkResult::interrupt();
      }
      times = *product;
    }
    leaked.push_back({nested, times});
    return WalkResult::advance();
  });
  return result;
}
