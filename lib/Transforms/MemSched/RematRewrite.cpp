//===- RematRewrite.cpp - recompute buffers to meet a budget --------------===//
//
// The rewrite of one recomputation: a copy of the buffer's allocation (and
// of each inner buffer of a chain) and a clone of each of its producers,
// right before its first late reader (in the order of the scheduled body),
// the late readers reading the copy (views of the buffer they use are cloned
// on the copy), a deallocation of the inner copies after the clones and of
// the copy after the last late reader.
//
// Safety: each clone must read what its producer read. On the rewritten
// body the dependence analysis orders every op that may write what a clone
// reads against the clone as written; so the clone reads its producer's
// values exactly when no such op lies between the producer and the clone
// as written, i.e. when every dependency of the clone (other than the other
// clones of the same buffer, which write the copies it reads instead of
// the chain's inner buffers) comes before its producer. (A dependency
// between an earlier producer of the chain and this one, e.g. the op that
// writes one of this producer's other inputs, is not a hazard: the
// producer saw its effect, and so does the clone.) Each late reader must
// also see the writes its producers made and only those: the sources'
// producers are every op that may write or free the buffer (RematSources,
// BufferInfo::writers), and on the rewritten body nothing but the clones
// may write or free a copy. A recomputation that fails either check is
// dropped and the rewrite is redone without it. The rewritten body is then
// scheduled again; when its peak is not below the peak before, the body is
// restored.
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/Rematerialize.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Reorder.h"

#include "Analysis/Graph/Remat.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/ComputeCost.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RematSources.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/ScopeExit.h"

#include <set>

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// The ops of one recomputation as the body stands.
struct RematSite {
  Operation *alloc = nullptr, *dealloc = nullptr;
  Value buffer;
  /// The chain's inner buffers: allocation, deallocation, value.
  SmallVector<std::tuple<Operation *, Operation *, Value>> inner;
  SmallVector<Operation *> producers, lateReaders;
  /// Filled by the rewrite: the clones of the producers, and the copies'
  /// allocations (the buffer's, then the inner buffers').
  SmallVector<Operation *> clones;
  SmallVector<Operation *, 2> copies;
};
} // namespace

/// The value `v` (the buffer or a view chain of it) on the copy: the view
/// ops on the way are cloned at the builder's insertion point the first
/// time they are needed.
static Value remapView(Value v, IRMapping &map, OpBuilder &builder) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  Value source = getViewSourceOf(def);
  assert(source && "a view chain of the buffer");
  remapView(source, map, builder);
  Operation *clone = builder.clone(*def, map);
  return clone->getResult(0);
}

/// Values used inside `op` (operands of it and of the ops nested in it)
/// that are defined outside it.
static void forEachOuterUse(Operation *op, function_ref<void(OpOperand &)> fn) {
  op->walk([&](Operation *nested) {
    for (OpOperand &use : nested->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      Region *defRegion = use.get().getParentRegion();
      bool inside = def ? op->isAncestor(def)
                        : op->isProperAncestor(defRegion->getParentOp()) ||
                              defRegion->getParentOp() == op;
      if (!inside)
        fn(use);
    }
  });
}

static void rewriteSite(RematSite &site) {
  OpBuilder builder(site.lateReaders.front());
  IRMapping map;
  Operation *copy = builder.clone(*site.alloc);
  site.copies.push_back(copy);
  map.map(site.buffer, copy->getResult(0));
  SmallVector<Value> chain{site.buffer};
  for (auto [alloc, dealloc, value] : site.inner) {
    Operation *innerCopy = builder.clone(*alloc);
    site.copies.push_back(innerCopy);
    map.map(value, innerCopy->getResult(0));
    chain.push_back(value);
  }
  for (Operation *producer : site.producers) {
    forEachOuterUse(producer, [&](OpOperand &use) {
      for (Value b : chain)
        if (isViewChainOf(use.get(), b))
          remapView(use.get(), map, builder);
    });
    site.clones.push_back(builder.clone(*producer, map));
  }
  // The clones read the producers' inputs later than the producers did:
  // an input buffer of the block freed in between is freed after the
  // clones instead (the schedule that follows hoists it again).
  Operation *lastClone = site.clones.back();
  for (Operation *clone : site.clones)
    forEachOuterUse(clone, [&](OpOperand &use) {
      Value root = use.get();
      while (Value source = getViewSourceOf(root.getDefiningOp()))
        root = source;
      if (!root.getDefiningOp() || !isAllocation(root.getDefiningOp()))
        return;
      // Its deallocation, of the allocated value or of a view of it (e.g.
      // through memref.cast; the view is defined before the deallocation,
      // so before the clones too).
      SmallVector<Value> views{root};
      for (size_t i = 0; i < views.size(); ++i)
        for (Operation *user : views[i].getUsers()) {
          if (getViewSourceOf(user) == views[i]) {
            views.push_back(user->getResult(0));
            continue;
          }
          if (getDeallocatedValue(user) != views[i] ||
              user->getBlock() != lastClone->getBlock() ||
              !user->isBeforeInBlock(lastClone))
            continue;
          user->moveAfter(lastClone);
        }
    });
  // The inner copies are read by the clones only.
  for (auto [alloc, dealloc, value] : site.inner)
    builder.clone(*dealloc, map);
  for (Operation *reader : site.lateReaders) {
    builder.setInsertionPoint(reader);
    forEachOuterUse(reader, [&](OpOperand &use) {
      if (isViewChainOf(use.get(), site.buffer))
        use.set(remapView(use.get(), map, builder));
    });
  }
  builder.setInsertionPointAfter(site.lateReaders.back());
  builder.clone(*site.dealloc, map);
}

