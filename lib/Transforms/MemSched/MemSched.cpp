//===- MemSched.cpp - public C++ API of memsched ----------------*- C++ -*-===//

#include "Transforms/MemSched/MemSched.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Transforms/MemSched/Certificate.h"

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/ComputeCost.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/RematSources.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/PhaseTimes.h"

#include "Analysis/Graph/GraphIO.h"
#include "Analysis/Graph/SchedSegment.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::memsched;

/// The current op sequence of the analysed block, terminator excluded.
SmallVector<Operation *> mlir::memsched::currentSequence(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : *block)
    if (!op.hasTrait<OpTrait::IsTerminator>())
      ops.push_back(&op);
  return ops;
}

namespace {
/// What scheduling did to one block.
struct BlockOutcome {
  uint64_t peakBefore = 0, peakAfter = 0;
  bool reordered = false;
  unsigned opsMoved = 0;
  ::memsched_core::ScheduleResult search;
  ::memsched_core::LowerBound bound;
  /// The block's ops in their new order (when reordered).
  SmallVector<Operation *> planned;
};
} // namespace

/// Plans one analysed block: the bound, the search, the new order when it
/// lowers the block's peak. Fails when the planned order is invalid.
static LogicalResult scheduleBlock(const BufferLifetimeAnalysis &analysis,
                                   const ScheduleFunctionOptions &options,
                                   BlockOutcome &out) {
  uint64_t before = analysis.getPeakAsWritten();
  out.peakBefore = out.peakAfter = before;
  // The bound first: when the body as written already reaches it, no search
  // is needed; otherwise it tells the search when to stop.
  // The peers' orders serve both: upper estimates for the bound's cuts and
  // candidates of the search.
  std::vector<std::vector<::memsched_core::NodeId>> peerOrders;
  // Where one op needs the peak as written anyway, the bound is that need
  // whatever the estimates (computeLocalBound): no peers' orders needed.
  if (::memsched_core::computeLocalBound(analysis.getGraph()) < before) {
    PhaseScope phase("peers' orders");
    peerOrders = ::memsched_core::sched::allPeerOrders(analysis.getGraph());
  }
  for (const std::vector<Operation *> &hint : options.orderHints) {
    std::vector<::memsched_core::NodeId> order;
    for (Operation *op : hint)
      if (std::optional<unsigned> n = analysis.getNodeIndex(op))
        order.push_back(*n);
    if (analysis.getGraph().isValidOrder(order))
      peerOrders.push_back(std::move(order));
  }
  {
    PhaseScope phase("lower bound");
    out.bound = computeBodyLowerBound(analysis, before, nullptr, &peerOrders);
  }
  // The best order the bound's cut witnesses made is one more candidate.
  if (!out.bound.improvedOrder.empty())
    peerOrders.push_back(std::move(out.bound.improvedOrder));
  ::memsched_core::ScheduleOptions search = options.search;
  search.peerOrders = &peerOrders;
  search.lowerBound = out.bound.value;
  if (out.bound.value == before) {
    out.search.order = analysis.getGraph().programOrder();
    out.search.peak = out.search.inputPeak = analysis.getPeakTight();
    out.search.provedOptimal = true;
  } else {
    PhaseScope phase("search");
    out.search = ::memsched_core::schedule(analysis.getGraph(), search);
  }
  if (out.search.lowerBound > out.bound.value)
    out.bound = exhaustiveBound(analysis.getGraph(), out.search);
  // Not proved optimal: the cuts again around the order found.
  if (options.cutsAroundOrder) {
    PhaseScope phase("cuts around the order");
    // A node's cut they prove above the bound raises it (a check recomputes
    // it from the node).
    ::memsched_core::LowerBound stronger;
    ::memsched_core::improveOrderByCuts(analysis.getGraph(), out.search.order,
                                   out.search.peak, out.bound.value,
                                   peerOrders, &stronger);
    if (stronger.value > out.bound.value &&
        stronger.value <= out.search.peak)
      out.bound = std::move(stronger);
  }
  PhaseScope phase("new order");

  // The block as written already reaches the bound: no sequence does
  // better, it stays as it is.
  if (before <= out.bound.value)
    return success();
  SmallVector<unsigned> order(out.search.order.begin(),
                              out.search.order.end());
  FailureOr<SmallVector<Operation *>> planned = planBlockOrder(analysis, order);
  if (failed(planned))
    return failure();
  uint64_t after = getPeakOfSequence(analysis, *planned);
  // Never make a block worse: keep it as it is unless the peak goes down.
  if (after >= before)
    return success();
  for (unsigned i = 0; i < order.size(); ++i)
    out.opsMoved += order[i] != i;
  out.planned = std::move(*planned);
  out.reordered = true;
  out.peakAfter = after;
  return success();
}

