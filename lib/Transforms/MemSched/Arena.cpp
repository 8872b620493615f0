//===- Arena.cpp - the arena of a planned function --------------*- C++ -*-===//

#include "Transforms/MemSched/Arena.h"

#include "Analysis/Graph/ArenaRange.h"
#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/SizeSymbols.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/ScheduleRange.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::memsched;

bool mlir::memsched::runsRegionsSequentially(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ExecuteRegionOp,
             scf::IndexSwitchOp, affine::AffineForOp, affine::AffineIfOp>(op);
}

std::optional<uint64_t> mlir::memsched::getArenaBytes(const Arena &arena,
                                                      const SizeModel &sizes) {
  if (!arena.dynamicSize)
    return arena.size;
  const SizePoint *point = sizes.point.get();
  if (!point || !point->symbols ||
      llvm::any_of(point->values, [](uint64_t v) { return v == kNotAtPoint; }))
    return std::nullopt;
  std::optional<std::vector<::memsched_core::SizePoly>> expr =
      getSizeExpression(arena.dynamicSize, *point->symbols);
  if (!expr)
    return std::nullopt;
  return ::memsched_core::evaluateMax(*expr, point->values);
}

static uint64_t getStaticBytes(MemRefType type) {
  return type.hasStaticShape() ? static_cast<uint64_t>(type.getNumElements())
                               : 0;
}

FailureOr<SmallVector<Arena, 1>>
mlir::memsched::findArenas(func::FuncOp func, std::string &why) {
  StringRef marker = MemSchedDialect::getArenaAttrName();
  SmallVector<Arena, 1> found;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, marker)) {
      Arena a;
      a.kind = ArenaKind::Argument;
      if (!func.isExternal())
        a.value = func.getArgument(i);
      a.size = getStaticBytes(cast<MemRefType>(func.getArgumentTypes()[i]));
      found.push_back(a);
    }
  if (!func.isExternal()) {
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (alloc->hasAttr(marker)) {
          Arena a;
          a.kind = ArenaKind::Alloc;
          a.value = alloc.getResult();
          a.size = getStaticBytes(alloc.getType());
          if (!alloc.getDynamicSizes().empty())
            a.dynamicSize = alloc.getDynamicSizes().front();
          found.push_back(a);
        }
      } else if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            get, get.getNameAttr());
        if (global && global->hasAttr(marker)) {
          Arena a;
          a.kind = ArenaKind::Global;
          a.value = get.getResult();
          a.global = global;
          a.size = getStaticBytes(global.getType());
          found.push_back(a);
        }
      }
    });
  }
  if (found.size() > 1 && llvm::any_of(found, [](const Arena &a) {
        return a.kind != ArenaKind::Alloc;
      })) {
    why = "it has " + std::to_string(found.size()) +
          " values marked memsched.arena, not all allocations (a planned "
          "function has one argument or global arena, or allocated arenas "
          "by phase)";
    return failure();
  }
  return found;
}

FailureOr<std::optional<Arena>> mlir::memsched::findArena(func::FuncOp func,
                                                          std::string &why) {
  FailureOr<SmallVector<Arena, 1>> found = findArenas(func, why);
  if (failed(found))
    return failure();
  if (found->empty())
    return std::optional<Arena>();
  if (found->size() > 1) {
    why = "it has " + std::to_string(found->size()) +
          " arenas (by phase)";
    return failure();
  }
  return std::optional<Arena>(found->front());
}

/// The bytes of a view: its element size times its extents, each dynamic
/// one at the constant upper bound of its size operand.
static FailureOr<uint64_t> getViewBytes(memref::ViewOp view,
                                        const DataLayout &layout) {
  MemRefType type = view.getType();
  llvm::TypeSize bits = layout.getTypeSizeInBits(type.getElementType());
  if (bits.isScalable())
    return failure();
  uint64_t bytes = llvm::divideCeil(bits.getFixedValue(), 8);
  unsigned dynamic = 0;
  for (int64_t extent : type.getShape()) {
    if (ShapedType::isDynamic(extent)) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(view.getSizes()[dynamic++]),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(ub) || *ub < 0)
        return failure();
      extent = *ub;
    }
    bool overflow = false;
    bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(extent),
                                     &overflow);
    if (overflow)
      return failure();
  }
  return bytes;
}

