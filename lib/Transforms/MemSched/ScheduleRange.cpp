//===- ScheduleRange.cpp - one order for a range of dynamic sizes -------===//

#include "Transforms/MemSched/ScheduleRange.h"

#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/PhaseTimes.h"
#include "Analysis/MemSched/RegionYields.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Reorder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <memory>

using namespace mlir;
using namespace mlir::memsched;
using ::memsched_core::MaxComparison;
using ::memsched_core::NodeId;
using ::memsched_core::ProofResult;
using ::memsched_core::SizePoly;

static constexpr uint64_t kProofBudget = kRangeProofBudget;

/// Stretches of a candidate tried one by one, at most.
static constexpr size_t kMaxStretches = 64;

/// A symbol without an upper bound is scheduled at this many times its
/// lower end (at least 1): a size far above the lower end, where the
/// buffers it sizes dominate.
static constexpr uint64_t kUnboundedScale = 1024;

std::string
mlir::memsched::describeMaxOfPolys(const std::vector<SizePoly> &polys,
                                   const std::vector<std::string> &names,
                                   size_t limit) {
  if (polys.empty())
    return "0";
  if (polys.size() == 1)
    return polys[0].str(names);
  std::string s = "max(";
  for (size_t i = 0; i < polys.size() && i < limit; ++i)
    s += (i ? ", " : "") + polys[i].str(names);
  if (polys.size() > limit)
    s += ", ... " + std::to_string(polys.size() - limit) + " more";
  return s + ")";
}

namespace {
/// The analysis of the body with the symbols at one point.
struct PointAnalysis {
  std::vector<uint64_t> point;
  std::unique_ptr<BodyLifetimes> body;
};

/// The sizes of one analysed block as polynomials: one per graph buffer,
/// and each node's transient bytes as the max of polynomials.
struct SymbolicBlock {
  std::vector<SizePoly> buffers;
  std::vector<std::vector<SizePoly>> transients;
};
} // namespace

/// `a - b` when b is below a coefficient by coefficient (b one of the
/// summands of a), none otherwise.
static std::optional<SizePoly> subtractSummand(const SizePoly &a,
                                               const SizePoly &b) {
  std::vector<SizePoly::Term> terms = a.terms();
  for (const SizePoly::Term &t : b.terms()) {
    auto it = llvm::find_if(terms, [&](const SizePoly::Term &x) {
      return x.monomial == t.monomial;
    });
    if (it == terms.end() || it->coef < t.coef)
      return std::nullopt;
    it->coef -= t.coef;
  }
  return SizePoly::fromTerms(std::move(terms));
}

static std::optional<std::vector<SizePoly>>
getSymbolicNestedPeak(Operation *op, const SizeModel &sizes,
                      const SizeSymbols &symbols, unsigned depth);

/// The peak as written of `block`, a body of a loop or branch, as the max
/// of polynomials, for a block that allocates buffers with memref.alloc and
/// frees each with a memref.dealloc of the allocation itself in the block,
/// its other ops touching no allocation or free but through nested bodies
/// of the same kind: what the analysis counts for such a block (the sum of
/// the live allocations after each allocation, plus what each op with
/// regions needs inside). None for anything else.
static std::optional<std::vector<SizePoly>>
getSymbolicBlockPeak(Block &block, const SizeModel &sizes,
                     const SizeSymbols &symbols, unsigned depth) {
  DenseMap<Value, SizePoly> live;
  SizePoly current;
  std::vector<SizePoly> peaks{SizePoly()};
  for (Operation &op : block) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::string why;
      FailureOr<SizePoly> size = getSymbolicAllocationSize(
          alloc, DataLayout::closest(alloc), sizes, symbols, 1, why);
      if (failed(size))
        return std::nullopt;
      current += *size;
      live[alloc.getResult()] = *size;
      peaks.push_back(current);
      continue;
    }
    if (auto free = dyn_cast<memref::DeallocOp>(op)) {
      auto it = live.find(free.getMemref());
      if (it == live.end())
        return std::nullopt;
      std::optional<SizePoly> rest = subtractSummand(current, it->second);
      if (!rest)
        return std::nullopt;
      current = std::move(*rest);
      live.erase(it);
      continue;
    }
    if (op.getNumRegions()) {
      std::optional<std::vector<SizePoly>> inside =
          getSymbolicNestedPeak(&op, sizes, symbols, depth + 1);
      if (!inside)
        return std::nullopt;
      for (const SizePoly &p : *inside)
        peaks.push_back(current + p);
      continue;
    }
    // Any other op the analysis counts as allocating or freeing (a call, an
    // alloca, a realloc, bufferization.dealloc) is outside this form; other
    // ops (unknown ones too) allocate nothing the analysis counts.
    if (isa<CallOpInterface, memref::ReallocOp>(op) || isAllocation(&op) ||
        getDeallocatedValue(&op) ||
        op.getName().getStringRef() == "bufferization.dealloc")
      return std::nullopt;
  }
  // Every allocation freed in the block, and none handed out by its
  // terminator.
  if (!live.empty())
    return std::nullopt;
  return ::memsched_core::pruneDominated(peaks);
}

