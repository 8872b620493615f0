//===- SizeSymbols.cpp - dynamic sizes as symbols with ranges ---*- C++ -*-===//

#include "Analysis/MemSched/SizeSymbols.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::memsched;
using ::memsched_core::SymbolRange;

Value mlir::memsched::getDynamicSizeOperand(Operation *allocOp, unsigned dim) {
  auto type = dyn_cast<MemRefType>(allocOp->getResult(0).getType());
  if (!type || dim >= type.getRank() || !type.isDynamicDim(dim))
    return {};
  unsigned k = type.getDynamicDimIndex(dim);
  if (auto alloc = dyn_cast<memref::AllocOp>(allocOp))
    return k < alloc.getDynamicSizes().size() ? alloc.getDynamicSizes()[k]
                                              : Value();
  if (auto alloca = dyn_cast<memref::AllocaOp>(allocOp))
    return k < alloca.getDynamicSizes().size() ? alloca.getDynamicSizes()[k]
                                               : Value();
  if (auto realloc = dyn_cast<memref::ReallocOp>(allocOp))
    return realloc.getDynamicResultSize();
  return {};
}

bool mlir::memsched::isSizeExpression(Value v) {
  return v && isa_and_nonnull<arith::AddIOp, arith::MulIOp, arith::MaxUIOp>(
                  v.getDefiningOp());
}

void mlir::memsched::getSizeExpressionLeaves(Value v,
                                             SmallVectorImpl<Value> &leaves) {
  SmallVector<Value> work{v};
  llvm::SmallDenseSet<Value> seen{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (matchPattern(x, m_Constant()))
      continue;
    if (!isSizeExpression(x)) {
      leaves.push_back(x);
      continue;
    }
    for (Value operand : x.getDefiningOp()->getOperands())
      if (seen.insert(operand).second)
        work.push_back(operand);
  }
}

std::optional<std::vector<::memsched_core::SizePoly>>
mlir::memsched::getSizeExpression(Value v, const SizeSymbols &symbols,
                                  Operation *callSite) {
  return getSizeExpression(
      v, [&](Value leaf) { return symbols.getPoly(leaf, callSite); });
}

/// getSizeExpression with the results of the values seen so far, so that a
/// value used many times is read once.
static std::optional<std::vector<::memsched_core::SizePoly>> getSizeExpression(
    Value v,
    llvm::function_ref<std::optional<::memsched_core::SizePoly>(Value)> leaf,
    DenseMap<Value, std::optional<std::vector<::memsched_core::SizePoly>>>
        &seen) {
  using ::memsched_core::SizePoly;
  constexpr size_t kMaxAlternatives = 64;
  // Coefficients stay below 2^62: index arithmetic wraps at 2^64 where the
  // polynomials saturate, so larger ones are not read as sizes.
  constexpr uint64_t kMaxCoefficient = uint64_t(1) << 62;
  if (auto it = seen.find(v); it != seen.end())
    return it->second;
  auto done = [&](std::optional<std::vector<SizePoly>> result) {
    if (result)
      for (const SizePoly &p : *result)
        for (const SizePoly::Term &t : p.terms())
          if (t.coef >= kMaxCoefficient)
            result.reset();
    seen[v] = result;
    return result;
  };
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    if (c.isNegative() || c.getActiveBits() > 62)
      return done(std::nullopt);
    return done(std::vector<SizePoly>{SizePoly::constant(c.getZExtValue())});
  }
  if (!isSizeExpression(v)) {
    std::optional<SizePoly> p = leaf(v);
    if (!p)
      return done(std::nullopt);
    return done(std::vector<SizePoly>{std::move(*p)});
  }
  Operation *op = v.getDefiningOp();
  auto lhs = getSizeExpression(op->getOperand(0), leaf, seen);
  auto rhs = lhs ? getSizeExpression(op->getOperand(1), leaf, seen)
                 : std::nullopt;
  if (!rhs)
    return done(std::nullopt);
  std::vector<SizePoly> out;
  if (isa<arith::MaxUIOp>(op)) {
    out = *lhs;
    out.insert(out.end(), rhs->begin(), rhs->end());
  } else {
    // Sums and products distribute over max (every value is >= 0).
    for (const SizePoly &a : *lhs)
      for (const SizePoly &b : *rhs)
        out.push_back(isa<arith::AddIOp>(op) ? a + b : a * b);
  }
  out = ::memsched_core::pruneDominated(out);
  if (out.size() > kMaxAlternatives)
    return done(std::nullopt);
  return done(std::move(out));
}