LogicalResult mlir::memsched::collectArenaUses(
    Value root, Operation *free, SmallVectorImpl<Operation *> &users,
    std::string &why, Operation *&at) {
  SmallVector<Value> work{root};
  DenseSet<Value> seen{root};
  auto addAliases = [&](Operation *op) {
    for (Value r : op->getResults())
      if (isa<BaseMemRefType>(r.getType()) && seen.insert(r).second)
        work.push_back(r);
  };
  auto fail = [&](Operation *op, const Twine &reason) {
    at = op;
    why = reason.str();
    return failure();
  };
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &u : value.getUses()) {
      Operation *op = u.getOwner();
      users.push_back(op);
      StringRef name = op->getName().getStringRef();
      if (op == free)
        continue;
      if (op->hasTrait<OpTrait::IsTerminator>() ||
          isa<RegionBranchOpInterface>(op))
        return fail(op, "it flows out of its block through " + name);
      if (getDeallocatedValue(op) || isa<memref::ReallocOp>(op))
        return fail(op, "it is freed by " + name);
      if (auto viewLike = dyn_cast<ViewLikeOpInterface>(op)) {
        if (viewLike.getViewSource() == value) {
          addAliases(op);
          continue;
        }
      }
      if (isa<CastOpInterface>(op)) {
        addAliases(op);
        continue;
      }
      bool memrefResults =
          llvm::any_of(op->getResultTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); });
      if (isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
          op->getNumResults() > 0 &&
          llvm::all_of(op->getResultTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); })) {
        // e.g. arith.select: its result may be this buffer.
        addAliases(op);
        continue;
      }
      if (isa<CallOpInterface>(op)) {
        // Used while the call runs, unless it hands back a memref.
        if (memrefResults)
          return fail(op, "it is passed to " + name +
                              ", which returns a memref that may alias it");
        continue;
      }
      SmallVector<Value> accessed;
      if (auto mem = dyn_cast<MemoryEffectOpInterface>(op)) {
        SmallVector<MemoryEffects::EffectInstance> effects;
        mem.getEffects(effects);
        for (const MemoryEffects::EffectInstance &e : effects)
          if (Value accessedValue = e.getValue())
            accessed.push_back(accessedValue);
      }
      if (mayCapture(op, value, accessed))
        return fail(op, "its address is taken by " + name +
                            ": its uses cannot all be followed");
      if (memrefResults)
        return fail(op, "it may be returned by " + name);
    }
  }
  return success();
}

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The alignment the arena itself is known to have: the allocation's or the
/// global's `alignment` attribute (1 without one, and for an argument).
static uint64_t getArenaAlignment(const Arena &arena) {
  if (arena.kind == ArenaKind::Global) {
    memref::GlobalOp global = arena.global;
    return global ? global.getAlignment().value_or(1) : 1;
  }
  if (auto alloc = arena.value.getDefiningOp<memref::AllocOp>())
    return alloc.getAlignment().value_or(1);
  return 1;
}

namespace {
/// A view of the arena: its bytes and the ops using it or an alias of it.
struct ArenaView {
  memref::ViewOp op;
  uint64_t offset = 0, size = 0;
  SmallVector<Operation *> users;
};
} // namespace

/// The blocks containing `op`, innermost first, up to the function's body.
static SmallVector<Block *> getEnclosingBlocks(Operation *op,
                                               Operation *func) {
  SmallVector<Block *> blocks{op->getBlock()};
  while (blocks.back()->getParentOp() != func)
    blocks.push_back(blocks.back()->getParentOp()->getBlock());
  return blocks;
}

/// Calls `f` on each view of the arena; fails, with `why` and `at`, on a
/// use that is not a view of it (its deallocation aside) or where `f` does.
static LogicalResult
forEachArenaView(const Arena &arena, std::string &why, Operation *&at,
                 llvm::function_ref<LogicalResult(memref::ViewOp)> f) {
  for (OpOperand &use : arena.value.getUses()) {
    Operation *user = use.getOwner();
    at = user;
    if (arena.kind == ArenaKind::Alloc && isa<memref::DeallocOp>(user))
      continue;
    auto view = dyn_cast<memref::ViewOp>(user);
    if (!view || use.getOperandNumber() != 0) {
      why = "the arena is used by " + user->getName().getStringRef().str() +
            ", not only by memref.view ops";
      return failure();
    }
    if (failed(f(view)))
      return failure();
  }
  return success();
}