/// The ops of each choice in the body as it stands (analysed by `analysis`,
/// whose graph the choices refer to).
static SmallVector<RematSite, 1>
collectSites(const BufferLifetimeAnalysis &analysis,
             const std::vector<::memsched_core::RematSource> &sources,
             ArrayRef<::memsched_core::RematChoice> choices) {
  SmallVector<RematSite, 1> sites;
  // A later recomputation of a buffer takes its readers from an earlier
  // one's copy.
  std::vector<std::vector<::memsched_core::NodeId>> kept =
      ::memsched_core::keptLateReaders(sources, choices);
  for (auto [choice, keptReaders] : llvm::zip_equal(choices, kept)) {
    const ::memsched_core::RematSource &src = sources[choice.source];
    const BufferInfo &buf = analysis.getBuffers()[src.buffer];
    RematSite site;
    site.alloc = buf.allocOp;
    site.dealloc = buf.dealloc;
    site.buffer = buf.value;
    for (::memsched_core::NodeId p : src.producers)
      site.producers.push_back(analysis.getNodes()[p].op);
    for (::memsched_core::BufferId b : src.inner) {
      const BufferInfo &in = analysis.getBuffers()[b];
      site.inner.push_back({in.allocOp, in.dealloc, in.value});
    }
    for (::memsched_core::NodeId r : keptReaders)
      site.lateReaders.push_back(analysis.getNodes()[r].op);
    sites.push_back(std::move(site));
  }
  return sites;
}

/// The first site that is not safe on the rewritten body (its block
/// `block`, where the sites are): a clone that depends on an op placed
/// after the clone's own producer, or a copy that something other than the
/// clones may write or free (BufferInfo::writers, the notion the
/// scheduler's dependences use): a late reader must see the writes its
/// producers made, and only those. -1 when all are safe, -2 when the body
/// can no longer be analysed.
static int findUnsafeSite(Operation *func, SizeModel sizes, unsigned block,
                          ArrayRef<RematSite> sites) {
  BodyLifetimes body(func, sizes);
  if (!body.isSupported() || block >= body.getNumBlocks())
    return -2;
  const BufferLifetimeAnalysis &check = body.getBlock(block);
  const ::memsched_core::MemoryGraph &graph = check.getGraph();
  DenseMap<Operation *, const BufferInfo *> bufferOf;
  for (const BufferInfo &buf : check.getBuffers())
    bufferOf[buf.allocOp] = &buf;
  for (auto [i, site] : llvm::enumerate(sites)) {
    for (Operation *copy : site.copies) {
      const BufferInfo *buf = bufferOf.lookup(copy);
      if (!buf)
        return i;
      for (unsigned w : buf->writers)
        if (!llvm::is_contained(site.clones, check.getNodes()[w].op))
          return i;
    }
    for (auto [clone, producer] : llvm::zip_equal(site.clones, site.producers)) {
      std::optional<unsigned> node = check.getNodeIndex(clone);
      if (!node)
        return i;
      for (::memsched_core::NodeId pred : graph.preds(*node)) {
        Operation *op = check.getNodes()[pred].op;
        if (llvm::is_contained(site.clones, op))
          continue;
        // Before the producer, the producer saw its effect too.
        if (!op->isBeforeInBlock(producer))
          return i;
      }
    }
  }
  return -1;
}

