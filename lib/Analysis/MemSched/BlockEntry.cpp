//===- BlockEntry.cpp - buffers allocated when each block starts -------===//

#include "Analysis/MemSched/BlockEntry.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::memsched;

static std::string blockName(unsigned number) {
  return "^bb" + std::to_string(number);
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
  auto addAlloc = [&](Operation *op, Value value, Operation *sizedBy,
                      bool byCall) {
    LiveInBuffer buf;
    buf.allocOp = op;
    buf.value = value;
    std::string why;
    FailureOr<uint64_t> size =
        getAllocationSize(sizedBy, layout, sizes, buf.sizeIsBound, why);
    if (failed(size)) {
      unsupported(op, why);
      return false;
    }
    buf.size = !byCall && isUnobservable(value) ? 0 : *size;
    for (unsigned r : roots.rootsOf(value))
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
  // A buffer freed inside a region (e.g. under an scf.if) may or may not be
  // allocated when the next block starts.
  for (Block &b : body)
    for (Operation &top : b) {
      WalkResult walk = top.walk([&](Operation *nested) {
        if (nested == &top)
          return WalkResult::advance();
        Value value = getDeallocatedValue(nested);
        if (!value || llvm::none_of(roots.rootsOf(value), [&](unsigned r) {
              return allocOfRoot.count(r) != 0;
            }))
          return WalkResult::advance();
        unsupported(nested,
                    "deallocation inside a region of a buffer allocated at "
                    "the top of a body with several blocks: whether it is "
                    "still allocated in the next blocks is not known; free "
                    "it with a memref.dealloc at the top of a block");
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted())
        return;
    }
  DenseMap<Operation *, unsigned> freed;
  for (Block &b : body)
    for (Operation &op : b) {
      Value value = getDeallocatedValue(&op);
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

  // Forward walk in reverse post-order: a block's entry state is the exit
  // state of its first visited predecessor; every other edge is checked
  // against it afterwards.
  DenseMap<Block *, llvm::BitVector> in, out;
  llvm::ReversePostOrderTraversal<Block *> rpo(&body.front());
  for (Block *b : rpo) {
    llvm::BitVector state(allocs.size());
    if (b != &body.front())
      for (Block *pred : b->getPredecessors())
        if (auto it = out.find(pred); it != out.end()) {
          state = it->second;
          break;
        }
    in[b] = state;
    for (Operation &op : *b) {
      if (auto it = allocIndex.find(&op); it != allocIndex.end()) {
        for (unsigned i : it->second) {
          if (state.test(i)) {
            unsupported(&op, "allocation that runs again in a loop of blocks "
                             "while the buffer it allocated before is still "
                             "allocated: free the buffer before the branch "
                             "back to " +
                                 blockName(getBlockNumber(b)));
            return;
          }
          state.set(i);
        }
        continue;
      }
      if (auto it = freed.find(&op); it != freed.end()) {
        if (!state.test(it->second)) {
          unsupported(&op, "memref.dealloc of a buffer that is not "
                           "allocated on some path to it (freed "
                           "twice, or freed before its allocation)");
          return;
        }
        state.reset(it->second);
      }
    }
    out[b] = std::move(state);
  }
  for (Block *b : rpo)
    for (Block *succ : b->getSuccessors()) {
      llvm::BitVector diff = out[b];
      diff ^= in[succ];
      if (diff.none())
        continue;
      unsigned i = diff.find_first();
      bool allocatedOnThisEdge = out[b].test(i);
      unsupported(
          allocs[i].allocOp,
          "the buffer of this allocation is " +
              Twine(allocatedOnThisEdge ? "allocated" : "not allocated") +
              " when " + blockName(getBlockNumber(succ)) +
              " is entered from " + blockName(getBlockNumber(b)) + " but " +
              (allocatedOnThisEdge ? "not allocated" : "allocated") +
              " on another path into it; memsched schedules blocks whose "
              "allocated buffers do not depend on the path taken: free it "
              "on every path into " +
              blockName(getBlockNumber(succ)) + " or on none");
      return;
    }
  for (Block *b : rpo) {
    SmallVector<LiveInBuffer, 2> &list = liveIn[b];
    for (unsigned i : in[b].set_bits())
      list.push_back(allocs[i]);
  }
}

ArrayRef<LiveInBuffer> BlockEntryState::getLiveIn(Block *block) const {
  auto it = liveIn.find(block);
  return it == liveIn.end() ? ArrayRef<LiveInBuffer>(none)
                            : ArrayRef<LiveInBuffer>(it->second);
}