/// The ops using `view` or an alias of it; fails where the view is inside
/// an op whose regions may run at the same time or out of order, or where
/// its uses cannot all be followed.
static LogicalResult collectViewUses(memref::ViewOp view, Operation *func,
                                     SmallVectorImpl<Operation *> &users,
                                     std::string &why, Operation *&at) {
  for (Operation *p = view->getParentOp(); p != func; p = p->getParentOp())
    if (!runsRegionsSequentially(p)) {
      why = "a view of the arena inside " + p->getName().getStringRef().str() +
            ", whose regions may run at the same time or out of order";
      return failure();
    }
  return collectArenaUses(view.getResult(), /*free=*/nullptr, users, why, at);
}

namespace {
/// Whether two views of an arena are used at a common time.
enum class UseOverlap { Apart, Together, NoCommonBlock, OutsideBlock };
} // namespace

/// In the innermost block holding both views (`vOp`, `wOp`, each with the
/// ops using it or an alias of it): whether their uses meet there. Both
/// inside one op of that block, in different regions or blocks of it, they
/// run one at a time.
static UseOverlap getUseOverlap(Operation *vOp, ArrayRef<Operation *> vUsers,
                                Operation *wOp, ArrayRef<Operation *> wUsers,
                                Operation *func) {
  SmallVector<Block *> vBlocks = getEnclosingBlocks(vOp, func);
  SmallVector<Block *> wBlocks = getEnclosingBlocks(wOp, func);
  Block *common = nullptr;
  for (Block *b : vBlocks)
    if (llvm::is_contained(wBlocks, b)) {
      common = b;
      break;
    }
  if (!common)
    return UseOverlap::NoCommonBlock;
  // The first and last op of `common` a view is used at.
  auto interval = [&](Operation *op, ArrayRef<Operation *> users,
                      Operation *&first, Operation *&last) -> bool {
    first = last = common->findAncestorOpInBlock(*op);
    if (!first)
      return false;
    for (Operation *u : users) {
      Operation *a = common->findAncestorOpInBlock(*u);
      if (!a)
        return false;
      if (last->isBeforeInBlock(a))
        last = a;
    }
    return true;
  };
  Operation *vFirst, *vLast, *wFirst, *wLast;
  if (!interval(vOp, vUsers, vFirst, vLast) ||
      !interval(wOp, wUsers, wFirst, wLast))
    return UseOverlap::OutsideBlock;
  if (vFirst == wFirst && vFirst != vOp && vFirst != wOp &&
      runsRegionsSequentially(vFirst))
    return UseOverlap::Apart;
  if (vLast->isBeforeInBlock(wFirst) || wLast->isBeforeInBlock(vFirst))
    return UseOverlap::Apart;
  return UseOverlap::Together;
}

namespace {
/// Where a view of an arena sized for a range of sizes starts: at lo + k
/// for some 0 <= k <= slack, a multiple of `align` at every point.
struct OffsetRange {
  ::memsched_core::SizePoly lo;
  uint64_t slack = 0, align = 1;
};
} // namespace

/// The largest power of two dividing every value of `p` (a large one for 0).
static uint64_t getPolyAlignment(const ::memsched_core::SizePoly &p) {
  uint64_t align = uint64_t(1) << 62;
  for (const ::memsched_core::SizePoly::Term &t : p.terms())
    align = std::min(align, t.coef & (~t.coef + 1));
  return align;
}

/// `v` = alignUp(inner, a) written as ((inner + (a - 1)) / a) * a, as
/// memsched-plan-arena writes an offset it rounds up at run time.
static bool matchAlignUp(Value v, Value &inner, uint64_t &a) {
  auto constantOf = [](Value x) -> std::optional<uint64_t> {
    APInt c;
    if (!matchPattern(x, m_ConstantInt(&c)) || c.isNegative() ||
        c.getActiveBits() > 63)
      return std::nullopt;
    return c.getZExtValue();
  };
  auto mul = v.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    std::optional<uint64_t> k = constantOf(mul->getOperand(1 - i));
    auto div = mul->getOperand(i).getDefiningOp<arith::DivUIOp>();
    if (!k || !div || !llvm::isPowerOf2_64(*k) || constantOf(div.getRhs()) != k)
      continue;
    auto add = div.getLhs().getDefiningOp<arith::AddIOp>();
    if (!add)
      continue;
    for (unsigned j = 0; j < 2; ++j)
      if (constantOf(add->getOperand(1 - j)) == *k - 1) {
        inner = add->getOperand(j);
        a = *k;
        return true;
      }
  }
  return false;
}

