//===- BufferLifetimeAnalysis.cpp - buffers, aliases, dependencies -*- C++ -*-===//
//
// Builds the MemoryGraph of one block. The parts, in order:
//   1. alias roots: every memref value of the function is mapped to the
//      allocations, arguments or globals it may point into (flow through view
//      ops, region branches and unknown ops; a fixpoint);
//   2. classification of the block's ops into allocations, deallocations,
//      side-effect free ops that follow their users, and nodes;
//   3. the accesses of each node (its own and its nested ops' memory effects)
//      with a static footprint where one is known;
//   4. dependency edges: SSA, memory (RAW/WAR/WAW unless footprints are
//      disjoint) and a barrier chain for unknown effects;
//   5. sizes, nested (transient) peaks and the peak as written.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "memsched-lifetimes"

using namespace mlir;
using namespace mlir::memsched;

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

/// Bytes the generic allocation lowering adds on top of the memref size.
static uint64_t getAllocationPadding(Operation *allocOp, SizeModel sizes) {
  if (!sizes.countAlignmentPadding)
    return 0;
  if (auto alloc = dyn_cast<memref::AllocOp>(allocOp))
    if (std::optional<uint64_t> alignment = alloc.getAlignment())
      return *alignment;
  return 0;
}

static std::optional<uint64_t> getElementBytes(const DataLayout &layout,
                                               MemRefType type) {
  llvm::TypeSize bits = layout.getTypeSizeInBits(type.getElementType());
  if (bits.isScalable())
    return std::nullopt;
  return llvm::divideCeil(bits.getFixedValue(), 8);
}

/// Size of an allocation, bounding dynamic dimensions with the value bounds
/// infrastructure. Sets `isBound` when a bound was used.
static FailureOr<uint64_t> getAllocationSize(Operation *allocOp,
                                             const DataLayout &layout,
                                             SizeModel sizes, bool &isBound,
                                             std::string &why) {
  isBound = false;
  auto type = dyn_cast<MemRefType>(allocOp->getResult(0).getType());
  if (!type) {
    why = "allocation of a non-memref type";
    return failure();
  }
  if (!type.getLayout().isIdentity()) {
    why = "allocation with a non-identity layout";
    return failure();
  }
  std::optional<uint64_t> elem = getElementBytes(layout, type);
  if (!elem) {
    why = "element type without a fixed size";
    return failure();
  }
  uint64_t count = 1;
  for (int64_t dim = 0, e = type.getRank(); dim < e; ++dim) {
    int64_t extent = type.getDimSize(dim);
    if (ShapedType::isDynamic(extent)) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(allocOp->getResult(0), dim),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(ub) || *ub < 0) {
        why = "dynamic dimension " + std::to_string(dim) +
              " has no constant upper bound";
        return failure();
      }
      extent = *ub;
      isBound = true;
    }
    count *= static_cast<uint64_t>(extent);
  }
  return count * *elem + getAllocationPadding(allocOp, sizes);
}

//===----------------------------------------------------------------------===//
// Op classification helpers
//===----------------------------------------------------------------------===//