std::optional<std::vector<::memsched_core::SizePoly>>
mlir::memsched::getSizeExpression(
    Value v,
    llvm::function_ref<std::optional<::memsched_core::SizePoly>(Value)> leaf) {
  DenseMap<Value, std::optional<std::vector<::memsched_core::SizePoly>>> seen;
  return ::getSizeExpression(v, leaf, seen);
}

/// The operand a call passes for `v`, an argument of the function the call
/// calls; null otherwise.
static Value getCallOperand(Value v, Operation *callSite) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto call = dyn_cast_or_null<CallOpInterface>(callSite);
  if (!arg || !call || !arg.getOwner()->isEntryBlock())
    return {};
  auto func = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
  auto callee = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
  if (!func || !callee ||
      callee.getLeafReference() != SymbolTable::getSymbolName(func) ||
      arg.getArgNumber() >= call.getArgOperands().size())
    return {};
  return call.getArgOperands()[arg.getArgNumber()];
}

std::optional<SizeFactors> mlir::memsched::getSizeFactors(Value v,
                                                          Operation *callSite) {
  return getSizeFactors(SizeSymbols::Key{v, -1}, callSite);
}

std::optional<SizeFactors>
mlir::memsched::getSizeFactors(SizeSymbols::Key key, Operation *callSite) {
  constexpr uint64_t kMaxConstant = uint64_t(1) << 62;
  constexpr unsigned kMaxSteps = 64;
  SizeFactors out;
  auto times = [&](int64_t c) {
    std::optional<uint64_t> p =
        c < 0 ? std::nullopt
              : llvm::checkedMulUnsigned(out.constant, uint64_t(c));
    if (!p || *p >= kMaxConstant)
      return false;
    out.constant = *p;
    return true;
  };
  SmallVector<SizeSymbols::Key, 4> work{key};
  for (unsigned steps = 0; !work.empty(); ++steps) {
    if (steps == kMaxSteps)
      return std::nullopt;
    auto [v, d] = work.pop_back_val();
    if (!v)
      return std::nullopt;
    if (Value operand = getCallOperand(v, callSite)) {
      work.push_back({operand, d});
      continue;
    }
    if (d < 0) {
      // An index value: a constant, a dimension, or itself.
      APInt c;
      if (matchPattern(v, m_ConstantInt(&c))) {
        if (c.isNegative() || c.getActiveBits() > 62 ||
            !times(c.getSExtValue()))
          return std::nullopt;
        continue;
      }
      Value source, dimIndex;
      if (auto dim = v.getDefiningOp<memref::DimOp>()) {
        source = dim.getSource();
        dimIndex = dim.getIndex();
      } else if (auto dim = v.getDefiningOp<tensor::DimOp>()) {
        source = dim.getSource();
        dimIndex = dim.getIndex();
      }
      APInt index;
      if (source && matchPattern(dimIndex, m_ConstantInt(&index)) &&
          !index.isNegative()) {
        work.push_back({source, index.getSExtValue()});
        continue;
      }
      out.keys.push_back({v, -1});
      continue;
    }
    // Dimension d of a shaped value.
    auto shaped = dyn_cast<ShapedType>(v.getType());
    if (shaped && shaped.hasRank() && d < shaped.getRank() &&
        !shaped.isDynamicDim(d)) {
      if (!times(shaped.getDimSize(d)))
        return std::nullopt;
      continue;
    }
    Operation *def = v.getDefiningOp();
    auto rankedSource = [](Value source) {
      auto type = dyn_cast<ShapedType>(source.getType());
      return type && type.hasRank();
    };
    if (def && isa<memref::CastOp, tensor::CastOp>(def) &&
        rankedSource(def->getOperand(0))) {
      work.push_back({def->getOperand(0), d});
      continue;
    }
    auto collapse = [&](Value source, ArrayRef<ReassociationIndices> groups) {
      if (d >= int64_t(groups.size()))
        return false;
      // (Last first: the work list pops them in order.)
      for (int64_t s : llvm::reverse(groups[d]))
        work.push_back({source, s});
      return true;
    };
    if (auto op = dyn_cast_or_null<memref::CollapseShapeOp>(def))
      if (collapse(op.getSrc(), op.getReassociationIndices()))
        continue;
    if (auto op = dyn_cast_or_null<tensor::CollapseShapeOp>(def))
      if (collapse(op.getSrc(), op.getReassociationIndices()))
        continue;
    // expand_shape: its output size, a value or a constant.
    std::optional<OpFoldResult> expanded;
    auto outputSize = [&](SmallVector<OpFoldResult> shape) {
      if (d < int64_t(shape.size()))
        expanded = shape[d];
    };
    if (auto op = dyn_cast_or_null<memref::ExpandShapeOp>(def))
      outputSize(op.getMixedOutputShape());
    else if (auto op = dyn_cast_or_null<tensor::ExpandShapeOp>(def))
      outputSize(op.getMixedOutputShape());
    if (expanded) {
      if (auto value = dyn_cast<Value>(*expanded)) {
        work.push_back({value, -1});
        continue;
      }
      auto attr = dyn_cast_or_null<IntegerAttr>(dyn_cast<Attribute>(*expanded));
      if (!attr || !times(attr.getInt()))
        return std::nullopt;
      continue;
    }
    out.keys.push_back({v, d});
  }
  return out;
}