/// The OffsetRange of `v`: sums of polynomials in the symbols and of such
/// sums rounded up to an alignment (each value read once: `seen`). Slack
/// beyond 2^32 is not read (no planner writes it).
static std::optional<OffsetRange>
getOffsetRange(Value v, const SizeSymbols &symbols,
               DenseMap<Value, std::optional<OffsetRange>> &seen) {
  if (auto it = seen.find(v); it != seen.end())
    return it->second;
  constexpr uint64_t kMaxSlack = uint64_t(1) << 32;
  std::optional<OffsetRange> result;
  Value inner;
  uint64_t a = 1;
  if (matchAlignUp(v, inner, a)) {
    result = getOffsetRange(inner, symbols, seen);
    if (result) {
      result->slack += a - 1;
      result->align = std::max(result->align, a);
    }
  } else if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    std::optional<OffsetRange> x = getOffsetRange(add.getLhs(), symbols, seen);
    std::optional<OffsetRange> y =
        x ? getOffsetRange(add.getRhs(), symbols, seen) : std::nullopt;
    if (y)
      result = OffsetRange{x->lo + y->lo, x->slack + y->slack,
                           std::min(x->align, y->align)};
  } else {
    std::optional<std::vector<::memsched_core::SizePoly>> e =
        getSizeExpression(v, symbols);
    if (e && e->size() == 1)
      result = OffsetRange{e->front(), 0, getPolyAlignment(e->front())};
  }
  if (result && result->slack > kMaxSlack)
    result.reset();
  seen[v] = result;
  return result;
}