std::vector<::memsched_core::NodeId>
mlir::memsched::planNodeOrder(const BufferLifetimeAnalysis &analysis,
                              const ScheduleFunctionOptions &options) {
  BlockOutcome out;
  if (failed(scheduleBlock(analysis, options, out)) || !out.reordered)
    return analysis.getGraph().programOrder();
  return out.search.order;
}

namespace {
/// A body that allocates in several memory spaces, counted one space at a
/// time (each space's allocations at their size, the others' at 0).
struct SpaceBodies {
  SmallVector<Attribute> spaces;
  SmallVector<std::unique_ptr<BodyLifetimes>> bodies;
  /// The space the order minimises.
  unsigned target = 0;
};
} // namespace

/// Plans block `i` of a body with several memory spaces: the order found for
/// the target space, the one found for all spaces together, and those found
/// with the target space's bytes weighted above the others' are the
/// candidates; the one with the lowest (target peak, total peak) that
/// raises the peak of no space wins, or the block stays as it is.
static LogicalResult scheduleBlockInSpaces(const BodyLifetimes &total,
                                           const SpaceBodies &spaces,
                                           unsigned i,
                                           const ScheduleFunctionOptions &options,
                                           BlockOutcome &out) {
  const BufferLifetimeAnalysis &totalBlock = total.getBlock(i);
  const BufferLifetimeAnalysis &targetBlock =
      spaces.bodies[spaces.target]->getBlock(i);
  BlockOutcome byTarget, byTotal;
  if (failed(scheduleBlock(targetBlock, options, byTarget)) ||
      failed(scheduleBlock(totalBlock, options, byTotal)))
    return failure();
  // More orders: the target space's bytes weighted above the others' (by
  // 2, 4, 16 and 2^20), which trade the target's peak against the total's
  // (the target's order alone may stack the other spaces' buffers where
  // the target does not care).
  SmallVector<BlockOutcome, 4> weightedOutcomes;
  const ::memsched_core::MemoryGraph &tg = targetBlock.getGraph();
  const ::memsched_core::MemoryGraph &all = totalBlock.getGraph();
  uint64_t sum = 0;
  for (::memsched_core::BufferId b = 0; b < all.numBuffers(); ++b)
    (void)addBytes(sum, all.buffer(b).size);
  for (::memsched_core::NodeId n = 0; n < all.numNodes(); ++n)
    (void)addBytes(sum, all.transientBytes(n));
  if (tg.numNodes() == all.numNodes() && tg.numBuffers() == all.numBuffers())
    for (uint64_t weight : {uint64_t(2), uint64_t(4), uint64_t(16),
                            uint64_t(1) << 20}) {
      if (sum == UINT64_MAX || weight > (uint64_t(1) << 62) / (sum + 1))
        break;
      ::memsched_core::MemoryGraph weighted;
      for (::memsched_core::NodeId n = 0; n < all.numNodes(); ++n)
        weighted.addNode(tg.transientBytes(n) * (weight - 1) +
                         all.transientBytes(n));
      for (::memsched_core::BufferId b = 0; b < all.numBuffers(); ++b) {
        const ::memsched_core::GraphBuffer &buf = all.buffer(b);
        ::memsched_core::BufferId nb = weighted.addBuffer(
            tg.buffer(b).size * (weight - 1) + buf.size, buf.liveIn,
            buf.liveOut);
        for (::memsched_core::NodeId t : buf.touchers)
          weighted.addTouch(nb, t);
      }
      for (::memsched_core::NodeId n = 0; n < all.numNodes(); ++n)
        for (::memsched_core::NodeId m : all.succs(n))
          weighted.addEdge(n, m);
      weighted.finalize();
      ::memsched_core::ScheduleResult r =
          ::memsched_core::schedule(weighted, options.search);
      SmallVector<unsigned> order(r.order.begin(), r.order.end());
      FailureOr<SmallVector<Operation *>> planned =
          planBlockOrder(totalBlock, order);
      if (failed(planned))
        return failure();
      BlockOutcome &o = weightedOutcomes.emplace_back();
      o.planned = std::move(*planned);
      o.reordered = true;
      for (unsigned k = 0; k < order.size(); ++k)
        o.opsMoved += order[k] != k;
    }
  SmallVector<BlockOutcome *, 6> candidates{&byTarget, &byTotal};
  for (BlockOutcome &o : weightedOutcomes)
    candidates.push_back(&o);
  out.peakBefore = out.peakAfter = totalBlock.getPeakAsWritten();
  out.search = byTarget.search;
  uint64_t bestTarget = targetBlock.getPeakAsWritten();
  for (BlockOutcome *candidate : candidates) {
    if (!candidate->reordered)
      continue;
    bool raises = false;
    uint64_t targetPeak = 0;
    for (auto [k, body] : llvm::enumerate(spaces.bodies)) {
      const BufferLifetimeAnalysis &block = body->getBlock(i);
      uint64_t peak = getPeakOfSequence(block, candidate->planned);
      raises |= peak > block.getPeakAsWritten();
      if (k == spaces.target)
        targetPeak = peak;
    }
    uint64_t totalPeak = getPeakOfSequence(totalBlock, candidate->planned);
    if (raises || std::make_pair(targetPeak, totalPeak) >=
                      std::make_pair(bestTarget, out.peakAfter))
      continue;
    bestTarget = targetPeak;
    out.peakAfter = totalPeak;
    out.planned = candidate->planned;
    out.opsMoved = candidate->opsMoved;
    out.reordered = true;
  }
  return success();
}