/// An op whose only effects allocate its memref results.
static bool isAllocation(Operation *op) {
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

/// An op whose only effects free one memref operand and that has no results.
static Value getDeallocatedValue(Operation *op) {
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

/// Whether nothing can observe `value`: no use, or only side-effect free
/// users whose results are unobservable too. Cleanups erase such values, and
/// an allocation whose result is unobservable is never made.
static bool isUnobservable(Value value, unsigned depth = 0) {
  if (depth > 16)
    return false;
  for (Operation *user : value.getUsers()) {
    if (!isMemoryEffectFree(user) || user->hasTrait<OpTrait::IsTerminator>())
      return false;
    for (Value result : user->getResults())
      if (!isUnobservable(result, depth + 1))
        return false;
  }
  return true;
}

/// Side-effect free ops follow their users when the block is reordered.
static bool isFloating(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op) &&
         !isAllocation(op);
}

namespace {

//===----------------------------------------------------------------------===//
// Alias roots
//===----------------------------------------------------------------------===//

enum class RootKind { Buffer, Local, Argument, Global, Unknown };

struct Root {
  RootKind kind;
  /// Buffer index for Buffer roots.
  unsigned buffer = 0;
};

/// Maps every memref value of a function to the roots it may point into.
class AliasRoots {
public:
  using RootSet = SmallVector<unsigned, 2>;

  /// `blockAllocs` maps the allocations of the analysed block to buffer ids.
  /// With `distinctArgs`, every argument is a root of its own (to attribute
  /// a callee's effects to its arguments; the caller knows their aliasing).
  AliasRoots(Operation *func, Block *analysed,
             const DenseMap<Operation *, unsigned> &blockAllocs,
             bool distinctArgs = false) {
    unknownRoot = addRoot({RootKind::Unknown});
    sharedArgRoot = addRoot({RootKind::Argument});
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
      visit(op, analysed, blockAllocs);
    });
    // Block arguments of nested blocks that nothing flows into (unstructured
    // control flow inside regions) may be anything.
    func->walk([&](Block *b) {
      if (b == &body.front())
        return;
      for (BlockArgument arg : b->getArguments())
        if (isa<BaseMemRefType>(arg.getType()) && !hasIncoming.contains(arg))
          seed(arg, unknownRoot);
    });
    propagate();
  }

  const RootSet &rootsOf(Value v) const {
    auto it = roots.find(v);
    return it == roots.end() ? empty : it->second;
  }
  const Root &root(unsigned id) const { return table[id]; }
  unsigned getUnknownRoot() const { return unknownRoot; }

private:
  unsigned addRoot(Root r) {
    table.push_back(r);
    return table.size() - 1;
  }
  void seed(Value v, unsigned rootId) {
    RootSet &set = roots[v];
    if (!llvm::is_contained(set, rootId)) {
      set.insert(llvm::lower_bound(set, rootId), rootId);
      worklist.insert(v);
    }
  }
  void flow(Value from, Value to) {
    if (!isa<BaseMemRefType>(from.getType()) ||
        !isa<BaseMemRefType>(to.getType()))
      return;
    edges[from].push_back(to);
    hasIncoming.insert(to);
    roots[to]; // every flow target gets an entry
  }

  void visit(Operation *op, Block *analysed,
             const DenseMap<Operation *, unsigned> &blockAllocs) {
    if (isAllocation(op)) {
      auto it = blockAllocs.find(op);
      if (it != blockAllocs.end())
        seed(op->getResult(0), addRoot({RootKind::Buffer, it->second}));
      else
        seed(op->getResult(0), addRoot({RootKind::Local}));
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
      SmallVector<RegionSuccessor> successors;
      branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
      for (RegionSuccessor &succ : successors)
        for (auto [from, to] : llvm::zip(branch.getEntrySuccessorOperands(succ),
                                         succ.getSuccessorInputs()))
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
          for (RegionSuccessor &succ : next)
            for (auto [from, to] : llvm::zip(term.getSuccessorOperands(succ),
                                             succ.getSuccessorInputs()))
              flow(from, to);
        }
      // Memref results not produced by any terminator stay unknown.
      for (Value result : op->getResults())
        if (isa<BaseMemRefType>(result.getType()) &&
            !hasIncoming.contains(result))
          seed(result, unknownRoot);
      return;
    }
    // Anything else: results may alias any memref operand; an op with
    // effects (or a call) may also return memory from elsewhere.
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

  void propagate() {
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

  SmallVector<Root> table;
  DenseMap<Value, RootSet> roots;
  DenseMap<Value, SmallVector<Value, 2>> edges;
  DenseSet<Value> hasIncoming;
  llvm::SetVector<Value> worklist;
  llvm::StringMap<unsigned> globals;
  unsigned unknownRoot = 0, sharedArgRoot = 0;
  RootSet empty;
};

//===----------------------------------------------------------------------===//
// Footprints
//===----------------------------------------------------------------------===//

/// The elements of a buffer an access may touch: a strided box in the
/// buffer's linear element space, or the whole buffer.
struct Footprint {
  bool whole = true;
  /// The allocation or argument the box is relative to.
  Value base;
  int64_t offset = 0;
  SmallVector<int64_t, 4> sizes, strides;

  /// Whether every element of the base is in the box (or the footprint is
  /// unknown): such a write conflicts with every access of the same root.
  bool coversBase = true;

  /// Linear element range [lo, hi] covered by the box.
  std::pair<int64_t, int64_t> range() const {
    int64_t lo = offset, hi = offset;
    for (auto [size, stride] : llvm::zip(sizes, strides)) {
      if (size == 0)
        return {0, -1};
      (stride < 0 ? lo : hi) += (size - 1) * stride;
    }
    return {lo, hi};
  }
};

/// Decomposes `offset` into per-dimension coordinates for strides that are
/// nested (each stride a multiple of the next and at least the next extent
/// times its stride), so boxes with equal strides can be compared per
/// dimension. Returns false when the strides are not of that form.
static bool decompose(int64_t offset, ArrayRef<int64_t> sizes,
                      ArrayRef<int64_t> strides, SmallVectorImpl<int64_t> &out) {
  out.clear();
  for (size_t i = 0; i < strides.size(); ++i) {
    if (strides[i] <= 0)
      return false;
    if (i + 1 < strides.size() &&
        (strides[i] % strides[i + 1] != 0 ||
         strides[i] < sizes[i + 1] * strides[i + 1]))
      return false;
    out.push_back(offset / strides[i]);
    offset %= strides[i];
  }
  if (offset != 0)
    return false;
  // Inner coordinates must stay within their row: a box starting at column 6
  // of rows of 8 and 4 wide wraps into the next row, and the per-dimension
  // test would miss the overlap there.
  for (size_t i = 1; i < strides.size(); ++i)
    if (out[i] + sizes[i] > strides[i - 1] / strides[i])
      return false;
  return true;
}

static bool mayOverlap(const Footprint &a, const Footprint &b) {
  if (a.whole || b.whole || a.base != b.base)
    return true;
  auto [alo, ahi] = a.range();
  auto [blo, bhi] = b.range();
  if (ahi < alo || bhi < blo)
    return false; // empty
  if (ahi < blo || bhi < alo)
    return false;
  if (a.strides != b.strides)
    return true;
  SmallVector<int64_t, 4> ca, cb;
  if (!decompose(a.offset, a.sizes, a.strides, ca) ||
      !decompose(b.offset, b.sizes, b.strides, cb))
    return true;
  for (size_t i = 0; i < ca.size(); ++i)
    if (ca[i] + a.sizes[i] <= cb[i] || cb[i] + b.sizes[i] <= ca[i])
      return false;
  return true;
}

/// The source of a view whose type's strided layout is expressed relative to
/// the same base pointer and element type as its source; null otherwise.
static Value getLayoutPreservingSource(Operation *def) {
  if (!def)
    return nullptr;
  if (auto transpose = dyn_cast<memref::TransposeOp>(def))
    return transpose.getIn();
  if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
          memref::CollapseShapeOp, memref::ReinterpretCastOp>(def))
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      return view.getViewSource();
  return nullptr;
}

