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
// producer saw its effect, and so does the clone.) A recomputation that
// fails this is dropped and the rewrite is redone without it. The rewritten body is then scheduled again; when its peak is
// not below the peak before, the body is restored.
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/Rematerialize.h"
#include "Transforms/MemSched/Certificate.h"

#include "Analysis/Graph/Remat.h"
#include "Analysis/MemSched/ComputeCost.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RematSources.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/ScopeExit.h"

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
  /// Filled by the rewrite.
  SmallVector<Operation *> clones;
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
  map.map(site.buffer, copy->getResult(0));
  SmallVector<Value> chain{site.buffer};
  for (auto [alloc, dealloc, value] : site.inner) {
    map.map(value, builder.clone(*alloc)->getResult(0));
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
             const std::vector<::memsched::RematSource> &sources,
             ArrayRef<::memsched::RematChoice> choices) {
  SmallVector<RematSite, 1> sites;
  // A later recomputation of a buffer takes its readers from an earlier
  // one's copy.
  std::vector<std::vector<::memsched::NodeId>> kept =
      ::memsched::keptLateReaders(sources, choices);
  for (auto [choice, keptReaders] : llvm::zip_equal(choices, kept)) {
    const ::memsched::RematSource &src = sources[choice.source];
    const BufferInfo &buf = analysis.getBuffers()[src.buffer];
    RematSite site;
    site.alloc = buf.allocOp;
    site.dealloc = buf.dealloc;
    site.buffer = buf.value;
    for (::memsched::NodeId p : src.producers)
      site.producers.push_back(analysis.getNodes()[p].op);
    for (::memsched::BufferId b : src.inner) {
      const BufferInfo &in = analysis.getBuffers()[b];
      site.inner.push_back({in.allocOp, in.dealloc, in.value});
    }
    for (::memsched::NodeId r : keptReaders)
      site.lateReaders.push_back(analysis.getNodes()[r].op);
    sites.push_back(std::move(site));
  }
  return sites;
}