std::optional<::memsched_core::SizePoly>
SizeSymbols::getPoly(Value sizeOperand, Operation *callSite) const {
  using ::memsched_core::SizePoly;
  std::optional<SizeFactors> f = getSizeFactors(sizeOperand, callSite);
  if (!f)
    return std::nullopt;
  SizePoly p = SizePoly::constant(f->constant);
  for (const Key &key : f->keys) {
    if (auto it = index.find(key); it != index.end())
      p = p * SizePoly::symbol(it->second);
    else if (auto it = aliases.find(key); it != aliases.end())
      p = p * it->second;
    else
      return std::nullopt;
  }
  return p;
}

bool SizeSymbols::hasTypical() const {
  return llvm::any_of(typical, [](const auto &t) { return t.has_value(); });
}

std::vector<uint64_t>
SizeSymbols::getTypicalPoint(const std::vector<uint64_t> &high) const {
  std::vector<uint64_t> point = high;
  for (unsigned s = 0; s < typical.size() && s < point.size(); ++s)
    if (typical[s])
      point[s] = *typical[s];
  return point;
}

bool SizeSymbols::hasUnbounded() const {
  return llvm::any_of(ranges, [](const SymbolRange &r) { return !r.hi; });
}

std::string SizeSymbols::describeRanges() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (unsigned i = 0; i < keys.size(); ++i) {
    if (i)
      os << ", ";
    os << names[i] << " in [" << ranges[i].lo << ", ";
    if (ranges[i].hi)
      os << *ranges[i].hi << "]";
    else
      os << "inf)";
  }
  return s;
}

std::string
SizeSymbols::describePoint(const std::vector<uint64_t> &point) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (unsigned i = 0; i < keys.size() && i < point.size(); ++i)
    os << (i ? ", " : "") << names[i] << " = " << point[i];
  return s;
}