/// The footprint of an access through `value`: exact when `value` is derived
/// from an allocation or a function argument with an identity layout only
/// through views that keep the element type and the base pointer, with a
/// static layout.
static Footprint getFootprint(Value value) {
  Footprint whole;
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return whole;
  Value base = value;
  while (Value source = getLayoutPreservingSource(base.getDefiningOp()))
    base = source;
  auto baseType = dyn_cast<MemRefType>(base.getType());
  bool isRoot = isa<BlockArgument>(base) ||
                (base.getDefiningOp() && isAllocation(base.getDefiningOp()));
  if (!isRoot || !baseType || !baseType.getLayout().isIdentity() ||
      baseType.getElementType() != type.getElementType())
    return whole;
  if (!type.hasStaticShape())
    return whole;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return whole;
  Footprint f;
  f.whole = false;
  f.coversBase = false;
  f.base = base;
  f.offset = offset;
  f.sizes.assign(type.getShape().begin(), type.getShape().end());
  f.strides.assign(strides.begin(), strides.end());
  // Unit dimensions do not move; drop them so equal boxes compare equal.
  for (size_t i = f.sizes.size(); i-- > 0;)
    if (f.sizes[i] == 1) {
      f.sizes.erase(f.sizes.begin() + i);
      f.strides.erase(f.strides.begin() + i);
    }
  // A box of distinct elements (views are injective) as many as the base has,
  // all within the base's range, is the whole base.
  if (baseType.hasStaticShape() &&
      llvm::all_of(f.strides, [](int64_t s) { return s > 0; })) {
    int64_t count = 1;
    for (int64_t size : f.sizes)
      count *= size;
    auto [lo, hi] = f.range();
    f.coversBase = count == baseType.getNumElements() && lo == 0 &&
                   hi == count - 1;
  }
  return f;
}

} // namespace

//===----------------------------------------------------------------------===//
// LifetimeBuilder
//===----------------------------------------------------------------------===//

namespace mlir {
namespace memsched {

/// Fills a BufferLifetimeAnalysis. Stops at the first unsupported construct.
class LifetimeBuilder {
public:
  explicit LifetimeBuilder(BufferLifetimeAnalysis &a)
      : a(a), layout(DataLayout::closest(a.rootOp)) {}

  void run();

private:
  /// Marks the analysis unsupported (first reason wins) and returns failure.
  LogicalResult unsupported(Operation *op, const Twine &reason) {
    if (!a.unsupportedOp) {
      a.unsupportedOp = op;
      a.unsupportedReason = reason.str();
    }
    return failure();
  }

  LogicalResult classify();
  /// Anchors each allocation to the next node and each deallocation to the
  /// previous one (touchers plus ordering edges).
  void pinAllocations();
  LogicalResult collectAccesses();
  void addEdges();
  LogicalResult computePeaks();

  /// Peak bytes of the allocations nested in `op` (regions, callee).
  FailureOr<uint64_t> nestedPeak(Operation *op, unsigned depth);
  /// As-written peak of a nested block; all its allocations must be freed in
  /// it.
  FailureOr<uint64_t> blockPeak(Block &b, unsigned depth);

  /// Effects of a call on its operands, from the callee's body.
  struct CallEffects {
    bool unknown = true;
    /// Per call operand: 0 none, 1 read, 2 write.
    SmallVector<uint8_t> operandAccess;
  };
  const CallEffects &getCallEffects(CallOpInterface call);

  /// Node-level operands: a node's SSA dependencies on other nodes, through
  /// floating ops and allocation operands.
  void collectNodeDeps(Value v, SmallVectorImpl<unsigned> &deps,
                       SmallVectorImpl<Value> &memrefs);

  BufferLifetimeAnalysis &a;
  DataLayout layout;
  std::unique_ptr<AliasRoots> aliases;
  DenseMap<Operation *, unsigned> allocIndex;
  DenseSet<Operation *> attachedDeallocs;

