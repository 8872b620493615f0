//===- BlockEntry.cpp - buffers allocated when each block starts -------===//

#include "Analysis/MemSched/BlockEntry.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RegionYields.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::memsched;

static std::string blockName(unsigned number) {
  return "^bb" + std::to_string(number);
}

/// The value of the i1 `cond` given the values in `known`, when it is the
/// same whatever the other values it is computed from: an expression of
/// arith.constant, xori, andi, ori and select over at most 6 unknown
/// leaves, evaluated on every assignment of the leaves.
static std::optional<bool> decideCondition(Value cond,
                                           const DenseMap<Value, bool> &known) {
  constexpr unsigned kMaxLeaves = 6, kMaxOps = 64;
  SmallVector<Value> leaves;
  unsigned ops = 0;
  // Leaves and constants first; an expression too large is undecided.
  std::function<bool(Value)> collect = [&](Value v) {
    if (known.count(v) || llvm::is_contained(leaves, v))
      return true;
    Operation *def = v.getDefiningOp();
    if (def && ++ops > kMaxOps)
      return false;
    if (def && isa<arith::ConstantOp>(def))
      return true;
    if (def && isa<arith::XOrIOp, arith::AndIOp, arith::OrIOp,
                   arith::SelectOp>(def))
      return llvm::all_of(def->getOperands(), collect);
    leaves.push_back(v);
    return leaves.size() <= kMaxLeaves;
  };
  if (!cond.getType().isInteger(1) || !collect(cond))
    return std::nullopt;
  std::function<bool(Value, unsigned)> eval = [&](Value v, unsigned mask) {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    if (const auto *leaf = llvm::find(leaves, v); leaf != leaves.end())
      return ((mask >> (leaf - leaves.begin())) & 1) != 0;
    Operation *def = v.getDefiningOp();
    if (auto c = dyn_cast<arith::ConstantOp>(def))
      return !cast<IntegerAttr>(c.getValue()).getValue().isZero();
    if (auto x = dyn_cast<arith::XOrIOp>(def))
      return eval(x.getLhs(), mask) != eval(x.getRhs(), mask);
    if (auto a = dyn_cast<arith::AndIOp>(def))
      return eval(a.getLhs(), mask) && eval(a.getRhs(), mask);
    if (auto o = dyn_cast<arith::OrIOp>(def))
      return eval(o.getLhs(), mask) || eval(o.getRhs(), mask);
    auto sel = cast<arith::SelectOp>(def);
    return eval(sel.getCondition(), mask) ? eval(sel.getTrueValue(), mask)
                                          : eval(sel.getFalseValue(), mask);
  };
  bool first = eval(cond, 0);
  for (unsigned mask = 1; mask < (1u << leaves.size()); ++mask)
    if (eval(cond, mask) != first)
      return std::nullopt;
  return first;
}