/// The position of `key`'s size among the dynamic sizes of the argument it
/// comes from (0 for an index or integer argument).
static unsigned getDynamicPosition(BlockArgument arg, SizeSymbols::Key key) {
  unsigned position = 0;
  if (auto shaped = dyn_cast<ShapedType>(arg.getType()))
    for (int64_t d = 0; shaped.hasRank() && d < key.second; ++d)
      position += shaped.isDynamicDim(d);
  return position;
}

/// The values the argument attribute `name` (an i64 array, `width` values
/// per dynamic size of the argument) declares for `key`, if any; fails
/// with `why` on a malformed one, or one `valid` rejects.
static FailureOr<std::optional<SmallVector<int64_t, 2>>>
getDeclaredValues(FunctionOpInterface func, SizeSymbols::Key key,
                  StringRef name, unsigned width,
                  llvm::function_ref<bool(ArrayRef<int64_t>)> valid,
                  std::string &why) {
  using Values = std::optional<SmallVector<int64_t, 2>>;
  auto arg = dyn_cast<BlockArgument>(key.first);
  if (!arg || arg.getOwner() != &func.getFunctionBody().front())
    return Values();
  Attribute attr = func.getArgAttr(arg.getArgNumber(), name);
  if (!attr)
    return Values();
  // The dialect's verifier checked the attribute's form.
  auto values = dyn_cast<DenseI64ArrayAttr>(attr);
  unsigned position = getDynamicPosition(arg, key);
  if (!values || (key.second >= 0) != isa<ShapedType>(arg.getType()) ||
      values.size() < int64_t(width * (position + 1)) ||
      !valid(values.asArrayRef().slice(width * position, width))) {
    why = "malformed `" + name.str() + "` on argument " +
          std::to_string(arg.getArgNumber());
    return failure();
  }
  return Values(SmallVector<int64_t, 2>(
      values.asArrayRef().slice(width * position, width)));
}

/// The typical value declared for `key` by a `memsched.typical` attribute
/// of the function argument it comes from, if any.
static FailureOr<std::optional<uint64_t>>
getDeclaredTypical(FunctionOpInterface func, SizeSymbols::Key key,
                   std::string &why) {
  auto values = getDeclaredValues(
      func, key, kTypicalAttrName, 1,
      [](ArrayRef<int64_t> v) { return v[0] >= 0; }, why);
  if (failed(values))
    return failure();
  if (!*values)
    return std::optional<uint64_t>();
  return std::optional<uint64_t>((**values)[0]);
}

/// The range declared for `key` by a `memsched.range` attribute of the
/// function argument it comes from, if any.
static FailureOr<std::optional<SymbolRange>>
getDeclaredRange(FunctionOpInterface func, SizeSymbols::Key key,
                 std::string &why) {
  auto values = getDeclaredValues(
      func, key, kRangeAttrName, 2,
      [](ArrayRef<int64_t> v) {
        return v[0] >= 0 && v[1] >= -1 && (v[1] < 0 || v[1] >= v[0]);
      },
      why);
  if (failed(values))
    return failure();
  if (!*values)
    return std::optional<SymbolRange>();
  SymbolRange range;
  range.lo = static_cast<uint64_t>((**values)[0]);
  if ((**values)[1] >= 0)
    range.hi = static_cast<uint64_t>((**values)[1]);
  return std::optional<SymbolRange>(range);
}