  struct Access {
    unsigned node;
    bool write;
    Footprint footprint;
  };
  /// Per buffer, accesses in node order.
  SmallVector<SmallVector<Access>> bufferAccesses;
  /// Accesses to roots outside the block's buffers (arguments, globals).
  DenseMap<unsigned, SmallVector<Access>> otherAccesses;
  /// Nodes with any memory effect.
  SmallVector<bool> hasEffects;
  DenseMap<Operation *, CallEffects> callEffects;
  /// Ordering edges that pin allocations (pinAllocations).
  SmallVector<std::pair<unsigned, unsigned>> pinEdges;
  struct FloatingUses {
    SmallVector<unsigned, 2> deps;
    SmallVector<Value, 2> memrefs;
  };
  DenseMap<Operation *, FloatingUses> floatingUses;
  SmallVector<SmallVector<unsigned, 4>> nodeDeps;
};

} // namespace memsched
} // namespace mlir

LogicalResult LifetimeBuilder::classify() {
  Block &block = *a.block;
  // Allocations first: alias roots need to know the block's buffers.
  for (Operation &op : block) {
    if (!isAllocation(&op))
      continue;
    BufferInfo info;
    info.allocOp = &op;
    bool isBound = false;
    std::string why;
    FailureOr<uint64_t> size = getAllocationSize(&op, layout, a.sizes, isBound, why);
    if (failed(size))
      return unsupported(&op, why);
    // An allocation nothing observes is dead code that any cleanup (and the
    // lowering to LLVM) erases: it never takes memory.
    info.size = isUnobservable(op.getResult(0)) ? 0 : *size;
    info.sizeIsBound = isBound;
    allocIndex[&op] = a.buffers.size();
    a.buffers.push_back(std::move(info));
  }
  aliases = std::make_unique<AliasRoots>(a.rootOp, a.block, allocIndex);

  for (Operation &op : block) {
    if (isa<bufferization::DeallocOp>(op))
      return unsupported(&op, "bufferization.dealloc is not supported; run "
                              "--bufferization-lower-deallocations first");
    if (isAllocation(&op) || isFloating(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (Value freed = getDeallocatedValue(&op)) {
      const auto &rs = aliases->rootsOf(freed);
      if (rs.size() == 1 && aliases->root(rs[0]).kind == RootKind::Buffer) {
        BufferInfo &buf = a.buffers[aliases->root(rs[0]).buffer];
        if (buf.dealloc)
          return unsupported(&op, "buffer deallocated twice in the block");
        buf.dealloc = &op;
        attachedDeallocs.insert(&op);
        continue;
      }
    }
    a.nodeIndex[&op] = a.nodes.size();
    NodeInfo node;
    node.op = &op;
    a.nodes.push_back(node);
  }
  return success();
}

const LifetimeBuilder::CallEffects &
LifetimeBuilder::getCallEffects(CallOpInterface call) {
  auto [it, inserted] = callEffects.try_emplace(call.getOperation());
  if (!inserted)
    return it->second;
  CallEffects result;
  auto callee =
      dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  if (callee && !callee.isExternal() && callee->getNumRegions() == 1 &&
      callee != a.rootOp) {
    // Map effects in the callee back to its arguments.
    DenseMap<Operation *, unsigned> none;
    AliasRoots calleeRoots(callee, nullptr, none, /*distinctArgs=*/true);
    Block &entry = callee->getRegion(0).front();
    DenseMap<unsigned, unsigned> rootToArg;
    bool ok = true;
    for (BlockArgument arg : entry.getArguments())
      if (isa<BaseMemRefType>(arg.getType()))
        for (unsigned r : calleeRoots.rootsOf(arg))
          if (!rootToArg.try_emplace(r, arg.getArgNumber()).second)
            ok = false; // arguments sharing a root: cannot attribute effects
    SmallVector<uint8_t> argAccess(entry.getNumArguments(), 0);
    callee->walk([&](Operation *op) {
      if (!ok || op == callee.getOperation())
        return;
      if (isa<CallOpInterface>(op)) {
        ok = false; // nested calls: keep it simple and safe
        return;
      }
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface && op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      if (!iface) {
        ok = false;
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (auto &e : effects) {
        Value v = e.getValue();
        if (!v) {
          if (isa<MemoryEffects::Allocate>(e.getEffect()))
            continue;
          ok = false;
          return;
        }
        for (unsigned r : calleeRoots.rootsOf(v)) {
          RootKind kind = calleeRoots.root(r).kind;
          if (kind == RootKind::Local)
            continue;
          auto argIt = rootToArg.find(r);
          if (argIt == rootToArg.end()) {
            ok = false;
            return;
          }
          uint8_t acc = isa<MemoryEffects::Read>(e.getEffect()) ? 1 : 2;
          argAccess[argIt->second] = std::max(argAccess[argIt->second], acc);
        }
      }
    });
    // A callee returning memrefs may hand out its arguments or new memory.
    for (Type t : callee.getResultTypes())
      if (isa<BaseMemRefType>(t))
        ok = false;
    if (ok && entry.getNumArguments() == call.getArgOperands().size()) {
      result.unknown = false;
      result.operandAccess.assign(call->getNumOperands(), 0);
      unsigned first = call.getArgOperands().getBeginOperandIndex();
      for (unsigned i = 0; i < argAccess.size(); ++i)
        result.operandAccess[first + i] = argAccess[i];
    }
  }
  return callEffects[call.getOperation()] = std::move(result);
}

void LifetimeBuilder::collectNodeDeps(Value v, SmallVectorImpl<unsigned> &deps,
                                      SmallVectorImpl<Value> &memrefs) {
  if (isa<BaseMemRefType>(v.getType()))
    memrefs.push_back(v);
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != a.block)
    return;
  auto nodeIt = a.nodeIndex.find(def);
  if (nodeIt != a.nodeIndex.end()) {
    deps.push_back(nodeIt->second);
    return;
  }
  // Floating ops and allocations stand for their own operands (and the values
  // used inside their regions), memoised.
  auto it = floatingUses.find(def);
  if (it == floatingUses.end()) {
    FloatingUses uses;
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == a.block)
          collectNodeDeps(operand, uses.deps, uses.memrefs);
    });
    llvm::sort(uses.deps);
    uses.deps.erase(llvm::unique(uses.deps), uses.deps.end());
    it = floatingUses.try_emplace(def, std::move(uses)).first;
  }
  deps.append(it->second.deps.begin(), it->second.deps.end());
  memrefs.append(it->second.memrefs.begin(), it->second.memrefs.end());
}

