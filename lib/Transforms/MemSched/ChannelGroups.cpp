//===- ChannelGroups.cpp - run channel-parallel chains by groups -*- C++ -*-===//
//
// Finding channel chains (a search from each intermediate buffer through
// the indexing maps of its users) and rewriting one into a loop over
// groups of channels. docs/split.md, "Channel groups".
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/ChannelGroups.h"

#include "StructuredAccess.h"

#include "Analysis/Graph/SegmentChoice.h"
#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::memsched;

/// How many boundaries a failed search may add before it gives up.
static constexpr unsigned kMaxBoundaries = 16;
/// How many ops the searches of one block may reach in all (work, not
/// time: the result is deterministic).
static constexpr uint64_t kSearchBudget = 2000000;

namespace {
/// Where a loop appears in an operand's indexing map.
enum class Use { Absent, At, Mixed };
struct DimUse {
  Use use = Use::Absent;
  unsigned position = 0;
};
} // namespace

static DimUse findLoop(AffineMap map, unsigned loop) {
  DimUse found;
  AffineExpr dim = getAffineDimExpr(loop, map.getContext());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(loop))
      continue;
    if (expr != dim || found.use == Use::At)
      return {Use::Mixed, 0};
    found = {Use::At, static_cast<unsigned>(i)};
  }
  return found;
}

/// Whether no reduction loop of `op` runs outside `loop`: then splitting
/// `loop` into groups, run one after the other, visits every output
/// element's terms in the order the op as a whole visits them.
static bool isOutermostReduction(Operation *op, unsigned loop) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  SmallVector<utils::IteratorType> iterators =
      linalgOp.getIteratorTypesArray();
  if (iterators[loop] != utils::IteratorType::reduction)
    return false;
  for (unsigned i = 0; i < loop; ++i)
    if (iterators[i] == utils::IteratorType::reduction)
      return false;
  return true;
}

/// Whether `view` keeps all of dimension `dim` of its source, in place.
static bool keepsDimension(memref::SubViewOp view, unsigned dim) {
  MemRefType source = view.getSourceType();
  if (view.getType().getRank() != source.getRank())
    return false;
  return view.getStaticOffsets()[dim] == 0 &&
         view.getStaticSizes()[dim] == source.getDimSize(dim) &&
         view.getStaticStrides()[dim] == 1;
}

namespace {
class ChainSearch {
public:
  ChainSearch(Block &block) : block(block) {}

  /// getAccesses and isFragmentOp of `op`, computed once per search of a
  /// block (the search visits an op once per seed that reaches it).
  ArrayRef<Access> accessesOf(Operation *op) {
    auto [it, inserted] = accessCache.try_emplace(op);
    if (inserted)
      it->second = getAccesses(op);
    return it->second;
  }
  DimUse loopUse(AffineMap map, unsigned loop) {
    auto [it, inserted] =
        loopCache.try_emplace({map.getAsOpaquePointer(), loop});
    if (inserted)
      it->second = findLoop(map, loop);
    return it->second;
  }
  bool isFragment(Operation *op) {
    auto [it, inserted] = fragmentCache.try_emplace(op, false);
    if (inserted)
      it->second = isFragmentOp(op);
    return it->second;
  }