BlockEntryState::BlockEntryState(Operation *func, SizeModel sizes) {
  auto unsupported = [&](Operation *op, const Twine &reason) {
    if (!unsupportedOp) {
      unsupportedOp = op;
      unsupportedReason = reason.str();
    }
  };
  Region &body = func->getRegion(0);
  unsigned number = 0;
  for (Block &b : body)
    blockNumber[&b] = number++;
  if (body.empty() || body.hasOneBlock())
    return;

  // The top-level allocations and the top-level deallocations that free
  // them, by the alias roots of the whole body (each allocation its own).
  AliasRoots roots(func, DenseMap<Value, unsigned>());
  DataLayout layout = DataLayout::closest(func);
  SmallVector<LiveInBuffer> allocs;
  DenseMap<unsigned, unsigned> allocOfRoot;
  DenseMap<Operation *, SmallVector<unsigned, 1>> allocIndex;
  // `times`: how many times `sizedBy` runs for one run of `op`.
  auto addAlloc = [&](Operation *op, Value value, Operation *sizedBy,
                      bool byCall, uint64_t times = 1) {
    LiveInBuffer buf;
    buf.allocOp = op;
    buf.value = value;
    std::string why;
    FailureOr<uint64_t> size =
        getAllocationSize(sizedBy, layout, atCallSite(sizes, op),
                          buf.sizeIsBound, why);
    if (failed(size)) {
      unsupported(op, why);
      return false;
    }
    std::optional<uint64_t> all = llvm::checkedMulUnsigned(*size, times);
    if (!all) {
      unsupported(op, "the allocations add up to more than 2^64 bytes");
      return false;
    }
    size = *all;
    buf.size = !byCall && isUnobservable(value) ? 0 : *size;
    // (A call's or a loop's result may also be other memory: only its own
    // root names the buffer it makes.)
    for (unsigned r : roots.rootsOf(value))
      if (!byCall || roots.root(r).value == value)
        allocOfRoot[r] = allocs.size();
    allocIndex[op].push_back(allocs.size());
    allocs.push_back(buf);
    return true;
  };
  for (Block &b : body)
    for (Operation &op : b) {
      if (isAllocation(&op)) {
        if (!addAlloc(&op, op.getResult(0), &op, false))
          return;
        continue;
      }
      // memref.realloc: a buffer of its own (it frees its operand too).
      if (isa<memref::ReallocOp>(op)) {
        if (!addAlloc(&op, op.getResult(0), &op, true))
          return;
        continue;
      }
      // A loop or branch handing out buffers it allocates (RegionYields.h).
      for (const FreshYield &fy : findFreshYields(&op)) {
        std::string why;
        FailureOr<Operation *> largest =
            largestAllocation(fy, layout, sizes, why);
        if (failed(largest)) {
          unsupported(&op, why);
          return;
        }
        if (!addAlloc(&op, op.getResult(fy.position), *largest, true))
          return;
      }
      // Stack memory its regions leave behind (RegionYields.h).
      SmallVector<LeakedAlloca> leaked;
      std::string why;
      Operation *at = nullptr;
      if (failed(findLeakedAllocas(&op, leaked, why, at))) {
        unsupported(at, why);
        return;
      }
      for (const LeakedAlloca &l : leaked)
        if (!addAlloc(&op, l.alloca->getResult(0), l.alloca, true, l.times))
          return;
      if (!isa<CallOpInterface>(op) ||
          llvm::none_of(op.getResultTypes(), llvm::IsaPred<BaseMemRefType>))
        continue;
      if (std::optional<ReturnSummary> returned =
              AliasRoots::summarizeCall(&op))
        for (auto [result, value] : llvm::zip(op.getResults(), *returned))
          if (value.freshAlloc &&
              !addAlloc(&op, result, value.freshAlloc, true))
            return;
    }
  // A deallocation nested in a region (e.g. the conditional free under an
  // scf.if the deallocation pipeline emits) may or may not run: it leaves
  // the buffer allocated here, as everywhere in memsched.
  DenseMap<Operation *, unsigned> freed;
  for (Block &b : body)
    for (Operation &op : b) {
      Value value = getDeallocatedValue(&op);
      if (auto realloc = dyn_cast<memref::ReallocOp>(op))
        value = realloc.getSource();
      if (!value)
        continue;
      const AliasRoots::RootSet &rs = roots.rootsOf(value);
      bool ours = llvm::any_of(
          rs, [&](unsigned r) { return allocOfRoot.count(r) != 0; });
      if (!ours)
        continue;
      if (rs.size() != 1) {
        unsupported(&op,
                    "memref.dealloc of a value that may be one of several "
                    "buffers (e.g. a block argument that receives different "
                    "allocations from different predecessors): which one it "
                    "frees is not known; free each buffer in a block where its "
                    "value is known");
        return;
      }
      freed[&op] = allocOfRoot.lookup(rs.front());
    }
  // Frees under an scf.if of one buffer: they count where the condition is
  // known to hold, always or on the edge that leaves the block (a
  // cf.cond_br on it or on a value it is computed from): the deallocation
  // pipeline frees a buffer under the condition of the branch that no
  // longer uses it.
  // So do the memrefs of a bufferization.dealloc that retains nothing,
  // each under its condition.
  DenseMap<Operation *, SmallVector<std::pair<unsigned, Value>, 1>> guarded;
  for (Block &b : body)
    for (Operation &op : b) {
      auto add = [&](Value memref, Value cond) {
        // Under the flag a loop returns next to it, the loop's buffer is
        // always freed (the flag is false only when there is none).
        AliasRoots::RootSet rs = roots.rootsOf(memref);
        if (isLoopOwnershipFlag(memref, cond)) {
          cond = Value();
          Value source = wholeBufferSource(memref);
          llvm::erase_if(rs, [&](unsigned r) {
            return roots.root(r).value != source;
          });
        }
        if (rs.size() == 1)
          if (auto it = allocOfRoot.find(rs.front()); it != allocOfRoot.end())
            guarded[&op].push_back({it->second, cond});
      };
      if (memref::DeallocOp dealloc = matchGuardedFree(&op))
        add(dealloc.getMemref(), cast<scf::IfOp>(op).getCondition());
      else if (auto free = dyn_cast<bufferization::DeallocOp>(op))
        if (free.getRetained().empty())
          for (auto [memref, cond] :
               llvm::zip(free.getMemrefs(), free.getConditions()))
            add(memref, cond);
    }

  // A buffer is allocated when a block starts if it is allocated at the end
  // of some predecessor: the union over the paths, so the block's live-in
  // buffers hold whatever any path brings (a buffer freed on one path only
  // counts as allocated after the join). Iterated to the fixed point over
  // loops of blocks in reverse post-order; the transfer only adds and
  // removes the same bits each time, so it ends.
  DenseMap<Block *, llvm::BitVector> in;
  llvm::ReversePostOrderTraversal<Block *> rpo(&body.front());
  auto transfer = [&](Block *b, llvm::BitVector state, bool check,
                      const DenseMap<Value, bool> &known) {
    for (Operation &op : *b) {
      if (auto it = guarded.find(&op); it != guarded.end()) {
        for (auto [buffer, cond] : it->second)
          if (!cond || decideCondition(cond, known) == true)
            state.reset(buffer);
        continue;
      }
      // (A memref.realloc frees its operand, then allocates.)
      auto freedIt = freed.find(&op);
      if (freedIt != freed.end() && allocIndex.count(&op)) {
        if (check && !state.test(freedIt->second)) {
          unsupported(&op, "memref.realloc of a buffer that is not "
                           "allocated on any path to it");
          return state;
        }
        state.reset(freedIt->second);
      }
      if (auto it = allocIndex.find(&op); it != allocIndex.end()) {
        for (unsigned i : it->second) {
          if (check && state.test(i)) {
            unsupported(&op, "allocation that runs again in a loop of blocks "
                             "while the buffer it allocated before may still "
                             "be allocated: free the buffer (by a "
                             "memref.dealloc at the top of a block) before "
                             "the branch back to " +
                                 blockName(getBlockNumber(b)));
            return state;
          }
          state.set(i);
        }
        continue;
      }
      if (auto it = freed.find(&op); it != freed.end()) {
        if (check && !state.test(it->second)) {
          unsupported(&op, "memref.dealloc of a buffer that is not "
                           "allocated on any path to it (freed twice, or "
                           "freed before its allocation)");
          return state;
        }
        state.reset(it->second);
      }
    }
    return state;
  };
  // What leaving `from` for `to` tells: the condition of a cf.cond_br with
  // two different destinations.
  auto edgeKnowledge = [](Block *from, Block *to) {
    DenseMap<Value, bool> known;
    if (auto br = dyn_cast<cf::CondBranchOp>(from->getTerminator()))
      if (br.getTrueDest() != br.getFalseDest())
        known[br.getCondition()] = br.getTrueDest() == to;
    return known;
  };
  const DenseMap<Value, bool> nothingKnown;
  for (bool changed = true; changed;) {
    changed = false;
    for (Block *b : rpo) {
      llvm::BitVector state(allocs.size());
      if (b != &body.front())
        for (Block *pred : b->getPredecessors())
          if (auto it = in.find(pred); it != in.end())
            state |= transfer(pred, it->second, /*check=*/false,
                              edgeKnowledge(pred, b));
      auto inIt = in.find(b);
      if (inIt != in.end() && inIt->second == state)
        continue;
      changed = true;
      in[b] = std::move(state);
    }
  }
  for (Block *b : rpo) {
    (void)transfer(b, in[b], /*check=*/true, nothingKnown);
    if (unsupportedOp)
      return;
  }
  for (Block *b : rpo) {
    SmallVector<LiveInBuffer, 2> &list = liveIn[b];
    // What each way in brings, to find the buffers no way brings together;
    // each joins the first group none of whose members comes in with it.
    SmallVector<llvm::BitVector> ways;
    if (b != &body.front())
      for (Block *pred : b->getPredecessors())
        if (auto it = in.find(pred); it != in.end())
          ways.push_back(transfer(pred, it->second, /*check=*/false,
                                  edgeKnowledge(pred, b)));
    SmallVector<SmallVector<unsigned, 2>> groups;
    for (unsigned i : in[b].set_bits()) {
      auto together = [&](unsigned j) {
        return llvm::any_of(ways, [&](const llvm::BitVector &w) {
          return w.test(i) && w.test(j);
        });
      };
      unsigned g = 0;
      while (g < groups.size() && llvm::any_of(groups[g], together))
        ++g;
      if (g == groups.size())
        groups.emplace_back();
      groups[g].push_back(i);
      list.push_back(allocs[i]);
      list.back().exclusiveGroup = g;
    }
  }
}

ArrayRef<LiveInBuffer> BlockEntryState::getLiveIn(Block *block) const {
  auto it = liveIn.find(block);
  return it == liveIn.end() ? ArrayRef<LiveInBuffer>(none)
                            : ArrayRef<LiveInBuffer>(it->second);
}