/// Certifies a scheduled body with several memory spaces, on the body as it
/// now stands: the total (every space together) and an entry per space.
static FailureOr<ScheduleFunctionResult>
certifySeveralSpaces(Operation *func, const ScheduleFunctionOptions &options,
                     ArrayRef<Attribute> spaces,
                     ScheduleFunctionResult &result) {
  auto internalError = [&](StringRef why) {
    result.status = ScheduleFunctionResult::Status::Unsupported;
    result.unsupportedOp = func;
    result.reason = ("internal error: the scheduled body cannot be certified (" +
                     why + "); please report this input")
                        .str();
    return result;
  };
  BodyLifetimes body(func, options.sizes);
  if (!body.isSupported())
    return internalError(body.getUnsupportedReason());
  if (body.getPeakAsWritten() != result.peakAfter)
    return internalError("its peak differs from the planned one");
  SmallVector<::memsched_core::LowerBound> bounds =
      computeBlockBounds(body, result.peakAfter);
  result.bound = bounds[getStrongestBlock(bounds)];
  std::string why;
  FailureOr<ArrayAttr> entries = computeSpaceEntries(
      func, options.sizes, spaces, result.peakAfter, result.bound.value,
      options.search.exactStateBudget, why);
  if (failed(entries))
    return internalError(why);
  for (auto [peaks, entry] : llvm::zip(result.spaces, *entries))
    peaks.lowerBound = cast<SpaceAttr>(entry).getLowerBound();
  result.certificate = buildCertificate(func->getContext(), body,
                                        result.peakAfter, bounds,
                                        options.sizes, *entries);
  result.certificate = ensureReprovable(body, result.certificate);
  result.bound.value = result.certificate.getLowerBound();
  result.certificate = replaceCertificate(func, result.certificate);
  return result;
}

/// Reorders the bodies of the loops and branches nested in `func` (inner
/// ones first), each on its own and only where its peak goes down without
/// the peak of any of `spaces` going up: the transient bytes of the op
/// around it then go down too (in no space up), and the body of `func` is
/// analysed again afterwards. Bodies of one block with at least two
/// allocations; the function's own blocks are not touched. Returns how
/// many ops moved (0: the IR is unchanged); fails on an invalid plan.
static FailureOr<unsigned>
scheduleNestedBodies(Operation *func, const ScheduleFunctionOptions &options,
                     ArrayRef<Attribute> spaces, unsigned &bodiesReordered) {
  SmallVector<Block *> bodies;
  func->walk([&](Operation *op) {
    if (op == func || !isSequentialRegionOp(op))
      return;
    for (Region &region : op->getRegions())
      if (region.hasOneBlock() && isReorderableBody(region.front()))
        bodies.push_back(&region.front());
  });
  if (bodies.empty())
    return 0u;
  ScheduleFunctionOptions nestedOptions = options;
  nestedOptions.orderHints.clear();
  unsigned moved = 0;
  // One alias analysis of the function serves every body's (reordering a
  // body moves ops within it only).
  AliasRoots aliases(func, DenseMap<Value, unsigned>());
  // The walk is post-order: inner bodies first, so an outer body counts
  // their new peaks.
  for (Block *block : bodies) {
    BufferLifetimeAnalysis analysis(func, block, /*liveIn=*/{}, options.sizes,
                                    /*pinAllocations=*/!options.moveAllocations,
                                    /*callDepth=*/0, &aliases);
    if (!analysis.isSupported() || analysis.getNodes().size() < 2)
      continue;
    BlockOutcome outcome;
    if (failed(scheduleBlock(analysis, nestedOptions, outcome)))
      return failure();
    if (!outcome.reordered)
      continue;
    // Counted one space at a time, no space may need more.
    bool raises = false;
    for (Attribute space : spaces.size() > 1 ? spaces : ArrayRef<Attribute>()) {
      SizeModel sizes = options.sizes;
      sizes.memorySpace = space;
      BufferLifetimeAnalysis inSpace(func, block, /*liveIn=*/{}, sizes,
                                     !options.moveAllocations,
                                     /*callDepth=*/0, &aliases);
      raises |= !inSpace.isSupported() ||
                getPeakOfSequence(inSpace, outcome.planned) >
                    inSpace.getPeakAsWritten();
    }
    if (raises)
      continue;
    applyBlockOrder(analysis, outcome.planned);
    moved += std::max(1u, outcome.opsMoved);
    ++bodiesReordered;
  }
  return moved;
}

