//===- CheckBudget.cpp - fail when the peak exceeds a budget ----*- C++ -*-===//

#include "Analysis/Graph/Scheduler.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Transforms/MemSched/Arena.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Placement.h"
#include "Transforms/MemSched/Reorder.h"
#include "Transforms/MemSched/ScheduleRange.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_CHECKBUDGET
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct CheckBudgetPass
    : public mlir::memsched::impl::CheckBudgetBase<CheckBudgetPass> {
  using CheckBudgetBase::CheckBudgetBase;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    // (space, bytes); no space: every space together.
    SmallVector<std::pair<std::optional<Attribute>, uint64_t>> budgets;
    if (bytes.hasValue())
      budgets.push_back({std::nullopt, bytes});
    for (const std::string &entry : spaceBytes) {
      StringRef text(entry);
      size_t colon = text.rfind(':');
      uint64_t amount = 0;
      std::string why = "expected SPACE:BYTES";
      FailureOr<Attribute> space = failure();
      if (colon != StringRef::npos &&
          !text.drop_front(colon + 1).trim().getAsInteger(10, amount))
        space = parseMemorySpace(text.take_front(colon), &getContext(), why);
      if (failed(space)) {
        getOperation().emitError()
            << "memsched-check-budget: space-bytes entry '" << entry
            << "': " << why;
        return signalPassFailure();
      }
      budgets.push_back({*space, amount});
    }
    if (budgets.empty()) {
      getOperation().emitError()
          << "memsched-check-budget needs a budget: "
             "--memsched-check-budget=\"bytes=N\" or "
             "--memsched-check-budget=\"space-bytes=SPACE:N,...\"";
      return signalPassFailure();
    }
    std::string why;
    if (failed(givenRanges.parse(ranges, why))) {
      getOperation().emitError() << "memsched-check-budget: " << why;
      return signalPassFailure();
    }
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      for (auto [space, budget] : budgets)
        runOnFunction(func, space, budget);
  }
  DeclaredRanges givenRanges;

  /// Checks `func`, whose allocations have the dynamic sizes `symbols`,
  /// against `budget` over their ranges, with the body's peak and the ops'
  /// floors as polynomials: every polynomial grows with every size, so the
  /// peak at the upper ends is the most over the ranges. Returns false,
  /// having reported nothing, where the body is not modelled over the
  /// ranges.
  bool checkOverRange(func::FuncOp func, const SizeSymbols &symbols,
                      const SizeModel &sizes, uint64_t budget) {
    std::vector<uint64_t> low, high;
    getRangeEnds(symbols, low, high);
    Operation *where = nullptr;
    std::string why;
    FailureOr<RangeBody> body =
        getRangeBody(func, sizes, false, symbols, {high, low}, where, why);
    using ::memsched_core::evaluateMax;
    using ::memsched_core::SizePoly;
    if (failed(body) ||
        evaluateMax(body->profile, high) != body->writtenPeaks.front() ||
        evaluateMax(body->profile, low) != body->writtenPeaks.back())
      return false;
    const std::vector<::memsched_core::SymbolRange> &ranges =
        symbols.getRanges();
    // Symbols without an upper end that the peak grows with.
    std::string growsWith;
    for (const SizePoly &p : body->profile)
      for (const SizePoly::Term &t : p.terms())
        for (::memsched_core::SymbolId s : t.monomial)
          if (!ranges[s].hi && growsWith.empty())
            growsWith = symbols.getNames()[s];
    uint64_t worst = evaluateMax(body->profile, high);
    if (growsWith.empty() && worst <= budget)
      return true;
    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-check-budget: '" << func.getSymName()
         << "' does not fit the budget of " << budget
         << " bytes at every size of " << symbols.describeRanges() << ": ";
    if (!growsWith.empty())
      diag << "its peak grows without bound with " << growsWith;
    else
      diag << "it peaks at " << worst << " bytes at "
           << symbols.describePoint(high);
    // With one size: up to which size it fits as written, and from which
    // size no order of the ops does (the ops' floors exceed the budget).
    // Both are monotone in the size: the first size above the budget is
    // found by bisection.
    auto firstAbove =
        [&](const std::vector<SizePoly> &polys) -> std::optional<uint64_t> {
      uint64_t lo = ranges[0].lo;
      uint64_t hi = high[0];
      if (!ranges[0].hi)
        while (evaluateMax(polys, {hi}) <= budget && hi < (UINT64_MAX >> 2))
          hi *= 2;
      if (evaluateMax(polys, {hi}) <= budget)
        return std::nullopt;
      if (evaluateMax(polys, {lo}) > budget)
        return lo;
      while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        (evaluateMax(polys, {mid}) > budget ? hi : lo) = mid;
      }
      return hi;
    };
    const std::string &name = symbols.getNames()[0];
    if (symbols.size() == 1) {
      std::optional<uint64_t> written = firstAbove(body->profile);
      std::optional<uint64_t> never = firstAbove(body->floors);
      if (written && *written == ranges[0].lo)
        diag << "; as written it fits at no size";
      else if (written)
        diag << "; as written it fits for " << name << " <= " << *written - 1;
      if (never && *never == ranges[0].lo)
        diag << "; no order of these ops fits at any size: every order needs "
             << evaluateMax(body->floors, low) << " bytes at "
             << symbols.describePoint(low);
      else if (never)
        diag << "; no order of these ops fits for " << name << " >= " << *never
             << " (every order needs " << evaluateMax(body->floors, {*never})
             << " bytes there)";
      else
        diag << "; reordering or a smaller size may fit";
    } else {
      diag << "; at " << symbols.describePoint(low) << " it peaks at "
           << evaluateMax(body->profile, low) << " bytes";
      if (evaluateMax(body->floors, low) > budget)
        diag << "; no order of these ops fits at any size: every order needs "
             << evaluateMax(body->floors, low) << " bytes at "
             << symbols.describePoint(low);
    }
    signalPassFailure();
    return true;
  }

  /// Checks `func` against `budget` bytes of memory space `space` (every
  /// space together when unset).
  void runOnFunction(func::FuncOp func, std::optional<Attribute> space,
                     uint64_t budget) {
    if (func.isExternal())
      return;
    Misplacement misplaced = findMisplacement(func);
    if (misplaced == Misplacement::NotBufferized) {
      // Its peak would be 0 bytes, within any budget: a gate that passes
      // everything.
      func.emitError() << describeMisplacement("memsched-check-budget", func,
                                               misplaced);
      signalPassFailure();
      return;
    }
    if (misplaced != Misplacement::None)
      emitWarning(func.getLoc())
          << describeMisplacement("memsched-check-budget", func, misplaced);
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    sizes.memorySpace = space;
    std::string inSpace =
        space ? " in memory space " + describeMemorySpace(*space) : "";
    // Dynamic sizes: the budget over their ranges (docs/dynamic.md), or at
    // their upper ends where the body is not modelled over the ranges.
    std::string why;
    FailureOr<SizeSymbols> symbols =
        SizeSymbols::collect(func, why, &givenRanges);
    if (failed(symbols)) {
      func.emitError() << "memsched-check-budget: cannot check '"
                       << func.getSymName() << "' against the budget: " << why;
      signalPassFailure();
      return;
    }
    if (!symbols->empty()) {
      if (!space && checkOverRange(func, *symbols, sizes, budget))
        return;
      std::vector<uint64_t> low, high;
      getRangeEnds(*symbols, low, high);
      auto point = std::make_shared<SizePointHolder>();
      point->symbols = *symbols;
      point->point.symbols = &point->symbols;
      point->point.values = high;
      sizes.point = std::shared_ptr<const SizePoint>(point, &point->point);
    }
    BodyLifetimes body(func, sizes);
    if (!body.isSupported()) {
      InFlightDiagnostic diag = func.emitError();
      diag << "memsched-check-budget: cannot check '" << func.getSymName()
           << "' against the budget: " << body.getUnsupportedReason();
      diag.attachNote(body.getUnsupportedOp()->getLoc()) << "the op at fault";
      signalPassFailure();
      return;
    }
    uint64_t peak = body.getPeakAsWritten();
    // A function planned into an arena needs what its arena and the buffers
    // outside it take (for an argument or a global arena, more than its peak
    // as it stands counts).
    FailureOr<SmallVector<Arena, 1>> arenas = findArenas(func, why);
    if (succeeded(arenas) && !arenas->empty()) {
      FailureOr<uint64_t> memory =
          computeArenaMemory(func, arenas->front(), sizes, why);
      if (failed(memory)) {
        func.emitError() << "memsched-check-budget: cannot check '"
                         << func.getSymName() << "' against the budget: "
                         << why;
        signalPassFailure();
        return;
      }
      if (*memory <= budget)
        return;
      func.emitError() << "memsched-check-budget: '" << func.getSymName()
                       << "' needs " << *memory << " bytes" << inSpace
                       << " with its buffers in "
                       << (arenas->size() == 1 ? "an arena" : "arenas by phase")
                       << " of " <<
          [&] {
            std::string list;
            for (const Arena &a : *arenas) {
              std::optional<uint64_t> bytes = getArenaBytes(a, sizes);
              list += (list.empty() ? "" : ", ") +
                      (bytes ? std::to_string(*bytes) : "?");
            }
            return list;
          }() << " bytes, above the budget of "
                       << budget << " bytes" << [&]() -> std::string {
        if (!sizes.point || !sizes.point->symbols)
          return "";
        return " (at " +
               sizes.point->symbols->describePoint(sizes.point->values) +
               ", the upper ends of the ranges: the arena "
               "and its memory grow with every size)";
      }();
      signalPassFailure();
      return;
    }
    if (peak <= budget)
      return;

    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-check-budget: '" << func.getSymName() << "' peaks at "
         << peak << " bytes" << inSpace << ", above the budget of " << budget
         << " bytes";

    // Can some order of the same ops fit? Each block over the budget must
    // fit on its own (orders never cross blocks).
    uint64_t scheduled = 0;
    std::optional<unsigned> proofBlock;
    ::memsched_core::LowerBound proof;
    std::optional<BodyLifetimes> boundBody;
    if (hasReorderableBodies(func)) {
      SizeModel atBound = sizes;
      atBound.nestedBodiesAtBound = true;
      boundBody.emplace(func, atBound);
      if (!boundBody->isSupported())
        boundBody.reset();
    }
    bool proofExhaustive = false;
    uint64_t bestBound = 0;
    for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
      const BufferLifetimeAnalysis &analysis = body.getBlock(i);
      uint64_t blockPeak = analysis.getPeakAsWritten();
      if (!body.isReachable(i))
        continue;
      if (blockPeak <= budget) {
        scheduled = std::max(scheduled, blockPeak);
        continue;
      }
      ::memsched_core::ScheduleResult result =
          ::memsched_core::schedule(analysis.getGraph());
      SmallVector<unsigned> order(result.order.begin(), result.order.end());
      FailureOr<SmallVector<Operation *>> planned =
          planBlockOrder(analysis, order);
      uint64_t blockScheduled = succeeded(planned)
                                    ? getPeakOfSequence(analysis, *planned)
                                    : blockPeak;
      scheduled = std::max(scheduled, blockScheduled);
      if (blockScheduled <= budget || proofBlock)
        continue;
      // Loop and branch bodies memsched reorders may take any of their
      // orders: the proof counts them at a bound of their peak.
      const BufferLifetimeAnalysis &bounded =
          boundBody ? boundBody->getBlock(i) : analysis;
      if (boundBody)
        result = ::memsched_core::schedule(bounded.getGraph());
      ::memsched_core::LowerBound bound =
          computeBodyLowerBound(bounded, budget + 1, &result.order);
      if (bound.value <= budget && result.lowerBound > budget) {
        proof = exhaustiveBound(bounded.getGraph(), result);
        proofExhaustive = true;
        proofBlock = i;
      } else if (bound.value > budget) {
        proof = bound;
        proofBlock = i;
      } else {
        bestBound = std::max(bestBound, bound.value);
      }
    }
    if (scheduled <= budget) {
      if (space)
        diag << "; reordering fits: an order of the same ops peaks at "
             << scheduled << " bytes there (--memsched-schedule=\"memory-space="
             << describeMemorySpace(*space)
             << "\" takes it unless it raises another space's peak)";
      else
        diag << "; reordering fits: --memsched-schedule finds an order that "
                "peaks at "
             << scheduled << " bytes";
      signalPassFailure();
      return;
    }
    if (proofBlock) {
      const BufferLifetimeAnalysis &analysis = body.getBlock(*proofBlock);
      std::string where =
          body.hasSeveralBlocks()
              ? " in block " + std::to_string(*proofBlock)
              : std::string();
      Operation *at = analysis.getNodes().empty()
                          ? nullptr
                          : analysis.getNodes()[proof.node].op;
      if (proofExhaustive)
        diag << "; no order of these ops fits: an exhaustive search of the "
                "orders from "
             << analysis.describeNode(proof.node) << where
             << " on proves that every order needs at least " << proof.value
             << " bytes" << inSpace
             << " (rematerialisation or tiling is needed)";
      else if (at)
        diag << "; no order of these ops fits: every order needs at least "
             << proof.value << " bytes" << inSpace << " while "
             << analysis.describeNode(proof.node) << where
             << " runs (rematerialisation or tiling is needed)";
      else
        diag << "; no order of these ops fits: every order needs at least "
             << proof.value << " bytes" << inSpace << where
             << " (rematerialisation or tiling is needed)";
      if (at) {
        if (proofExhaustive)
          diag.attachNote(at->getLoc()) << "where the searched orders start";
        else
          diag.attachNote(at->getLoc())
              << "the op that sets the lower bound of " << proof.value
              << " bytes";
      }
    } else {
      diag << "; the best order found peaks at " << scheduled
           << " bytes and the lower bound (" << bestBound
           << " bytes) does not rule out an order that fits";
    }
    signalPassFailure();
  }
};
} // namespace