/// What `op` (a loop or branch) needs inside as the max of polynomials:
/// the largest peak of its blocks (getSymbolicBlockPeak). None when some
/// block is outside that form, or the op hands out buffers, calls, or is
/// nested deeper than 16.
static std::optional<std::vector<SizePoly>>
getSymbolicNestedPeak(Operation *op, const SizeModel &sizes,
                      const SizeSymbols &symbols, unsigned depth) {
  if (depth > 16 || isa<CallOpInterface>(op) || !findFreshYields(op).empty())
    return std::nullopt;
  std::vector<SizePoly> peaks;
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      std::optional<std::vector<SizePoly>> p =
          getSymbolicBlockPeak(block, sizes, symbols, depth);
      if (!p)
        return std::nullopt;
      peaks.insert(peaks.end(), p->begin(), p->end());
    }
  if (peaks.empty())
    peaks.push_back(SizePoly());
  return ::memsched_core::pruneDominated(peaks);
}

static std::unique_ptr<BodyLifetimes>
analyseAt(Operation *func, SizeModel sizes, bool pinAllocations,
          const SizeSymbols &symbols, const std::vector<uint64_t> &point) {
  auto at = std::make_shared<SizePoint>();
  at->symbols = &symbols;
  at->values = point;
  sizes.point = std::move(at);
  return std::make_unique<BodyLifetimes>(func, sizes, pinAllocations);
}

/// Whether every allocation `op` (a loop or branch) may hand out as its
/// result `value` has the size `poly`.
static bool haveOneSize(Operation *op, Value value, const SizeModel &sizes,
                        const SizeSymbols &symbols, uint64_t times,
                        const SizePoly &poly) {
  for (const FreshYield &fy : findFreshYields(op)) {
    if (op->getResult(fy.position) != value)
      continue;
    for (Operation *alloc : fy.allocs) {
      std::string why;
      FailureOr<SizePoly> size = getSymbolicAllocationSize(
          alloc, DataLayout::closest(alloc), sizes, symbols, times, why);
      if (failed(size) || *size != poly)
        return false;
    }
    return true;
  }
  return false;
}