LogicalResult LifetimeBuilder::collectAccesses() {
  size_t numNodes = a.nodes.size();
  bufferAccesses.assign(a.buffers.size(), {});
  hasEffects.assign(numNodes, false);
  nodeDeps.assign(numNodes, {});

  for (unsigned n = 0; n < numNodes; ++n) {
    NodeInfo &node = a.nodes[n];
    Operation *op = node.op;

    // SSA dependencies and the memrefs the node uses (directly, through
    // floating ops, or inside its regions).
    SmallVector<unsigned> deps;
    SmallVector<Value> usedMemrefs;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == a.block)
          collectNodeDeps(operand, deps, usedMemrefs);
    });
    llvm::sort(deps);
    deps.erase(llvm::unique(deps), deps.end());
    nodeDeps[n].assign(deps.begin(), deps.end());

    // Every buffer whose alias the node uses is touched (kept allocated).
    auto touch = [&](unsigned b) {
      auto &t = a.buffers[b].touchers;
      if (t.empty() || t.back() != n)
        t.push_back(n);
    };
    for (Value v : usedMemrefs)
      for (unsigned r : aliases->rootsOf(v))
        if (aliases->root(r).kind == RootKind::Buffer)
          touch(aliases->root(r).buffer);

    // Memory effects of the node and everything nested in it.
    auto addAccess = [&](Value v, bool write) {
      hasEffects[n] = true;
      for (unsigned r : aliases->rootsOf(v)) {
        const Root &root = aliases->root(r);
        switch (root.kind) {
        case RootKind::Local:
          break;
        case RootKind::Unknown:
          node.barrier = true;
          break;
        case RootKind::Buffer: {
          touch(root.buffer);
          bufferAccesses[root.buffer].push_back({n, write, getFootprint(v)});
          break;
        }
        case RootKind::Argument:
        case RootKind::Global:
          otherAccesses[r].push_back({n, write, getFootprint(v)});
          break;
        }
      }
    };
    // A memref operand an op neither accesses nor forwards as an alias may be
    // captured (e.g. stored into memory): its buffer escapes.
    auto noteCaptures = [&](Operation *nested, ArrayRef<Value> accessed) {
      if (isMemoryEffectFree(nested) || isa<RegionBranchOpInterface>(nested) ||
          isa<RegionBranchTerminatorOpInterface>(nested))
        return;
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()) &&
            !llvm::is_contained(accessed, operand))
          for (unsigned r : aliases->rootsOf(operand))
            if (aliases->root(r).kind == RootKind::Buffer) {
              std::string &e = a.buffers[aliases->root(r).buffer].escape;
              if (e.empty())
                e = ("captured by " + nested->getName().getStringRef()).str();
            }
    };
    // An op with unknown effects: a barrier that may write every memref it
    // is given.
    auto unknownEffects = [&](Operation *nested) {
      node.barrier = true;
      hasEffects[n] = true;
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()))
          addAccess(operand, /*write=*/true);
    };
    WalkResult walk = op->walk([&](Operation *nested) -> WalkResult {
      if (auto call = dyn_cast<CallOpInterface>(nested)) {
        const CallEffects &ce = getCallEffects(call);
        if (ce.unknown) {
          unknownEffects(nested);
          return WalkResult::advance();
        }
        SmallVector<Value> accessed;
        for (OpOperand &operand : nested->getOpOperands())
          if (ce.operandAccess[operand.getOperandNumber()]) {
            addAccess(operand.get(),
                      ce.operandAccess[operand.getOperandNumber()] == 2);
            accessed.push_back(operand.get());
          }
        noteCaptures(nested, accessed);
        return WalkResult::advance();
      }
      // Ops with recursive effects are covered by the walk of their nested
      // ops (unless they also state their own effects).
      auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!iface && nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      if (!iface) {
        unknownEffects(nested);
        return WalkResult::advance();
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      SmallVector<Value> accessed;
      for (auto &e : effects)
        if (Value v = e.getValue())
          accessed.push_back(v);
      noteCaptures(nested, accessed);
      for (auto &e : effects) {
        bool write = !isa<MemoryEffects::Read>(e.getEffect());
        if (Value v = e.getValue()) {
          addAccess(v, write);
          continue;
        }
        // Allocations of stack scopes carry no value; anything else without
        // a value is a global effect.
        if (isa<MemoryEffects::Allocate>(e.getEffect()) &&
            isa<SideEffects::AutomaticAllocationScopeResource>(
                e.getResource()))
          continue;
        node.barrier = true;
        hasEffects[n] = true;
      }
      return WalkResult::advance();
    });
    (void)walk;
  }

  // Escapes: returned, or reaching a barrier (which may keep it anywhere).
  Operation *term = a.block->empty() ? nullptr : &a.block->back();
  auto markEscapes = [&](Value v, StringRef why) {
    for (unsigned r : aliases->rootsOf(v))
      if (aliases->root(r).kind == RootKind::Buffer) {
        std::string &e = a.buffers[aliases->root(r).buffer].escape;
        if (e.empty())
          e = why.str();
      }
  };
  if (term && term->hasTrait<OpTrait::IsTerminator>())
    for (Value v : term->getOperands())
      markEscapes(v, "returned");
  for (NodeInfo &node : a.nodes)
    if (node.barrier)
      node.op->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          markEscapes(v, ("passed to " + node.op->getName().getStringRef() +
                          ", which has unknown effects")
                             .str());
      });
  // An escaping buffer that is deallocated in the block may be reached by any
  // barrier before its deallocation: those keep it allocated.
  for (BufferInfo &buf : a.buffers) {
    if (buf.escape.empty() || !buf.dealloc)
      continue;
    SmallVector<unsigned, 4> touchers(buf.touchers);
    for (unsigned n = 0; n < a.nodes.size(); ++n)
      if (a.nodes[n].barrier && a.nodes[n].op->isBeforeInBlock(buf.dealloc))
        touchers.push_back(n);
    llvm::sort(touchers);
    touchers.erase(llvm::unique(touchers), touchers.end());
    buf.touchers.assign(touchers.begin(), touchers.end());
  }
  return success();
}