/// The peak of `body` as its blocks stand now (the analyses may predate a
/// reordering of the same ops).
static uint64_t getCurrentPeak(const BodyLifetimes &body) {
  uint64_t peak = 0;
  for (unsigned i = 0; i < body.getNumBlocks(); ++i)
    if (body.isReachable(i))
      peak = std::max(peak, getPeakOfSequence(
                                body.getBlock(i),
                                currentSequence(body.getBlock(i).getBlock())));
  return peak;
}

FailureOr<ScheduleFunctionResult>
mlir::memsched::scheduleFunction(Operation *func,
                                 const ScheduleFunctionOptions &options) {
  // The certificate is an attribute of the dialect: a context made from a
  // registry alone has not loaded it yet.
  func->getContext()->getOrLoadDialect<MemSchedDialect>();
  ScheduleFunctionResult result;
  BodyLifetimes body(func, options.sizes,
                     /*pinAllocations=*/!options.moveAllocations);
  if (!body.isSupported()) {
    result.unsupportedOp = body.getUnsupportedOp();
    result.reason = body.getUnsupportedReason().str();
    return result;
  }
  result.numBlocks = body.getNumBlocks();
  uint64_t before = body.getPeakAsWritten();
  result.peakBefore = result.peakAfter = before;
  for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
    result.sequencesBefore.push_back(
        currentSequence(body.getBlock(i).getBlock()));
    result.blockPeaksBefore.push_back(body.getBlock(i).getPeakAsWritten());
  }

  // Several memory spaces: each counted on its own.
  SpaceBodies spaces;
  spaces.spaces = collectMemorySpaces(func);
  bool severalSpaces = spaces.spaces.size() > 1;
  if (severalSpaces) {
    for (Attribute space : spaces.spaces) {
      SizeModel sizes = options.sizes;
      sizes.memorySpace = space;
      spaces.bodies.push_back(std::make_unique<BodyLifetimes>(
          func, sizes, /*pinAllocations=*/!options.moveAllocations));
      // The sizes are computed the same in every space: what the total
      // body supports, each space's does.
      if (!spaces.bodies.back()->isSupported()) {
        result.unsupportedOp = spaces.bodies.back()->getUnsupportedOp();
        result.reason = spaces.bodies.back()->getUnsupportedReason().str();
        return result;
      }
    }
    const auto *chosen =
        options.memorySpace ? llvm::find(spaces.spaces, *options.memorySpace)
                            : spaces.spaces.end();
    if (chosen != spaces.spaces.end()) {
      spaces.target = chosen - spaces.spaces.begin();
    } else {
      for (unsigned k = 1; k < spaces.bodies.size(); ++k)
        if (spaces.bodies[k]->getPeakAsWritten() >
            spaces.bodies[spaces.target]->getPeakAsWritten())
          spaces.target = k;
    }
    result.minimisedSpace = spaces.spaces[spaces.target];
  }
  if (!hasOnlyDefaultSpace(spaces.spaces))
    for (auto [k, space] : llvm::enumerate(spaces.spaces)) {
      SpacePeaks peaks;
      peaks.space = space;
      peaks.peakBefore = peaks.peakAfter =
          severalSpaces ? spaces.bodies[k]->getPeakAsWritten() : before;
      result.spaces.push_back(peaks);
    }

  // A certificate proving this very body optimal (in every space): nothing
  // to search.
  auto optimalInEverySpace = [&](CertificateAttr cert) {
    return llvm::all_of(result.spaces, [&](const SpacePeaks &peaks) {
      SpaceAttr entry = cert.getSpaceEntry(peaks.space);
      return entry && entry.isOptimal() && entry.getPeak() == peaks.peakBefore;
    });
  };
  if (CertificateAttr cert = getCertificate(func);
      options.skipCertified && cert && cert.isOptimal() &&
      cert.getPeak() == before && optimalInEverySpace(cert) &&
      getSizeModel(cert, func).countAlignmentPadding ==
          options.sizes.countAlignmentPadding) {
    result.status = ScheduleFunctionResult::Status::SkippedCertified;
    result.certificate = cert;
    result.bound.value = cert.getLowerBound();
    return result;
  }
  result.status = ScheduleFunctionResult::Status::Scheduled;

  // Loop and branch bodies first; the body is analysed again when one of
  // them changed (and so are its spaces).
  std::unique_ptr<BodyLifetimes> reanalysed;
  {
    PhaseScope phase("nested bodies");
    FailureOr<unsigned> moved = scheduleNestedBodies(
        func, options, spaces.spaces, result.nestedBodiesReordered);
    if (failed(moved)) {
      result.status = ScheduleFunctionResult::Status::Unsupported;
      result.unsupportedOp = func;
      result.reason = "internal error: the planned order of a nested body "
                      "is invalid; please report this input";
      return result;
    }
    if (*moved) {
      result.reordered = true;
      result.opsMoved += *moved;
      // What the nodes holding those bodies needed as written (the
      // analysis from before they were reordered).
      for (unsigned i = 0; i < body.getNumBlocks(); ++i)
        for (const NodeInfo &node : body.getBlock(i).getNodes())
          if (node.op->getNumRegions())
            result.transientsBefore[node.op] = node.transient;
      bool pin = !options.moveAllocations;
      reanalysed = std::make_unique<BodyLifetimes>(func, options.sizes, pin);
      bool supported = reanalysed->isSupported();
      for (auto [k, space] : llvm::enumerate(spaces.spaces)) {
        if (!severalSpaces)
          break;
        SizeModel sizes = options.sizes;
        sizes.memorySpace = space;
        spaces.bodies[k] = std::make_unique<BodyLifetimes>(func, sizes, pin);
        supported &= spaces.bodies[k]->isSupported();
      }
      if (!supported) {
        result.status = ScheduleFunctionResult::Status::Unsupported;
        result.unsupportedOp = func;
        result.reason = "internal error: the body cannot be analysed after "
                        "its nested bodies were reordered; please report "
                        "this input";
        return result;
      }
    }
  }
  const BodyLifetimes &current = reanalysed ? *reanalysed : body;

  // Plan every block before rewriting any: a doubt leaves the body as it is.
  SmallVector<BlockOutcome, 1> outcomes(current.getNumBlocks());
  for (unsigned i = 0; i < current.getNumBlocks(); ++i)
    if (current.isReachable(i) &&
        failed(severalSpaces
                   ? scheduleBlockInSpaces(current, spaces, i, options,
                                           outcomes[i])
                   : scheduleBlock(current.getBlock(i), options, outcomes[i]))) {
      result.status = ScheduleFunctionResult::Status::Unsupported;
      result.unsupportedOp = func;
      result.reason = "internal error: the planned order of the block is "
                      "invalid; please report this input";
      return result;
    }
  {
    PhaseScope phase("rewrite");
    for (unsigned i = 0; i < current.getNumBlocks(); ++i)
      if (outcomes[i].reordered)
        applyBlockOrder(current.getBlock(i), outcomes[i].planned);
  }
  result.peakAfter = 0;
  for (const BlockOutcome &o : outcomes) {
    result.peakAfter = std::max(result.peakAfter, o.peakAfter);
    result.reordered |= o.reordered;
    result.opsMoved += o.opsMoved;
    result.search.exactSegments += o.search.exactSegments;
    result.search.heuristicSegments += o.search.heuristicSegments;
  }
  if (!current.hasSeveralBlocks())
    result.search = outcomes[0].search;
  // One space (other than the default): the body's figures are its own.
  for (auto [k, space] : llvm::enumerate(result.spaces))
    space.peakAfter =
        severalSpaces ? getCurrentPeak(*spaces.bodies[k]) : result.peakAfter;
  if (!options.certify)
    return result;
  PhaseScope certificatePhase("certificate");
  if (severalSpaces)
    return certifySeveralSpaces(func, options, spaces.spaces, result);

  // The bound holds for every order of the same ops. Pinned allocations
  // constrain the orders: certify what holds without the pins, on the final
  // body.
  // Edges that come from the order as written (asynchronous GPU memory)
  // differ for the new order: the bound is proved on the final body too.
  // (One analysis of the final body serves the bounds, the certificate and
  // its check; it keeps the one with nested bodies at their bound.) No
  // block moved since `current` was analysed (nested bodies moved before)
  // and allocations not pinned: the final body is the one analysed.
  bool blocksMoved = llvm::any_of(
      outcomes, [](const BlockOutcome &o) { return o.reordered; });
  std::unique_ptr<BodyLifetimes> reanalysedFinal;
  if (blocksMoved || !options.moveAllocations)
    reanalysedFinal = std::make_unique<BodyLifetimes>(func, options.sizes);
  const BodyLifetimes &final = reanalysedFinal ? *reanalysedFinal : current;
  SmallVector<::memsched_core::LowerBound> bounds;
  if (!options.moveAllocations ||
      (result.reordered && current.hasOrderDependentEdges()) ||
      hasReorderableBodies(func)) {
    bounds = computeBlockBounds(final, result.peakAfter);
  } else {
    for (const BlockOutcome &o : outcomes)
      bounds.push_back(o.bound);
  }
  result.bound = bounds[getStrongestBlock(bounds)];
  // One memory space other than the default: its entry is the body's.
  std::string why;
  FailureOr<ArrayAttr> entries =
      computeSpaceEntries(func, options.sizes, spaces.spaces, result.peakAfter,
                          result.bound.value, /*searchBudget=*/0, why);
  assert(succeeded(entries) && "one space needs no analysis");
  for (SpacePeaks &peaks : result.spaces)
    peaks.lowerBound = result.bound.value;
  uint64_t budget = options.search.exactStateBudget;
  result.certificate =
      buildCertificate(func->getContext(), options.moveAllocations ? current
                                                                   : final,
                       result.peakAfter, bounds, options.sizes, *entries,
                       budget);
  // Only what --memsched-verify proves again on the body as it now stands,
  // from what the certificate records.
  result.certificate = ensureReprovable(final, result.certificate, budget);
  if (result.certificate.getLowerBound() != result.bound.value) {
    result.bound.value = result.certificate.getLowerBound();
    for (SpacePeaks &peaks : result.spaces)
      peaks.lowerBound = result.bound.value;
    // One space other than the default: its entry is the body's.
    if (CertificateAttr c = result.certificate; c.getSpaces()) {
      FailureOr<ArrayAttr> entries = computeSpaceEntries(
          func, options.sizes, spaces.spaces, result.peakAfter,
          result.bound.value, /*searchBudget=*/0, why);
      assert(succeeded(entries) && "one space needs no analysis");
      result.certificate = CertificateAttr::get(
          c.getContext(), c.getPeak(), c.getLowerBound(), c.getBoundKind(),
          c.getBoundOp(), c.getCut(), c.getSizeModel(), c.getPeakWithArena(),
          c.getArenaSize(), c.getBlock(), *entries, c.getRematOps(),
          c.getExtraComputePpm(), c.getSearchBudget(), c.getSizesAt(),
          c.getPeakExpr(), c.getLowerBoundExpr(), c.getLowerBoundLow());
    }
  }
  result.certificate = replaceCertificate(func, result.certificate);
  return result;
}