/// The block's sizes as polynomials, checked against the analyses at every
/// point; fails with `why` where the body is outside what ranges model.
static FailureOr<SymbolicBlock>
getSymbolicBlock(ArrayRef<PointAnalysis> points, const SizeSymbols &symbols,
                 const SizeModel &sizes, Operation *&where, std::string &why) {
  const BufferLifetimeAnalysis &first = points.front().body->getBlock(0);
  const ::memsched_core::MemoryGraph &graph = first.getGraph();
  SymbolicBlock out;
  for (const BufferInfo &b : first.getBuffers()) {
    if (b.unobservable || !b.sizedBy) {
      out.buffers.push_back(SizePoly::constant(b.unobservable ? 0 : b.size));
      continue;
    }
    FailureOr<SizePoly> poly =
        getSymbolicAllocationSize(b.sizedBy, DataLayout::closest(b.sizedBy),
                                  atCallSite(sizes, b.allocOp), symbols,
                                  b.sizeTimes, why);
    if (failed(poly)) {
      where = b.allocOp;
      return failure();
    }
    // A loop or branch that hands out a buffer is sized by the largest of
    // the allocations it may hand out, chosen at one point: with sizes
    // that vary, another may be the largest elsewhere, unless they all have
    // the same size.
    if (b.allocatedByNode && b.allocOp->getNumRegions() &&
        !poly->isConstant() &&
        !haveOneSize(b.allocOp, b.value, sizes, symbols, b.sizeTimes, *poly)) {
      where = b.allocOp;
      why = "a buffer this loop or branch hands out has allocations of "
            "different dynamic sizes (the largest may change with the "
            "sizes)";
      return failure();
    }
    out.buffers.push_back(std::move(*poly));
  }
  if (!first.getLiveIn().empty() || out.buffers.size() != graph.numBuffers()) {
    where = first.getBlock()->getParentOp();
    why = "buffers live into the block";
    return failure();
  }
  // A node's transient bytes: a constant, or, where nested allocations
  // sized by the symbols make them vary, the max of polynomials its
  // bodies' peaks are (checked against the analyses below).
  for (auto [n, node] : llvm::enumerate(first.getNodes())) {
    bool varies = llvm::any_of(points, [&](const PointAnalysis &p) {
      return p.body->getBlock(0).getNodes().size() != first.getNodes().size() ||
             p.body->getBlock(0).getNodes()[n].transient != node.transient;
    });
    std::optional<std::vector<SizePoly>> inside;
    if (varies && !sizes.nestedBodiesAtBound)
      inside = getSymbolicNestedPeak(node.op, sizes, symbols, 0);
    if (inside)
      out.transients.push_back(std::move(*inside));
    else
      out.transients.push_back({SizePoly::constant(node.transient)});
  }
  // Every point's analysis must be this one at that point: the same graph,
  // each size the polynomial's value, the same transient bytes (nested
  // allocations sized by a symbol make them vary: modelled only in the form
  // getSymbolicBlockPeak reads).
  for (const PointAnalysis &p : points) {
    const BufferLifetimeAnalysis &a = p.body->getBlock(0);
    const ::memsched_core::MemoryGraph &g = a.getGraph();
    if (g.numNodes() != graph.numNodes() ||
        g.numBuffers() != graph.numBuffers() ||
        g.numEdges() != graph.numEdges() ||
        g.numTouches() != graph.numTouches()) {
      where = first.getBlock()->getParentOp();
      why = "its dependences differ from one size to another";
      return failure();
    }
    for (size_t n = 0; n < a.getNodes().size(); ++n)
      if (a.getNodes()[n].transient !=
          ::memsched_core::evaluateMax(out.transients[n], p.point)) {
        where = a.getNodes()[n].op;
        why = "the memory " + where->getName().getStringRef().str() +
              " allocates inside depends on the dynamic sizes (" +
              std::to_string(first.getNodes()[n].transient) + " bytes at " +
              symbols.describePoint(points.front().point) + ", " +
              std::to_string(a.getNodes()[n].transient) + " at " +
              symbols.describePoint(p.point) +
              "): ranges cover the allocations of the function's body, "
              "not those nested in its ops";
        return failure();
      }
    for (size_t b = 0; b < out.buffers.size(); ++b)
      if (out.buffers[b].evaluate(p.point) != g.bufferSize(b)) {
        where = a.getBuffers()[b].allocOp;
        why = "its size " + out.buffers[b].str(symbols.getNames()) +
              " does not match the analysis at " +
              symbols.describePoint(p.point) + " (" +
              std::to_string(g.bufferSize(b)) + " bytes)";
        return failure();
      }
  }
  return out;
}