/// The floor no recomputation goes below, with its reason in words.
static void describeFloor(const BufferLifetimeAnalysis &analysis,
                          const ::memsched_core::RematFloor &floor,
                          RematerializeFunctionResult &result) {
  uint64_t throughout = getBytesAllocatedThroughout(analysis);
  if (throughout > floor.value) {
    result.floor = throughout;
    result.floorReason = "the buffers it never frees hold " +
                         std::to_string(throughout) + " bytes at its end";
    return;
  }
  result.floor = floor.value;
  if (floor.kind == ::memsched_core::RematFloor::Kind::Footprint)
    result.floorReason = "'" + analysis.describeNode(floor.node) +
                         "' alone needs " + std::to_string(floor.value) +
                         " bytes (its operands, results and scratch, with "
                         "the buffers live throughout)";
  else
    result.floorReason = "its last op runs with the buffers live to the end "
                         "(results, arguments kept): at least " +
                         std::to_string(floor.value) + " bytes";
}

namespace {
/// A plan of recomputations and the body it refers to (node and buffer ids
/// are those of that body's analysis).
struct RematCandidate {
  /// A copy of the function whose body the plan was made on.
  Operation *body = nullptr;
  std::vector<::memsched_core::RematSource> sources;
  std::vector<uint64_t> cost;
  ::memsched_core::RematPlan plan;
};
} // namespace

/// The estimated work of each node of `analysis`.
static std::vector<uint64_t>
getNodeCosts(const BufferLifetimeAnalysis &analysis) {
  std::vector<uint64_t> cost;
  for (const NodeInfo &node : analysis.getNodes())
    cost.push_back(estimateComputeCost(node.op));
  return cost;
}

/// Blocks of at most this many nodes are planned again with chains of any
/// depth when the first plans fall short of the budget.
static constexpr size_t kDeepChainNodes = 400;

/// Plans recomputations of `sources` on `func`'s body as it stands,
/// analysed by `analysis` with node costs `cost`.
static RematCandidate planOnBody(Operation *func,
                                 const BufferLifetimeAnalysis &analysis,
                                 std::vector<uint64_t> cost,
                                 const ::memsched_core::RematOptions &choose,
                                 std::vector<::memsched_core::RematSource> sources) {
  RematCandidate out;
  out.sources = std::move(sources);
  out.cost = std::move(cost);
  out.plan = chooseRemat(analysis.getGraph(), out.sources, out.cost, choose);
  out.body = func->clone();
  return out;
}

