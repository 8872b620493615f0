//===- Schedule.cpp - reorder ops for minimum peak memory -------*- C++ -*-===//

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/Scheduler.h"
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
      InFlightDiagnostic diag =
          strict ? analysis.getUnsupportedOp()->emitError()
                 : analysis.getUnsupportedOp()->emitRemark();
      diag << "memsched-schedule: '" << func.getSymName()
           << "' left unchanged: " << analysis.getUnsupportedReason();
      if (strict)
        signalPassFailure();
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
    uint64_t before = analysis.getPeakAsWritten();
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
    if (emitRemarks)
      func.emitRemark() << "memsched-schedule: peak " << before << " -> "
                        << finalPeak << " bytes"
                        << (result.provedOptimal
                                ? " (order optimal for the dependency graph)"
                                : "");
    if (!apply)
      markAllAnalysesPreserved();
  }
};
} // namespace
