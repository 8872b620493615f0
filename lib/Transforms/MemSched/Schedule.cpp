//===- Schedule.cpp - reorder ops for minimum peak memory -------*- C++ -*-===//

#include "Analysis/MemSched/CallGraph.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Placement.h"
#include "Transforms/MemSched/ScheduleRange.h"

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/PhaseTimes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <optional>

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_SCHEDULE
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct SchedulePass
    : public mlir::memsched::impl::ScheduleBase<SchedulePass> {
  using ScheduleBase::ScheduleBase;

  void runOnOperation() override {
    if (failed(parseMemorySpaceOption(memorySpace, getOperation(),
                                      "memsched-schedule", chosenSpace)))
      return signalPassFailure();
    std::string why;
    if (failed(givenRanges.parse(ranges, why))) {
      getOperation().emitError() << "memsched-schedule: " << why;
      return signalPassFailure();
    }
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      runOnFunction(func);
    if (!changed)
      markAllAnalysesPreserved();
  }

  void runOnFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    Misplacement misplaced = findMisplacement(func);
    if (misplaced != Misplacement::None)
      emitWarning(func.getLoc())
          << describeMisplacement("memsched-schedule", func, misplaced);
    if (misplaced == Misplacement::NotBufferized)
      return; // no buffer: no order to prove anything about
    ScheduleFunctionOptions options;
    options.sizes.countAlignmentPadding = countAlignmentPadding;
    options.search.exactStateBudget = stateBudget;
    options.search.heuristicOnly = heuristicOnly;
    options.search.localSearchRounds = localSearchRounds;
    options.moveAllocations = moveAllocations;
    options.certify = attachCertificate;
    options.skipCertified = skipCertified;
    options.memorySpace = chosenSpace;
    options.ranges = &givenRanges;
    PhaseTimes phases;
    std::optional<ActivePhaseTimes> timing;
    if (phaseTimes)
      timing.emplace(&phases);
    auto start = std::chrono::steady_clock::now();
    // The phases' times, when asked, once the function is done.
    llvm::scope_exit reportPhases([&] {
      if (!phaseTimes)
        return;
      timing.reset();
      double total = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
      double other = std::max(0.0, total - phases.getTotal());
      phases.add("other", other);
      emitRemark(func.getLoc())
          << "memsched-schedule: phase times: " << phases.str() << " (total "
          << llvm::formatv("{0:F3}", total).str() << " s)";
    });
    if (!graphDir.empty()) {
      BodyLifetimes body(func, options.sizes,
                         /*pinAllocations=*/!moveAllocations);
      if (body.isSupported())
        for (unsigned i = 0; i < body.getNumBlocks(); ++i)
          if (failed(writeFunctionGraph(
                  func, body.getBlock(i), graphDir,
                  body.hasSeveralBlocks() ? ".bb" + std::to_string(i) : "")))
            return signalPassFailure();
    }
    // Dynamic sizes: one order for their whole ranges (docs/dynamic.md).
    FailureOr<RangeScheduleResult> range = scheduleOverRange(func, options);
    if (failed(range))
      return signalPassFailure();
    std::string atUpperBound;
    switch (range->status) {
    case RangeScheduleResult::Status::NotSymbolic:
      break;
    case RangeScheduleResult::Status::AtUpperBound: {
      // Sizes at the upper ends of their ranges, declared ones included.
      atUpperBound = range->reason;
      auto point = std::make_shared<SizePointHolder>();
      point->symbols = range->symbols;
      point->point.symbols = &point->symbols;
      point->point.values = range->high;
      options.sizes.point =
          std::shared_ptr<const SizePoint>(point, &point->point);
      break;
    }
    case RangeScheduleResult::Status::Unsupported:
      ++numUnsupported;
      reportUnsupported("memsched-schedule", func, range->unsupportedOp,
                        range->reason, strict);
      if (strict)
        signalPassFailure();
      return;
    case RangeScheduleResult::Status::Scheduled:
      reportRange(func, *range, options);
      return;
    }
    FailureOr<ScheduleFunctionResult> result = scheduleFunction(func, options);
    if (failed(result))
      return signalPassFailure();

    using Status = ScheduleFunctionResult::Status;
    switch (result->status) {
    case Status::Unsupported: {
      ++numUnsupported;
      reportUnsupported("memsched-schedule", func, result->unsupportedOp, result->reason,
                        strict);
      if (strict)
        signalPassFailure();
      return;
    }
    case Status::SkippedCertified:
      ++numSkipped;
      if (emitRemarks)
        emitRemark(func.getLoc()) << "memsched-schedule: peak " << result->peakBefore
                          << " bytes, already certified optimal";
      return;
    case Status::Scheduled:
      break;
    }

    ++numFunctions;
    numExactSegments += result->search.exactSegments;
    numHeuristicSegments += result->search.heuristicSegments;
    bytesBefore += result->peakBefore;
    bytesAfter += result->peakAfter;
    numMoved += result->opsMoved;
    if (result->reordered)
      ++numImproved;
    if (result->certificate && result->certificate.isOptimal())
      ++numOptimal;
    if (emitRemarks) {
      InFlightDiagnostic diag = emitRemark(func.getLoc());
      diag << "memsched-schedule: peak " << result->peakBefore << " -> "
           << result->peakAfter << " bytes";
      if (result->certificate)
        diag << ", lower bound " << result->bound.value << " bytes"
             << (result->certificate.isOptimal() ? " (optimal)" : "");
      for (const SpacePeaks &space : result->spaces) {
        diag << "; memory space " << describeMemorySpace(space.space) << ": "
             << space.peakBefore << " -> " << space.peakAfter << " bytes";
        if (result->certificate)
          diag << ", lower bound " << space.lowerBound << " bytes";
        if (result->minimisedSpace && *result->minimisedSpace == space.space)
          diag << " (minimised)";
      }
      if (result->certificate && !result->certificate.isOptimal())
        for (const ::memsched_core::SegmentInfo &segment : result->search.segments)
          if (*segment.limit) {
            // What the user can do about the gap.
            diag << "; the exact search stopped at its limits (state-budget="
                 << options.search.exactStateBudget << ") on "
                 << segment.end - segment.begin
                 << " ops: a larger state-budget searches further";
            break;
          }
      if (!atUpperBound.empty())
        diag << "; dynamic sizes at their upper bounds ("
             << range->symbols.describeRanges() << "): " << atUpperBound;
      if (unsigned n = result->nestedBodiesReordered)
        diag << "; " << n << " loop or branch bod" << (n == 1 ? "y" : "ies")
             << " reordered";
    }
    if (!reportDir.empty() &&
        failed(writeBodyReports(func, options.sizes, result->sequencesBefore,
                                result->blockPeaksBefore, result->reordered,
                                result->certificate, reportDir,
                                &result->transientsBefore)))
      return signalPassFailure();
    changed |= result->reordered;
  }

  /// After a body was scheduled over the ranges of its dynamic sizes: its
  /// certificate (at the upper ends of the ranges, with the peak and a
  /// lower bound over the ranges) and the remark.
  void reportRange(func::FuncOp func, const RangeScheduleResult &range,
                   const ScheduleFunctionOptions &options) {
    ++numFunctions;
    if (range.reordered)
      ++numImproved;
    changed |= range.reordered;
    const SizeSymbols &symbols = range.symbols;
    RangeCertificate rc;
    // The symbols of the body as it now stands: names of sizes that are not
    // arguments follow the order of the allocations, which may have moved.
    std::string why;
    FailureOr<SizeSymbols> final =
        SizeSymbols::collect(func, why, options.ranges);
    if (options.certify && succeeded(final))
      rc = certifyOverRange(func, options.sizes, !options.moveAllocations,
                            *final);
    else if (options.certify)
      rc.why = why;
    const CertifyFunctionResult &cert = rc.cert;
    if (!cert.certificate && range.reordered && getCertificate(func))
      func->removeAttr(MemSchedDialect::getCertificateAttrName());
    if (!emitRemarks)
      return;
    InFlightDiagnostic diag = emitRemark(func.getLoc());
    diag << "memsched-schedule: over " << symbols.describeRanges() << ": peak ";
    if (range.allocationsMoved && range.reordered)
      diag << "as written";
    else
      diag << range.peakBefore;
    if (range.reordered)
      diag << " -> " << range.peakAfter
           << " bytes, never above the order as written (proved)";
    else
      diag << " bytes, order as written kept";
    diag << "; at " << symbols.describePoint(range.high) << ": "
         << range.peakBeforeHigh << " -> " << range.peakAfterHigh
         << " bytes; at " << symbols.describePoint(range.low) << ": "
         << range.peakBeforeLow << " -> " << range.peakAfterLow << " bytes";
    if (range.typical)
      diag << "; at " << symbols.describePoint(*range.typical)
           << " (typical): " << range.peakBeforeTypical << " -> "
           << range.peakAfterTypical << " bytes";
    if (cert.certificate) {
      diag << "; certificate at " << symbols.describePoint(range.high)
           << ": lower bound " << cert.bound.value << " bytes"
           << (cert.certificate.isOptimal() ? " (optimal)" : "");
      if (!rc.boundExpr.empty())
        diag << "; over the ranges: lower bound " << rc.boundExpr << " bytes"
             << (rc.optimalOverRange ? " (optimal at every size)" : "");
      if (rc.boundLow)
        diag << "; at " << symbols.describePoint(range.low) << ": lower bound "
             << *rc.boundLow << " bytes"
             << (*rc.boundLow == range.peakAfterLow ? " (optimal)" : "");
    } else if (options.certify) {
      diag << "; no certificate: " << rc.why;
    }
    if (!range.kept.empty())
      diag << "; " << range.kept
           << (range.stretchesTaken
                   ? "; " + std::to_string(range.stretchesTaken) +
                         " of its stretches taken"
                   : std::string());
  }

  bool changed = false;
  std::optional<Attribute> chosenSpace;
  DeclaredRanges givenRanges;
};
} // namespace