/// checkArenaPlacement for an arena sized for a range of dynamic sizes:
/// every offset and size a polynomial in the function's symbols, each view
/// proved within the arena and apart from every view used at a common time
/// for every value of the symbols in their ranges.
static LogicalResult checkPlacementOverRange(func::FuncOp func,
                                             const Arena &arena,
                                             std::string &why, Operation *&at) {
  using ::memsched_core::SizePoly;
  at = func;
  FailureOr<SizeSymbols> symbols = SizeSymbols::collect(func, why);
  if (failed(symbols))
    return failure();
  std::optional<std::vector<SizePoly>> arenaSize =
      getSizeExpression(arena.dynamicSize, *symbols);
  if (!arenaSize) {
    why = "the arena's size is not computed from the function's dynamic "
          "sizes by additions, products and maxima";
    return failure();
  }
  const std::vector<::memsched_core::SymbolRange> &ranges =
      symbols->getRanges();
  // Every value below is index arithmetic that wraps at 2^64 where the
  // polynomials do not: with every size bounded, the arena (above every
  // view's end, proved below) must stay below 2^62 at the upper ends; a
  // size without an upper end is assumed to keep it so, as every
  // allocation's size is.
  {
    std::vector<uint64_t> high;
    bool bounded = true;
    for (const ::memsched_core::SymbolRange &r : ranges) {
      bounded = bounded && r.hi;
      high.push_back(r.hi ? *r.hi : r.lo);
    }
    if (bounded &&
        ::memsched_core::evaluateMax(*arenaSize, high) >= (uint64_t(1) << 62)) {
      why = "the arena's size reaches 2^62 bytes at the upper ends of the "
            "ranges";
      return failure();
    }
  }
  DenseMap<Value, std::optional<OffsetRange>> offsets;
  auto describe = [&](const std::vector<uint64_t> &point) {
    return symbols->describePoint(point);
  };
  DataLayout layout = DataLayout::closest(func);
  // A view's bytes lie in [offset, offset + size), its size including the
  // slack of an offset rounded up at run time.
  struct View {
    memref::ViewOp op;
    SizePoly offset, size;
    SmallVector<Operation *> users;
    unsigned first = 0, last = 0;
  };
  if (!func.getBody().hasOneBlock()) {
    why = "an arena sized for a range of dynamic sizes in a body of several "
          "blocks";
    return failure();
  }
  Block *body = &func.getBody().front();
  DenseMap<Operation *, unsigned> position;
  for (auto [k, op] : llvm::enumerate(body->getOperations()))
    position[&op] = k;
  std::vector<View> views;
  LogicalResult collected = forEachArenaView(
      arena, why, at, [&](memref::ViewOp view) -> LogicalResult {
        View v;
        v.op = view;
        std::optional<OffsetRange> offset =
            getOffsetRange(view.getByteShift(), *symbols, offsets);
        if (!offset) {
          why = "a view of the arena at an offset that is not a polynomial in "
                "the function's dynamic sizes (or one rounded up to an "
                "alignment)";
          return failure();
        }
        v.offset = offset->lo;
        MemRefType type = view.getType();
        llvm::TypeSize bits = layout.getTypeSizeInBits(type.getElementType());
        if (bits.isScalable()) {
          why = "a view of the arena of scalable elements";
          return failure();
        }
        v.size = SizePoly::constant(llvm::divideCeil(bits.getFixedValue(), 8));
        unsigned dynamic = 0;
        for (int64_t extent : type.getShape()) {
          if (!ShapedType::isDynamic(extent)) {
            v.size = v.size * SizePoly::constant(static_cast<uint64_t>(extent));
            continue;
          }
          std::optional<std::vector<SizePoly>> e =
              getSizeExpression(view.getSizes()[dynamic++], *symbols);
          if (!e || e->size() != 1) {
            why = "a view of the arena whose size is not a polynomial in the "
                  "function's dynamic sizes";
            return failure();
          }
          v.size = v.size * e->front();
        }
        v.size = v.size + SizePoly::constant(offset->slack);
        uint64_t align = getElementTypeAlignment(type, layout);
        if (offset->align % align != 0) {
          why = "a view of the arena of element type " +
                typeName(type.getElementType()) + " at offset " +
                v.offset.str(symbols->getNames()) + ", not a multiple of the " +
                std::to_string(align) +
                " bytes the lowering aligns such elements to at every size";
          return failure();
        }
        if (getArenaAlignment(arena) < align) {
          why = "a view of the arena of element type " +
                typeName(type.getElementType()) + " needs " +
                std::to_string(align) +
                "-byte alignment but the arena is aligned "
                "to " +
                std::to_string(getArenaAlignment(arena)) + " bytes";
          return failure();
        }
        ::memsched_core::MaxComparison within = ::memsched_core::proveMaxAtMost(
            {v.offset + v.size}, *arenaSize, ranges, kArenaProofBudget);
        if (within.result != ::memsched_core::ProofResult::Proved) {
          why = "a view of the arena at [" + v.offset.str(symbols->getNames()) +
                ", " + (v.offset + v.size).str(symbols->getNames()) +
                ") is not within its size " +
                describeMaxOfPolys(*arenaSize, symbols->getNames()) +
                (within.result == ::memsched_core::ProofResult::Refuted
                     ? " at " + describe(within.counterexample)
                     : std::string(" (not proved within the work budget)"));
          return failure();
        }
        if (failed(collectViewUses(view, func, v.users, why, at)))
          return failure();
        v.first = v.last = position.lookup(body->findAncestorOpInBlock(*view));
        for (Operation *u : v.users) {
          unsigned k = position.lookup(body->findAncestorOpInBlock(*u));
          v.first = std::min(v.first, k);
          v.last = std::max(v.last, k);
        }
        views.push_back(std::move(v));
        return success();
      });
  if (failed(collected))
    return failure();
  // In body order, as messages name them.
  std::stable_sort(
      views.begin(), views.end(),
      [](const View &a, const View &b) { return a.first < b.first; });
  // Whether two views are used at no common time: in the innermost block
  // holding both, their uses do not meet (or they are in different regions
  // of one op there, which run one at a time).
  auto usedApart = [&](const View &v, const View &w) {
    return getUseOverlap(v.op, v.users, w.op, w.users, func) ==
           UseOverlap::Apart;
  };
  // Views used at a common time must be apart at every size.
  for (size_t i = 0; i < views.size(); ++i)
    for (size_t j = i + 1; j < views.size(); ++j) {
      const View &v = views[i], &w = views[j];
      if (v.last < w.first || w.last < v.first || v.size.isZero() ||
          w.size.isZero() || usedApart(v, w))
        continue;
      uint64_t work = 0;
      if (::memsched_core::provedAtLeast(w.offset, v.offset + v.size, ranges,
                                         kArenaProofBudget, work) ||
          ::memsched_core::provedAtLeast(v.offset, w.offset + w.size, ranges,
                                         kArenaProofBudget, work))
        continue;
      at = w.op;
      why = "two views of the arena, at [" + v.offset.str(symbols->getNames()) +
            ", " + (v.offset + v.size).str(symbols->getNames()) + ") and [" +
            w.offset.str(symbols->getNames()) + ", " +
            (w.offset + w.size).str(symbols->getNames()) +
            "), are used at a common time and are not proved apart at every "
            "size";
      return failure();
    }
  at = func;
  return success();
}