CertifyFunctionResult mlir::memsched::certifyFunction(Operation *func,
                                                      SizeModel sizes,
                                                      bool attach,
                                                      uint64_t searchBudget) {
  func->getContext()->getOrLoadDialect<MemSchedDialect>();
  CertifyFunctionResult result;
  BodyLifetimes body(func, sizes);
  if (!body.isSupported()) {
    result.unsupportedOp = body.getUnsupportedOp();
    result.reason = body.getUnsupportedReason().str();
    return result;
  }
  result.supported = true;
  result.peak = body.getPeakAsWritten();
  SmallVector<::memsched_core::LowerBound> bounds =
      computeBlockBounds(body, result.peak, searchBudget);
  result.bound = bounds[getStrongestBlock(bounds)];
  std::string why;
  FailureOr<ArrayAttr> entries = computeSpaceEntries(
      func, sizes, collectMemorySpaces(func), result.peak, result.bound.value,
      searchBudget, why);
  if (failed(entries)) {
    result.supported = false;
    result.unsupportedOp = func;
    result.reason = why;
    return result;
  }
  result.certificate = buildCertificate(func->getContext(), body, result.peak,
                                        bounds, sizes, *entries, searchBudget);
  result.certificate = ensureReprovable(body, result.certificate, searchBudget);
  result.bound.value = result.certificate.getLowerBound();
  result.certificate = carryRematFields(func, result.certificate);
  if (attach)
    setCertificate(func, result.certificate);
  return result;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static std::string bufferName(unsigned index) {
  return "buffer#" + std::to_string(index);
}

Timeline mlir::memsched::buildTimeline(
    const BufferLifetimeAnalysis &analysis, ArrayRef<Operation *> sequence,
    uint64_t peak, const DenseMap<Operation *, uint64_t> *offsets,
    const DenseMap<Operation *, unsigned> *names,
    const DenseMap<Operation *, uint64_t> *transients,
    const DenseMap<Operation *, unsigned> *arenaPhases) {
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
  ArrayRef<LiveInInfo> liveIn = analysis.getLiveIn();
  DenseMap<Operation *, SmallVector<unsigned, 1>> allocs;
  DenseMap<Operation *, SmallVector<unsigned, 1>> deallocs;
  for (auto [i, buf] : llvm::enumerate(buffers)) {
    allocs[buf.allocOp].push_back(i);
    if (buf.dealloc)
      deallocs[buf.dealloc].push_back(i);
  }
  // Buffers allocated before the block: live from its start to the node
  // that frees them, or through it.
  DenseMap<Operation *, SmallVector<unsigned, 1>> liveInFreedBy;
  Timeline t;
  t.peak = peak;
  uint64_t current = 0;
  for (auto [i, in] : llvm::enumerate(liveIn)) {
    current += in.size;
    if (in.deallocNode)
      liveInFreedBy[analysis.getNodes()[*in.deallocNode].op].push_back(i);
  }
  size_t numOwn = buffers.size();
  SmallVector<std::optional<size_t>> first(numOwn + liveIn.size()),
      last(numOwn + liveIn.size());
  for (unsigned i = 0; i < liveIn.size(); ++i)
    first[numOwn + i] = 0;
  for (Operation *op : sequence) {
    std::optional<unsigned> node = analysis.getNodeIndex(op);
    // Allocations, and the fresh buffers of a call (a node) from the call on.
    if (auto it = allocs.find(op); it != allocs.end()) {
      for (unsigned b : it->second) {
        current += buffers[b].size;
        first[b] = t.ops.size();
      }
      if (!node)
        continue;
    }
    if (auto it = deallocs.find(op);
        it != deallocs.end() && (!node || getDeallocatedValue(op))) {
      for (unsigned b : it->second) {
        current -= buffers[b].size;
        last[b] = t.ops.empty() ? 0 : t.ops.size() - 1;
      }
      continue;
    }
    if (!node)
      continue;
    t.ops.push_back(op->getName().getStringRef().str() + "#" +
                    std::to_string(t.ops.size()));
    uint64_t transient = analysis.getNodes()[*node].transient;
    if (transients)
      if (auto it = transients->find(op); it != transients->end())
        transient = it->second;
    t.memoryAt.push_back(current + transient);
    // A deallocation that is a node (e.g. a conditional free) frees after
    // it runs.
    if (auto it = deallocs.find(op); it != deallocs.end())
      for (unsigned b : it->second) {
        current -= buffers[b].size;
        last[b] = t.ops.size() - 1;
      }
    if (auto it = liveInFreedBy.find(op); it != liveInFreedBy.end())
      for (unsigned i : it->second) {
        current -= liveIn[i].size;
        last[numOwn + i] = t.ops.size() - 1;
      }
  }
  for (size_t i = 1; i < t.memoryAt.size(); ++i)
    if (t.memoryAt[i] > t.memoryAt[t.peakPosition])
      t.peakPosition = i;
  for (size_t i = 0; i < numOwn + liveIn.size(); ++i) {
    if (!first[i] || t.ops.empty())
      continue;
    Operation *alloc =
        i < numOwn ? buffers[i].allocOp : liveIn[i - numOwn].allocOp;
    TimelineBuffer tb;
    unsigned index = i;
    if (names)
      if (auto it = names->find(alloc); it != names->end())
        index = it->second;
    tb.name = bufferName(index);
    llvm::raw_string_ostream type(tb.type);
    type << (i < numOwn ? buffers[i].value : liveIn[i - numOwn].value)
                .getType();
    tb.size = i < numOwn ? buffers[i].size : liveIn[i - numOwn].size;
    if (auto loc = dyn_cast<FileLineColLoc>(alloc->getLoc()))
      tb.location = (loc.getFilename().getValue() + ":" +
                     Twine(loc.getLine()) + ":" + Twine(loc.getColumn()))
                        .str();
    if (offsets)
      if (auto it = offsets->find(alloc); it != offsets->end())
        tb.offset = it->second;
    if (arenaPhases)
      if (auto it = arenaPhases->find(alloc); it != arenaPhases->end())
        tb.arenaPhase = it->second;
    tb.first = std::min(*first[i], t.ops.size() - 1);
    tb.last = last[i] ? *last[i] : t.ops.size() - 1;
    if (tb.last < tb.first)
      continue; // freed before any op ran
    if (tb.first <= t.peakPosition && t.peakPosition <= tb.last)
      t.liveAtPeak.push_back(tb.name);
    t.buffers.push_back(std::move(tb));
  }
  return t;
}

FunctionReport mlir::memsched::buildFunctionReport(
    Operation *func, const BufferLifetimeAnalysis &analysis,
    ArrayRef<Operation *> before, uint64_t peakBefore,
    ArrayRef<Operation *> after, uint64_t peakAfter, bool reordered,
    CertificateAttr certificate,
    const DenseMap<Operation *, uint64_t> *offsets,
    const DenseMap<Operation *, unsigned> *names,
    const DenseMap<Operation *, uint64_t> *transientsBefore,
    const DenseMap<Operation *, unsigned> *arenaPhases) {
  FunctionReport report;
  report.function =
      "@" + SymbolTable::getSymbolName(func).getValue().str();
  report.before = buildTimeline(analysis, before, peakBefore, offsets, names,
                                transientsBefore, arenaPhases);
  report.after = buildTimeline(analysis, after, peakAfter, offsets, names,
                               nullptr, arenaPhases);
  report.reordered = reordered;
  if (certificate) {
    report.lowerBound = certificate.getLowerBound();
    if (certificate.getBoundKind())
      report.boundKind = certificate.getBoundKind().str();
    if (certificate.getBoundOp())
      report.boundOp = certificate.getBoundOp().str();
    for (uint64_t b : certificate.getCut())
      report.cutBuffers.push_back(bufferName(b));
  }
  return report;
}

LogicalResult mlir::memsched::writeBodyReports(
    Operation *func, SizeModel sizes,
    ArrayRef<SmallVector<Operation *>> before,
    ArrayRef<uint64_t> peaksBefore, bool reordered,
    CertificateAttr certificate, StringRef dir,
    const DenseMap<Operation *, uint64_t> *transientsBefore) {
  BodyLifetimes body(func, sizes);
  if (!body.isSupported())
    return success();
  DenseMap<Operation *, unsigned> names = getAllocationPositions(body);
  for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
    const BufferLifetimeAnalysis &block = body.getBlock(i);
    SmallVector<Operation *> after = currentSequence(block.getBlock());
    uint64_t peak = block.getPeakAsWritten();
    bool blockHasBound =
        !body.hasSeveralBlocks() ||
        (certificate && certificate.getBlock() && *certificate.getBlock() == i);
    ArrayRef<Operation *> seq =
        i < before.size() && !before[i].empty() ? ArrayRef<Operation *>(before[i])
                                                : ArrayRef<Operation *>(after);
    FunctionReport report = buildFunctionReport(
        func, block, seq, i < peaksBefore.size() ? peaksBefore[i] : peak, after,
        peak, reordered, blockHasBound ? certificate : CertificateAttr(),
        nullptr, &names, transientsBefore);
    std::string suffix =
        body.hasSeveralBlocks() ? ".bb" + std::to_string(i) : std::string();
    if (failed(writeFunctionReport(func, report, dir, suffix)))
      return failure();
  }
  return success();
}