FailureOr<unsigned> SizeSymbols::addSymbol(FunctionOpInterface func, Key key,
                                           const DeclaredRanges *given,
                                           std::string &why) {
  if (auto it = index.find(key); it != index.end())
    return it->second;
  FailureOr<std::optional<SymbolRange>> declared =
      getDeclaredRange(func, key, why);
  if (failed(declared))
    return failure();
  FailureOr<std::optional<uint64_t>> typicalValue =
      getDeclaredTypical(func, key, why);
  if (failed(typicalValue))
    return failure();
  ValueBoundsConstraintSet::Variable var =
      key.second < 0
          ? ValueBoundsConstraintSet::Variable(key.first)
          : ValueBoundsConstraintSet::Variable(key.first, key.second);
  SymbolRange range;
  if (*declared)
    range = **declared;
  // A range given outside the IR, for an argument.
  auto argOf = dyn_cast<BlockArgument>(key.first);
  if (given && argOf && argOf.getOwner() == &func.getFunctionBody().front()) {
    std::string argName = "arg" + std::to_string(argOf.getArgNumber());
    if (key.second >= 0)
      argName += ".d" + std::to_string(key.second);
    if (std::optional<SymbolRange> r = given->lookup(
            SymbolTable::getSymbolName(func).getValue(), argName)) {
      range.lo = std::max(range.lo, r->lo);
      if (r->hi)
        range.hi = range.hi ? std::min(*range.hi, *r->hi) : *r->hi;
    }
    if (std::optional<uint64_t> t = given->lookupTypical(
            SymbolTable::getSymbolName(func).getValue(), argName))
      *typicalValue = *t;
  }
  if (range.hi && *range.hi < range.lo) {
    why = "the ranges given for a dynamic size do not meet";
    return failure();
  }
  // A lower bound from the op that defines the size alone (one through a
  // long chain of index arithmetic costs a projection per value of the
  // chain; 0 is always sound).
  Value self = key.first;
  auto shallow = [self](Value v, std::optional<int64_t>,
                        ValueBoundsConstraintSet &) { return v != self; };
  FailureOr<int64_t> lb = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::LB, var, shallow);
  if (succeeded(lb) && *lb > 0)
    range.lo = std::max<uint64_t>(range.lo, *lb);
  FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, var, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(ub) && *ub >= 0)
    range.hi = range.hi ? std::min<uint64_t>(*range.hi, *ub)
                        : static_cast<uint64_t>(*ub);
  if (range.hi && *range.hi < range.lo) {
    why = "the declared range of a dynamic size does not meet the bounds "
          "the IR gives it";
    return failure();
  }
  if (*typicalValue &&
      (**typicalValue < range.lo || (range.hi && **typicalValue > *range.hi))) {
    why = "the typical value " + std::to_string(**typicalValue) +
          " declared for a dynamic size is outside its range [" +
          std::to_string(range.lo) + ", " +
          (range.hi ? std::to_string(*range.hi) + "]" : "inf)");
    return failure();
  }
  std::string name, origin;
  llvm::raw_string_ostream nameOs(name), originOs(origin);
  auto arg = dyn_cast<BlockArgument>(key.first);
  bool isArg = arg && arg.getOwner() == &func.getFunctionBody().front();
  if (isArg) {
    nameOs << "arg" << arg.getArgNumber();
    originOs << "%arg" << arg.getArgNumber();
  } else {
    nameOs << "s" << keys.size();
    if (Operation *def = key.first.getDefiningOp())
      originOs << "the result of " << def->getName() << " at " << def->getLoc();
    else
      originOs << "a block argument";
  }
  if (key.second >= 0) {
    if (isArg)
      nameOs << ".d" << key.second;
    origin = "dimension " + std::to_string(key.second) + " of " + origin;
  }
  index[key] = keys.size();
  keys.push_back(key);
  ranges.push_back(range);
  typical.push_back(*typicalValue);
  names.push_back(name);
  origins.push_back(origin);
  fromArgument.push_back(isArg);
  return keys.size() - 1;
}

/// The allocations of a function body (nested regions included), in order.
static SmallVector<Operation *> getAllocations(FunctionOpInterface func) {
  SmallVector<Operation *> allocations;
  func.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::ReallocOp>(op) &&
        isAllocation(op))
      allocations.push_back(op);
  });
  return allocations;
}

