//===- Schedule.cpp - reorder ops for minimum peak memory -------*- C++ -*-===//

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/Scheduler.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Reorder.h"

#include "mlir/IR/Diagnostics.h"

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
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    BufferLifetimeAnalysis analysis(func, sizes);
    if (!analysis.isSupported()) {
      ++numUnsupported;
      reportUnsupported("memsched-schedule", func, analysis, strict);
      if (strict)
        signalPassFailure();
      markAllAnalysesPreserved();
      return;
    }
    uint64_t before = analysis.getPeakAsWritten();
    // A certificate proving this very body optimal: nothing to search.
    if (CertificateAttr cert = getCertificate(func);
        skipCertified && cert && cert.isOptimal() &&
        cert.getPeak() == before &&
        getSizeModel(cert).countAlignmentPadding == countAlignmentPadding) {
      ++numSkipped;
      if (emitRemarks)
        func.emitRemark() << "memsched-schedule: peak " << before
                          << " bytes, already certified optimal";
      markAllAnalysesPreserved();
      return;
    }
    ++numFunctions;

    ::memsched::ScheduleOptions options;
    options.exactStateBudget = stateBudget;
    options.heuristicOnly = heuristicOnly;
    options.localSearchRounds = localSearchRounds;
    ::memsched::ScheduleResult result =
        ::memsched::schedule(analysis.getGraph(), options);
    numExactSegments += result.exactSegments;
    numHeuristicSegments += result.heuristicSegments;

    PlacementOptions placement;
    placement.sinkAllocs = sinkAllocs;
    placement.hoistDeallocs = hoistDeallocs;
    SmallVector<unsigned> order(result.order.begin(), result.order.end());
    SmallVector<Operation *> sequence =
        planBlockOrder(analysis, order, placement);
    uint64_t after = getPeakOfSequence(analysis, sequence);
    bytesBefore += before;

    // Never make a function worse: keep it as it is when the new order does
    // not lower its peak.
    bool apply = after < before;
    if (apply) {
      for (unsigned i = 0; i < order.size(); ++i)
        if (order[i] != i)
          ++numMoved;
      applyBlockOrder(analysis, sequence);
      ++numImproved;
    }
    uint64_t finalPeak = apply ? after : before;
    bytesAfter += finalPeak;

    // The certificate names ops and allocations by their positions in the
    // final body: analyse it again (which also checks the planned peak).
    ::memsched::LowerBound bound;
    if (attachCertificate) {
      std::optional<BufferLifetimeAnalysis> fresh;
      if (apply) {
        fresh.emplace(func, sizes);
        if (!fresh->isSupported() || fresh->getPeakAsWritten() != after) {
          func.emitError() << "memsched-schedule: internal error: the "
                              "reordered body does not analyse to its "
                              "planned peak of "
                           << after << " bytes";
          return signalPassFailure();
        }
      }
      const BufferLifetimeAnalysis &final = apply ? *fresh : analysis;
      bound = computeBodyLowerBound(final, finalPeak);
      CertificateAttr cert =
          buildCertificate(&getContext(), final, finalPeak, bound, sizes);
      setCertificate(func, cert);
      if (cert.isOptimal())
        ++numOptimal;
    }
    if (emitRemarks) {
      InFlightDiagnostic diag = func.emitRemark();
      diag << "memsched-schedule: peak " << before << " -> " << finalPeak
           << " bytes";
      if (attachCertificate)
        diag << ", lower bound " << bound.value << " bytes"
             << (bound.value == finalPeak ? " (optimal)" : "");
    }
    if (!apply)
      markAllAnalysesPreserved();
  }
};
} // namespace