std::string mlir::memsched::getReportFileStem(StringRef symbol) {
  // Symbol names can hold any character: keep a portable file name inside
  // the report directory (no separators, no leading dot), and tell apart
  // names that map to the same characters by a hash of the original.
  std::string stem;
  bool changed = symbol.empty();
  for (char c : symbol) {
    bool keep = llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
    if (stem.empty() && c == '.')
      keep = false;
    stem.push_back(keep ? c : '_');
    changed |= !keep;
  }
  if (stem.size() > 100) {
    stem.resize(100);
    changed = true;
  }
  if (changed)
    stem += "-" + llvm::utohexstr(llvm::xxh3_64bits(symbol), /*LowerCase=*/true);
  return stem;
}

LogicalResult mlir::memsched::writeFunctionReport(Operation *func,
                                                  const FunctionReport &report,
                                                  StringRef dir,
                                                  StringRef suffix) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return func->emitError() << "cannot create report directory '" << dir
                             << "': " << ec.message();
  std::string name =
      getReportFileStem(SymbolTable::getSymbolName(func).getValue()) +
      suffix.str();
  for (StringRef ext : {"json", "svg"}) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name + "." + ext);
    std::error_code ec;
    llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return func->emitError() << "cannot write '" << path
                               << "': " << ec.message();
    if (ext == "json")
      writeJSONReport(report, file.os());
    else
      writeTimelineSVG(report, file.os());
    file.keep();
  }
  return success();
}

LogicalResult mlir::memsched::writeFunctionGraph(
    Operation *func, const BufferLifetimeAnalysis &analysis, StringRef dir,
    StringRef suffix) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return func->emitError() << "cannot create graph directory '" << dir
                             << "': " << ec.message();
  SmallString<128> path(dir);
  llvm::sys::path::append(
      path, getReportFileStem(SymbolTable::getSymbolName(func).getValue()) +
                suffix + ".graph.json");
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return func->emitError() << "cannot write '" << path
                             << "': " << ec.message();
  ::memsched_core::GraphRematData remat;
  for (const NodeInfo &node : analysis.getNodes())
    remat.cost.push_back(estimateComputeCost(node.op));
  remat.sources = findRematSources(analysis);
  file.os() << ::memsched_core::writeGraphJson(analysis.getGraph(), &remat);
  file.keep();
  return success();
}
