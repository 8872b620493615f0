//===- ArenaOverRange.cpp - arenas for a range of dynamic sizes ----------===//

#include "Transforms/MemSched/ArenaOverRange.h"
#include "Transforms/MemSched/ScheduleRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::memsched;
using ::memsched_core::SizePoly;

Value mlir::memsched::materializeSymbol(OpBuilder &b, Location loc,
                                        func::FuncOp func,
                                        const SizeSymbols &symbols,
                                        unsigned s) {
  auto [value, dim] = symbols.getSymbolKey(s);
  Value v = value;
  if (dim >= 0)
    v = memref::DimOp::create(b, loc, value, dim);
  if (!v.getType().isIndex())
    v = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  return v;
}

static Value materializePoly(OpBuilder &b, Location loc, const SizePoly &poly,
                             llvm::function_ref<Value(unsigned)> symbolValue) {
  Value sum;
  for (const SizePoly::Term &t : poly.terms()) {
    Value term;
    for (::memsched_core::SymbolId s : t.monomial) {
      Value x = symbolValue(s);
      term = term ? arith::MulIOp::create(b, loc, term, x).getResult() : x;
    }
    if (!term)
      term = arith::ConstantIndexOp::create(b, loc, t.coef);
    else if (t.coef != 1)
      term = arith::MulIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, t.coef), term);
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  }
  return sum ? sum : arith::ConstantIndexOp::create(b, loc, 0).getResult();
}

Value mlir::memsched::materializeMaxOfPolys(
    OpBuilder &b, Location loc, const std::vector<SizePoly> &polys,
    llvm::function_ref<Value(unsigned)> symbolValue) {
  Value max;
  for (const SizePoly &p : polys) {
    Value v = materializePoly(b, loc, p, symbolValue);
    max = max ? arith::MaxUIOp::create(b, loc, max, v).getResult() : v;
  }
  return max ? max : arith::ConstantIndexOp::create(b, loc, 0).getResult();
}

/// The symbols in argument order: argument number, then dimension.
static std::vector<unsigned>
getSymbolsInArgumentOrder(const SizeSymbols &symbols) {
  std::vector<unsigned> order(symbols.size());
  std::iota(order.begin(), order.end(), 0);
  auto rank = [&](unsigned s) {
    auto [value, dim] = symbols.getSymbolKey(s);
    auto arg = dyn_cast<BlockArgument>(value);
    return std::make_pair(arg ? arg.getArgNumber() : UINT32_MAX, dim);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return rank(a) < rank(b); });
  return order;
}

func::FuncOp mlir::memsched::createArenaSizeFunction(
    ModuleOp module, func::FuncOp func, const SizeSymbols &symbols,
    const std::vector<std::vector<SizePoly>> &arenas) {
  MLIRContext *ctx = func.getContext();
  std::string name = (func.getSymName() + "_arena_size").str();
  SymbolTable table(module);
  if (Operation *old = table.lookup(name))
    table.erase(old);
  std::vector<unsigned> order = getSymbolsInArgumentOrder(symbols);
  OpBuilder mb(ctx);
  mb.setInsertionPointAfter(func);
  Location loc = NameLoc::get(mb.getStringAttr(name), func.getLoc());
  SmallVector<Type> inputs(order.size(), mb.getIndexType());
  auto sizeFunc = func::FuncOp::create(
      mb, loc, name, mb.getFunctionType(inputs, {mb.getIndexType()}));
  table.insert(sizeFunc);
  Block *entry = sizeFunc.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  std::vector<Value> bySymbol(symbols.size());
  for (auto [i, s] : llvm::enumerate(order))
    bySymbol[s] = entry->getArgument(i);
  // The largest arena, as one max: its alternatives are all the arenas'.
  std::vector<SizePoly> all;
  for (const std::vector<SizePoly> &arena : arenas)
    all.insert(all.end(), arena.begin(), arena.end());
  all = ::memsched_core::pruneDominated(all);
  Value bytes = materializeMaxOfPolys(b, loc, all,
                                      [&](unsigned s) { return bySymbol[s]; });
  func::ReturnOp::create(b, loc, bytes);
  return sizeFunc;
}

func::FuncOp mlir::memsched::getArenaSizeFunction(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  return module.lookupSymbol<func::FuncOp>(
      (func.getSymName() + "_arena_size").str());
}

