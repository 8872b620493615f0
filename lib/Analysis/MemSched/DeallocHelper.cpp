//===- DeallocHelper.cpp - upstream's lowered bufferization.dealloc -*- C++ -*-===//

#include "Analysis/MemSched/DeallocHelper.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RegionYields.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::memsched;

/// Canonicalizes and CSEs `op` in place, as the deallocation pipeline
/// does after it adds the helper.
static void normalize(Operation *op) {
  MLIRContext *ctx = op->getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(op, std::move(patterns));
  IRRewriter rewriter(ctx);
  DominanceInfo dominance(op);
  eliminateCommonSubExpressions(rewriter, dominance, op);
}

/// Whether `f` has the body upstream's helper has: built afresh, both
/// canonicalized and CSE'd, and compared as printed.
static bool isDeallocationHelper(func::FuncOp f) {
  if (!f || f.isExternal() || f.getNumArguments() != 5)
    return false;
  MLIRContext *ctx = f.getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(ctx));
  SymbolTable symbols(*scratch);
  OpBuilder builder(scratch->getBodyRegion());
  func::FuncOp reference = bufferization::buildDeallocationLibraryFunction(
      builder, UnknownLoc::get(ctx), symbols);
  if (!reference)
    return false;
  // (Under the reference's name and attributes: only the body counts.)
  auto given = cast<func::FuncOp>(reference->clone());
  given.getBody().getBlocks().clear();
  IRMapping mapping;
  f.getBody().cloneInto(&given.getBody(), mapping);
  scratch->getBody()->push_back(given);
  normalize(*scratch);
  // Compared as printed: the same ops, operands, attributes (defaults
  // elided: the builder states some a parser leaves out) and names (the
  // printer numbers values by position).
  auto text = [](Operation *op) {
    std::string out;
    llvm::raw_string_ostream os(out);
    op->print(os, OpPrintingFlags().useLocalScope());
    return out;
  };
  return text(reference) == text(given);
}

/// The allocation behind `v` (through memref.cast), if any.
static memref::AllocOp listAllocation(Value v) {
  return stripCasts(v).getDefiningOp<memref::AllocOp>();
}

/// The values stored into list `list` at constant indices before `call`,
/// by index; none when anything else writes it, an index is stored twice
/// or after the call.
static std::optional<DenseMap<int64_t, Value>>
storedEntries(memref::AllocOp list, Operation *call) {
  DenseMap<int64_t, Value> entries;
  SmallVector<Value> values{list.getResult()};
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto cast = dyn_cast<memref::CastOp>(user)) {
        values.push_back(cast.getResult());
        continue;
      }
      if (user == call || isa<memref::DeallocOp, memref::LoadOp>(user))
        continue;
      auto store = dyn_cast<memref::StoreOp>(user);
      APInt index;
      if (!store || store.getMemRef() != v || store.getIndices().size() != 1 ||
          !matchPattern(store.getIndices()[0], m_ConstantInt(&index)) ||
          store->getBlock() != call->getBlock() ||
          !store->isBeforeInBlock(call))
        return std::nullopt;
      if (!entries.try_emplace(index.getSExtValue(), store.getValue()).second)
        return std::nullopt;
    }
  }
  return entries;
}

std::optional<HelperDeallocEntry>
mlir::memsched::matchHelperDeallocEntry(Operation *op) {
  memref::DeallocOp free = matchGuardedFree(op);
  if (!free)
    return std::nullopt;
  auto load =
      cast<scf::IfOp>(op).getCondition().getDefiningOp<memref::LoadOp>();
  APInt index;
  if (!load || load.getIndices().size() != 1 ||
      !matchPattern(load.getIndices()[0], m_ConstantInt(&index)))
    return std::nullopt;
  memref::AllocOp out = listAllocation(load.getMemRef());
  if (!out)
    return std::nullopt;
  // The one call the output list is handed to, as the helper's 4th
  // operand.
  func::CallOp call;
  SmallVector<Value> values{out.getResult()};
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      if (auto cast = dyn_cast<memref::CastOp>(use.getOwner())) {
        values.push_back(cast.getResult());
        continue;
      }
      if (auto c = dyn_cast<func::CallOp>(use.getOwner())) {
        if (call || use.getOperandNumber() != 3)
          return std::nullopt;
        call = c;
      }
    }
  }
  if (!call || call.getNumOperands() != 5 ||
      !isDeallocationHelper(dyn_cast_or_null<func::FuncOp>(
          call.resolveCallable())))
    return std::nullopt;
  memref::AllocOp ptrs = listAllocation(call.getOperand(0));
  memref::AllocOp kept = listAllocation(call.getOperand(1));
  memref::AllocOp conds = listAllocation(call.getOperand(2));
  if (!ptrs || !kept || !conds || !kept.getType().hasStaticShape())
    return std::nullopt;
  std::optional<DenseMap<int64_t, Value>> ptrEntries =
      storedEntries(ptrs, call);
  std::optional<DenseMap<int64_t, Value>> keptEntries =
      storedEntries(kept, call);
  std::optional<DenseMap<int64_t, Value>> condEntries =
      storedEntries(conds, call);
  if (!ptrEntries || !keptEntries || !condEntries)
    return std::nullopt;
  HelperDeallocEntry entry;
  auto pointee = [&](Value pointer) -> Value {
    auto extract =
        pointer.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
    if (!extract)
      return Value();
    entry.pointerOps.push_back(extract);
    return extract.getSource();
  };
  int64_t i = index.getSExtValue();
  for (int64_t k = 0; k <= i; ++k) {
    auto it = ptrEntries->find(k);
    Value memref = it == ptrEntries->end() ? Value() : pointee(it->second);
    if (!memref)
      return std::nullopt;
    if (k < i)
      entry.earlier.push_back(memref);
    else if (wholeBufferSource(memref) != wholeBufferSource(free.getMemref()))
      return std::nullopt;
  }
  for (auto [k, pointer] : *ptrEntries) {
    if (k <= i)
      continue;
    Value memref = pointee(pointer);
    if (!memref)
      return std::nullopt;
    entry.later.push_back(memref);
  }
  entry.memref = free.getMemref();
  auto cond = condEntries->find(i);
  if (cond == condEntries->end())
    return std::nullopt;
  entry.condition = cond->second;
  for (int64_t k = 0, e = kept.getType().getNumElements(); k < e; ++k) {
    auto it = keptEntries->find(k);
    Value memref = it == keptEntries->end() ? Value() : pointee(it->second);
    if (!memref)
      return std::nullopt;
    entry.retained.push_back(memref);
  }
  return entry;
}