/// The first site with a clone that depends on an op placed after the
/// clone's own producer, on the rewritten body; -1 when all are safe, -2 when the body
/// can no longer be analysed.
static int findUnsafeSite(Operation *func, SizeModel sizes,
                          ArrayRef<RematSite> sites) {
  BufferLifetimeAnalysis check(func, sizes);
  if (!check.isSupported())
    return -2;
  const ::memsched::MemoryGraph &graph = check.getGraph();
  for (auto [i, site] : llvm::enumerate(sites)) {
    for (auto [clone, producer] : llvm::zip_equal(site.clones, site.producers)) {
      std::optional<unsigned> node = check.getNodeIndex(clone);
      if (!node)
        return i;
      for (::memsched::NodeId pred : graph.preds(*node)) {
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

/// Replaces the body of `func` by a copy of `saved`'s.
static void restoreBody(Operation *func, Operation *saved) {
  Region &body = func->getRegion(0);
  body.getBlocks().clear();
  IRMapping map;
  saved->getRegion(0).cloneInto(&body, map);
}

/// The floor no recomputation goes below, with its reason in words.
static void describeFloor(const BufferLifetimeAnalysis &analysis,
                          const ::memsched::RematFloor &floor,
                          RematerializeFunctionResult &result) {
  uint64_t throughout = getBytesAllocatedThroughout(analysis);
  if (throughout > floor.value) {
    result.floor = throughout;
    result.floorReason = "the buffers it never frees hold " +
                         std::to_string(throughout) + " bytes at its end";
    return;
  }
  result.floor = floor.value;
  if (floor.kind == ::memsched::RematFloor::Kind::Footprint)
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
  std::vector<::memsched::RematSource> sources;
  std::vector<uint64_t> cost;
  ::memsched::RematPlan plan;
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

/// Plans recomputations on `func`'s body as it stands, analysed by
/// `analysis` with node costs `cost`.
static RematCandidate planOnBody(Operation *func,
                                 const BufferLifetimeAnalysis &analysis,
                                 std::vector<uint64_t> cost,
                                 const ::memsched::RematOptions &choose) {
  RematCandidate out;
  out.sources = findRematSources(analysis);
  out.cost = std::move(cost);
  out.plan = chooseRemat(analysis.getGraph(), out.sources, out.cost, choose);
  out.body = func->clone();
  return out;
}

FailureOr<RematerializeFunctionResult>
mlir::memsched::rematerializeFunction(Operation *func,
                                      const RematerializeFunctionOptions &options) {
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
  if (scheduled->numBlocks > 1) {
    result.unsupportedOp = func;
    result.reason = "bodies with several blocks are scheduled but not "
                    "rematerialised; recompute by hand or keep the "
                    "structured control flow (scf) until after memsched";
    return result;
  }
  if (result.peakBefore <= options.budget) {
    result.status = RematerializeFunctionResult::Status::WithinBudget;
    result.metBudget = true;
    return result;
  }

  BufferLifetimeAnalysis analysis(func, sizes);
  if (!analysis.isSupported()) {
    result.unsupportedOp = analysis.getUnsupportedOp();
    result.reason = analysis.getUnsupportedReason().str();
    return result;
  }
  std::vector<uint64_t> cost = getNodeCosts(analysis);
  for (uint64_t c : cost)
    result.totalCompute += std::min(c, UINT64_MAX - result.totalCompute);
  ::memsched::RematOptions choose;
  choose.budget = options.budget;
  if (options.maxExtraCompute >= 0)
    choose.maxExtraCost =
        static_cast<uint64_t>(options.maxExtraCompute * double(result.totalCompute));
  choose.schedule = options.schedule.search;
  choose.schedule.exactStateBudget =
      std::min(choose.schedule.exactStateBudget, options.candidateStateBudget);
  // Plans from the scheduled body and from the body as written (when the
  // schedule moved anything); the body is left as scheduled.
  SmallVector<RematCandidate, 2> candidates;
  llvm::scope_exit eraseBodies([&] {
    for (RematCandidate &c : candidates)
      c.body->erase();
  });
  candidates.push_back(planOnBody(func, analysis, std::move(cost), choose));
  // (Before the body is replaced: the analysis points into it.)
  describeFloor(analysis, candidates[0].plan.floor, result);
  if (scheduled->reordered) {
    restoreBody(func, written);
    BufferLifetimeAnalysis asWritten(func, sizes);
    if (asWritten.isSupported())
      candidates.push_back(planOnBody(func, asWritten,
                                      getNodeCosts(asWritten), choose));
    restoreBody(func, candidates[0].body);
  }
  result.status = RematerializeFunctionResult::Status::NoGain;

  // Each prefix of each plan's choices (the plan for a larger budget stops
  // at a shorter one) is rewritten and scheduled on the IR; the lowest peak
  // wins (among equals the first plan, the shortest prefix). So a smaller
  // budget, whose prefixes include the larger one's, never ends at a higher
  // peak.
  const RematCandidate *current = &candidates[0];
  auto restore = [&] {
    restoreBody(func, current->body);
    setCertificate(func, certBefore);
  };
  ScheduleFunctionOptions again = options.schedule;
  again.skipCertified = false;
  // Rewrites `choices` of the current plan (dropping those whose inputs are
  // overwritten before their clones) on its body and schedules; the body is
  // then rewritten, or restored when nothing is left.
  auto attempt = [&](std::vector<::memsched::RematChoice> &choices,
                     unsigned &rejected)
      -> FailureOr<std::optional<ScheduleFunctionResult>> {
    const std::vector<::memsched::RematSource> &sources = current->sources;
    size_t planned = choices.size();
    again.orderHints.clear();
    while (!choices.empty()) {
      BufferLifetimeAnalysis base(func, sizes);
      SmallVector<RematSite, 1> sites = collectSites(base, sources, choices);
      for (RematSite &site : sites)
        rewriteSite(site);
      int unsafe = findUnsafeSite(func, sizes, sites);
      if (unsafe == -1) {
        // The plan's order for these choices, as ops: a candidate of the
        // schedule (when nothing was dropped, the clones are the plan's).
        if (choices.size() == planned) {
          const ::memsched::RematStep &step = current->plan.steps[planned - 1];
          std::vector<Operation *> hint;
          for (::memsched::NodeId v : step.order) {
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
        return std::optional<ScheduleFunctionResult>();
      choices.erase(choices.begin() + unsafe);
      ++rejected;
    }
    if (choices.empty())
      return std::optional<ScheduleFunctionResult>();
    FailureOr<ScheduleFunctionResult> scheduled = scheduleFunction(func, again);
    if (failed(scheduled))
      return failure();
    if (scheduled->status != ScheduleFunctionResult::Status::Scheduled) {
      restore();
      return std::optional<ScheduleFunctionResult>();
    }
    return std::optional<ScheduleFunctionResult>(std::move(*scheduled));
  };
  const RematCandidate *best = nullptr;
  size_t bestLength = 0;
  uint64_t bestPeak = result.peakBefore;
  for (const RematCandidate &candidate : candidates) {
    current = &candidate;
    for (size_t length = 1; length <= candidate.plan.choices.size(); ++length) {
      std::vector<::memsched::RematChoice> choices(
          candidate.plan.choices.begin(),
          candidate.plan.choices.begin() + length);
      unsigned rejected = 0;
      restore();
      FailureOr<std::optional<ScheduleFunctionResult>> tried =
          attempt(choices, rejected);
      if (failed(tried)) {
        current = &candidates[0];
        restore();
        return failure();
      }
      if (*tried && (*tried)->peakAfter < bestPeak) {
        bestPeak = (*tried)->peakAfter;
        best = &candidate;
        bestLength = length;
      }
    }
  }
  current = &candidates[0];
  restore();
  if (!best)
    return result;
  current = best;
  restore();
  std::vector<::memsched::RematChoice> choices(
      best->plan.choices.begin(), best->plan.choices.begin() + bestLength);
  FailureOr<std::optional<ScheduleFunctionResult>> final =
      attempt(choices, result.rejectedUnsafe);
  if (failed(final) || !*final) {
    current = &candidates[0];
    restore();
    return failure();
  }
  ScheduleFunctionResult &finalSchedule = **final;
  result.status = RematerializeFunctionResult::Status::Rematerialized;
  result.peakAfter = finalSchedule.peakAfter;
  result.metBudget = result.peakAfter <= options.budget;
  for (const ::memsched::RematChoice &choice : choices)
    for (::memsched::NodeId p : best->sources[choice.source].producers) {
      ++result.rematOps;
      result.extraCompute += best->cost[p];
    }
  uint64_t ppm =
      result.totalCompute
          ? static_cast<uint64_t>((unsigned __int128)result.extraCompute *
                                  1000000 / result.totalCompute)
          : 0;
  CertificateAttr cert = finalSchedule.certificate;
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