FailureOr<RangeScheduleResult>
mlir::memsched::scheduleOverRange(Operation *func,
                                  const ScheduleFunctionOptions &options) {
  RangeScheduleResult result;
  std::string why;
  FailureOr<SizeSymbols> symbols =
      SizeSymbols::collect(func, why, options.ranges);
  if (failed(symbols)) {
    result.status = RangeScheduleResult::Status::Unsupported;
    result.unsupportedOp = func;
    result.reason = why;
    return result;
  }
  if (symbols->empty())
    return result;
  result.symbols = std::move(*symbols);
  const SizeSymbols &syms = result.symbols;
  getRangeEnds(syms, result.low, result.high);
  // Outside what ranges model: at the upper bounds when there are some.
  auto outside = [&](Operation *op, std::string reason) {
    result.status = syms.hasUnbounded()
                        ? RangeScheduleResult::Status::Unsupported
                        : RangeScheduleResult::Status::AtUpperBound;
    result.unsupportedOp = op;
    result.reason = std::move(reason);
    return result;
  };
  Region &body = func->getRegion(0);
  if (!body.hasOneBlock())
    return outside(func, "dynamic sizes over a range are scheduled in "
                         "bodies of one block");
  if (!hasOnlyDefaultSpace(collectMemorySpaces(func)) || options.memorySpace)
    return outside(func, "dynamic sizes over a range are scheduled in "
                         "bodies that allocate in one memory space");

  // The points analysed: the upper ends, the lower ends and the typical
  // values, each once.
  std::vector<std::vector<uint64_t>> at{result.high, result.low};
  if (syms.hasTypical()) {
    result.typical = syms.getTypicalPoint(result.high);
    at.push_back(*result.typical);
  }
  SmallVector<PointAnalysis, 3> points;
  for (const std::vector<uint64_t> &p : at) {
    if (llvm::any_of(points,
                     [&](const PointAnalysis &a) { return a.point == p; }))
      continue;
    PointAnalysis a;
    a.point = p;
    {
      PhaseScope phase("analysis over the range");
      a.body =
          analyseAt(func, options.sizes, !options.moveAllocations, syms, p);
    }
    if (!a.body->isSupported()) {
      result.status = RangeScheduleResult::Status::Unsupported;
      result.unsupportedOp = a.body->getUnsupportedOp();
      result.reason = a.body->getUnsupportedReason().str();
      return result;
    }
    points.push_back(std::move(a));
  }
  Operation *where = nullptr;
  FailureOr<SymbolicBlock> sym =
      getSymbolicBlock(points, syms, options.sizes, where, why);
  if (failed(sym))
    return outside(where, why);

  const std::vector<::memsched_core::SymbolRange> &ranges = syms.getRanges();
  const BufferLifetimeAnalysis &high = points.front().body->getBlock(0);
  const ::memsched_core::MemoryGraph &graph = high.getGraph();
  std::vector<NodeId> input = graph.programOrder();
  std::vector<SizePoly> inputProfile = ::memsched_core::getMemoryProfile(
      graph, input, sym->buffers, sym->transients);
  result.peakBefore = result.peakAfter =
      describeMaxOfPolys(inputProfile, syms.getNames());
  // The peaks as written (allocations where they stand) at the two points;
  // the profile counts each buffer from its first use to its last.
  result.peakBeforeHigh = result.peakAfterHigh =
      points.front().body->getPeakAsWritten();
  auto writtenAt = [&](const std::vector<uint64_t> &p) {
    for (const PointAnalysis &a : points)
      if (a.point == p)
        return a.body->getPeakAsWritten();
    return uint64_t(0);
  };
  result.peakBeforeLow = result.peakAfterLow = writtenAt(result.low);
  if (result.typical)
    result.peakBeforeTypical = result.peakAfterTypical =
        writtenAt(*result.typical);
  bool loose = result.peakBeforeHigh !=
                   ::memsched_core::evaluateMax(inputProfile, result.high) ||
               result.peakBeforeLow !=
                   ::memsched_core::evaluateMax(inputProfile, result.low);
  result.allocationsMoved = loose;
  result.status = RangeScheduleResult::Status::Scheduled;

  // Candidates: the scheduler's order at each point, compared at the
  // typical values first (when declared), then the upper and lower ends.
  std::vector<std::vector<NodeId>> refuted;
  std::vector<NodeId> best = input;
  std::vector<SizePoly> bestProfile = inputProfile;
  auto scoreOf = [&](const std::vector<SizePoly> &profile) {
    std::vector<uint64_t> score;
    if (result.typical)
      score.push_back(::memsched_core::evaluateMax(profile, *result.typical));
    score.push_back(::memsched_core::evaluateMax(profile, result.high));
    score.push_back(::memsched_core::evaluateMax(profile, result.low));
    return score;
  };
  for (const PointAnalysis &p : points) {
    std::vector<NodeId> order;
    {
      PhaseScope phase("search over the range");
      order = planNodeOrder(p.body->getBlock(0), options);
    }
    if (order == input || order == best)
      continue;
    std::vector<SizePoly> profile = ::memsched_core::getMemoryProfile(
        graph, order, sym->buffers, sym->transients);
    if (scoreOf(profile) >= scoreOf(bestProfile))
      continue;
    MaxComparison proof;
    {
      PhaseScope phase("comparison over the range");
      proof = ::memsched_core::proveMaxAtMost(profile, inputProfile, ranges,
                                              kProofBudget);
    }
    if (proof.result == ProofResult::Proved) {
      best = std::move(order);
      bestProfile = std::move(profile);
      continue;
    }
    // Lower at this point but not proved never above the order as written.
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "the order best at " << syms.describePoint(p.point);
    if (proof.result == ProofResult::Refuted)
      os << " needs "
         << ::memsched_core::evaluateMax(profile, proof.counterexample)
         << " bytes at " << syms.describePoint(proof.counterexample)
         << ", the order as written "
         << ::memsched_core::evaluateMax(inputProfile, proof.counterexample);
    else
      os << " could not be proved never above the order as written (the "
            "comparison stopped at its work limit)";
    if (result.kept.empty())
      result.kept = s;
    refuted.push_back(std::move(order));
  }
  // A candidate not proved as a whole may be on some stretches
  // (spliceProvedStretches).
  for (const std::vector<NodeId> &candidate : refuted)
    result.stretchesTaken += ::memsched_core::spliceProvedStretches(
        graph, sym->buffers, sym->transients, inputProfile, ranges,
        result.typical ? *result.typical : result.high, candidate, best,
        bestProfile, kMaxStretches, kProofBudget);
  // The order as written with allocations moved to their uses is never
  // above it either.
  if (best == input && !(loose && options.moveAllocations))
    return result;

  // Apply the order, then check the body as it now stands: analysed again,
  // its peak proved never above the one as written.
  SmallVector<unsigned> order(best.begin(), best.end());
  FailureOr<SmallVector<Operation *>> planned = planBlockOrder(high, order);
  if (failed(planned))
    return failure();
  Operation *saved = func->clone();
  applyBlockOrder(high, *planned);
  points.clear();
  std::vector<std::vector<uint64_t>> checkAt{result.high, result.low};
  if (result.typical)
    checkAt.push_back(*result.typical);
  FailureOr<RangeBody> now = getRangeBody(
      func, options.sizes, !options.moveAllocations, syms, checkAt, where, why);
  // Proved on the polynomials (allocations at their first uses), and the
  // peak as written at each point not above the one before.
  if (succeeded(now) && now->writtenPeaks[0] <= result.peakBeforeHigh &&
      now->writtenPeaks[1] <= result.peakBeforeLow &&
      (!result.typical || now->writtenPeaks[2] <= result.peakBeforeTypical) &&
      ::memsched_core::proveMaxAtMost(now->profile, inputProfile, ranges,
                                      kProofBudget)
              .result == ProofResult::Proved) {
    result.reordered = true;
    result.peakAfter = describeMaxOfPolys(now->profile, syms.getNames());
    result.peakAfterHigh = now->writtenPeaks[0];
    result.peakAfterLow = now->writtenPeaks[1];
    if (result.typical)
      result.peakAfterTypical = now->writtenPeaks[2];
  } else {
    restoreBody(func, saved);
  }
  saved->erase();
  return result;
}