  /// The chain reached from `seed` split along `dim`, or failure with the
  /// op and the reason in `refusal`.
  /// Buffers in `stopped` are not made intermediates (the chain writes
  /// or reads them as it does buffers of the rest of the body).
  FailureOr<ChannelChain> search(memref::AllocOp seed, unsigned dim,
                                 const DenseSet<Value> &stopped,
                                 RefusedChain &refusal) {
    opLoop.clear();
    bufferDim.clear();
    wholeLocals.clear();
    this->stopped = &stopped;
    failedFrom = {};
    current = {};
    depth.clear();
    channels = seed.getType().getDimSize(dim);
    bufferDim[seed.getResult()] = dim;
    SmallVector<Value> worklist{seed.getResult()};
    while (!worklist.empty()) {
      Value buffer = worklist.pop_back_val();
      current = buffer;
      unsigned d = bufferDim[buffer];
      if (cast<MemRefType>(buffer.getType()).getDimSize(d) != channels)
        return fail(buffer.getDefiningOp(),
                    "its intermediates have different numbers of channels",
                    refusal);
      for (Operation *user : buffer.getUsers()) {
        if (isa<memref::DeallocOp>(user))
          continue;
        if (auto view = dyn_cast<memref::SubViewOp>(user)) {
          if (!keepsDimension(view, d))
            return fail(view, "a subview takes part of the channels",
                        refusal);
          for (Operation *viewUser : view->getUsers())
            if (failed(visit(viewUser, view.getResult(), d, worklist,
                             refusal)))
              return failure();
          continue;
        }
        if (failed(visit(user, buffer, d, worklist, refusal)))
          return failure();
      }
    }
    current = {};
    for (Value local : wholeLocals)
      if (bufferDim.count(local))
        return fail(local.getDefiningOp(),
                    "an op uses all channels of an intermediate at once",
                    refusal);
    // (A buffer nothing but its free uses makes no chain.)
    if (opLoop.size() < 2)
      return fail(seed, "", refusal);
    ChannelChain chain;
    chain.channels = channels;
    for (auto [op, loop] : opLoop)
      chain.ops.push_back(op);
    llvm::sort(chain.ops,
               [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (Operation *op : chain.ops)
      chain.loopDims.push_back(opLoop[op]);
    for (auto [buffer, d] : bufferDim) {
      chain.buffers.push_back({buffer.getDefiningOp<memref::AllocOp>(), d});
      auto [it, inserted] = sizeCache.try_emplace(buffer);
      if (inserted) {
        if (!layout)
          layout.emplace(DataLayout::closest(buffer.getDefiningOp()));
        bool isBound = false;
        FailureOr<uint64_t> bytes =
            getAllocationSize(buffer.getDefiningOp(), *layout, SizeModel(),
                              isBound, it->second.second);
        it->second.first = succeeded(bytes) ? std::optional(*bytes)
                                            : std::nullopt;
      }
      if (!it->second.first)
        return fail(buffer.getDefiningOp(), it->second.second, refusal);
      chain.intermediateBytes += *it->second.first;
    }
    llvm::sort(chain.buffers, [](auto &a, auto &b) {
      return a.first->isBeforeInBlock(b.first);
    });
    if (failed(checkExternals(chain, refusal)) ||
        failed(checkSpan(chain, refusal)))
      return failure();
    return chain;
  }

private:
  LogicalResult fail(Operation *at, StringRef reason, RefusedChain &refusal) {
    refusal = {at, reason.str()};
    if (!failedFrom)
      failedFrom = current;
    return failure();
  }

public:
  /// isFragmentIntermediate, computed once per buffer (the block does not
  /// change while its chains are searched).
  bool isCandidate(Value value) {
    auto [it, inserted] = candidates.insert({value, false});
    if (inserted)
      it->second = isFragmentIntermediate(value, block);
    return it->second;
  }

  /// Ops the searches have reached so far (the work the budget counts).
  uint64_t getWork() const { return work; }

  /// After a failed search: the intermediate the search was following
  /// when it failed (null once the search itself completed).
  Value getFailedFrom() const { return failedFrom; }
  /// Of the intermediates of the last search other than its seed, the one
  /// farthest from the seed (the latest in the block among those), or null.
  Value getFarthest(Value seed) const {
    Value farthest;
    for (auto [buffer, d] : bufferDim) {
      if (buffer == seed)
        continue;
      if (!farthest || depth.lookup(buffer) > depth.lookup(farthest) ||
          (depth.lookup(buffer) == depth.lookup(farthest) &&
           farthest.getDefiningOp()->isBeforeInBlock(buffer.getDefiningOp())))
        farthest = buffer;
    }
    return farthest;
  }

private:

  /// The intermediate `value` is (directly or through a subview), or null.
  Value intermediateOf(Value value) {
    if (auto view = value.getDefiningOp<memref::SubViewOp>())
      value = view.getSource();
    if (stopped->count(value) || !isCandidate(value))
      return {};
    return value;
  }

  LogicalResult visit(Operation *op, Value operandValue, unsigned dim,
                      SmallVectorImpl<Value> &worklist,
                      RefusedChain &refusal) {
    if (!isFragment(op))
      return fail(op,
                  ("its intermediates are used by " +
                   op->getName().getStringRef() +
                   ", which cannot run by groups of channels")
                      .str(),
                  refusal);
    std::optional<unsigned> loop;
    for (const Access &access : accessesOf(op)) {
      if (op->getOperand(access.operand) != operandValue)
        continue;
      auto expr = dyn_cast<AffineDimExpr>(access.map.getResult(dim));
      if (!expr || loopUse(access.map, expr.getPosition()).use != Use::At)
        return fail(op,
                    ("the channels of an intermediate are not one loop of " +
                     op->getName().getStringRef())
                        .str(),
                    refusal);
      if (loop && *loop != expr.getPosition())
        return fail(op, "two loops run over the channels", refusal);
      loop = expr.getPosition();
    }
    if (!loop)
      return success();
    ++work;
    auto [it, inserted] = opLoop.insert({op, *loop});
    if (!inserted) {
      if (it->second != *loop)
        return fail(op, "two loops run over the channels", refusal);
      return success();
    }
    for (const Access &access : accessesOf(op)) {
      Value value = op->getOperand(access.operand);
      DimUse use = loopUse(access.map, *loop);
      if (use.use == Use::Mixed)
        return fail(op,
                    (op->getName().getStringRef() +
                     " indexes an operand with the channel loop in a "
                     "compound expression (a window: row bands, not "
                     "channel groups)")
                        .str(),
                    refusal);
      Value local = intermediateOf(value);
      if (!local)
        continue;
      if (use.use == Use::Absent) {
        wholeLocals.push_back(local);
        continue;
      }
      auto view = value.getDefiningOp<memref::SubViewOp>();
      if (view && !keepsDimension(view, use.position))
        return fail(view, "a subview takes part of the channels", refusal);
      auto [bit, binserted] = bufferDim.insert({local, use.position});
      if (binserted) {
        worklist.push_back(local);
        depth[local] = depth.lookup(current) + 1;
      }
      else if (bit->second != use.position)
        return fail(op, "an intermediate's channels are two dimensions",
                    refusal);
    }
    return success();
  }

  /// Operands that are not intermediates: read whole or by group; buffers
  /// the chain writes must be the function's own, written by group through
  /// one view or accumulated into by one op.
  LogicalResult checkExternals(ChannelChain &chain, RefusedChain &refusal) {
    struct External {
      Operation *op;
      Value value;
      DimUse use;
      bool isWrite;
    };
    llvm::MapVector<Value, SmallVector<External>> byBase;
    for (auto [op, loop] : llvm::zip(chain.ops, chain.loopDims)) {
      for (const Access &access : accessesOf(op)) {
        Value value = op->getOperand(access.operand);
        Value local = intermediateOf(value);
        if (local && bufferDim.count(local))
          continue;
        DimUse use = loopUse(access.map, loop);
        if (use.use == Use::At) {
          auto type = cast<MemRefType>(value.getType());
          if (type.isDynamicDim(use.position) ||
              type.getDimSize(use.position) != channels)
            return fail(op, "an operand has another number of channels",
                        refusal);
        }
        if (access.isWrite && use.use == Use::Absent &&
            !isOutermostReduction(op, loop))
          return fail(op,
                      ("the channel loop of " + op->getName().getStringRef() +
                       " is not its outermost reduction")
                          .str(),
                      refusal);
        byBase[getBase(value)].push_back({op, value, use, access.isWrite});
      }
    }
    for (auto &[base, externals] : byBase) {
      if (!llvm::any_of(externals, [](const External &e) { return e.isWrite; }))
        continue;
      if (!isUnaliased(base))
        return fail(externals.front().op,
                    "it writes a buffer that other operands may alias (an "
                    "argument without `llvm.noalias`) or whose address "
                    "escapes",
                    refusal);
      bool byGroup = llvm::all_of(externals, [&](const External &e) {
        return e.use.use == Use::At && e.value == externals.front().value &&
               e.use.position == externals.front().use.position;
      });
      if (!byGroup && externals.size() != 1)
        return fail(externals.front().op,
                    "it writes a buffer that it also reads another way",
                    refusal);
    }
    return success();
  }

  /// The chain's ops move to its last op: no op between them may touch
  /// what a chain op before it touches in a way that order matters for.
  /// Frees of buffers the chain reads move after the loop.
  LogicalResult checkSpan(ChannelChain &chain, RefusedChain &refusal) {
    DenseSet<Operation *> own;
    for (auto [alloc, d] : chain.buffers) {
      own.insert(alloc);
      for (Operation *user : alloc->getUsers())
        if (isa<memref::DeallocOp, memref::SubViewOp>(user))
          own.insert(user);
    }
    Operation *at = nullptr;
    std::string why;
    auto isInternal = [&](Value value) {
      Value local = intermediateOf(value);
      return local && bufferDim.count(local);
    };
    if (!canMoveToLast(chain.ops, own, isInternal, chain.sunkFrees, at, why))
      return fail(at, why, refusal);
    return success();
  }

  Block &block;
  int64_t channels = 0;
  llvm::MapVector<Operation *, unsigned> opLoop;
  llvm::MapVector<Value, unsigned> bufferDim;
  SmallVector<Value> wholeLocals;
  const DenseSet<Value> *stopped = nullptr;
  Value current, failedFrom;
  DenseMap<Value, unsigned> depth;
  DenseMap<Value, bool> candidates;
  uint64_t work = 0;
  DenseMap<Operation *, SmallVector<Access>> accessCache;
  DenseMap<Operation *, bool> fragmentCache;
  DenseMap<std::pair<const void *, unsigned>, DimUse> loopCache;
  /// Per intermediate: its bytes, or why they are unknown (the block's
  /// data layout, found once).
  DenseMap<Value, std::pair<std::optional<uint64_t>, std::string>> sizeCache;
  std::optional<DataLayout> layout;
};
} // namespace

SmallVector<ChainSet, 2>
mlir::memsched::findChannelChainSets(Block &block,
                                     SmallVectorImpl<RefusedChain> &refused) {
  // One candidate per set of intermediates: from each buffer not yet in a
  // candidate, the chain along the dimension that holds the most bytes.
  std::vector<ChannelChain> candidates;
  DenseSet<Operation *> inCandidate;
  ChainSearch search(block);
  auto refuse = [&](const RefusedChain &refusal) {
    if (refusal.at && !refusal.reason.empty() && !llvm::any_of(refused, [&](const RefusedChain &r) {
          return r.at == refusal.at && r.reason == refusal.reason;
        }))
      refused.push_back(refusal);
  };
  for (Operation &op : block) {
    if (search.getWork() > kSearchBudget) {
      refuse({&op, "the search for chains stopped here, after reaching " +
                       std::to_string(search.getWork()) +
                       " ops (the rest of the block is not searched)"});
      break;
    }
    auto alloc = dyn_cast<memref::AllocOp>(&op);
    if (!alloc || inCandidate.count(alloc) ||
        !search.isCandidate(alloc.getResult()))
      continue;
    std::optional<ChannelChain> best;
    std::optional<RefusedChain> why;
    for (unsigned d = 0, e = alloc.getType().getRank(); d < e; ++d) {
      if (alloc.getType().getDimSize(d) <= 1)
        continue;
      // A failed search is tried again with a boundary: the intermediate
      // it was following when it failed, or else the one farthest from
      // the seed,
      // becomes a buffer the chain writes or reads like any other (the
      // chain stops short of what it cannot hold).
      RefusedChain refusal{nullptr, ""};
      DenseSet<Value> stopped;
      FailureOr<ChannelChain> chain = failure();
      for (unsigned attempt = 0; attempt < kMaxBoundaries; ++attempt) {
        chain = search.search(alloc, d, stopped, refusal);
        if (succeeded(chain))
          break;
        if (!why)
          why = refusal;
        Value boundary = search.getFailedFrom();
        if (!boundary || boundary == alloc.getResult())
          boundary = search.getFarthest(alloc.getResult());
        if (!boundary || !stopped.insert(boundary).second)
          break;
      }
      if (failed(chain))
        continue;
      if (chain->ops.size() < 2)
        continue;
      if (!best || chain->intermediateBytes > best->intermediateBytes)
        best = std::move(*chain);
    }
    if (!best) {
      if (why)
        refuse(*why);
      continue;
    }
    for (auto [buffer, d] : best->buffers)
      inCandidate.insert(buffer);
    candidates.push_back(std::move(*best));
  }
  // The two selections among candidates whose spans meet.
  DenseMap<Operation *, uint32_t> position;
  for (auto [i, op] : llvm::enumerate(block))
    position[&op] = i;
  std::vector<::memsched_core::WeightedSpan> spans;
  for (const ChannelChain &chain : candidates)
    spans.push_back({position.lookup(chain.ops.front()),
                     position.lookup(chain.ops.back()),
                     chain.intermediateBytes});
  auto meet = [&](uint32_t a, uint32_t b) {
    return !(spans[a].last < spans[b].first || spans[b].last < spans[a].first);
  };
  // The largest first, each kept when it meets none kept.
  SmallVector<uint32_t> order(candidates.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](uint32_t a, uint32_t b) {
    return spans[a].weight > spans[b].weight;
  });
  std::vector<uint32_t> largestFirst;
  for (uint32_t i : order)
    if (llvm::none_of(largestFirst, [&](uint32_t j) { return meet(i, j); }))
      largestFirst.push_back(i);
  llvm::sort(largestFirst);
  // The most bytes together (weighted interval scheduling, exact).
  std::vector<uint32_t> mostBytes = ::memsched_core::chooseDisjointSpans(spans);
  auto makeSet = [&](const std::vector<uint32_t> &kept, StringRef reason) {
    ChainSet set;
    DenseSet<uint32_t> in(kept.begin(), kept.end());
    for (uint32_t i = 0; i < candidates.size(); ++i)
      if (!in.contains(i))
        set.leftOut.push_back({candidates[i].ops.front(), reason.str()});
    SmallVector<uint32_t> byPosition(kept.begin(), kept.end());
    llvm::sort(byPosition, [&](uint32_t a, uint32_t b) {
      return spans[a].first < spans[b].first;
    });
    for (uint32_t i : byPosition)
      set.chains.push_back(candidates[i]);
    return set;
  };
  SmallVector<ChainSet, 2> sets;
  sets.push_back(makeSet(largestFirst, "its ops are interleaved with those "
                                       "of a larger chain"));
  if (mostBytes != largestFirst)
    sets.push_back(makeSet(mostBytes,
                           "its ops are interleaved with those of chains "
                           "holding more intermediate bytes together"));
  return sets;
}

std::vector<ChannelChain>
mlir::memsched::findChannelChains(Block &block,
                                  SmallVectorImpl<RefusedChain> &refused,
                                  ChainSelection selection) {
  SmallVector<ChainSet, 2> sets = findChannelChainSets(block, refused);
  ChainSet &set = selection == ChainSelection::MostBytes ? sets.back()
                                                         : sets.front();
  refused.append(set.leftOut.begin(), set.leftOut.end());
  return std::move(set.chains);
}

SmallVector<int64_t> mlir::memsched::channelGroupSizes(int64_t channels) {
  SmallVector<int64_t> sizes;
  for (int64_t k = 1; k < channels; ++k)
    if (channels % k == 0)
      sizes.push_back(k);
  return sizes;
}

void mlir::memsched::splitIntoChannelGroups(const ChannelChain &chain,
                                            int64_t groupSize) {
  assert(groupSize > 0 && chain.channels % groupSize == 0 &&
         "a group size divides the channels");
  Operation *last = chain.ops.back();
  Location loc = last->getLoc();
  OpBuilder b(last);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, chain.channels);
  Value step = arith::ConstantIndexOp::create(b, loc, groupSize);
  auto loop = scf::ForOp::create(b, loc, lower, upper, step);
  Value group = loop.getInductionVar();
  b.setInsertionPoint(loop.getBody()->getTerminator());