LogicalResult mlir::memsched::checkArenaSizeFunction(
    func::FuncOp sizeFunc, const SizeSymbols &symbols,
    const std::vector<SizePoly> &arenas, std::string &why) {
  std::vector<unsigned> order = getSymbolsInArgumentOrder(symbols);
  FunctionType type = sizeFunc.getFunctionType();
  if (sizeFunc.isExternal() || type.getNumInputs() != order.size() ||
      type.getNumResults() != 1 ||
      !llvm::all_of(type.getInputs(), [](Type t) { return t.isIndex(); }) ||
      !type.getResult(0).isIndex() || !sizeFunc.getBody().hasOneBlock()) {
    why = "@" + sizeFunc.getSymName().str() +
          " does not take one index per "
          "dynamic size (" +
          std::to_string(order.size()) + ") and return one index";
    return failure();
  }
  Block &entry = sizeFunc.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(entry.getTerminator());
  std::optional<std::vector<SizePoly>> returned;
  if (ret && ret.getNumOperands() == 1)
    returned = getSizeExpression(ret.getOperand(0),
                                 [&](Value leaf) -> std::optional<SizePoly> {
                                   auto arg = dyn_cast<BlockArgument>(leaf);
                                   if (!arg || arg.getOwner() != &entry)
                                     return std::nullopt;
                                   return SizePoly::symbol(
                                       order[arg.getArgNumber()]);
                                 });
  if (!returned) {
    why = "@" + sizeFunc.getSymName().str() +
          " does not return additions, products and maxima of its arguments";
    return failure();
  }
  using Side = const std::vector<SizePoly> *;
  for (auto [lhs, rhs] : {std::pair<Side, Side>(&*returned, &arenas),
                          std::pair<Side, Side>(&arenas, &*returned)}) {
    ::memsched_core::MaxComparison c = ::memsched_core::proveMaxAtMost(
        *lhs, *rhs, symbols.getRanges(), kRangeProofBudget);
    if (c.result == ::memsched_core::ProofResult::Proved)
      continue;
    why = "@" + sizeFunc.getSymName().str() + " returns " +
          describeMaxOfPolys(*returned, symbols.getNames()) +
          " bytes but the arena needs " +
          describeMaxOfPolys(arenas, symbols.getNames());
    if (c.result == ::memsched_core::ProofResult::Refuted)
      why += " (at " + symbols.describePoint(c.counterexample) + ": " +
             std::to_string(
                 ::memsched_core::evaluateMax(*returned, c.counterexample)) +
             " against " +
             std::to_string(
                 ::memsched_core::evaluateMax(arenas, c.counterexample)) +
             ")";
    else
      why += " (not proved equal within the work budget)";
    return failure();
  }
  return success();
}

FailureOr<std::vector<SizePoly>>
mlir::memsched::getMemoryOverRange(func::FuncOp func, const SizeModel &sizes,
                                   const std::vector<std::string> &names,
                                   std::string &why,
                                   const DeclaredRanges *given) {
  FailureOr<SizeSymbols> symbols = SizeSymbols::collect(func, why, given);
  if (failed(symbols))
    return failure();
  std::vector<uint64_t> low, high;
  getRangeEnds(*symbols, low, high);
  // How many alternatives the sizes that are maxima have. Each analysis
  // below takes the same alternative for all of them, which is their max
  // only when no two are live at once: arenas by phase, but not maxima the
  // body itself computes.
  unsigned choices = 0, maxima = 0, otherMaxima = 0;
  func.walk([&](memref::AllocOp alloc) {
    for (Value operand : alloc.getDynamicSizes())
      if (isSizeExpression(operand))
        if (auto expr = getSizeExpression(operand, *symbols)) {
          choices = std::max<unsigned>(choices, expr->size());
          if (expr->size() > 1) {
            ++maxima;
            otherMaxima += !alloc->hasAttr("memsched.arena");
          }
        }
  });
  if (maxima > 1 && otherMaxima) {
    why = "an allocation of the body is sized by a maximum of the dynamic "
          "sizes (arith.maxui)";
    return failure();
  }
  std::vector<SizePoly> memory;
  for (unsigned k = 0; k < std::max(choices, 1u); ++k) {
    SizeModel model = sizes;
    model.point.reset();
    if (choices)
      model.maxChoice = k;
    Operation *where = nullptr;
    FailureOr<RangeBody> body =
        getRangeBody(func, model, /*pinAllocations=*/true, *symbols,
                     {high, low}, where, why);
    if (failed(body))
      return failure();
    if (::memsched_core::evaluateMax(body->profile, high) !=
            body->writtenPeaks.front() ||
        ::memsched_core::evaluateMax(body->profile, low) !=
            body->writtenPeaks.back()) {
      why = "the memory as written is not the expressions' at the ends of "
            "the ranges";
      return failure();
    }
    for (const SizePoly &p : body->profile) {
      std::optional<SizePoly> renamed = ::memsched_core::parseSizePoly(
          p.str(symbols->getNames()), names, &why);
      if (!renamed)
        return failure();
      memory.push_back(std::move(*renamed));
    }
  }
  return ::memsched_core::pruneDominated(memory);
}