void LifetimeBuilder::pinAllocations() {
  // Nodes in block order: the node after / before a given op.
  auto nextNode = [&](Operation *op) -> std::optional<unsigned> {
    for (Operation *o = op->getNextNode(); o; o = o->getNextNode())
      if (std::optional<unsigned> n = a.getNodeIndex(o))
        return n;
    return std::nullopt;
  };
  auto prevNode = [&](Operation *op) -> std::optional<unsigned> {
    for (Operation *o = op->getPrevNode(); o; o = o->getPrevNode())
      if (std::optional<unsigned> n = a.getNodeIndex(o))
        return n;
    return std::nullopt;
  };
  for (BufferInfo &buf : a.buffers) {
    SmallVector<unsigned, 4> touchers(buf.touchers);
    if (std::optional<unsigned> anchor = nextNode(buf.allocOp)) {
      for (unsigned t : buf.touchers)
        pinEdges.push_back({*anchor, t});
      touchers.push_back(*anchor);
    }
    if (buf.dealloc)
      if (std::optional<unsigned> anchor = prevNode(buf.dealloc)) {
        for (unsigned t : buf.touchers)
          pinEdges.push_back({t, *anchor});
        touchers.push_back(*anchor);
      }
    llvm::sort(touchers);
    touchers.erase(llvm::unique(touchers), touchers.end());
    buf.touchers.assign(touchers.begin(), touchers.end());
  }
}