  DenseMap<Value, unsigned> bufferDim;
  for (auto [alloc, d] : chain.buffers)
    bufferDim[alloc.getResult()] = d;
  auto intermediateOf = [&](Value value) -> Value {
    if (bufferDim.count(value))
      return value;
    if (auto view = value.getDefiningOp<memref::SubViewOp>())
      if (bufferDim.count(view.getSource()))
        return view.getSource();
    return {};
  };
  // The last op of the chain that uses each intermediate.
  DenseMap<Value, Operation *> lastUse;
  for (Operation *op : chain.ops)
    for (const Access &access : getAccesses(op))
      if (Value local = intermediateOf(op->getOperand(access.operand)))
        lastUse[local] = op;

  DenseMap<Value, Value> groupBuffers, groupViews;
  DenseMap<std::pair<Value, unsigned>, Value> slices;
  for (auto [op, loop] : llvm::zip(chain.ops, chain.loopDims)) {
    SmallVector<std::pair<unsigned, Value>> operands;
    for (const Access &access : getAccesses(op)) {
      Value value = op->getOperand(access.operand);
      if (Value local = intermediateOf(value)) {
        Value &buffer = groupBuffers[local];
        if (!buffer) {
          auto alloc = local.getDefiningOp<memref::AllocOp>();
          SmallVector<int64_t> shape(alloc.getType().getShape());
          shape[bufferDim[local]] = groupSize;
          auto type = MemRefType::get(shape, alloc.getType().getElementType(),
                                      MemRefLayoutAttrInterface(),
                                      alloc.getType().getMemorySpace());
          buffer = memref::AllocOp::create(b, alloc.getLoc(), type,
                                           alloc.getAlignmentAttr());
        }
        if (value == local) {
          operands.push_back({access.operand, buffer});
          continue;
        }
        Value &view = groupViews[value];
        if (!view) {
          auto original = value.getDefiningOp<memref::SubViewOp>();
          SmallVector<OpFoldResult> sizes = original.getMixedSizes();
          sizes[bufferDim[local]] = b.getIndexAttr(groupSize);
          view = memref::SubViewOp::create(b, original.getLoc(), buffer,
                                           original.getMixedOffsets(), sizes,
                                           original.getMixedStrides());
        }
        operands.push_back({access.operand, view});
        continue;
      }
      DimUse use = findLoop(access.map, loop);
      if (use.use != Use::At)
        continue;
      Value &slice = slices[{value, use.position}];
      if (!slice) {
        auto type = cast<MemRefType>(value.getType());
        SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                                 b.getIndexAttr(1));
        for (int64_t size : type.getShape())
          sizes.push_back(b.getIndexAttr(size));
        offsets[use.position] = group;
        sizes[use.position] = b.getIndexAttr(groupSize);
        slice = memref::SubViewOp::create(b, op->getLoc(), value, offsets,
                                          sizes, strides);
      }
      operands.push_back({access.operand, slice});
    }
    Operation *clone = b.clone(*op);
    for (auto [index, value] : operands)
      clone->setOperand(index, value);
    for (auto [alloc, d] : chain.buffers)
      if (lastUse.lookup(alloc.getResult()) == op)
        memref::DeallocOp::create(b, loc, groupBuffers[alloc.getResult()]);
  }

  for (Operation *free : chain.sunkFrees)
    free->moveAfter(loop);
  SmallVector<Operation *> buffers;
  for (auto [alloc, d] : chain.buffers)
    buffers.push_back(alloc);
  eraseReplaced(chain.ops, buffers);
}