void mlir::memsched::getRangeEnds(const SizeSymbols &symbols,
                                  std::vector<uint64_t> &low,
                                  std::vector<uint64_t> &high) {
  low.clear();
  high.clear();
  for (const ::memsched_core::SymbolRange &r : symbols.getRanges()) {
    low.push_back(r.lo);
    high.push_back(r.hi ? *r.hi
                        : std::max<uint64_t>(r.lo, 1) * kUnboundedScale);
  }
}

FailureOr<RangeBody>
mlir::memsched::getRangeBody(Operation *func, const SizeModel &sizes,
                             bool pinAllocations, const SizeSymbols &symbols,
                             ArrayRef<std::vector<uint64_t>> at,
                             Operation *&where, std::string &why) {
  SmallVector<PointAnalysis, 3> points;
  std::vector<uint64_t> writtenPeaks;
  for (const std::vector<uint64_t> &p : at) {
    // A point analysed already.
    auto seen = llvm::find_if(
        points, [&](const PointAnalysis &a) { return a.point == p; });
    if (seen != points.end()) {
      writtenPeaks.push_back(seen->body->getPeakAsWritten());
      continue;
    }
    PointAnalysis a;
    a.point = p;
    a.body = analyseAt(func, sizes, pinAllocations, symbols, p);
    if (!a.body->isSupported()) {
      where = a.body->getUnsupportedOp();
      why = a.body->getUnsupportedReason().str();
      return failure();
    }
    if (a.body->hasSeveralBlocks()) {
      where = func;
      why = "dynamic sizes over a range are modelled in bodies of one block";
      return failure();
    }
    writtenPeaks.push_back(a.body->getPeakAsWritten());
    points.push_back(std::move(a));
  }
  if (points.empty()) {
    where = func;
    why = "no point to analyse the body at";
    return failure();
  }
  FailureOr<SymbolicBlock> sym =
      getSymbolicBlock(points, symbols, sizes, where, why);
  if (failed(sym))
    return failure();
  const ::memsched_core::MemoryGraph &g =
      points.front().body->getBlock(0).getGraph();
  RangeBody out;
  out.writtenPeaks = std::move(writtenPeaks);
  out.profile = ::memsched_core::getMemoryProfile(
      g, g.programOrder(), sym->buffers, sym->transients);
  out.floors = ::memsched_core::getNodeFloors(g, sym->buffers, sym->transients);
  return out;
}