FailureOr<RematerializeFunctionResult>
mlir::memsched::rematerializeFunction(Operation *func,
                                      const RematerializeFunctionOptions &options) {
  func->getContext()->getOrLoadDialect<MemSchedDialect>();
  RematerializeFunctionResult result;
  // The body as written: the choice is made from it too (the greedy choice
  // depends on the order the ops come in, and neither start is better on
  // every network).
  Operation *written = func->clone();
  llvm::scope_exit eraseWritten([&] { written->erase(); });
  FailureOr<ScheduleFunctionResult> scheduled =
      scheduleFunction(func, options.schedule);
  if (failed(scheduled))
    return failure();
  if (scheduled->status == ScheduleFunctionResult::Status::Unsupported) {
    result.unsupportedOp = scheduled->unsupportedOp;
    result.reason = scheduled->reason;
    return result;
  }
  SizeModel sizes = options.schedule.sizes;
  result.peakBefore = result.peakAfter = scheduled->peakAfter;
  CertificateAttr certBefore = getCertificate(func);
  result.certificate = certBefore;
  if (result.peakBefore <= options.budget) {
    result.status = RematerializeFunctionResult::Status::WithinBudget;
    result.metBudget = true;
    return result;
  }

  // The blocks above the budget, each on its own: recomputations stay in
  // their block (a recomputable buffer is allocated, used and freed in
  // one), so a block's plans neither change nor depend on another's. Each
  // block may spend the fraction of its own compute.
  SmallVector<unsigned> overBudget;
  SmallVector<uint64_t> blockCompute;
  // What the proof that no plan meets the budget needs of each block above
  // it (run only when the budget is not met).
  struct BoundInput {
    ::memsched_core::MemoryGraph graph;
    std::vector<::memsched_core::RematSource> sources;
    std::vector<uint64_t> cost;
    uint64_t maxExtraCost = UINT64_MAX;
  };
  std::vector<BoundInput> boundInputs;
  // The analysis of the body as scheduled, and its nodes' costs: the first
  // block's plan is made on it (later blocks' on the body as it stands).
  auto analysed = std::make_unique<BodyLifetimes>(func, sizes);
  std::vector<std::vector<uint64_t>> analysedCosts;
  {
    BodyLifetimes &body = *analysed;
    if (!body.isSupported()) {
      result.unsupportedOp = body.getUnsupportedOp();
      result.reason = body.getUnsupportedReason().str();
      return result;
    }
    for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
      const BufferLifetimeAnalysis &block = body.getBlock(i);
      analysedCosts.push_back(getNodeCosts(block));
      uint64_t compute = 0;
      for (uint64_t c : analysedCosts.back())
        compute += std::min(c, UINT64_MAX - compute);
      blockCompute.push_back(compute);
      result.totalCompute += std::min(compute, UINT64_MAX - result.totalCompute);
      if (!body.isReachable(i) || block.getPeakAsWritten() <= options.budget)
        continue;
      overBudget.push_back(i);
      BoundInput &bound = boundInputs.emplace_back();
      bound.graph = block.getGraph();
      bound.cost = analysedCosts.back();
      if (options.maxExtraCompute >= 0)
        bound.maxExtraCost =
            static_cast<uint64_t>(options.maxExtraCompute * double(compute));
      // Chains of any depth within the limit.
      bound.sources =
          findRematSources(block, std::numeric_limits<unsigned>::max(),
                           bound.cost, bound.maxExtraCost);
      // The function's floor: the largest of its blocks'.
      RematerializeFunctionResult floor;
      describeFloor(block, ::memsched_core::rematFloor(block.getGraph()), floor);
      if (floor.floor > result.floor) {
        result.floor = floor.floor;
        result.floorReason = std::move(floor.floorReason);
      }
    }
  }
  bool severalBlocks = blockCompute.size() > 1;
  result.status = RematerializeFunctionResult::Status::NoGain;

  // The scheduled body, which a block's plans start from.
  Operation *saved = func->clone();
  llvm::scope_exit eraseSaved([&] { saved->erase(); });
  ScheduleFunctionOptions again = options.schedule;
  again.skipCertified = false;
  // Many trial schedules: without the second run of the cuts.
  again.cutsAroundOrder = false;
  CertificateAttr certificate = certBefore;
  for (unsigned blockIndex : overBudget) {
    ::memsched_core::RematOptions choose;
    choose.budget = options.budget;
    if (options.maxExtraCompute >= 0)
      choose.maxExtraCost = static_cast<uint64_t>(
          options.maxExtraCompute * double(blockCompute[blockIndex]));
    choose.schedule = options.schedule.search;
    choose.schedule.exactStateBudget = std::min(
        choose.schedule.exactStateBudget, options.candidateStateBudget);
    // Plans from the scheduled body and, for a body with one block, from
    // the body as written (when the schedule moved anything); the body is
    // left as scheduled.
    // (At most three: the inline capacity keeps pointers to them valid.)
    SmallVector<RematCandidate, 3> candidates;
    llvm::scope_exit eraseBodies([&] {
      for (RematCandidate &c : candidates)
        c.body->erase();
    });
    uint64_t blockPeak = 0;
    size_t blockNodes = 0;
    {
      std::vector<uint64_t> cost;
      if (analysed) {
        cost = std::move(analysedCosts[blockIndex]);
      } else {
        analysed = std::make_unique<BodyLifetimes>(func, sizes);
        if (!analysed->isSupported())
          return failure();
        cost = getNodeCosts(analysed->getBlock(blockIndex));
      }
      const BufferLifetimeAnalysis &block = analysed->getBlock(blockIndex);
      blockPeak = block.getPeakAsWritten();
      blockNodes = block.getGraph().numNodes();
      candidates.push_back(planOnBody(func, block, std::move(cost), choose,
                                      findRematSources(block)));
      // The body is rewritten and restored from here on.
      analysed.reset();
    }
    if (!severalBlocks && scheduled->reordered) {
      restoreBody(func, written);
      BufferLifetimeAnalysis asWritten(func, sizes);
      if (asWritten.isSupported())
        candidates.push_back(planOnBody(func, asWritten,
                                        getNodeCosts(asWritten), choose,
                                        findRematSources(asWritten)));
      restoreBody(func, candidates[0].body);
    }

    // Each prefix of each plan's choices (the plan for a larger budget
    // stops at a shorter one) is rewritten and scheduled on the IR; the
    // lowest peak of the block wins (among equals the first plan, the
    // shortest prefix). So a smaller budget, whose prefixes include the
    // larger one's, never ends at a higher peak.
    const RematCandidate *current = &candidates[0];
    auto restore = [&] {
      restoreBody(func, current->body);
      setCertificate(func, certificate);
    };
    // Rewrites `choices` of the current plan (dropping those whose inputs
    // are overwritten before their clones) on its body and schedules; the
    // body is then rewritten, or restored when nothing is left. Gives the
    // schedule and the block's peak after it.
    auto attempt = [&](std::vector<::memsched_core::RematChoice> &choices,
                       unsigned &rejected)
        -> FailureOr<std::optional<std::pair<ScheduleFunctionResult, uint64_t>>> {
      const std::vector<::memsched_core::RematSource> &sources = current->sources;
      size_t planned = choices.size();
      again.orderHints.clear();
      while (!choices.empty()) {
        BodyLifetimes baseBody(func, sizes);
        if (!baseBody.isSupported())
          return failure();
        const BufferLifetimeAnalysis &base = baseBody.getBlock(blockIndex);
        SmallVector<RematSite, 1> sites = collectSites(base, sources, choices);
        for (RematSite &site : sites)
          rewriteSite(site);
        int unsafe = findUnsafeSite(func, sizes, blockIndex, sites);
        if (unsafe == -1) {
          // The plan's order for these choices, as ops: a candidate of the
          // schedule (when nothing was dropped, the clones are the plan's).
          if (choices.size() == planned) {
            const ::memsched_core::RematStep &step =
                current->plan.steps[planned - 1];
            std::vector<Operation *> hint;
            for (::memsched_core::NodeId v : step.order) {
              int64_t b = step.mapping.newToBase[v];
              if (b >= 0) {
                hint.push_back(base.getNodes()[b].op);
              } else {
                auto [c, k] = step.mapping.cloneOf[v];
                hint.push_back(sites[c].clones[k]);
              }
            }
            again.orderHints.push_back(std::move(hint));
          }
          break;
        }
        restore();
        if (unsafe == -2)
          return std::optional<std::pair<ScheduleFunctionResult, uint64_t>>();
        choices.erase(choices.begin() + unsafe);
        ++rejected;
      }
      if (choices.empty())
        return std::optional<std::pair<ScheduleFunctionResult, uint64_t>>();
      FailureOr<ScheduleFunctionResult> rescheduled =
          scheduleFunction(func, again);
      if (failed(rescheduled))
        return failure();
      if (rescheduled->status != ScheduleFunctionResult::Status::Scheduled) {
        restore();
        return std::optional<std::pair<ScheduleFunctionResult, uint64_t>>();
      }
      uint64_t peak = rescheduled->peakAfter;
      if (severalBlocks) {
        BodyLifetimes after(func, sizes);
        if (!after.isSupported())
          return failure();
        peak = after.getBlock(blockIndex).getPeakAsWritten();
      }
      return std::optional<std::pair<ScheduleFunctionResult, uint64_t>>(
          std::make_pair(std::move(*rescheduled), peak));
    };
    const RematCandidate *best = nullptr;
    size_t bestLength = 0;
    uint64_t bestPeak = blockPeak;
    // Tries every prefix of the plans from `first` on.
    auto evaluate = [&](size_t first) -> LogicalResult {
      for (size_t c = first; c < candidates.size(); ++c) {
        const RematCandidate &candidate = candidates[c];
        current = &candidate;
        for (size_t length = 1; length <= candidate.plan.choices.size();
             ++length) {
          std::vector<::memsched_core::RematChoice> choices(
              candidate.plan.choices.begin(),
              candidate.plan.choices.begin() + length);
          unsigned rejected = 0;
          restore();
          auto tried = attempt(choices, rejected);
          if (failed(tried))
            return failure();
          if (*tried && (*tried)->second < bestPeak) {
            bestPeak = (*tried)->second;
            best = &candidate;
            bestLength = length;
          }
        }
      }
      return success();
    };
    if (failed(evaluate(0))) {
      restoreBody(func, saved);
      setCertificate(func, certBefore);
      return failure();
    }
    // Still above the budget: chains of any depth within the limit, when
    // there are any, on blocks of at most kDeepChainNodes scheduled ops (the
    // choice tries three buffers deep first: deeper chains rarely pay, and
    // on the training steps of bench/models planning with them takes two to
    // three times as long).
    if (bestPeak > options.budget && blockNodes <= kDeepChainNodes) {
      current = &candidates[0];
      restore();
      bool planned = false;
      {
        BodyLifetimes body(func, sizes);
        if (!body.isSupported()) {
          restoreBody(func, saved);
          setCertificate(func, certBefore);
          return failure();
        }
        const BufferLifetimeAnalysis &block = body.getBlock(blockIndex);
        std::vector<uint64_t> cost = getNodeCosts(block);
        std::vector<::memsched_core::RematSource> deep =
            findRematSources(block, std::numeric_limits<unsigned>::max(),
                             cost, choose.maxExtraCost);
        // Only when some chain is new (the body is the first plan's).
        auto key = [](const ::memsched_core::RematSource &src) {
          return std::make_pair(src.buffer, src.producers);
        };
        std::set<std::pair<::memsched_core::BufferId, std::vector<::memsched_core::NodeId>>>
            tried;
        for (const ::memsched_core::RematSource &src : candidates[0].sources)
          tried.insert(key(src));
        if (llvm::any_of(deep, [&](const ::memsched_core::RematSource &src) {
              return !tried.count(key(src));
            })) {
          candidates.push_back(planOnBody(func, block, std::move(cost), choose,
                                          std::move(deep)));
          planned = true;
        }
      }
      if (planned && failed(evaluate(candidates.size() - 1))) {
        restoreBody(func, saved);
        setCertificate(func, certBefore);
        return failure();
      }
    }
    current = &candidates[0];
    restore();
    if (!best)
      continue;
    current = best;
    restore();
    std::vector<::memsched_core::RematChoice> choices(
        best->plan.choices.begin(), best->plan.choices.begin() + bestLength);
    auto final = attempt(choices, result.rejectedUnsafe);
    if (failed(final) || !*final) {
      restoreBody(func, saved);
      setCertificate(func, certBefore);
      return failure();
    }
    ScheduleFunctionResult &finalSchedule = (*final)->first;
    result.status = RematerializeFunctionResult::Status::Rematerialized;
    result.peakAfter = finalSchedule.peakAfter;
    for (const ::memsched_core::RematChoice &choice : choices)
      for (::memsched_core::NodeId p : best->sources[choice.source].producers) {
        ++result.rematOps;
        result.extraCompute += best->cost[p];
      }
    certificate = finalSchedule.certificate;
    // The next block starts from this body.
    restoreBody(saved, func);
  }
  // Not met: what no plan within the limit goes below, per block above the
  // budget (each block's plans are its own); the function's is the largest.
  auto proveLimit = [&] {
    for (const BoundInput &in : boundInputs) {
      ::memsched_core::RematBoundOptions bound;
      bound.target = options.budget;
      bound.maxExtraCost = in.maxExtraCost;
      bound.schedule = options.schedule.search;
      bound.schedule.exactStateBudget = std::min(
          bound.schedule.exactStateBudget, options.candidateStateBudget);
      // A relaxation costs about the graph's size and on large graphs
      // rarely proves more than the first: 4,000,000 / nodes^2, at least 8
      // (166 nodes: 145; 645: 9).
      uint64_t n = in.graph.numNodes() + 1;
      bound.relaxationBudget = std::max<uint64_t>(8, 4000000 / (n * n));
      ::memsched_core::RematBound proved =
          ::memsched_core::rematBound(in.graph, in.sources, in.cost, bound);
      result.limitBound = std::max(result.limitBound, proved.value);
    }
  };
  if (result.status != RematerializeFunctionResult::Status::Rematerialized) {
    restoreBody(func, saved);
    setCertificate(func, certBefore);
    if (result.floor <= options.budget)
      proveLimit();
    return result;
  }
  result.metBudget = result.peakAfter <= options.budget;
  if (!result.metBudget && result.floor <= options.budget)
    proveLimit();
  uint64_t ppm =
      result.totalCompute
          ? static_cast<uint64_t>((unsigned __int128)result.extraCompute *
                                  1000000 / result.totalCompute)
          : 0;
  CertificateAttr cert = certificate;
  if (cert) {
    // Recomputations of an earlier run are still in the body.
    auto earlier = [](std::optional<uint64_t> v) { return v ? *v : 0; };
    cert = withRematFields(
        cert,
        result.rematOps + earlier(certBefore ? certBefore.getRematOps()
                                             : std::nullopt),
        ppm + earlier(certBefore ? certBefore.getExtraComputePpm()
                                 : std::nullopt));
    setCertificate(func, cert);
  }
  result.certificate = cert;
  return result;
}