LogicalResult mlir::memsched::checkArenaPlacement(func::FuncOp func,
                                                  const Arena &arena,
                                                  std::string &why,
                                                  Operation *&at) {
  at = func;
  if (!arena.value) {
    why = "the arena is not in the body";
    return failure();
  }
  if (arena.dynamicSize)
    return checkPlacementOverRange(func, arena, why, at);
  DataLayout layout = DataLayout::closest(func);
  std::vector<ArenaView> views;
  LogicalResult collected = forEachArenaView(
      arena, why, at, [&](memref::ViewOp view) -> LogicalResult {
        ArenaView v;
        v.op = view;
        APInt offset;
        if (!matchPattern(view.getByteShift(), m_ConstantInt(&offset))) {
          why = "a view of the arena at an offset that is not a constant";
          return failure();
        }
        v.offset = offset.getZExtValue();
        FailureOr<uint64_t> size = getViewBytes(view, layout);
        if (failed(size)) {
          why = "a view of the arena whose size has no constant bound";
          return failure();
        }
        v.size = *size;
        uint64_t align = getElementTypeAlignment(view.getType(), layout);
        if (v.offset % align != 0) {
          why = "a view of the arena of element type " +
                typeName(view.getType().getElementType()) + " at offset " +
                std::to_string(v.offset) + ", not a multiple of the " +
                std::to_string(align) +
                " bytes the lowering aligns such elements to";
          return failure();
        }
        if (arena.kind != ArenaKind::Argument &&
            getArenaAlignment(arena) < align) {
          why = "a view of the arena of element type " +
                typeName(view.getType().getElementType()) + " needs " +
                std::to_string(align) +
                "-byte alignment but the arena is aligned "
                "to " +
                std::to_string(getArenaAlignment(arena)) + " bytes";
          return failure();
        }
        if (v.offset > arena.size || v.size > arena.size - v.offset) {
          why = "a view of the arena at [" + std::to_string(v.offset) + ", " +
                std::to_string(v.offset + v.size) + ") ends beyond its " +
                std::to_string(arena.size) + " bytes";
          return failure();
        }
        if (failed(collectViewUses(view, func, v.users, why, at)))
          return failure();
        views.push_back(std::move(v));
        return success();
      });
  if (failed(collected))
    return failure();

  // Two views sharing bytes: their uses in the innermost block holding
  // both must not meet.
  auto checkPair = [&](const ArenaView &v, const ArenaView &w) {
    at = w.op;
    switch (getUseOverlap(v.op, v.users, w.op, w.users, func)) {
    case UseOverlap::Apart:
      return success();
    case UseOverlap::NoCommonBlock:
      why = "internal error: two views of the arena without a common block";
      return failure();
    case UseOverlap::OutsideBlock:
      why = "a view of the arena is used outside the block it is defined in";
      return failure();
    case UseOverlap::Together:
      break;
    }
    why = "two views of the arena overlap in bytes ([" +
          std::to_string(v.offset) + ", " + std::to_string(v.offset + v.size) +
          ") and [" + std::to_string(w.offset) + ", " +
          std::to_string(w.offset + w.size) + ")) and are used at a common "
          "time";
    return failure();
  };
  // Each view's span of the function's body: the positions of the body's
  // ops holding its definition and its uses. Views whose spans do not meet
  // are used at no common time (their innermost common block is the body);
  // the others are checked pair by pair where they share bytes, found by a
  // sweep over the positions with the views live at each in offset order:
  // O(n log n) on bodies whose views are used at the top level.
  if (!func.getBody().hasOneBlock()) {
    // Bodies of several blocks: every pair sharing bytes.
    std::vector<unsigned> byOffset(views.size());
    for (unsigned i = 0; i < views.size(); ++i)
      byOffset[i] = i;
    llvm::sort(byOffset, [&](unsigned x, unsigned y) {
      return std::make_pair(views[x].offset, x) <
             std::make_pair(views[y].offset, y);
    });
    for (unsigned i = 0; i < byOffset.size(); ++i) {
      const ArenaView &v = views[byOffset[i]];
      for (unsigned j = i + 1; j < byOffset.size(); ++j) {
        const ArenaView &w = views[byOffset[j]];
        if (w.offset >= v.offset + v.size)
          break;
        if (v.size != 0 && w.size != 0 && failed(checkPair(v, w)))
          return failure();
      }
    }
    at = func;
    return success();
  }
  Block *body = &func.getBody().front();
  DenseMap<Operation *, unsigned> position;
  for (auto [k, op] : llvm::enumerate(body->getOperations()))
    position[&op] = k;
  struct Span {
    unsigned first, last;
  };
  std::vector<Span> spans;
  spans.reserve(views.size());
  uint64_t largest = 0;
  for (const ArenaView &v : views) {
    Span span;
    span.first = span.last = position.lookup(body->findAncestorOpInBlock(*v.op));
    for (Operation *u : v.users) {
      unsigned k = position.lookup(body->findAncestorOpInBlock(*u));
      span.first = std::min(span.first, k);
      span.last = std::max(span.last, k);
    }
    spans.push_back(span);
    largest = std::max(largest, v.size);
  }
  std::vector<unsigned> byStart, byEnd;
  for (unsigned i = 0; i < views.size(); ++i)
    if (views[i].size != 0) {
      byStart.push_back(i);
      byEnd.push_back(i);
    }
  llvm::sort(byStart, [&](unsigned x, unsigned y) {
    return std::make_pair(spans[x].first, x) < std::make_pair(spans[y].first, y);
  });
  llvm::sort(byEnd, [&](unsigned x, unsigned y) {
    return std::make_pair(spans[x].last, x) < std::make_pair(spans[y].last, y);
  });
  // The views whose spans hold the current position, by offset.
  std::multimap<uint64_t, unsigned> live;
  std::vector<std::multimap<uint64_t, unsigned>::iterator> where(views.size());
  size_t ended = 0;
  for (unsigned i : byStart) {
    // Views whose spans ended before this one starts are done.
    for (; ended < byEnd.size() && spans[byEnd[ended]].last < spans[i].first;
         ++ended)
      live.erase(where[byEnd[ended]]);
    const ArenaView &w = views[i];
    // A live view sharing bytes with `w` starts below w's end and, being at
    // most `largest` bytes, at or above w's offset minus that.
    uint64_t from = w.offset > largest ? w.offset - largest : 0;
    for (auto it = live.lower_bound(from);
         it != live.end() && it->first < w.offset + w.size; ++it) {
      const ArenaView &v = views[it->second];
      if (v.offset + v.size <= w.offset)
        continue;
      // In offset order, as the message names them.
      bool vFirst = v.offset < w.offset ||
                    (v.offset == w.offset && it->second < i);
      if (failed(vFirst ? checkPair(v, w) : checkPair(w, v)))
        return failure();
    }
    where[i] = live.insert({w.offset, i});
  }
  at = func;
  return success();
}