FailureOr<SizeSymbols> SizeSymbols::collect(Operation *op, std::string &why,
                                            const DeclaredRanges *given) {
  SizeSymbols symbols;
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || func.isExternal())
    return symbols;
  for (Operation *alloc : getAllocations(func)) {
    auto type = cast<MemRefType>(alloc->getResult(0).getType());
    for (unsigned dim = 0; dim < type.getRank(); ++dim) {
      Value operand = getDynamicSizeOperand(alloc, dim);
      SmallVector<Value> leaves;
      if (isSizeExpression(operand))
        getSizeExpressionLeaves(operand, leaves);
      else
        leaves.push_back(operand);
      for (Value leaf : leaves)
        if (std::optional<SizeFactors> f = getSizeFactors(leaf))
          for (const Key &key : f->keys)
            if (failed(symbols.addSymbol(func, key, given, why)))
              return failure();
    }
  }
  // The sizes and offsets of the views of an arena sized for a range of
  // sizes (memsched-plan-arena): their leaves, so that the arena's
  // placement can be checked over the same symbols.
  WalkResult viewsWalk = func.getFunctionBody().walk([&](memref::ViewOp view) {
    Operation *source = view.getSource().getDefiningOp();
    if (!source || !source->hasAttr("memsched.arena"))
      return WalkResult::advance();
    // (Offsets may be rounded up to an alignment: through arith.divui.)
    SmallVector<Value> leaves, work(view->getOperands().drop_front());
    llvm::SmallDenseSet<Value> seen(work.begin(), work.end());
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (matchPattern(x, m_Constant()))
        continue;
      if (!isSizeExpression(x) && !x.getDefiningOp<arith::DivUIOp>()) {
        leaves.push_back(x);
        continue;
      }
      for (Value operand : x.getDefiningOp()->getOperands())
        if (seen.insert(operand).second)
          work.push_back(operand);
    }
    for (Value leaf : leaves)
      if (std::optional<SizeFactors> f = getSizeFactors(leaf))
        for (const Key &key : f->keys)
          if (failed(symbols.addSymbol(func, key, given, why)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (viewsWalk.wasInterrupted())
    return failure();
  // Sizes of a callee's allocations made of its arguments (or their
  // dimensions) are the caller's values at the call: the size of a buffer a
  // call returns, or what the callee needs while it runs. A callee argument
  // that calls in this body pass different values stays at its bound where
  // the call is not known (a buffer a call returns is sized at its call).
  DenseMap<Key, std::optional<::memsched_core::SizePoly>> calleeArgs;
  func.getFunctionBody().walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
    if (!callee || callee.isExternal() || callee == func)
      return WalkResult::advance();
    Block &entry = callee.getFunctionBody().front();
    for (Operation *alloc : getAllocations(callee)) {
      auto type = cast<MemRefType>(alloc->getResult(0).getType());
      // The leaves of each size (a size computed from the callee's
      // arguments, as the arena of a callee planned over ranges is).
      SmallVector<Value> leaves;
      for (unsigned dim = 0; dim < type.getRank(); ++dim) {
        Value operand = getDynamicSizeOperand(alloc, dim);
        if (isSizeExpression(operand))
          getSizeExpressionLeaves(operand, leaves);
        else if (operand)
          leaves.push_back(operand);
      }
      for (Value leaf : leaves) {
        std::optional<SizeFactors> f = getSizeFactors(leaf);
        for (const Key &key : f ? f->keys : SmallVector<Key, 2>()) {
          auto arg = dyn_cast<BlockArgument>(key.first);
          if (!arg || arg.getOwner() != &entry)
            continue;
          // What the call passes, in the caller's symbols.
          std::optional<SizeFactors> atCall = getSizeFactors(key, call);
          std::optional<::memsched_core::SizePoly> p;
          if (atCall) {
            p = ::memsched_core::SizePoly::constant(atCall->constant);
            for (const Key &callerKey : atCall->keys) {
              std::string ignored;
              FailureOr<unsigned> added =
                  symbols.addSymbol(func, callerKey, given, ignored);
              if (failed(added)) {
                p.reset();
                break;
              }
              *p = *p * ::memsched_core::SizePoly::symbol(*added);
            }
          }
          auto [it, inserted] = calleeArgs.try_emplace(key, p);
          if (!inserted && it->second != p)
            it->second.reset();
        }
      }
    }
    return WalkResult::advance();
  });
  for (auto &[key, p] : calleeArgs)
    if (p)
      symbols.aliases[key] = *p;
  return symbols;
}