void LifetimeBuilder::addEdges() {
  for (auto [from, to] : pinEdges)
    a.graph.addEdge(from, to);
  ::memsched::MemoryGraph &g = a.graph;
  for (unsigned n = 0; n < a.nodes.size(); ++n)
    for (unsigned d : nodeDeps[n])
      g.addEdge(d, n);

  // Memory dependencies per root. Reads only check earlier writes; a write
  // checks everything since the last write of the whole root, which itself
  // orders everything before it.
  auto order = [&](ArrayRef<Access> accesses) {
    SmallVector<const Access *> writes, reads;
    for (const Access &acc : accesses) {
      for (const Access *w : writes)
        if (w->node != acc.node && mayOverlap(w->footprint, acc.footprint))
          g.addEdge(w->node, acc.node);
      if (!acc.write) {
        reads.push_back(&acc);
        continue;
      }
      for (const Access *r : reads)
        if (r->node != acc.node && mayOverlap(r->footprint, acc.footprint))
          g.addEdge(r->node, acc.node);
      // A write covering its whole base overlaps every access of the root
      // (other bases are assumed to overlap): it orders everything before it
      // against everything after it, so earlier accesses need no more edges.
      if (acc.footprint.coversBase) {
        writes.clear();
        reads.clear();
      }
      writes.push_back(&acc);
    }
  };
  for (auto &accesses : bufferAccesses)
    order(accesses);
  // Arguments and globals: deterministic order of roots.
  SmallVector<unsigned> otherRoots;
  for (auto &it : otherAccesses)
    otherRoots.push_back(it.first);
  llvm::sort(otherRoots);
  for (unsigned r : otherRoots)
    order(otherAccesses[r]);

  // Barrier chain: a barrier stays ordered with every op that has effects.
  std::optional<unsigned> lastBarrier;
  SmallVector<unsigned> sinceBarrier;
  for (unsigned n = 0; n < a.nodes.size(); ++n) {
    if (a.nodes[n].barrier) {
      if (lastBarrier)
        g.addEdge(*lastBarrier, n);
      for (unsigned m : sinceBarrier)
        g.addEdge(m, n);
      sinceBarrier.clear();
      lastBarrier = n;
      continue;
    }
    if (!hasEffects[n])
      continue;
    if (lastBarrier)
      g.addEdge(*lastBarrier, n);
    sinceBarrier.push_back(n);
  }

  // An allocation's operands must be computed before its first toucher.
  for (unsigned b = 0; b < a.buffers.size(); ++b) {
    Operation *alloc = a.buffers[b].allocOp;
    if (alloc->getNumOperands() == 0)
      continue;
    SmallVector<unsigned> deps;
    SmallVector<Value> unused;
    for (Value v : alloc->getOperands())
      collectNodeDeps(v, deps, unused);
    for (unsigned d : deps)
      for (unsigned t : a.buffers[b].touchers)
        g.addEdge(d, t);
  }
}

FailureOr<uint64_t> LifetimeBuilder::blockPeak(Block &b, unsigned depth) {
  DenseMap<Value, uint64_t> live;
  uint64_t current = 0, peak = 0;
  for (Operation &op : b) {
    if (isAllocation(&op)) {
      bool isBound = false;
      std::string why;
      FailureOr<uint64_t> size = getAllocationSize(&op, layout, a.sizes, isBound, why);
      if (failed(size))
        return unsupported(&op, why);
      uint64_t bytes = isUnobservable(op.getResult(0)) ? 0 : *size;
      live[op.getResult(0)] = bytes;
      current += bytes;
      peak = std::max(peak, current);
      continue;
    }
    if (Value freed = getDeallocatedValue(&op)) {
      auto it = live.find(freed);
      if (it != live.end()) {
        current -= it->second;
        live.erase(it);
        continue;
      }
    }
    FailureOr<uint64_t> nested = nestedPeak(&op, depth + 1);
    if (failed(nested))
      return failure();
    peak = std::max(peak, current + *nested);
  }
  // Stack allocations end with their scope; anything else left allocated
  // would accumulate over the executions of the region.
  bool scope = b.getParentOp()->hasTrait<OpTrait::AutomaticAllocationScope>();
  for (Operation &op : b) {
    if (!isAllocation(&op) || !live.count(op.getResult(0)) ||
        isUnobservable(op.getResult(0)))
      continue;
    if (isa<memref::AllocaOp>(op)) {
      if (scope)
        continue;
      return unsupported(&op, "memref.alloca in a region without its own "
                              "allocation scope outlives the region");
    }
    return unsupported(&op, "allocation in a nested region is not freed in "
                            "that region");
  }
  return peak;
}

FailureOr<uint64_t> LifetimeBuilder::nestedPeak(Operation *op,
                                                unsigned depth) {
  if (depth > 64)
    return unsupported(op, "nesting or call depth above 64");
  uint64_t peak = 0;
  for (Region &region : op->getRegions())
    for (Block &b : region) {
      FailureOr<uint64_t> p = blockPeak(b, depth);
      if (failed(p))
        return failure();
      peak = std::max(peak, *p);
    }
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee =
        dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
    if (callee && !callee.isExternal()) {
      if (callee == a.rootOp)
        return unsupported(op, "recursive call");
      if (callee->getRegion(0).getBlocks().size() != 1)
        return unsupported(op, "callee with several blocks");
      FailureOr<uint64_t> p = blockPeak(callee->getRegion(0).front(), depth);
      if (failed(p))
        return failure();
      peak = std::max(peak, *p);
    }
  }
  return peak;
}