FailureOr<uint64_t> mlir::memsched::computeArenaMemory(func::FuncOp func,
                                                       const Arena &arena,
                                                       SizeModel sizes,
                                                       std::string &why) {
  BufferLifetimeAnalysis analysis(func, sizes);
  if (!analysis.isSupported()) {
    why = analysis.getUnsupportedReason().str();
    return failure();
  }
  uint64_t memory = analysis.getPeakAsWritten();
  // Arenas are in the default memory space.
  if (arena.kind == ArenaKind::Alloc || (sizes.memorySpace && *sizes.memorySpace))
    return memory;
  if (!addBytes(memory, arena.size)) {
    why = "more than 2^64 bytes";
    return failure();
  }
  if (arena.kind != ArenaKind::Global)
    return memory;
  // The global arenas of the functions it calls, each once.
  DenseSet<Operation *> visited{func};
  SmallVector<func::FuncOp> work{func};
  while (!work.empty()) {
    func::FuncOp f = work.pop_back_val();
    f.walk([&](CallOpInterface call) {
      auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
      if (!callee || !visited.insert(callee).second)
        return;
      work.push_back(callee);
      std::string ignored;
      FailureOr<std::optional<Arena>> a = findArena(callee, ignored);
      if (succeeded(a) && *a && (*a)->kind == ArenaKind::Global)
        (void)addBytes(memory, (*a)->size);
    });
  }
  return memory;
}