LogicalResult DeclaredRanges::parse(ArrayRef<std::string> entries,
                                    std::string &why) {
  for (StringRef entry : entries) {
    StringRef text = entry.trim();
    StringRef func;
    if (text.consume_front("@")) {
      std::tie(func, text) = text.split(':');
      if (func.empty() || text.empty()) {
        why = "ranges entry '" + entry.str() + "': expected @FUNC:argN=LO:HI";
        return failure();
      }
    }
    auto [name, bounds] = text.split('=');
    auto [loText, rest] = bounds.split(':');
    auto [hiText, typicalText] = rest.split(':');
    SymbolRange range;
    uint64_t hi = 0, typicalValue = 0;
    bool nameOk = name.consume_front("arg") && !name.empty();
    StringRef number = name, dim;
    if (nameOk && name.contains(".d"))
      std::tie(number, dim) = name.split(".d");
    unsigned parsed;
    nameOk = nameOk && !number.getAsInteger(10, parsed) &&
             (dim.empty() || !dim.getAsInteger(10, parsed));
    bool hasTypical = rest.contains(':');
    if (!nameOk || !bounds.contains(':') ||
        loText.trim().getAsInteger(10, range.lo) ||
        (!hiText.trim().empty() && hiText.trim().getAsInteger(10, hi)) ||
        (hasTypical && typicalText.trim().getAsInteger(10, typicalValue))) {
      why = "ranges entry '" + entry.str() +
            "': expected [@FUNC:]argN=LO:HI[:TYPICAL] or "
            "[@FUNC:]argN.dD=LO:HI[:TYPICAL] (HI empty for no upper bound)";
      return failure();
    }
    if (hasTypical && (typicalValue < range.lo ||
                       (!hiText.trim().empty() && typicalValue > hi))) {
      why = "ranges entry '" + entry.str() + "': TYPICAL outside [LO, HI]";
      return failure();
    }
    if (!hiText.trim().empty()) {
      if (hi < range.lo) {
        why = "ranges entry '" + entry.str() + "': HI below LO";
        return failure();
      }
      range.hi = hi;
    }
    std::string key = text.split('=').first.str();
    byFunction[func][key] = range;
    if (hasTypical)
      typicalByFunction[func][key] = typicalValue;
  }
  return success();
}

std::optional<SymbolRange> DeclaredRanges::lookup(StringRef func,
                                                  StringRef name) const {
  std::optional<SymbolRange> out;
  for (StringRef f : {StringRef(), func}) {
    auto it = byFunction.find(f);
    if (it == byFunction.end())
      continue;
    auto r = it->second.find(name);
    if (r == it->second.end())
      continue;
    if (!out) {
      out = r->second;
      continue;
    }
    out->lo = std::max(out->lo, r->second.lo);
    if (r->second.hi)
      out->hi = out->hi ? std::min(*out->hi, *r->second.hi) : *r->second.hi;
  }
  return out;
}

std::optional<uint64_t> DeclaredRanges::lookupTypical(StringRef func,
                                                      StringRef name) const {
  std::optional<uint64_t> out;
  for (StringRef f : {StringRef(), func}) {
    auto it = typicalByFunction.find(f);
    if (it == typicalByFunction.end())
      continue;
    if (auto t = it->second.find(name); t != it->second.end())
      out = t->second;
  }
  return out;
}