LogicalResult LifetimeBuilder::computePeaks() {
  for (NodeInfo &node : a.nodes) {
    FailureOr<uint64_t> t = nestedPeak(node.op, 0);
    if (failed(t))
      return failure();
    node.transient = *t;
  }
  uint64_t current = 0;
  for (Operation &op : *a.block) {
    auto allocIt = allocIndex.find(&op);
    if (allocIt != allocIndex.end()) {
      current += a.buffers[allocIt->second].size;
      if (current > a.peakAsWritten) {
        a.peakAsWritten = current;
        a.peakAsWrittenOp = &op;
      }
      continue;
    }
    if (attachedDeallocs.contains(&op)) {
      Value freed = getDeallocatedValue(&op);
      current -= a.buffers[aliases->root(aliases->rootsOf(freed)[0]).buffer]
                     .size;
      continue;
    }
    std::optional<unsigned> n = a.getNodeIndex(&op);
    uint64_t mem = current + (n ? a.nodes[*n].transient : 0);
    if (mem > a.peakAsWritten) {
      a.peakAsWritten = mem;
      a.peakAsWrittenOp = &op;
    }
  }
  return success();
}

void LifetimeBuilder::run() {
  Operation *op = a.rootOp;
  if (op->getNumRegions() != 1 || op->getRegion(0).empty()) {
    (void)unsupported(op, "no body to analyse");
    return;
  }
  if (!op->getRegion(0).hasOneBlock()) {
    (void)unsupported(op, "body with several blocks");
    return;
  }
  a.block = &op->getRegion(0).front();
  if (failed(classify()) || failed(collectAccesses()))
    return;

  if (failed(computePeaks()))
    return;
  if (a.pinAllocations)
    pinAllocations();
  ::memsched::MemoryGraph &g = a.graph;
  for (NodeInfo &node : a.nodes)
    g.addNode(node.transient, node.op->getName().getStringRef().str());
  for (unsigned b = 0; b < a.buffers.size(); ++b) {
    const BufferInfo &buf = a.buffers[b];
    // Without a deallocation in the block the buffer lives to the end.
    ::memsched::BufferId id = g.addBuffer(buf.size, /*liveIn=*/false,
                              /*liveOut=*/!buf.dealloc,
                              "buffer#" + std::to_string(b));
    for (unsigned t : buf.touchers)
      g.addTouch(id, t);
  }
  addEdges();
  g.finalize();
}

//===----------------------------------------------------------------------===//
// BufferLifetimeAnalysis
//===----------------------------------------------------------------------===//

BufferLifetimeAnalysis::BufferLifetimeAnalysis(Operation *op, SizeModel sizes,
                                               bool pinAllocations)
    : rootOp(op), sizes(sizes), pinAllocations(pinAllocations) {
  LifetimeBuilder(*this).run();
  if (unsupportedOp) {
    nodes.clear();
    buffers.clear();
    nodeIndex.clear();
    graph = ::memsched::MemoryGraph();
    graph.finalize();
    peakAsWritten = 0;
    peakAsWrittenOp = nullptr;
  }
}

BufferLifetimeAnalysis::~BufferLifetimeAnalysis() = default;

std::optional<unsigned>
BufferLifetimeAnalysis::getNodeIndex(Operation *op) const {
  auto it = nodeIndex.find(op);
  if (it == nodeIndex.end())
    return std::nullopt;
  return it->second;
}

uint64_t BufferLifetimeAnalysis::getPeakTight() const {
  return ::memsched::evaluatePeak(graph, graph.programOrder());
}

std::string BufferLifetimeAnalysis::describeNode(unsigned node) const {
  return nodes[node].op->getName().getStringRef().str() + "#" +
         std::to_string(node);
}

void BufferLifetimeAnalysis::print(raw_ostream &os) const {
  if (!isSupported()) {
    os << "unsupported: " << unsupportedReason << " ("
       << unsupportedOp->getName() << ")\n";
    return;
  }
  ::memsched::PeakInfo info;
  ::memsched::evaluatePeak(graph, graph.programOrder(), &info);
  os << "peak-as-written=" << peakAsWritten << " peak-tight=" << info.peak
     << " nodes=" << nodes.size() << " buffers=" << buffers.size()
     << " edges=" << graph.numEdges() << "\n";
  for (unsigned b = 0; b < buffers.size(); ++b) {
    const BufferInfo &buf = buffers[b];
    os << "  buffer#" << b << " " << buf.allocOp->getName() << " "
       << buf.allocOp->getResult(0).getType() << " size="
       << (buf.sizeIsBound ? "<=" : "") << buf.size;
    if (buf.touchers.empty())
      os << " untouched";
    else
      os << " first=" << describeNode(buf.touchers.front())
         << " last=" << describeNode(buf.touchers.back());
    os << " escape=" << (buf.escape.empty() ? "no" : buf.escape) << "\n";
  }
  for (unsigned n = 0; n < nodes.size(); ++n) {
    if (!nodes[n].transient && !nodes[n].barrier)
      continue;
    os << "  node " << describeNode(n);
    if (nodes[n].transient)
      os << " transient=" << nodes[n].transient;
    if (nodes[n].barrier)
      os << " barrier";
    os << "\n";
  }
  if (nodes.empty())
    return;
  os << "  peak-tight-at=" << describeNode(graph.programOrder()[info.peakPosition])
     << " live:";
  for (unsigned b : info.liveAtPeak)
    os << " buffer#" << b;
  os << "\n";
}