FailureOr<std::vector<SizePoly>> mlir::memsched::parseMaxOfPolys(
    StringRef text, const std::vector<std::string> &names, std::string &why) {
  text = text.trim();
  std::vector<SizePoly> polys;
  if (text.consume_front("max(")) {
    if (!text.consume_back(")")) {
      why = "`max(` without its `)`";
      return failure();
    }
  }
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  for (StringRef part : parts) {
    std::optional<SizePoly> poly =
        ::memsched_core::parseSizePoly(part.trim().str(), names, &why);
    if (!poly)
      return failure();
    polys.push_back(std::move(*poly));
  }
  return polys;
}

RangeCertificate mlir::memsched::certifyOverRange(Operation *func,
                                                  const SizeModel &sizes,
                                                  bool pinAllocations,
                                                  const SizeSymbols &symbols,
                                                  uint64_t searchBudget) {
  RangeCertificate out;
  for (unsigned s = 0; s < symbols.size(); ++s)
    if (!symbols.isArgument(s) && !symbols.getRanges()[s].hi) {
      out.why = "the size " + symbols.getNames()[s] + " (" +
                symbols.getOrigin(s) + ") has no upper bound";
      return out;
    }
  std::vector<uint64_t> low, high;
  getRangeEnds(symbols, low, high);
  // The numbers at the upper ends of the ranges (recorded in `sizes_at`).
  SizeModel atHigh = sizes;
  auto point = std::make_shared<SizePoint>();
  point->symbols = &symbols;
  point->values = high;
  atHigh.point = std::move(point);
  out.cert = certifyFunction(func, atHigh, /*attach=*/true, searchBudget);
  if (!out.cert.certificate) {
    out.why = out.cert.reason.empty() ? "the body cannot be certified"
                                      : out.cert.reason;
    return out;
  }
  Operation *where = nullptr;
  std::string why;
  FailureOr<RangeBody> body =
      getRangeBody(func, sizes, pinAllocations, symbols, {high, low}, where,
                   why);
  // The expressions hold where the peak as written is the profile's
  // (allocations at their first uses), checked at both ends.
  if (failed(body) ||
      ::memsched_core::evaluateMax(body->profile, high) !=
          body->writtenPeaks.front() ||
      ::memsched_core::evaluateMax(body->profile, low) !=
          body->writtenPeaks.back())
    return out;
  const std::vector<std::string> &names = symbols.getNames();
  out.boundExpr = describeMaxOfPolys(body->floors, names);
  out.optimalOverRange =
      ::memsched_core::proveMaxAtMost(body->profile, body->floors,
                                      symbols.getRanges(), kRangeProofBudget)
          .result == ProofResult::Proved;
  // At the lower ends, the bound a program of those sizes would get, when
  // above the expression's there and proved again from the certificate.
  std::optional<uint64_t> boundLow;
  if (low != high) {
    SizeModel atLow = sizes;
    auto lowPoint = std::make_shared<SizePoint>();
    lowPoint->symbols = &symbols;
    lowPoint->values = low;
    atLow.point = std::move(lowPoint);
    CertifyFunctionResult lowCert =
        certifyFunction(func, atLow, /*attach=*/false, searchBudget);
    if (lowCert.certificate &&
        lowCert.certificate.getLowerBound() >
            ::memsched_core::evaluateMax(body->floors, low)) {
      BodyLifetimes lowBody(func, atLow);
      uint64_t value = lowCert.certificate.getLowerBound();
      if (lowBody.isSupported() && reproveBoundAt(lowBody, out.cert.certificate,
                                                  value, searchBudget) >= value)
        boundLow = value;
    }
  }
  out.boundLow = boundLow;
  Builder b(func->getContext());
  out.cert.certificate = withRangeFields(
      out.cert.certificate,
      b.getStringAttr(describeMaxOfPolys(body->profile, names, SIZE_MAX)),
      b.getStringAttr(describeMaxOfPolys(body->floors, names, SIZE_MAX)),
      boundLow);
  setCertificate(func, out.cert.certificate);
  return out;
}
