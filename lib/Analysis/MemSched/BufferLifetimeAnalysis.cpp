//===- BufferLifetimeAnalysis.cpp - buffers, aliases, dependencies -*- C++ -*-===//
//
// Builds the MemoryGraph of one block. The steps, in order:
//   1. classification of the block's ops into allocations (sized),
//      deallocations, side-effect free ops that follow their users, and
//      nodes; alias roots of every memref value of the function;
//   2. per node: its SSA dependencies on other nodes (through floating ops,
//      iteratively), the buffers it keeps allocated, and its accesses (its
//      own and its nested ops' memory effects, calls through callee
//      summaries) with a footprint where one is known;
//   3. escapes, and the floating users of a buffer that feed no node: they
//      and their operands stay before the buffer's deallocation;
//   4. dependency edges: SSA, memory (RAW/WAR/WAW unless footprints are
//      disjoint), a barrier chain for unknown effects, allocation operands;
//   5. nested (transient) peaks and the peak as written, in checked
//      arithmetic.
// Nothing here recurses on the IR: chains of any length are fine.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/AsyncOrder.h"
#include "Analysis/MemSched/CallEffects.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Analysis/MemSched/DeallocHelper.h"
#include "Analysis/MemSched/Footprint.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/PhaseTimes.h"
#include "Analysis/MemSched/ProducerWalk.h"
#include "Analysis/MemSched/RegionYields.h"
#include "Analysis/Graph/LowerBound.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "memsched-lifetimes"

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// What a value of the block stands for, for scheduling: the nodes that must
/// run before it exists and the block's buffers it may point into (through
/// the memrefs used to compute it).
struct ValueUses {
  SmallVector<unsigned, 2> deps;
  SmallVector<unsigned, 2> buffers;
};

static void mergeSorted(SmallVectorImpl<unsigned> &into, ArrayRef<unsigned> from) {
  for (unsigned x : from) {
    auto it = llvm::lower_bound(into, x);
    if (it == into.end() || *it != x)
      into.insert(it, x);
  }
}
} // namespace

static std::string unrecognisedAllocationReason(Operation *op) {
  if (isAsyncAllocation(op))
    return "gpu.alloc async in a nested region or a callee: memsched follows "
           "asynchronous allocations in the body it schedules (a single "
           "block), where their tokens order them; allocate in the "
           "function's body, or inline the callee first (--inline)";
  // Ops the upstream pipeline has a lowering for: say which.
  if (isa<bufferization::CloneOp>(op))
    return "bufferization.clone allocates a buffer and copies into it in "
           "one op, which memsched does not follow; lower it to memref.alloc "
           "+ memref.copy first (--convert-bufferization-to-memref, the last "
           "step of the pipeline in docs/user-guide.md)";
  std::string why = (op->getName().getStringRef() +
                     " allocates a buffer memsched cannot size or move")
                        .str();
  if (op->getNumResults() > 1)
    why += " (it also returns " + std::to_string(op->getNumResults() - 1) +
           " other result(s), e.g. the token of asynchronous work, which "
           "runs in the order its tokens allow, not in the block's)";
  return why + "; allocate with an op that returns only the memref, e.g. "
               "memref.alloc or gpu.alloc without async";
}

/// Whether `stop` holds for some op nested in `from` (`from` included) or
/// in a function of the module reached from it by calls (through further
/// calls too; each function walked once). `stop` sees every op, calls
/// included, before their callees are walked.
static bool anyReachedByCalls(Operation *from,
                              function_ref<bool(Operation *)> stop) {
  SmallVector<Operation *> work{from};
  DenseSet<Operation *> seen{from};
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    WalkResult walk = next->walk([&](Operation *nested) {
      if (stop(nested))
        return WalkResult::interrupt();
      if (auto call = dyn_cast<CallOpInterface>(nested))
        if (Operation *callee = call.resolveCallable())
          if (seen.insert(callee).second)
            work.push_back(callee);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return true;
  }
  return false;
}

/// Whether an op runs asynchronous GPU work: it is such work, holds some in
/// its regions, or calls a function of the module that does (through
/// further calls too).
static bool mayRunAsyncWork(Operation *op) {
  return anyReachedByCalls(op, isAsyncOp);
}

/// Whether an op may take memory while it runs (nested allocations, a
/// callee's): the same answer for every memory space counted.
static bool mayAllocateWhileRunning(Operation *op) {
  return op
      ->walk([&](Operation *nested) {
        bool allocates =
            isa<CallOpInterface>(nested) ||
            (nested != op &&
             (isAllocation(nested) || isUnrecognisedAllocation(nested)));
        return allocates ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

//===----------------------------------------------------------------------===//
// LifetimeBuilder
//===----------------------------------------------------------------------===//

namespace mlir {
namespace memsched {

/// Fills a BufferLifetimeAnalysis. Stops at the first unsupported construct.
class LifetimeBuilder {
public:
  LifetimeBuilder(BufferLifetimeAnalysis &a,
                  const DenseSet<Operation *> &deallocNodes)
      : a(a), layout(DataLayout::closest(a.rootOp)), deallocNodes(deallocNodes) {}

  void run();

  /// Deallocations of buffers no node touches: run again with these as nodes.
  SmallVector<Operation *> getUntouchedDeallocs() const {
    SmallVector<Operation *> result;
    for (const BufferInfo &buf : a.buffers)
      if (buf.dealloc && buf.touchers.empty())
        result.push_back(buf.dealloc);
    return result;
  }

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
  /// The root a conditional free always frees: its buffer is one of the
  /// block's, and every value compared against it is memory that cannot be
  /// that buffer (an argument, a global, another of the block's buffers
  /// still allocated there).
  /// With ownership flags (ConditionalFree::flags), the buffer a loop
  /// allocated whose flag they are; none when the free may not run.
  std::optional<unsigned> conditionallyFreedRoot(const ConditionalFree &cf,
                                                 Operation *at);
  /// findFreshYields, once per op.
  const SmallVector<FreshYield, 1> &getFreshYields(Operation *op);
  /// The root of the buffer the op defining `v` made (a loop's, a
  /// branch's: `v` may also be other memory).
  std::optional<unsigned> madeRoot(Value v);
  /// The root a free of `memref` under `cond` surely frees: one buffer of
  /// the block when `cond` is constant true; the buffer a loop or branch
  /// made when `cond` is the flag it returns next to it.
  std::optional<unsigned> rootFreedUnder(Value memref, Value cond);
  /// Whether `v` may be the memory of root `r` (or unknown memory).
  bool mayBeRoot(Value v, unsigned r);
  /// The root an entry of the deallocation helper surely frees: one buffer
  /// of the block under a constant true condition (or the flag a loop or
  /// branch returns next to it), that no other entry and no retained value
  /// may be.
  std::optional<unsigned> helperFreedRoot(const HelperDeallocEntry &e);
  /// The roots of the block's buffers a bufferization.dealloc surely frees:
  /// each memref under a condition that is constant true, or the flag a
  /// loop returns next to the buffer it names, that is one buffer and may
  /// be none of the retained values.
  SmallVector<unsigned> deallocatedRoots(bufferization::DeallocOp op);
  /// When `op` is (or is the free in) the op of a loop body that frees
  /// the buffer an iteration got (FreshYield::carriedFree): the root of the
  /// buffers the loop allocates, the only one it may free.
  std::optional<unsigned> carriedFreeRoot(Operation *op);
  /// Whether every free of the memory of root `r` is a memref.dealloc of the
  /// block after `at` (none by a call, inside a region, or before `at`).
  bool onlyFreedAfter(unsigned r, Operation *at);
  /// The uses of the values an op of the block uses (its operands and those
  /// of its nested ops that are defined in the block).
  ValueUses usesOfOperands(Operation *op);
  /// Memoised uses of a non-node op of the block, computed iteratively.
  const ValueUses &usesOf(Operation *op);
  void addValueUses(Value v, ValueUses &into);
  LogicalResult collectAccesses();
  /// A memref operand whose address `op` may carry away escapes.
  void noteCaptures(Operation *op, ArrayRef<Value> accessed);
  void collectEscapes();
  /// The floating ops of the block that feed a node (feedsNode).
  void findFeedsNode();
  void collectDanglingUsers();
  /// Anchors each allocation to the next node and each deallocation to the
  /// previous one (touchers plus ordering edges).
  void pinAllocations();
  void addEdges();
  /// Keeps what the device allocates and frees asynchronously where the
  /// block's order counts it: refuses allocations and frees whose order
  /// on the device is not known, and adds the edges that keep host
  /// allocations on the right side of the device's frees.
  LogicalResult orderAsyncMemory();
  /// The node that frees each buffer allocated before the block, and the
  /// nodes that access it.
  void findLiveInDeallocs();
  LogicalResult computePeaks();

  FailureOr<uint64_t> nestedPeak(Operation *op, unsigned depth);
  /// The functions `call` may run: the one it resolves to, else (through a
  /// function value, or an external function handed one) those of the
  /// module whose address is taken (ModuleCallGraph).
  SmallVector<FunctionOpInterface> getPossibleCallees(CallOpInterface call);
  /// "@g -> @h -> @g" when `call` (made inside the callees being expanded)
  /// enters `callee` again or the analysed function; empty otherwise.
  std::string describeCallCycle(CallOpInterface call,
                                FunctionOpInterface callee);
  /// A lower bound of the peak of a body memsched reorders, over all its
  /// orders: the lower bound of the body's own graph (at least the most one
  /// of its ops needs at once), or, for a body that cannot be analysed on
  /// its own, the most one of its ops needs at once (the body's buffers it
  /// uses, and what it needs inside).
  FailureOr<uint64_t> bodyBound(Block &b, unsigned depth);
  /// Memory of a callee with several blocks while it runs (the largest peak
  /// of its reachable blocks), when nothing it allocates outlives the call.
  FailureOr<uint64_t> severalBlocksCalleePeak(Operation *call,
                                              FunctionOpInterface callee,
                                              unsigned depth);
  /// LiveInInfo::countedWith for the live-in buffers of one exclusive group
  /// that live through the block.
  void countExclusiveLiveInsOnce();
  /// Whether some chain of calls from `from` reaches one of `targets`.
  static bool reachesByCalls(Operation *from, ArrayRef<Operation *> targets);
  /// `call`: the call whose callee's body `b` is, if any. `fresh`: the
  /// buffers the op whose region `b` is hands out (they stay allocated;
  /// the op's result counts them), and in a loop the buffer each iteration
  /// gets, allocated from the body's start to its free.
  FailureOr<uint64_t> blockPeak(Block &b, unsigned depth,
                                Operation *call = nullptr,
                                ArrayRef<FreshYield> fresh = {});
  /// Bytes of the allocations of `b` in `fresh`.
  FailureOr<uint64_t> handedOutBytes(Block &b, ArrayRef<FreshYield> fresh);
  /// The allocation a fresh result of `op` is sized by (largestAllocation;
  /// refused when one cannot be sized).
  FailureOr<Operation *> freshSizedBy(Operation *op, const FreshYield &fy) {
    std::string why;
    FailureOr<Operation *> largest =
        largestAllocation(fy, layout, sizesAt(op), why);
    if (failed(largest))
      return unsupported(op, why);
    return largest;
  }
  /// findLeakedAllocas, once per op (refused when it fails).
  FailureOr<ArrayRef<LeakedAlloca>> getLeakedAllocas(Operation *op);
  /// Bytes of the stack memory `op` leaves behind.
  FailureOr<uint64_t> leakedStackBytes(Operation *op);
  /// Bytes a block leaves behind on the stack for the op around it: its
  /// allocas and what its ops leave behind, unless it is an allocation
  /// scope.
  FailureOr<uint64_t> stackHandedBytes(Block &b);
  /// A memref.realloc memsched follows: static sizes, growing (a smaller
  /// one may keep the old buffer or make a new one, by its lowering).
  LogicalResult checkGrowingRealloc(memref::ReallocOp realloc);
  /// Adds the size of `alloc` to `total` (refused at `at` past 2^64).
  LogicalResult addAllocationBytes(Operation *alloc, uint64_t &total,
                                   Operation *at);
  const std::optional<CalleeSummary> &getCallSummary(CallOpInterface call);
  /// AliasRoots::summarizeCall of a call with memref results, per callee.
  const std::optional<ReturnSummary> &getReturnSummary(Operation *call);

  bool isNode(Operation *op) const { return a.nodeIndex.count(op); }
  /// Position of an op of the block in block order.
  unsigned positionOf(Operation *op) const { return blockPosition.lookup(op); }

  BufferLifetimeAnalysis &a;
  DataLayout layout;
  const DenseSet<Operation *> &deallocNodes;
  /// The alias analysis of the function: `ownAliases`, or the analysis's
  /// shared one rebased to this block.
  AliasRoots *aliases = nullptr;
  std::unique_ptr<AliasRoots> ownAliases;
  /// Allocation ops of the block -> buffer.
  DenseMap<Operation *, unsigned> allocIndex;
  /// Nodes that allocate (calls returning fresh buffers, gpu.alloc async)
  /// -> the buffers they make.
  DenseMap<Operation *, SmallVector<unsigned, 1>> nodeAllocs;
  /// What asynchronous nodes wait for (after classify).
  std::unique_ptr<AsyncTokenOrder> tokens;
  /// Per asynchronous node: the memrefs its effects access (write or not).
  DenseMap<unsigned, SmallVector<std::pair<Value, bool>, 4>> asyncAccesses;
  /// Ordering edges that keep the device's allocations and frees where the
  /// block's order counts them (orderAsyncMemory).
  SmallVector<std::pair<unsigned, unsigned>> asyncEdges;
  /// Allocated values (allocations' and fresh call results) -> buffer.
  DenseMap<Value, unsigned> allocValues;
  /// Pointer extractions and comparisons that only decide a conditional free
  /// recognised as unconditional: not captures.
  DenseSet<Operation *> freeConditionOps;
  /// Floating ops whose results reach a node (directly or through other
  /// floating ops); the others feed no node.
  DenseSet<Operation *> feedsNode;
  /// isFloating per op of the block, asked by several steps (an op's
  /// effects are costly to gather: linalg ops build them operand by
  /// operand).
  DenseMap<Operation *, bool> floatingOps;
  bool floating(Operation *op) {
    auto [it, inserted] = floatingOps.try_emplace(op, false);
    if (inserted)
      it->second = isFloating(op);
    return it->second;
  }
  /// The first call whose callee frees an argument's memory.
  Operation *freeingCall = nullptr;
  DenseMap<Operation *, unsigned> blockPosition;
  DenseSet<Operation *> attachedDeallocs;
  DenseMap<Operation *, ValueUses> uses;
  DenseMap<Operation *, std::optional<CalleeSummary>> callSummaries;
  DenseMap<Operation *, std::optional<ReturnSummary>> returnSummaries;
  DenseMap<Operation *, std::unique_ptr<SmallVector<FreshYield, 1>>>
      freshYields;
  DenseMap<Operation *, std::unique_ptr<SmallVector<LeakedAlloca, 0>>>
      leakedAllocas;
  /// severalBlocksCalleePeak per callee.
  DenseMap<Operation *, uint64_t> calleePeaks;
  /// The callees nestedPeak is inside, outermost first, each with the call
  /// that entered it: a call back into one of them (or into the analysed
  /// function) is recursion.
  SmallVector<std::pair<Operation *, Operation *>> activeCallees;
  /// The size model for an allocation counted at `at`: the sizes of a
  /// callee's allocations are seen from the call (`at` itself, or the
  /// innermost call being expanded).
  SizeModel sizesAt(Operation *at) const {
    if (isa_and_nonnull<CallOpInterface>(at) || activeCallees.empty())
      return atCallSite(a.sizes, at);
    return atCallSite(a.sizes, activeCallees.back().second);
  }
  /// The module's call graph, built for the first call through a function
  /// value.
  std::unique_ptr<ModuleCallGraph> callGraph;

  struct Access {
    unsigned node;
    bool write;
    Footprint footprint;
  };
  /// Per buffer, accesses in node order.
  SmallVector<SmallVector<Access>> bufferAccesses;
  /// Accesses to roots outside the block's buffers (arguments, globals).
  std::map<unsigned, SmallVector<Access>> otherAccesses;
  /// Nodes with any memory effect.
  SmallVector<bool> hasEffects;
  /// Ordering edges that pin allocations (pinAllocations).
  SmallVector<std::pair<unsigned, unsigned>> pinEdges;
  /// (node, buffer): the node must run before every toucher of the buffer.
  SmallVector<std::pair<unsigned, unsigned>> beforeBuffer;
  SmallVector<SmallVector<unsigned, 4>> nodeDeps;
  /// Per buffer allocated before the block, when the block frees it: the
  /// nodes that access it and the deallocation.
  SmallVector<SmallVector<unsigned, 4>> liveInTouchers;
};

} // namespace memsched
} // namespace mlir

LogicalResult LifetimeBuilder::classify() {
  Block &block = *a.block;
  unsigned pos = 0;
  for (Operation &op : block)
    blockPosition[&op] = pos++;
  // Allocations first: alias roots need to know the block's buffers.
  uint64_t total = 0;
  // `times`: how many times `sizedBy` runs for one run of `op`.
  auto addBuffer = [&](Operation *op, Value value, Operation *sizedBy,
                       bool byNode, uint64_t times = 1) -> LogicalResult {
    BufferInfo info;
    info.allocOp = op;
    info.value = value;
    info.allocatedByNode = byNode;
    bool isBound = false;
    std::string why;
    FailureOr<uint64_t> size = getAllocationSize(
        sizedBy, layout, atCallSite(a.sizes, op), isBound, why);
    if (failed(size))
      return unsupported(op, why);
    if (std::optional<uint64_t> all = llvm::checkedMulUnsigned(*size, times))
      size = *all;
    else
      return unsupported(op, "the block's allocations add up to more than "
                             "2^64 bytes");
    // An allocation nothing observes is dead code that any cleanup (and the
    // lowering to LLVM) erases: it never takes memory. A call still makes
    // the buffer it returns.
    info.unobservable = !byNode && isUnobservable(value);
    info.size = info.unobservable ? 0 : *size;
    info.sizeIsBound = isBound;
    info.sizedBy = sizedBy;
    info.sizeTimes = times;
    if (!addBytes(total, info.size))
      return unsupported(op, "the block's allocations add up to more than "
                             "2^64 bytes");
    allocValues[value] = a.buffers.size();
    a.buffers.push_back(std::move(info));
    return success();
  };
  bool oneBlock = block.getParent()->hasOneBlock();
  for (Operation &op : block) {
    if (isAllocation(&op)) {
      allocIndex[&op] = a.buffers.size();
      if (failed(addBuffer(&op, op.getResult(0), &op, false)))
        return failure();
      continue;
    }
    if (isAsyncAllocation(&op) || getAsyncDeallocatedValue(&op)) {
      // Allocated and freed when the device gets there: where that is
      // relative to the host's ops depends on waits in this block.
      if (!oneBlock)
        return unsupported(&op, op.getName().getStringRef() +
                                    " async in a body with several blocks: "
                                    "memsched follows asynchronous "
                                    "allocations and frees in bodies of one "
                                    "block; convert the control flow to scf "
                                    "first (--lift-cf-to-scf)");
      if (!isAsyncAllocation(&op))
        continue;
      // A node: its tokens order it with the other asynchronous ops.
      nodeAllocs[&op].push_back(a.buffers.size());
      if (failed(addBuffer(&op, op.getResult(0), &op, true)))
        return failure();
      continue;
    }
    // memref.realloc: a node making a buffer (and freeing its operand).
    if (isa<memref::ReallocOp>(op)) {
      nodeAllocs[&op].push_back(a.buffers.size());
      if (failed(addBuffer(&op, op.getResult(0), &op, true)))
        return failure();
      continue;
    }
    // A loop or branch handing out buffers it allocates: allocated where
    // it runs, as large as the largest it may hand out.
    for (const FreshYield &fy : getFreshYields(&op)) {
      FailureOr<Operation *> largest = freshSizedBy(&op, fy);
      if (failed(largest))
        return failure();
      nodeAllocs[&op].push_back(a.buffers.size());
      if (failed(addBuffer(&op, op.getResult(fy.position), *largest, true)))
        return failure();
    }
    // Stack memory its regions leave behind (allocas outside any
    // allocation scope): the op allocates it, as often as it runs them.
    FailureOr<ArrayRef<LeakedAlloca>> leaked = getLeakedAllocas(&op);
    if (failed(leaked))
      return failure();
    for (const LeakedAlloca &l : *leaked) {
      nodeAllocs[&op].push_back(a.buffers.size());
      if (failed(addBuffer(&op, l.alloca->getResult(0), l.alloca, true,
                           l.times)))
        return failure();
    }
    if (!isa<CallOpInterface>(op))
      continue;
    const std::optional<ReturnSummary> &returned = getReturnSummary(&op);
    if (!returned)
      continue;
    for (auto [result, value] : llvm::zip(op.getResults(), *returned)) {
      if (!value.freshAlloc)
        continue;
      nodeAllocs[&op].push_back(a.buffers.size());
      if (failed(addBuffer(&op, result, value.freshAlloc, true)))
        return failure();
    }
  }
  if (a.sharedAliases) {
    a.sharedAliases->rebase(allocValues);
    aliases = a.sharedAliases;
  } else {
    ownAliases = std::make_unique<AliasRoots>(a.rootOp, allocValues);
    aliases = ownAliases.get();
  }

  // `op` frees the buffer of root `r` (one free per buffer).
  auto freeBy = [&](unsigned r, Operation *op) -> LogicalResult {
    BufferInfo &buf = a.buffers[aliases->root(r).buffer];
    if (buf.dealloc)
      return unsupported(op, "buffer deallocated twice in the block");
    buf.dealloc = op;
    return success();
  };
  auto addNode = [&](Operation *op, bool isDealloc) {
    a.nodeIndex[op] = a.nodes.size();
    NodeInfo node;
    node.op = op;
    node.isDealloc = isDealloc;
    a.nodes.push_back(node);
  };
  for (Operation &op : block) {
    // memref.realloc: a node that allocates its result and frees the
    // buffer it is given, one of the block's.
    if (auto realloc = dyn_cast<memref::ReallocOp>(op)) {
      if (failed(checkGrowingRealloc(realloc)))
        return failure();
      const AliasRoots::RootSet &rs = aliases->rootsOf(realloc.getSource());
      if (rs.size() != 1 || aliases->root(rs.front()).kind != RootKind::Buffer)
        return unsupported(&op, "memref.realloc of a buffer that is not one "
                                "allocation of this body (an argument, or a "
                                "value that may be one of several): "
                                "allocate the new buffer with memref.alloc, "
                                "copy into it and free the old one");
      if (failed(freeBy(rs.front(), &op)))
        return failure();
      addNode(&op, /*isDealloc=*/false);
      continue;
    }
    if (isUnrecognisedAllocation(&op) && !isAsyncAllocation(&op))
      return unsupported(&op, unrecognisedAllocationReason(&op));
    // bufferization.dealloc: a node freeing the buffers it surely frees;
    // the others it may free stay allocated to the end.
    if (auto free = dyn_cast<bufferization::DeallocOp>(op)) {
      SmallVector<unsigned> roots = deallocatedRoots(free);
      for (unsigned r : roots)
        if (failed(freeBy(r, &op)))
          return failure();
      addNode(&op, /*isDealloc=*/!roots.empty());
      continue;
    }
    if (isAllocation(&op) || floating(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    bool deallocNode = false;
    Value freed = getDeallocatedValue(&op);
    // A free by the device is a node: its tokens order it.
    bool conditional = false, async = false;
    if (!freed && (freed = getAsyncDeallocatedValue(&op)))
      async = true;
    // The root a conditional free frees (one root, whatever else the value
    // it names may be: an ownership flag picks it).
    std::optional<unsigned> conditionalRoot;
    // An entry of upstream's lowered bufferization.dealloc (DeallocHelper.h).
    if (!freed)
      if (std::optional<HelperDeallocEntry> e = matchHelperDeallocEntry(&op))
        if ((conditionalRoot = helperFreedRoot(*e))) {
          freed = e->memref;
          conditional = true;
          freeConditionOps.insert(e->pointerOps.begin(), e->pointerOps.end());
        }
    if (!freed)
      if (std::optional<ConditionalFree> cf = matchConditionalFree(&op))
        if ((conditionalRoot = conditionallyFreedRoot(*cf, &op))) {
          freed = cf->freed;
          conditional = true;
          freeConditionOps.insert(cf->pointerOps.begin(),
                                  cf->pointerOps.end());
        }
    if (freed) {
      AliasRoots::RootSet rs = aliases->rootsOf(freed);
      if (conditionalRoot)
        rs = {*conditionalRoot};
      if (rs.size() > 1 && llvm::any_of(rs, [&](unsigned r) {
            return aliases->root(r).kind == RootKind::Buffer;
          }))
        // The peak would have to keep every candidate live to the end and
        // the bound could count none of them: refuse rather than certify
        // either.
        return unsupported(&op, "memref.dealloc of a value that may be one "
                                "of several buffers (e.g. an arith.select of "
                                "two allocations): which one it frees is not "
                                "known; free each buffer by its own "
                                "memref.dealloc (under an scf.if)");
      if (rs.size() == 1 && aliases->root(rs[0]).kind == RootKind::Buffer) {
        if (failed(freeBy(rs[0], &op)))
          return failure();
        // A conditional free is always a node: its condition reads other
        // buffers' addresses, so it runs where the graph puts it.
        if (!conditional && !async && !deallocNodes.contains(&op)) {
          attachedDeallocs.insert(&op);
          continue;
        }
        deallocNode = true;
      }
    }
    addNode(&op, deallocNode);
  }
  SmallVector<Operation *> nodeOps;
  for (const NodeInfo &node : a.nodes)
    nodeOps.push_back(node.op);
  tokens = std::make_unique<AsyncTokenOrder>(nodeOps, a.nodeIndex);
  return success();
}

bool LifetimeBuilder::onlyFreedAfter(unsigned r, Operation *at) {
  WalkResult walk = a.rootOp->walk([&](Operation *op) {
    if (op == a.rootOp)
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      if (!isa<BaseMemRefType>(operand.getType()) ||
          !llvm::is_contained(aliases->rootsOf(operand), r))
        continue;
      // A callee may free what it is given.
      if (isa<CallOpInterface>(op))
        return WalkResult::interrupt();
      if (getDeallocatedValue(op) == operand) {
        if (op->getBlock() != a.block || positionOf(op) < positionOf(at))
          return WalkResult::interrupt();
        continue;
      }
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface) {
        if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          continue;
        return WalkResult::interrupt();
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      if (llvm::any_of(effects, [&](auto &e) {
            return isa<MemoryEffects::Free>(e.getEffect());
          }))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

std::optional<unsigned>
LifetimeBuilder::conditionallyFreedRoot(const ConditionalFree &cf,
                                       Operation *at) {
  std::optional<unsigned> freed;
  if (cf.flags.empty()) {
    const AliasRoots::RootSet &rs = aliases->rootsOf(cf.freedSource);
    if (rs.size() != 1 || aliases->root(rs.front()).kind != RootKind::Buffer ||
        aliases->rootsOf(cf.freed) != rs)
      return std::nullopt;
    freed = rs.front();
  }
  // Ownership flags: each the flag a loop returns next to the buffer freed,
  // true when that is the buffer the loop allocated (not its entry value).
  for (Value flag : cf.flags) {
    std::optional<unsigned> root = rootFreedUnder(cf.freed, flag);
    if (!root || (freed && *freed != *root))
      return std::nullopt;
    freed = root;
  }
  unsigned freedRoot = *freed;
  for (Value other : cf.compared) {
    const AliasRoots::RootSet &os = aliases->rootsOf(other);
    if (os.empty())
      return std::nullopt;
    for (unsigned r : os) {
      const Root &root = aliases->root(r);
      if (r == freedRoot)
        return std::nullopt;
      switch (root.kind) {
      case RootKind::Argument:
      case RootKind::Global:
        // Never the function's allocation, unless the function freed that
        // memory before (its address may then have been reused).
        if (!onlyFreedAfter(r, at))
          return std::nullopt;
        continue;
      case RootKind::Buffer:
        // Still allocated at the comparison (else its address may have been
        // given to the freed buffer): freed, if at all, after it.
        if (a.buffers[root.buffer].dealloc || !onlyFreedAfter(r, at))
          return std::nullopt;
        continue;
      case RootKind::Local:
      case RootKind::Unknown:
        return std::nullopt;
      }
    }
  }
  return freedRoot;
}

const SmallVector<FreshYield, 1> &
LifetimeBuilder::getFreshYields(Operation *op) {
  // (Only an op with regions and memref results hands out buffers: the
  // others need no entry.)
  static const SmallVector<FreshYield, 1> none;
  if (op->getNumRegions() == 0 ||
      llvm::none_of(op->getResultTypes(), llvm::IsaPred<MemRefType>))
    return none;
  // Held by pointer: callers keep the reference while nested bodies add
  // entries.
  auto [it, inserted] = freshYields.try_emplace(op);
  if (inserted)
    it->second =
        std::make_unique<SmallVector<FreshYield, 1>>(findFreshYields(op));
  return *it->second;
}

std::optional<unsigned> LifetimeBuilder::madeRoot(Value v) {
  for (unsigned r : aliases->rootsOf(v))
    if (aliases->root(r).value == v)
      return r;
  return std::nullopt;
}

std::optional<unsigned> LifetimeBuilder::rootFreedUnder(Value memref,
                                                        Value cond) {
  std::optional<unsigned> root;
  if (matchPattern(cond, m_One())) {
    const AliasRoots::RootSet &rs = aliases->rootsOf(memref);
    if (rs.size() == 1)
      root = rs.front();
  } else if (isLoopOwnershipFlag(memref, cond)) {
    root = madeRoot(wholeBufferSource(memref));
  }
  if (!root || aliases->root(*root).kind != RootKind::Buffer)
    return std::nullopt;
  return root;
}

bool LifetimeBuilder::mayBeRoot(Value v, unsigned r) {
  const AliasRoots::RootSet &roots = aliases->effectRoots(v);
  return llvm::is_contained(roots, r) ||
         llvm::is_contained(roots, aliases->getUnknownRoot());
}

std::optional<unsigned>
LifetimeBuilder::helperFreedRoot(const HelperDeallocEntry &e) {
  std::optional<unsigned> root =
      rootFreedUnder(wholeBufferSource(e.memref), e.condition);
  if (!root)
    return std::nullopt;
  auto mayBe = [&](Value v) { return mayBeRoot(v, *root); };
  // (An entry after it that may be the same buffer would be freed by it,
  // or not, at run time: its free would touch the buffer after this one.)
  if (llvm::any_of(e.earlier, mayBe) || llvm::any_of(e.later, mayBe) ||
      llvm::any_of(e.retained, mayBe))
    return std::nullopt;
  return root;
}

SmallVector<unsigned>
LifetimeBuilder::deallocatedRoots(bufferization::DeallocOp op) {
  SmallVector<unsigned> result;
  for (auto [memref, cond] : llvm::zip(op.getMemrefs(), op.getConditions())) {
    std::optional<unsigned> root = rootFreedUnder(memref, cond);
    if (!root || llvm::is_contained(result, *root))
      continue;
    // A retained value that may be the buffer keeps it.
    if (llvm::any_of(op.getRetained(),
                     [&](Value kept) { return mayBeRoot(kept, *root); }))
      continue;
    result.push_back(*root);
  }
  return result;
}

std::optional<unsigned> LifetimeBuilder::carriedFreeRoot(Operation *op) {
  std::optional<std::pair<Operation *, unsigned>> loop = getCarriedFreeLoop(op);
  if (!loop)
    return std::nullopt;
  return madeRoot(loop->first->getResult(loop->second));
}

void LifetimeBuilder::addValueUses(Value v, ValueUses &into) {
  if (isa<BaseMemRefType>(v.getType())) {
    SmallVector<unsigned, 2> buffers;
    for (unsigned r : aliases->rootsOf(v))
      if (aliases->root(r).kind == RootKind::Buffer)
        buffers.push_back(aliases->root(r).buffer);
    llvm::sort(buffers);
    mergeSorted(into.buffers, buffers);
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != a.block)
    return;
  if (auto it = a.nodeIndex.find(def); it != a.nodeIndex.end()) {
    mergeSorted(into.deps, {it->second});
    return;
  }
  const ValueUses &du = usesOf(def);
  mergeSorted(into.deps, du.deps);
  mergeSorted(into.buffers, du.buffers);
}

const ValueUses &LifetimeBuilder::usesOf(Operation *root) {
  if (auto it = uses.find(root); it != uses.end())
    return it->second;
  // Producers first, so that what an op uses is known when it is merged.
  auto stop = [&](Operation *def) {
    return def->getBlock() != a.block || isNode(def) || uses.count(def);
  };
  auto visit = [&](Operation *op) {
    ValueUses result;
    forEachBlockOperand(op, a.block, [&](Value v) {
      if (v.getDefiningOp() != op)
        addValueUses(v, result);
    });
    uses[op] = std::move(result);
  };
  if (failed(walkProducersPostOrder(root, a.block, stop, visit)))
    // Only in a graph region: what the cycle reaches is not computed.
    (void)unsupported(root, "values of the block defined in a cycle (a graph "
                            "region)");
  return uses[root];
}

ValueUses LifetimeBuilder::usesOfOperands(Operation *op) {
  ValueUses result;
  forEachBlockOperand(op, a.block, [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == a.block && !isNode(def))
      (void)usesOf(def);
    if (def != op)
      addValueUses(v, result);
  });
  return result;
}

const std::optional<ReturnSummary> &
LifetimeBuilder::getReturnSummary(Operation *call) {
  static const std::optional<ReturnSummary> none;
  if (llvm::none_of(call->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return none;
  auto callee = dyn_cast_or_null<FunctionOpInterface>(
      cast<CallOpInterface>(call).resolveCallable());
  if (!callee)
    return none;
  auto [it, inserted] = returnSummaries.try_emplace(callee);
  if (inserted)
    it->second = AliasRoots::summarizeCall(call);
  return it->second;
}

const std::optional<CalleeSummary> &
LifetimeBuilder::getCallSummary(CallOpInterface call) {
  auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  Operation *key = callee ? callee.getOperation() : nullptr;
  auto [it, inserted] = callSummaries.try_emplace(key);
  if (inserted && callee && callee != a.rootOp)
    it->second = summarizeCallee(callee);
  return it->second;
}

LogicalResult LifetimeBuilder::collectAccesses() {
  size_t numNodes = a.nodes.size();
  bufferAccesses.assign(a.buffers.size(), {});
  // Whether any op of the function runs asynchronous GPU work (then each
  // node is asked whether it does).
  bool hasAsyncWork = aliases->hasAsyncWork();
  hasEffects.assign(numNodes, false);
  nodeDeps.assign(numNodes, {});

  for (unsigned n = 0; n < numNodes; ++n) {
    NodeInfo &node = a.nodes[n];
    Operation *op = node.op;

    // SSA dependencies, and the buffers whose aliases the node uses
    // (directly, through floating ops, or inside its regions): all of them
    // stay allocated while it runs.
    ValueUses opUses = usesOfOperands(op);
    nodeDeps[n].assign(opUses.deps.begin(), opUses.deps.end());
    auto touch = [&](unsigned b) {
      auto &t = a.buffers[b].touchers;
      if (t.empty() || t.back() != n)
        t.push_back(n);
    };
    // A call returning fresh buffers makes them: it is their first toucher.
    if (auto it = nodeAllocs.find(op); it != nodeAllocs.end())
      for (unsigned b : it->second)
        touch(b);
    for (unsigned b : opUses.buffers)
      touch(b);

    // Memory effects of the node and everything nested in it. `exact`: the
    // access stays within the view it names (not so for callees, which may
    // rebuild the whole allocation from a view).
    bool isAsync = tokens->isAsync(n);
    // Work the device runs later may use a buffer until something waits
    // for it: its buffers escape the block's order (every barrier between
    // the allocation and the free keeps the free after it).
    bool runsAsyncWork = isAsync || (hasAsyncWork && mayRunAsyncWork(op));
    // `only`: the one root the access touches, of those `v` may be.
    auto addAccess = [&](Value v, bool write, bool exact,
                         std::optional<unsigned> only = std::nullopt) {
      hasEffects[n] = true;
      if (isAsync)
        asyncAccesses[n].push_back({v, write});
      if (runsAsyncWork)
        for (unsigned r : aliases->effectRoots(v))
          if (aliases->root(r).kind == RootKind::Buffer) {
            std::string &e = a.buffers[aliases->root(r).buffer].escape;
            if (e.empty())
              e = "used by asynchronous GPU work";
          }
      for (unsigned r : aliases->effectRoots(v)) {
        if (only && r != *only)
          continue;
        const Root &root = aliases->root(r);
        Footprint footprint = exact ? getFootprint(v) : Footprint();
        switch (root.kind) {
        case RootKind::Local:
          // An allocation nested in a node is accessed by that node alone;
          // one of another block is ordered like an argument.
          otherAccesses[r].push_back({n, write, footprint});
          break;
        case RootKind::Unknown:
          node.barrier = true;
          break;
        case RootKind::Buffer:
          touch(root.buffer);
          bufferAccesses[root.buffer].push_back({n, write, footprint});
          break;
        case RootKind::Global:
          // The caller may pass a global as an argument.
          otherAccesses[aliases->getSharedArgumentRoot()].push_back(
              {n, write, footprint});
          otherAccesses[r].push_back({n, write, footprint});
          break;
        case RootKind::Argument:
          otherAccesses[r].push_back({n, write, footprint});
          break;
        }
      }
    };
    auto noteCaptures = [&](Operation *nested, ArrayRef<Value> accessed) {
      this->noteCaptures(nested, accessed);
    };
    // An op with unknown effects: a barrier that may write everything it is
    // given, anywhere in the allocation.
    auto unknownEffects = [&](Operation *nested) {
      node.barrier = true;
      hasEffects[n] = true;
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()))
          addAccess(operand, /*write=*/true, /*exact=*/false);
    };
    // A call or a kernel launch: what the callee does to each operand.
    auto summarised = [&](Operation *nested, ValueRange args,
                          const std::optional<CalleeSummary> &summary) {
        if (!summary || summary->args.size() != args.size()) {
          unknownEffects(nested);
          return;
        }
        if (summary->freesArgument && !freeingCall)
          freeingCall = nested;
        SmallVector<Value> accessed;
        for (auto [i, arg] : llvm::enumerate(args))
          if (summary->args[i] != ArgAccess::None) {
            addAccess(arg, summary->args[i] == ArgAccess::Write,
                      /*exact=*/false);
            accessed.push_back(arg);
          }
        // Operands the callee does not access are only passed through.
        for (auto [i, arg] : llvm::enumerate(args))
          if (summary->args[i] == ArgAccess::None)
            accessed.push_back(arg);
        noteCaptures(nested, accessed);
    };
    if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
      // gpu.wait async joins tokens: no effect of its own. A synchronous
      // gpu.wait blocks the host until the work it waits for has completed:
      // it takes that work's accesses, so the host's ops keep their order
      // with it (ops after it see what the work wrote). Work an earlier
      // wait waited for was taken there.
      if (wait.getAsyncToken())
        continue;
      // Waiting for work of unknown origin (a token from outside the
      // block), or for work with effects on no value (a barrier), it is a
      // barrier too; either way it takes the accesses of the work it is
      // known to wait for.
      SmallVector<unsigned> waited;
      if (!tokens->waitedFor(n, waited) ||
          llvm::any_of(waited, [&](unsigned m) { return a.nodes[m].barrier; }))
        unknownEffects(op);
      // A buffer freed before the wait (by the work waited for or by
      // anything else) is gone: nothing touches it after the wait.
      auto freedBefore = [&](unsigned r) {
        const Root &root = aliases->root(r);
        if (root.kind != RootKind::Buffer)
          return false;
        Operation *dealloc = a.buffers[root.buffer].dealloc;
        return dealloc && positionOf(dealloc) < positionOf(op);
      };
      for (unsigned m : waited)
        for (auto [v, write] : asyncAccesses.lookup(m)) {
          if (llvm::all_of(aliases->effectRoots(v), freedBefore))
            continue;
          addAccess(v, write, /*exact=*/false);
        }
      continue;
    }
    op->walk([&](Operation *nested) {
      if (auto call = dyn_cast<CallOpInterface>(nested)) {
        summarised(nested, call.getArgOperands(), getCallSummary(call));
        return;
      }
      if (isKernelLaunch(nested)) {
        std::optional<KernelLaunch> launch = summarizeKernelLaunch(nested);
        if (!launch) {
          unknownEffects(nested);
          return;
        }
        summarised(nested, launch->operands, launch->summary);
        return;
      }
      // bufferization.dealloc states no effects: the one freeing the buffer
      // a loop iteration got frees that loop's buffers alone.
      // It frees (writes) what it may free, and only compares the
      // addresses of what it retains.
      if (auto free = dyn_cast<bufferization::DeallocOp>(nested)) {
        std::optional<unsigned> root = carriedFreeRoot(nested);
        for (Value v : free.getMemrefs())
          addAccess(v, /*write=*/true, /*exact=*/false, root);
        return;
      }
      // Ops with recursive effects are covered by the walk of their nested
      // ops (unless they also state their own effects).
      auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!iface && nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
        noteCaptures(nested, {});
        return;
      }
      if (!iface) {
        unknownEffects(nested);
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      SmallVector<Value> accessed = getEffectValues(effects);
      if (!nested->hasTrait<OpTrait::IsTerminator>() ||
          nested->getParentOp() != a.rootOp)
        noteCaptures(nested, accessed);
      // A loop's free of the buffer an iteration got frees an earlier
      // iteration's buffer, never the entry value.
      std::optional<unsigned> freedRoot = carriedFreeRoot(nested);
      for (auto &e : effects) {
        bool write = !isa<MemoryEffects::Read>(e.getEffect());
        if (Value v = e.getValue()) {
          addAccess(v, write, /*exact=*/true,
                    isa<MemoryEffects::Free>(e.getEffect()) ? freedRoot
                                                             : std::nullopt);
          continue;
        }
        // Allocations of stack scopes carry no value; anything else without
        // a value is a global effect.
        if (isa<MemoryEffects::Allocate>(e.getEffect()) &&
            isa<SideEffects::AutomaticAllocationScopeResource>(e.getResource()))
          continue;
        node.barrier = true;
        hasEffects[n] = true;
      }
    });
  }
  for (auto [b, accesses] : llvm::enumerate(bufferAccesses))
    for (const Access &acc : accesses)
      if (acc.write) {
        SmallVector<unsigned, 2> &w = a.buffers[b].writers;
        if (w.empty() || w.back() != acc.node)
          w.push_back(acc.node);
      }
  if (freeingCall) {
    auto callee = cast<CallOpInterface>(freeingCall).resolveCallable();
    return unsupported(
        freeingCall,
        "the callee @" + cast<SymbolOpInterface>(callee).getName() +
            " frees memory it is given: memsched counts a buffer until a "
            "memref.dealloc of it in this function; free it in the caller, "
            "or inline the callee first (--inline)");
  }
  // Floating ops may capture too (extract_aligned_pointer_as_index, casts to
  // other types).
  for (Operation &op : *a.block)
    if (floating(&op))
      op.walk([&](Operation *nested) { noteCaptures(nested, {}); });
  return success();
}

void LifetimeBuilder::noteCaptures(Operation *op, ArrayRef<Value> accessed) {
  if (freeConditionOps.contains(op))
    return;
  for (Value operand : op->getOperands())
    if (isa<BaseMemRefType>(operand.getType()) &&
        mayCapture(op, operand, accessed))
      for (unsigned r : aliases->rootsOf(operand))
        if (aliases->root(r).kind == RootKind::Buffer) {
          std::string &e = a.buffers[aliases->root(r).buffer].escape;
          if (e.empty())
            e = ("captured by " + op->getName().getStringRef()).str();
        }
}

void LifetimeBuilder::collectEscapes() {
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
  // barrier between its allocation and its deallocation: those keep it
  // allocated. (A barrier before the allocation cannot reach it.)
  for (BufferInfo &buf : a.buffers) {
    if (buf.escape.empty() || !buf.dealloc)
      continue;
    unsigned from = positionOf(buf.allocOp), to = positionOf(buf.dealloc);
    SmallVector<unsigned, 4> touchers(buf.touchers);
    for (unsigned n = 0; n < a.nodes.size(); ++n) {
      unsigned p = positionOf(a.nodes[n].op);
      if (a.nodes[n].barrier && from < p && p < to)
        touchers.push_back(n);
    }
    llvm::sort(touchers);
    touchers.erase(llvm::unique(touchers), touchers.end());
    buf.touchers.assign(touchers.begin(), touchers.end());
  }
}

void LifetimeBuilder::findFeedsNode() {
  // In reverse block order: users come after their producers.
  for (Operation &op : llvm::reverse(*a.block)) {
    if (!floating(&op))
      continue;
    for (Operation *user : op.getUsers()) {
      Operation *top = a.block->findAncestorOpInBlock(*user);
      if (top && top != &op && (isNode(top) || feedsNode.contains(top))) {
        feedsNode.insert(&op);
        break;
      }
    }
  }
}

void LifetimeBuilder::collectDanglingUsers() {
  SmallVector<Operation *> ops;
  for (Operation &op : *a.block)
    ops.push_back(&op);
  // A floating op that feeds no node, and every deallocation, must come
  // before the deallocations of the buffers it uses, and after the nodes it
  // depends on: those nodes run while the buffer is allocated (or, if they
  // come before the allocation in the block, before all its touchers).
  auto constrain = [&](Operation *op, const ValueUses &u, bool record) {
    for (unsigned b : u.buffers) {
      BufferInfo &buf = a.buffers[b];
      if (record && buf.dealloc)
        buf.danglingUsers.push_back(op);
      for (unsigned d : u.deps) {
        if (positionOf(a.nodes[d].op) > positionOf(buf.allocOp)) {
          auto it = llvm::lower_bound(buf.touchers, d);
          if (it == buf.touchers.end() || *it != d)
            buf.touchers.insert(it, d);
        } else {
          beforeBuffer.push_back({d, b});
        }
      }
    }
  };
  for (Operation *op : ops) {
    if (floating(op) && !feedsNode.contains(op))
      constrain(op, usesOf(op), /*record=*/true);
    else if (attachedDeallocs.contains(op))
      constrain(op, usesOfOperands(op), /*record=*/false);
  }
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
    std::optional<unsigned> anchor = buf.allocatedByNode
                                         ? a.getNodeIndex(buf.allocOp)
                                         : nextNode(buf.allocOp);
    if (anchor) {
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

/// Where an op stands in its file, for messages that name a second op.
static std::string describePlace(Operation *op) {
  if (auto loc = op->getLoc()->findInstanceOf<FileLineColLoc>())
    return " (line " + std::to_string(loc.getLine()) + ")";
  return "";
}

/// An op's name, with ` async` for an asynchronous GPU op.
static std::string describeOp(Operation *op) {
  return op->getName().getStringRef().str() + (isAsyncOp(op) ? " async" : "");
}

LogicalResult LifetimeBuilder::orderAsyncMemory() {
  if (!tokens->any())
    return success();
  // The block's order counts a buffer freed from the free on; the device
  // frees it when it gets there. That is sound when every allocation
  // counted after a free happens after it: on the device, by tokens, or
  // issued after a synchronous gpu.wait for the free. (Host frees happen
  // before anything issued later; allocations may happen in any order, and
  // one counted before a free counts the freed buffer too.)
  // Work that allocates while it runs (a gpu.launch async whose body
  // allocates) frees when it ends: a free too, and an allocation.
  // Only ops and tokens decide here, never the space counted: every memory
  // space gets the same graph.
  struct Allocation {
    Operation *op;
    /// The nodes where the model may count it: the allocating node, or
    /// the touchers of a buffer its allocation op makes.
    SmallVector<unsigned, 4> nodes;
    std::optional<unsigned> buffer;
    /// Made by the device (gpu.alloc async, the memory of a gpu.launch
    /// async while it runs), where its tokens order it; otherwise by the
    /// host where it is issued, whatever its users wait for.
    bool onDevice = false;
  };
  struct Release {
    unsigned node;
    std::optional<unsigned> buffer;
  };
  SmallVector<Release> releases;
  for (auto [b, buf] : llvm::enumerate(a.buffers))
    if (buf.dealloc && getAsyncDeallocatedValue(buf.dealloc))
      releases.push_back(
          {*a.getNodeIndex(buf.dealloc), static_cast<unsigned>(b)});
  SmallVector<Allocation> allocations;
  for (unsigned n = 0; n < a.nodes.size(); ++n)
    if (mayAllocateWhileRunning(a.nodes[n].op)) {
      allocations.push_back(
          {a.nodes[n].op, {n}, std::nullopt, tokens->isAsync(n)});
      if (tokens->isAsync(n))
        releases.push_back({n, std::nullopt});
    }
  if (releases.empty())
    return success();
  for (auto [b, buf] : llvm::enumerate(a.buffers)) {
    if (buf.allocatedByNode) {
      if (std::optional<unsigned> n = a.getNodeIndex(buf.allocOp))
        allocations.push_back({buf.allocOp, {*n}, static_cast<unsigned>(b),
                               tokens->isAsync(*n)});
      continue;
    }
    if (isUnobservable(buf.value))
      continue; // never made: no bytes in any space
    // Nothing says where a buffer no node touches is counted.
    if (buf.touchers.empty())
      return unsupported(
          buf.allocOp, buf.allocOp->getName().getStringRef() +
                           " makes a buffer no op of the block uses while "
                           "the device frees memory asynchronously: where "
                           "it is allocated relative to the device's frees "
                           "is not known; use it in the block, or allocate "
                           "it before the asynchronous work");
    allocations.push_back({buf.allocOp,
                           SmallVector<unsigned, 4>(buf.touchers),
                           static_cast<unsigned>(b)});
  }
  for (const Release &r : releases) {
    Operation *freeOp = a.nodes[r.node].op;
    for (const Allocation &alloc : allocations) {
      if (alloc.buffer && alloc.buffer == r.buffer)
        continue;
      unsigned first = *llvm::min_element(alloc.nodes);
      if (alloc.nodes.size() == 1 && first == r.node)
        continue;
      // Both on the device, ordered by tokens: every order of the block
      // keeps that.
      if (alloc.onDevice &&
          (tokens->waitsFor(first, r.node) || tokens->waitsFor(r.node, first)))
        continue;
      // Counted before the free: keep it there.
      if (first < r.node) {
        asyncEdges.push_back({first, r.node});
        continue;
      }
      // Counted after the free: after a host wait for it.
      std::optional<unsigned> wait = tokens->coveringWait(r.node, first);
      if (!wait)
        return unsupported(
            alloc.op,
            describeOp(alloc.op) + " may take memory before the device has "
            "run the " + describeOp(freeOp) + describePlace(freeOp) +
            ", which frees memory before it in the block: neither its "
            "tokens nor a gpu.wait between them wait for the free; make it "
            "wait for the free's token, or wait for that token (gpu.wait) "
            "before it (--gpu-async-region does either)");
      for (unsigned t : alloc.nodes)
        asyncEdges.push_back({*wait, t});
    }
  }
  return success();
}

void LifetimeBuilder::addEdges() {
  ::memsched_core::MemoryGraph &g = a.graph;
  for (auto [from, to] : pinEdges)
    g.addEdge(from, to);
  for (auto [from, to] : asyncEdges)
    g.addEdge(from, to);
  // The edges that keep device memory where it is counted, and what each
  // gpu.wait takes (the work no earlier wait waited for), follow the order
  // as written.
  a.orderDependentEdges = tokens->any();
  for (unsigned n = 0; n < a.nodes.size(); ++n)
    for (unsigned d : nodeDeps[n])
      g.addEdge(d, n);

  // Memory dependencies per root. Reads only check earlier writes; a write
  // checks every earlier access it may overlap. A write then stands for the
  // earlier accesses it is ordered after (their node's, or an edge to it):
  // - those it contains leave the lists: whatever overlaps them later
  //   overlaps it too (in the list of a block allocation every access stays
  //   within the allocation, so a write covering it contains even accesses
  //   of unknown extent);
  // - the others are kept under it ("covered"): a later access that may
  //   overlap the write is ordered after it, hence after them; one that
  //   provably does not (a disjoint box of its base) is checked against
  //   them one by one.
  // So the lists stay short where many ops access one root (all of them
  // writing one argument, which may alias every other argument), and the
  // edges left out are implied by the ones added.
  auto order = [&](ArrayRef<Access> accesses, bool allocationRoot) {
    struct Entry {
      const Access *access;
      SmallVector<unsigned, 0> covered;
      /// Contained in the write that covers it: gone from the lists, only
      /// what it covers still stands under that write (followed through
      /// it rather than copied, so a chain of writes into one buffer stays
      /// linear).
      bool transparent = false;
    };
    std::vector<Entry> pool;
    SmallVector<unsigned> writes, reads, stack;
    // Orders `acc` after entry `e` and what it covers, where they may
    // conflict.
    auto after = [&](unsigned e, const Access &acc) {
      stack.assign(1, e);
      while (!stack.empty()) {
        const Entry &entry = pool[stack.pop_back_val()];
        if (entry.transparent) {
          llvm::append_range(stack, entry.covered);
          continue;
        }
        const Access &x = *entry.access;
        // The node of `acc` runs after every access `x` covers already.
        if (x.node == acc.node)
          continue;
        if ((x.write || acc.write) && mayOverlap(x.footprint, acc.footprint)) {
          g.addEdge(x.node, acc.node);
          continue;
        }
        llvm::append_range(stack, entry.covered);
      }
    };
    for (const Access &acc : accesses) {
      for (unsigned w : writes)
        after(w, acc);
      unsigned self = pool.size();
      pool.push_back({&acc, {}});
      if (!acc.write) {
        reads.push_back(self);
        continue;
      }
      for (unsigned r : reads)
        after(r, acc);
      auto contained = [&](const Access *x) {
        return isContainedIn(x->footprint, acc.footprint) ||
               (allocationRoot && x->footprint.whole &&
                acc.footprint.coversBase);
      };
      // What the write is ordered after moves under it; what it does not
      // reach (a disjoint box of the same base) stays in the lists.
      // (An earlier access it may overlap has an edge to it, or is its
      // node's own; so has everything that access covers.)
      auto takeUnder = [&](SmallVector<unsigned> &list) {
        llvm::erase_if(list, [&](unsigned e) {
          const Access *x = pool[e].access;
          if (x->node != acc.node && !mayOverlap(x->footprint, acc.footprint))
            return false;
          // Gone from the lists; contained, only what it covered stays
          // covered (through it).
          pool[e].transparent = contained(x);
          pool[self].covered.push_back(e);
          return true;
        });
      };
      takeUnder(writes);
      takeUnder(reads);
      writes.push_back(self);
    }
  };
  for (auto &accesses : bufferAccesses)
    order(accesses, /*allocationRoot=*/true);
  for (auto &[root, accesses] : otherAccesses)
    order(accesses, /*allocationRoot=*/false);

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
    if (alloc->getNumOperands() == 0 || a.buffers[b].allocatedByNode)
      continue;
    for (unsigned d : usesOf(alloc).deps)
      for (unsigned t : a.buffers[b].touchers)
        g.addEdge(d, t);
  }
  for (auto [d, b] : beforeBuffer)
    for (unsigned t : a.buffers[b].touchers)
      g.addEdge(d, t);
  // A deallocation that is a node ends its buffer's lifetime: every other
  // toucher runs before it.
  for (const BufferInfo &buf : a.buffers)
    if (buf.dealloc && !attachedDeallocs.contains(buf.dealloc))
      if (std::optional<unsigned> d = a.getNodeIndex(buf.dealloc))
        for (unsigned t : buf.touchers)
          g.addEdge(t, *d);
  for (auto [i, in] : llvm::enumerate(a.liveIn))
    if (in.deallocNode)
      for (unsigned t : liveInTouchers[i])
        g.addEdge(t, *in.deallocNode);
}

void LifetimeBuilder::findLiveInDeallocs() {
  liveInTouchers.assign(a.liveIn.size(), {});
  if (a.liveIn.empty())
    return;
  // The root of each buffer allocated before the block, and the node that
  // frees it.
  DenseMap<unsigned, unsigned> liveInOfRoot;
  // (A loop's or branch's result may also be other memory: its own root
  // names the buffer it made.)
  auto ownRoot = [&](Value v) -> std::optional<unsigned> {
    const AliasRoots::RootSet &rs = aliases->rootsOf(v);
    return rs.size() == 1 ? std::optional<unsigned>(rs.front()) : madeRoot(v);
  };
  for (auto [i, in] : llvm::enumerate(a.liveIn))
    if (std::optional<unsigned> r = ownRoot(in.value))
      liveInOfRoot[*r] = i;
  // `underFlag`: freed under the flag a loop or branch returns next to it,
  // which frees the buffer the op made, whatever else the value may be.
  auto freedBy = [&](Value freed, unsigned n, bool underFlag = false) {
    const AliasRoots::RootSet &rs = aliases->rootsOf(freed);
    std::optional<unsigned> r =
        rs.size() == 1 ? std::optional<unsigned>(rs.front())
        : underFlag    ? ownRoot(freed)
                       : std::nullopt;
    if (r)
      if (auto it = liveInOfRoot.find(*r); it != liveInOfRoot.end())
        a.liveIn[it->second].deallocNode = n;
  };
  for (unsigned n = 0; n < a.nodes.size(); ++n) {
    if (Value freed = getDeallocatedValue(a.nodes[n].op))
      freedBy(freed, n);
    // What a bufferization.dealloc retaining nothing frees for sure, and
    // frees under the flag a loop returns next to its buffer.
    if (auto free = dyn_cast<bufferization::DeallocOp>(a.nodes[n].op))
      if (free.getRetained().empty())
        for (auto [memref, cond] :
             llvm::zip(free.getMemrefs(), free.getConditions())) {
          if (matchPattern(cond, m_One()))
            freedBy(wholeBufferSource(memref), n);
          else if (isLoopOwnershipFlag(memref, cond))
            freedBy(wholeBufferSource(memref), n, /*underFlag=*/true);
        }
    if (memref::DeallocOp free = matchGuardedFree(a.nodes[n].op))
      if (isLoopOwnershipFlag(free.getMemref(),
                              cast<scf::IfOp>(a.nodes[n].op).getCondition()))
        freedBy(wholeBufferSource(free.getMemref()), n, /*underFlag=*/true);
  }
  // Every node that uses such a buffer, a view of it or a value computed
  // from it (through the block's other ops) keeps it allocated, like the
  // touchers of the block's own buffers: it runs before the deallocation.
  DenseMap<Operation *, SmallVector<unsigned, 2>> usedBy;
  for (Operation &op : *a.block) {
    SmallVector<unsigned, 2> used;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (isa<BaseMemRefType>(v.getType()))
          for (unsigned r : aliases->rootsOf(v))
            if (auto it = liveInOfRoot.find(r); it != liveInOfRoot.end())
              mergeSorted(used, {it->second});
        Operation *def = v.getDefiningOp();
        if (def && def != &op && def->getBlock() == a.block && !isNode(def))
          if (auto it = usedBy.find(def); it != usedBy.end())
            mergeSorted(used, it->second);
      }
    });
    if (used.empty())
      continue;
    if (std::optional<unsigned> n = a.getNodeIndex(&op))
      for (unsigned i : used)
        liveInTouchers[i].push_back(*n);
    usedBy[&op] = std::move(used);
  }
  // Side-effect free users that feed no node (e.g. only the terminator)
  // still come before the deallocation, and so do the nodes they use.
  for (Operation &block : *a.block) {
    Operation *op = &block;
    auto it = usedBy.find(op);
    if (it == usedBy.end() || !floating(op) || feedsNode.contains(op))
      continue;
    for (unsigned i : it->second) {
      LiveInInfo &in = a.liveIn[i];
      if (!in.deallocNode)
        continue;
      in.danglingUsers.push_back(op);
      for (unsigned d : usesOf(op).deps)
        liveInTouchers[i].push_back(d);
    }
  }
  for (auto [i, in] : llvm::enumerate(a.liveIn)) {
    SmallVector<unsigned, 4> &touchers = liveInTouchers[i];
    if (!in.deallocNode) {
      touchers.clear();
      continue;
    }
    touchers.push_back(*in.deallocNode);
    for (auto [r, j] : liveInOfRoot)
      if (j == i)
        if (auto it = otherAccesses.find(r); it != otherAccesses.end())
          for (const Access &acc : it->second)
            touchers.push_back(acc.node);
    llvm::sort(touchers);
    touchers.erase(llvm::unique(touchers), touchers.end());
  }
}

FailureOr<ArrayRef<LeakedAlloca>>
LifetimeBuilder::getLeakedAllocas(Operation *op) {
  // (Most ops have no region: nothing to find, nothing to cache.)
  if (op->getNumRegions() == 0)
    return ArrayRef<LeakedAlloca>();
  auto it = leakedAllocas.find(op);
  if (it == leakedAllocas.end()) {
    auto leaked = std::make_unique<SmallVector<LeakedAlloca, 0>>();
    std::string why;
    Operation *at = nullptr;
    if (failed(findLeakedAllocas(op, *leaked, why, at)))
      return unsupported(at, why);
    it = leakedAllocas.try_emplace(op, std::move(leaked)).first;
  }
  return ArrayRef<LeakedAlloca>(*it->second);
}

FailureOr<uint64_t> LifetimeBuilder::leakedStackBytes(Operation *op) {
  FailureOr<ArrayRef<LeakedAlloca>> leaked = getLeakedAllocas(op);
  if (failed(leaked))
    return failure();
  uint64_t bytes = 0;
  for (const LeakedAlloca &l : *leaked) {
    uint64_t one = 0;
    if (failed(addAllocationBytes(l.alloca, one, op)))
      return failure();
    std::optional<uint64_t> all = llvm::checkedMulUnsigned(one, l.times);
    if (!all || !addBytes(bytes, *all))
      return unsupported(op, "the bytes allocated add up to more than 2^64");
  }
  return bytes;
}

FailureOr<uint64_t> LifetimeBuilder::stackHandedBytes(Block &b) {
  if (b.getParentOp()->hasTrait<OpTrait::AutomaticAllocationScope>())
    return uint64_t(0);
  uint64_t bytes = 0;
  for (Operation &op : b) {
    if (isa<memref::AllocaOp>(op)) {
      if (!isUnobservable(op.getResult(0)) &&
          failed(addAllocationBytes(&op, bytes, &op)))
        return failure();
      continue;
    }
    FailureOr<uint64_t> left = leakedStackBytes(&op);
    if (failed(left))
      return failure();
    if (!addBytes(bytes, *left))
      return unsupported(&op, "the bytes allocated add up to more than 2^64");
  }
  return bytes;
}

LogicalResult
LifetimeBuilder::checkGrowingRealloc(memref::ReallocOp realloc) {
  MemRefType from = realloc.getSource().getType(), to = realloc.getType();
  if (from.hasStaticShape() && to.hasStaticShape() &&
      to.getNumElements() > from.getNumElements())
    return success();
  return unsupported(realloc, "memref.realloc to a smaller or dynamic size: "
                              "whether it keeps the old buffer (as "
                              "--expand-realloc lowers it) or makes a new "
                              "one depends on its lowering; allocate the "
                              "new buffer with memref.alloc, copy into it "
                              "and free the old one");
}

LogicalResult LifetimeBuilder::addAllocationBytes(Operation *alloc,
                                                  uint64_t &total,
                                                  Operation *at) {
  bool isBound = false;
  std::string why;
  FailureOr<uint64_t> size =
      getAllocationSize(alloc, layout, sizesAt(at), isBound, why);
  if (failed(size))
    return unsupported(alloc, why);
  if (!addBytes(total, *size))
    return unsupported(at, "the bytes allocated add up to more than 2^64");
  return success();
}

FailureOr<uint64_t>
LifetimeBuilder::handedOutBytes(Block &b, ArrayRef<FreshYield> fresh) {
  uint64_t bytes = 0;
  for (const FreshYield &fy : fresh)
    for (Operation *alloc : fy.allocs) {
      if (alloc->getBlock() != &b || isUnobservable(alloc->getResult(0)))
        continue;
      if (failed(addAllocationBytes(alloc, bytes, alloc)))
        return failure();
    }
  return bytes;
}

FailureOr<uint64_t> LifetimeBuilder::blockPeak(Block &b, unsigned depth,
                                               Operation *call,
                                               ArrayRef<FreshYield> fresh) {
  DenseMap<Value, uint64_t> live;
  uint64_t current = 0, peak = 0;
  auto tooLarge = [&](Operation *op) {
    return unsupported(op, "the bytes allocated add up to more than 2^64");
  };
  auto sizeOf = [&](Operation *alloc, Operation *at) -> FailureOr<uint64_t> {
    bool isBound = false;
    std::string why;
    FailureOr<uint64_t> size =
        getAllocationSize(alloc, layout, sizesAt(at), isBound, why);
    if (failed(size))
      return unsupported(at, why);
    return size;
  };
  // In a callee's body: the allocations it returns fresh stay allocated
  // (the caller counts them from the call on).
  DenseSet<Operation *> handedOver;
  uint64_t handedOverBytes = 0;
  if (call)
    if (const std::optional<ReturnSummary> &returned = getReturnSummary(call))
      for (const ReturnedValue &value : *returned)
        if (value.freshAlloc)
          handedOver.insert(value.freshAlloc);
  // Stack allocations end with their scope: in a region without one they
  // outlive it (the op around it counts them as its own from its run on).
  bool scope = b.getParentOp()->hasTrait<OpTrait::AutomaticAllocationScope>();
  // A loop or branch body: what it hands out stays allocated; a loop
  // iteration holds the buffer it got until the body frees it.
  DenseMap<Operation *, Value> carriedFrees;
  // scf.while's `after` region: the buffer it yields back stays allocated
  // (the `before` region frees it), counted in this region's memory.
  DenseSet<Operation *> yieldedBack;
  for (const FreshYield &fy : fresh) {
    for (Operation *alloc : fy.allocs)
      if (alloc->getBlock() == &b)
        handedOver.insert(alloc);
    if (fy.backAlloc && fy.backAlloc->getBlock() == &b)
      yieldedBack.insert(fy.backAlloc);
    // scf.while's `after` region holds the buffer it got (the op's, an
    // earlier `before` run's) until it frees it: the op counts that buffer
    // as its own throughout, the region's memory is the rest.
    if (fy.handedIn && Value(fy.handedIn).getParentBlock() == &b) {
      carriedFrees[fy.handedInFree] = fy.handedIn;
      FailureOr<uint64_t> size = sizeOf(fy.allocs.front(), fy.allocs.front());
      if (failed(size))
        return failure();
      live[fy.handedIn] = *size;
      if (!addBytes(current, *size) || !addBytes(handedOverBytes, *size))
        return tooLarge(fy.allocs.front());
      peak = std::max(peak, current);
    }
    if (!fy.carried || Value(fy.carried).getParentBlock() != &b)
      continue;
    // In a loop running at most once the buffer it gets is the entry
    // value, never freed there.
    carriedFrees[fy.carriedFree] = fy.carried;
    if (!fy.carriesOwned)
      continue;
    Operation *carriedAlloc = fy.backAlloc ? fy.backAlloc : fy.allocs.front();
    FailureOr<uint64_t> size = sizeOf(carriedAlloc, carriedAlloc);
    if (failed(size))
      return failure();
    live[fy.carried] = *size;
    if (!addBytes(current, *size))
      return tooLarge(carriedAlloc);
    peak = std::max(peak, current);
  }
  for (Operation &op : b) {
    if (auto it = carriedFrees.find(&op); it != carriedFrees.end()) {
      current -= live.lookup(it->second);
      live.erase(it->second);
      continue;
    }
    if (isAllocation(&op)) {
      FailureOr<uint64_t> size = sizeOf(&op, &op);
      if (failed(size))
        return failure();
      uint64_t bytes = isUnobservable(op.getResult(0)) ? 0 : *size;
      live[op.getResult(0)] = bytes;
      if (!addBytes(current, bytes))
        return tooLarge(&op);
      peak = std::max(peak, current);
      if (handedOver.contains(&op) && !addBytes(handedOverBytes, bytes))
        return tooLarge(&op);
      continue;
    }
    // memref.realloc: its result from it on, and the buffer it is given
    // until it.
    if (auto realloc = dyn_cast<memref::ReallocOp>(op)) {
      if (failed(checkGrowingRealloc(realloc)))
        return failure();
      FailureOr<uint64_t> size = sizeOf(&op, &op);
      if (failed(size))
        return failure();
      live[realloc.getResult()] = *size;
      if (!addBytes(current, *size))
        return tooLarge(&op);
      peak = std::max(peak, current);
      if (auto it = live.find(realloc.getSource()); it != live.end()) {
        current -= it->second;
        live.erase(it);
      }
      continue;
    }
    if (isUnrecognisedAllocation(&op))
      return unsupported(&op, unrecognisedAllocationReason(&op));
    if (isAsyncOp(&op) && mayAllocateWhileRunning(&op))
      return unsupported(&op, op.getName().getStringRef() +
                                  " async that allocates while it runs, in a "
                                  "nested region or a callee: the device "
                                  "may run it with other work its tokens do "
                                  "not order; memsched follows such work in "
                                  "the body it schedules (move it there, or "
                                  "inline the callee first, --inline)");
    if (Value freed = getDeallocatedValue(&op)) {
      auto it = live.find(freed);
      if (it != live.end()) {
        current -= it->second;
        live.erase(it);
        continue;
      }
    }
    // A bufferization.dealloc frees what it frees whatever it retains
    // when its condition is constant true; anything else it may free stays.
    // (So does one under the flag a loop returns next to its buffer.)
    auto freeUnderFlag = [&](Value memref, Value flag) {
      auto it = live.find(wholeBufferSource(memref));
      if (it == live.end() || !isLoopOwnershipFlag(memref, flag))
        return false;
      current -= it->second;
      live.erase(it);
      return true;
    };
    if (auto free = dyn_cast<bufferization::DeallocOp>(op)) {
      if (free.getRetained().empty())
        for (auto [memref, cond] :
             llvm::zip(free.getMemrefs(), free.getConditions())) {
          if (!matchPattern(cond, m_One())) {
            (void)freeUnderFlag(memref, cond);
            continue;
          }
          if (auto it = live.find(memref); it != live.end()) {
            current -= it->second;
            live.erase(it);
          }
        }
      continue;
    }
    if (memref::DeallocOp free = matchGuardedFree(&op))
      if (freeUnderFlag(free.getMemref(), cast<scf::IfOp>(op).getCondition()))
        continue;
    FailureOr<uint64_t> nested = nestedPeak(&op, depth + 1);
    if (failed(nested))
      return failure();
    // A call returning fresh buffers allocates them where it runs.
    if (isa<CallOpInterface>(op))
      if (const std::optional<ReturnSummary> &returned = getReturnSummary(&op))
        for (auto [result, value] : llvm::zip(op.getResults(), *returned)) {
          if (!value.freshAlloc)
            continue;
          FailureOr<uint64_t> size = sizeOf(value.freshAlloc, &op);
          if (failed(size))
            return failure();
          live[result] = *size;
          if (!addBytes(current, *size))
            return tooLarge(&op);
        }
    // So does a loop or branch handing out buffers it allocates.
    for (const FreshYield &fy : getFreshYields(&op)) {
      FailureOr<Operation *> largest = freshSizedBy(&op, fy);
      if (failed(largest))
        return failure();
      FailureOr<uint64_t> size = sizeOf(*largest, &op);
      if (failed(size))
        return failure();
      live[op.getResult(fy.position)] = *size;
      if (!addBytes(current, *size))
        return tooLarge(&op);
    }
    // And what it leaves on the stack stays (for the op around this body
    // too, unless the body is a scope).
    FailureOr<uint64_t> stackLeft = leakedStackBytes(&op);
    if (failed(stackLeft))
      return failure();
    if (!addBytes(current, *stackLeft) ||
        (!scope && !addBytes(handedOverBytes, *stackLeft)))
      return tooLarge(&op);
    uint64_t mem = current;
    if (!addBytes(mem, *nested))
      return tooLarge(&op);
    peak = std::max(peak, mem);
  }
  // Anything else left allocated would accumulate over the executions of
  // the region.
  for (Operation &op : b) {
    bool fromCall = !isAllocation(&op) && isa<CallOpInterface>(op) &&
                    llvm::any_of(op.getResults(),
                                 [&](Value r) { return live.count(r); });
    if (fromCall)
      return unsupported(&op, "a buffer this call returns is not freed in "
                              "the same region (memsched recognises a "
                              "memref.dealloc of the result itself there)");
    // A buffer a loop or branch handed out and nothing freed.
    bool fromRegion =
        !isAllocation(&op) &&
        llvm::any_of(getFreshYields(&op), [&](const FreshYield &fy) {
          return live.count(op.getResult(fy.position));
        });
    bool made = isAllocation(&op) || isa<memref::ReallocOp>(op);
    if (!fromRegion &&
        (!made || !live.count(op.getResult(0)) ||
         isUnobservable(op.getResult(0)) || handedOver.contains(&op) ||
         yieldedBack.contains(&op)))
      continue;
    if (fromRegion) {
      if (call)
        return unsupported(call, "the callee @" +
                                     cast<SymbolOpInterface>(b.getParentOp())
                                         .getName() +
                                     " does not free a buffer a loop or "
                                     "branch of its body hands out; inline "
                                     "the callee first (--inline)");
      return unsupported(&op, "a buffer this loop or branch hands out is not "
                              "freed in the same region (memsched recognises "
                              "a memref.dealloc of the result, or of its base "
                              "under the loop's ownership flag)");
    }
    if (isa<memref::AllocaOp>(op)) {
      // Without a scope, the op around the region counts it from its run
      // on (getLeakedAllocas, which refuses where its runs are unknown).
      if (!scope && !addBytes(handedOverBytes, live.lookup(op.getResult(0))))
        return tooLarge(&op);
      continue;
    }
    // Workgroup and private buffers allocated in a gpu.launch body (what
    // promotion to shared memory emits) end with the kernel: the body runs
    // once per launch, and they are counted until its end.
    if (isa<gpu::LaunchOp>(b.getParentOp()))
      if (auto type = dyn_cast<BaseMemRefType>(op.getResult(0).getType()))
        if (auto space =
                dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace()))
          if (space.getValue() != gpu::AddressSpace::Global)
            continue;
    if (call) {
      // The remark belongs on the call, where the user can act.
      auto callee = cast<SymbolOpInterface>(b.getParentOp());
      bool returned = llvm::any_of(
          b.getTerminator()->getOperands(), [&](Value v) {
            while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
              v = view.getViewSource();
            return v == op.getResult(0);
          });
      if (returned)
        return unsupported(
            call, "the callee @" + callee.getName() +
                      " returns a buffer it allocates in a way memsched "
                      "does not follow (a view of it, a buffer it also "
                      "frees, captures or passes to a call, or one returned "
                      "twice): return the allocation itself, or inline the "
                      "callee first (--inline)");
      return unsupported(call, "the callee @" + callee.getName() +
                                   " does not free an allocation in its body "
                                   "(memsched recognises a memref.dealloc of "
                                   "the allocation itself); inline the callee "
                                   "first (--inline)");
    }
    return unsupported(&op, "allocation in a nested region is not freed in "
                            "that region: memsched follows a buffer yielded "
                            "out of a branch when every branch yields an "
                            "allocation of its own, and out of a loop with "
                            "the ownership flag --buffer-deallocation-"
                            "pipeline adds, when nothing else frees or "
                            "keeps it; otherwise free it in the region it "
                            "is allocated in (a memref.dealloc of the "
                            "allocation there), or hoist the allocation out "
                            "of the region");
  }
  // The caller counts the buffers handed over; the call's own memory is the
  // rest (at every moment of the body at most its peak minus them: they
  // are allocated before the return).
  return peak - std::min(peak, handedOverBytes);
}

FailureOr<uint64_t>
LifetimeBuilder::severalBlocksCalleePeak(Operation *call,
                                         FunctionOpInterface callee,
                                         unsigned depth) {
  if (auto it = calleePeaks.find(callee); it != calleePeaks.end())
    return it->second;
  StringRef name = cast<SymbolOpInterface>(*callee).getName();
  // A callee that calls back into itself or into the analysed body: its
  // memory is unbounded for all the analysis knows (and following it would
  // not end).
  if (reachesByCalls(callee, {callee.getOperation(), a.rootOp}))
    return unsupported(call, "recursive call (through the callee @" + name +
                                 ")");
  // Its blocks as the body of a function of its own: each block starts with
  // what any path into it brings (BlockEntryState), so its memory on any
  // path is at most the largest peak of a reachable block.
  BodyLifetimes body(callee, a.sizes, /*pinAllocations=*/false, depth + 1);
  if (!body.isSupported())
    return unsupported(body.getUnsupportedOp(),
                       "in the callee @" + name + ", whose memory while it "
                           "runs its caller needs: " +
                           body.getUnsupportedReason());
  // Nothing it allocates may outlive the call: the caller counts no buffer
  // for it. A block that leaves the callee (no successor) frees what is
  // still allocated, its own buffers and those allocated when it starts;
  // stack allocations go with the call.
  auto outlives = [](Operation *allocOp, bool freed, uint64_t size) {
    return !freed && size != 0 && !isa<memref::AllocaOp>(allocOp);
  };
  for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
    const BufferLifetimeAnalysis &blk = body.getBlock(i);
    if (!body.isReachable(i) || blk.getBlock()->getNumSuccessors() != 0)
      continue;
    Operation *leak = nullptr;
    for (const BufferInfo &buf : blk.getBuffers())
      if (!leak && outlives(buf.allocOp, buf.dealloc != nullptr, buf.size))
        leak = buf.allocOp;
    for (const LiveInInfo &in : blk.getLiveIn())
      if (!leak &&
          outlives(in.allocOp, in.deallocNode.has_value(), in.bufferSize))
        leak = in.allocOp;
    if (leak)
      return unsupported(call,
                         "the callee @" + name +
                             " has several blocks and a buffer it allocates "
                             "is still allocated when it returns (memsched "
                             "follows returned buffers of callees with one "
                             "block only): free it before the return, or "
                             "inline the callee first (--inline)");
  }
  uint64_t peak = body.getPeakAsWritten();
  calleePeaks[callee] = peak;
  return peak;
}

bool LifetimeBuilder::reachesByCalls(Operation *from,
                                     ArrayRef<Operation *> targets) {
  return anyReachedByCalls(from, [&](Operation *op) {
    auto call = dyn_cast<CallOpInterface>(op);
    Operation *callee = call ? call.resolveCallable() : nullptr;
    return callee && llvm::is_contained(targets, callee);
  });
}

FailureOr<uint64_t> LifetimeBuilder::bodyBound(Block &b, unsigned depth) {
  // Where the body can be analysed on its own: the lower bound of its graph
  // (per-node min cuts) holds for every order of its ops, those memsched
  // picks included (they keep the same dependencies, pinned allocations or
  // not), and is at least what each op needs (its trivial bound; the inner
  // bodies count at their bound there too).
  Operation *owner = b.getParentOp();
  while (owner && !isa<FunctionOpInterface>(owner))
    owner = owner->getParentOp();
  if (owner) {
    // The function's alias analysis serves the body's when it is this
    // analysis's (rebased to the body, then back).
    AliasRoots *shared = owner == a.rootOp ? aliases : nullptr;
    BufferLifetimeAnalysis body(owner, &b, /*liveIn=*/{}, a.sizes,
                                /*pinAllocations=*/false, a.callDepth, shared);
    if (shared)
      shared->rebase(allocValues);
    if (body.isSupported()) {
      ::memsched_core::LowerBoundOptions options;
      options.target = body.getPeakAsWritten();
      return ::memsched_core::computeLowerBound(body.getGraph(), options).value;
    }
  }
  // Otherwise the most one of its ops needs at once.
  uint64_t bound = 0;
  for (Operation &op : b) {
    if (isAllocation(&op) || getDeallocatedValue(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    // The allocations of the body this op (or an op nested in it) uses,
    // through views: all allocated while it runs, in any order.
    llvm::SmallSetVector<Operation *, 4> used;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        while (Operation *def = v.getDefiningOp()) {
          if (def->getBlock() != &b)
            break;
          if (isAllocation(def)) {
            used.insert(def);
            break;
          }
          auto view = dyn_cast<ViewLikeOpInterface>(def);
          if (!view)
            break;
          v = view.getViewSource();
        }
      }
    });
    uint64_t need = 0;
    for (Operation *alloc : used)
      if (failed(addAllocationBytes(alloc, need, &op)))
        return failure();
    FailureOr<uint64_t> inside = nestedPeak(&op, depth + 1);
    if (failed(inside))
      return failure();
    if (!addBytes(need, *inside))
      return unsupported(&op, "the bytes allocated add up to more than 2^64");
    bound = std::max(bound, need);
  }
  return bound;
}

FailureOr<uint64_t> LifetimeBuilder::nestedPeak(Operation *op, unsigned depth) {
  if (depth > 64)
    return unsupported(op, "nesting or call depth above 64");
  uint64_t peak = 0;
  // Buffers the op hands out count from the op on, as the op's own: its
  // bodies' memory is the rest.
  ArrayRef<FreshYield> fresh = getFreshYields(op);
  for (Region &region : op->getRegions())
    for (Block &b : region) {
      // A body memsched reorders can take any of its orders: a bound of
      // its peak stands for it where bounds are proved.
      FailureOr<uint64_t> p = failure();
      if (a.sizes.nestedBodiesAtBound && isReorderableBody(b)) {
        p = bodyBound(b, depth);
        FailureOr<uint64_t> out = handedOutBytes(b, fresh);
        FailureOr<uint64_t> stack = stackHandedBytes(b);
        if (failed(out) || failed(stack))
          return failure();
        if (succeeded(p))
          p = *p - std::min(*p, *out + *stack);
      } else {
        p = blockPeak(b, depth, nullptr, fresh);
      }
      if (failed(p))
        return failure();
      peak = std::max(peak, *p);
    }
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    for (FunctionOpInterface callee : getPossibleCallees(call)) {
      if (callee.isExternal())
        continue;
      if (std::string cycle = describeCallCycle(call, callee); !cycle.empty())
        return unsupported(op, "recursive call: " + cycle +
                                   " (its memory has no bound the analysis "
                                   "can see)");
      activeCallees.push_back({callee, op});
      FailureOr<uint64_t> p =
          callee->getRegion(0).hasOneBlock()
              ? blockPeak(callee->getRegion(0).front(), depth, op)
              : severalBlocksCalleePeak(op, callee, depth);
      activeCallees.pop_back();
      if (failed(p))
        return failure();
      peak = std::max(peak, *p);
    }
  }
  return peak;
}

SmallVector<FunctionOpInterface>
LifetimeBuilder::getPossibleCallees(CallOpInterface call) {
  if (auto callee = dyn_cast_or_null<FunctionOpInterface>(resolveCallee(call)))
    if (!isa<func::FuncOp>(callee) || !callee.isExternal() ||
        !llvm::any_of(call->getOperandTypes(), llvm::IsaPred<FunctionType>))
      return {callee};
  // Through a function value (func.call_indirect), or an external function
  // handed one: any function of the module whose address is taken.
  if (!callGraph) {
    Operation *top = a.rootOp;
    while (Operation *parent = top->getParentOp())
      top = parent;
    callGraph = std::make_unique<ModuleCallGraph>(top);
  }
  return llvm::to_vector(llvm::map_range(
      callGraph->getPossibleCallees(call),
      [](func::FuncOp f) { return cast<FunctionOpInterface>(*f); }));
}

std::string LifetimeBuilder::describeCallCycle(CallOpInterface call,
                                               FunctionOpInterface callee) {
  auto name = [](Operation *f) {
    return "@" + cast<SymbolOpInterface>(f).getName().str();
  };
  auto edge = [&](Operation *callOp, Operation *target) {
    std::string text = " -> ";
    if (cast<CallOpInterface>(callOp).resolveCallable() != target)
      text += "(" + callOp->getName().getStringRef().str() + ") ";
    return text + name(target);
  };
  // The functions being expanded, outermost first: the analysed body's
  // function, then each callee entered.
  auto it = llvm::find_if(activeCallees, [&](const auto &entry) {
    return entry.first == callee.getOperation();
  });
  if (it == activeCallees.end() && callee.getOperation() != a.rootOp)
    return "";
  std::string text = name(callee);
  for (auto next = it == activeCallees.end() ? activeCallees.begin() : it + 1;
       next != activeCallees.end(); ++next)
    text += edge(next->second, next->first);
  return text + edge(call, callee);
}

LogicalResult LifetimeBuilder::computePeaks() {
  uint64_t total = 0, liveInBytes = 0;
  for (const BufferInfo &buf : a.buffers)
    (void)addBytes(total, buf.size); // checked in classify()
  for (const LiveInInfo &in : a.liveIn)
    if (!addBytes(liveInBytes, in.size) || !addBytes(total, in.size))
      return unsupported(in.allocOp, "the bytes allocated add up to more "
                                     "than 2^64");
  for (NodeInfo &node : a.nodes) {
    FailureOr<uint64_t> t = nestedPeak(node.op, a.callDepth);
    if (failed(t))
      return failure();
    uint64_t all = total;
    if (!addBytes(all, *t))
      return unsupported(node.op, "the bytes allocated add up to more than "
                                  "2^64");
    node.transient = *t;
  }
  DenseMap<Operation *, uint64_t> freedByNode;
  for (const BufferInfo &buf : a.buffers)
    if (buf.dealloc && !attachedDeallocs.contains(buf.dealloc))
      freedByNode[buf.dealloc] += buf.size;
  DenseMap<unsigned, uint64_t> liveInFreedBy;
  for (const LiveInInfo &in : a.liveIn)
    if (in.deallocNode)
      liveInFreedBy[*in.deallocNode] += in.size;
  // What is allocated when the block starts counts from its first op on.
  uint64_t current = liveInBytes;
  a.peakAsWritten = current;
  a.peakAsWrittenOp =
      current && !a.block->empty() ? &a.block->front() : nullptr;
  a.memoryAsWritten.clear();
  for (Operation &op : *a.block) {
    auto allocIt = allocIndex.find(&op);
    if (allocIt != allocIndex.end()) {
      current += a.buffers[allocIt->second].size;
      a.memoryAsWritten.push_back(current);
      if (current > a.peakAsWritten) {
        a.peakAsWritten = current;
        a.peakAsWrittenOp = &op;
      }
      continue;
    }
    if (attachedDeallocs.contains(&op)) {
      a.memoryAsWritten.push_back(current);
      Value freed = getDeallocatedValue(&op);
      current -=
          a.buffers[aliases->root(aliases->rootsOf(freed)[0]).buffer].size;
      continue;
    }
    // A call's fresh buffers count from the call on.
    if (auto it = nodeAllocs.find(&op); it != nodeAllocs.end())
      for (unsigned b : it->second)
        current += a.buffers[b].size;
    std::optional<unsigned> n = a.getNodeIndex(&op);
    uint64_t mem = current + (n ? a.nodes[*n].transient : 0);
    a.memoryAsWritten.push_back(mem);
    if (mem > a.peakAsWritten) {
      a.peakAsWritten = mem;
      a.peakAsWrittenOp = &op;
    }
    if (auto it = freedByNode.find(&op); it != freedByNode.end())
      current -= it->second;
    if (n)
      if (auto it = liveInFreedBy.find(*n); it != liveInFreedBy.end())
        current -= it->second;
  }
  return success();
}

void LifetimeBuilder::countExclusiveLiveInsOnce() {
  // Buffers that live through the block and never come in together: at
  // any moment at most one of them is allocated, so the largest counts for
  // all (a buffer freed in the block keeps its own bytes).
  DenseMap<unsigned, unsigned> largest;
  for (auto [i, in] : llvm::enumerate(a.liveIn)) {
    in.bufferSize = in.size;
    if (in.deallocNode || !in.exclusiveGroup)
      continue;
    auto [it, inserted] = largest.try_emplace(*in.exclusiveGroup, i);
    if (!inserted && in.size > a.liveIn[it->second].size)
      it->second = i;
  }
  for (auto [i, in] : llvm::enumerate(a.liveIn)) {
    if (in.deallocNode || !in.exclusiveGroup)
      continue;
    unsigned keep = largest.lookup(*in.exclusiveGroup);
    if (keep == i)
      continue;
    in.countedWith = keep;
    in.size = 0;
  }
}

void LifetimeBuilder::run() {
  Operation *op = a.rootOp;
  if (op->getNumRegions() != 1 || op->getRegion(0).empty()) {
    (void)unsupported(op, "no body to analyse");
    return;
  }
  if (a.requestedBlock) {
    a.block = a.requestedBlock;
  } else if (!op->getRegion(0).hasOneBlock()) {
    (void)unsupported(op, "body with several blocks");
    return;
  } else {
    a.block = &op->getRegion(0).front();
  }
  // (A loop or branch body, analysed on its own: timed apart.)
  bool nested = a.block->getParentOp() != a.rootOp;
  {
    PhaseScope phase(nested ? "analysis of nested bodies" : "analysis: buffers");
    if (failed(classify()))
      return;
  }
  {
    PhaseScope phase(nested ? "analysis of nested bodies"
                            : "analysis: accesses and dependences");
    if (failed(collectAccesses()))
      return;
  }
  PhaseScope phase(nested ? "analysis of nested bodies"
                          : "analysis: peaks and graph");
  findFeedsNode();
  findLiveInDeallocs();
  collectEscapes();
  collectDanglingUsers();
  // The order as written must free each buffer after the ops that use it:
  // otherwise its peak and the graph's would disagree.
  for (const BufferInfo &buf : a.buffers) {
    if (!buf.dealloc)
      continue;
    for (unsigned t : buf.touchers)
      if (a.nodes[t].op != buf.dealloc &&
          positionOf(a.nodes[t].op) > positionOf(buf.dealloc)) {
        (void)unsupported(a.nodes[t].op,
                          "uses a buffer (or its address) after its "
                          "deallocation by " +
                              buf.dealloc->getName().getStringRef() +
                              "; move the use before the deallocation");
        return;
      }
  }
  countExclusiveLiveInsOnce();
  if (failed(computePeaks()))
    return;
  if (a.pinAllocations)
    pinAllocations();
  if (failed(orderAsyncMemory()))
    return;
  ::memsched_core::MemoryGraph &g = a.graph;
  for (NodeInfo &node : a.nodes)
    g.addNode(node.transient, node.op->getName().getStringRef().str());
  for (unsigned b = 0; b < a.buffers.size(); ++b) {
    const BufferInfo &buf = a.buffers[b];
    // Without a deallocation in the block the buffer lives to the end.
    ::memsched_core::BufferId id =
        g.addBuffer(buf.size, /*liveIn=*/false, /*liveOut=*/!buf.dealloc,
                    "buffer#" + std::to_string(b));
    for (unsigned t : buf.touchers)
      g.addTouch(id, t);
  }
  // Buffers allocated before the block: live from its start, to their
  // deallocation in the block (after every access) or through it.
  for (auto [i, in] : llvm::enumerate(a.liveIn)) {
    ::memsched_core::BufferId id =
        g.addBuffer(in.size, /*liveIn=*/true, /*liveOut=*/!in.deallocNode,
                    "live-in#" + std::to_string(i));
    for (unsigned t : liveInTouchers[i])
      g.addTouch(id, t);
  }
  addEdges();
  g.finalize();
  // Every edge goes forward in the block; anything else is a bug that must
  // not reach a rewrite.
  if (!g.isValidOrder(g.programOrder()))
    (void)unsupported(op, "internal error: the dependencies contradict the "
                          "block's order; please report this input");
}

//===----------------------------------------------------------------------===//
// BufferLifetimeAnalysis
//===----------------------------------------------------------------------===//

BufferLifetimeAnalysis::BufferLifetimeAnalysis(Operation *op, SizeModel sizes,
                                               bool pinAllocations)
    : rootOp(op), sizes(sizes), pinAllocations(pinAllocations) {
  build();
}

BufferLifetimeAnalysis::BufferLifetimeAnalysis(Operation *op, Block *block,
                                               ArrayRef<LiveInBuffer> entry,
                                               SizeModel sizes,
                                               bool pinAllocations,
                                               unsigned callDepth,
                                               AliasRoots *sharedAliases)
    : rootOp(op), requestedBlock(block), sizes(sizes),
      pinAllocations(pinAllocations), callDepth(callDepth),
      sharedAliases(sharedAliases) {
  for (const LiveInBuffer &buf : entry) {
    LiveInInfo info;
    static_cast<LiveInBuffer &>(info) = buf;
    liveIn.push_back(info);
  }
  build();
}

void BufferLifetimeAnalysis::build() {
  DenseSet<Operation *> deallocNodes;
  std::optional<LifetimeBuilder> builder;
  builder.emplace(*this, deallocNodes);
  builder->run();
  // A buffer no node touches is live between its allocation and its
  // deallocation only: build again with that deallocation as a node, so the
  // graph (and the bound) count it.
  SmallVector<Operation *> untouched;
  if (!unsupportedOp)
    untouched = builder->getUntouchedDeallocs();
  if (!untouched.empty()) {
    deallocNodes.insert(untouched.begin(), untouched.end());
    nodes.clear();
    buffers.clear();
    nodeIndex.clear();
    graph = ::memsched_core::MemoryGraph();
    peakAsWritten = 0;
    peakAsWrittenOp = nullptr;
    memoryAsWritten.clear();
    block = nullptr;
    for (LiveInInfo &in : liveIn) {
      in.deallocNode.reset();
      in.danglingUsers.clear();
    }
    builder.emplace(*this, deallocNodes);
    builder->run();
  }
  if (unsupportedOp) {
    nodes.clear();
    buffers.clear();
    nodeIndex.clear();
    graph = ::memsched_core::MemoryGraph();
    graph.finalize();
    peakAsWritten = 0;
    peakAsWrittenOp = nullptr;
    memoryAsWritten.clear();
    for (LiveInInfo &in : liveIn) {
      in.deallocNode.reset();
      in.danglingUsers.clear();
    }
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
  return ::memsched_core::evaluatePeak(graph, graph.programOrder());
}

std::string BufferLifetimeAnalysis::describeNode(unsigned node) const {
  return nodes[node].op->getName().getStringRef().str() + "#" +
         std::to_string(node);
}

void BufferLifetimeAnalysis::printLiveIn(raw_ostream &os) const {
  for (auto [i, in] : llvm::enumerate(liveIn)) {
    os << "  live-in#" << i << " " << in.allocOp->getName() << " "
       << in.value.getType() << " size="
       << (in.sizeIsBound ? "<=" : "") << in.bufferSize;
    if (in.countedWith)
      os << " counted=0 (never with live-in#" << *in.countedWith
         << ", whose bytes count)";
    if (in.deallocNode)
      os << " freed=" << describeNode(*in.deallocNode);
    else
      os << " through the block";
    os << "\n";
  }
}

void BufferLifetimeAnalysis::print(raw_ostream &os) const {
  if (!isSupported()) {
    os << "unsupported: " << unsupportedReason << " ("
       << unsupportedOp->getName() << ")\n";
    return;
  }
  ::memsched_core::PeakInfo info;
  ::memsched_core::evaluatePeak(graph, graph.programOrder(), &info);
  os << "peak-as-written=" << peakAsWritten << " peak-tight=" << info.peak
     << " nodes=" << nodes.size() << " buffers=" << buffers.size()
     << " edges=" << graph.numEdges() << "\n";
  printLiveIn(os);
  for (unsigned b = 0; b < buffers.size(); ++b) {
    const BufferInfo &buf = buffers[b];
    os << "  buffer#" << b << " " << buf.allocOp->getName() << " "
       << buf.value.getType() << " size="
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
  for (unsigned b : info.liveAtPeak) {
    if (b < buffers.size())
      os << " buffer#" << b;
    else
      os << " live-in#" << b - buffers.size();
  }
  os << "\n";
}
