//===- Rematerialize.cpp - recompute buffers to meet a budget ---*- C++ -*-===//

#include "Transforms/MemSched/Rematerialize.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_REMATERIALIZE
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct RematerializePass
    : public mlir::memsched::impl::RematerializeBase<RematerializePass> {
  using RematerializeBase::RematerializeBase;

  void runOnOperation() override {
    if (!bytes.hasValue()) {
      getOperation().emitError() << "memsched-rematerialize needs a budget: "
                                    "--memsched-rematerialize=\"bytes=N\"";
      return signalPassFailure();
    }
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      if (!func.isExternal())
        runOnFunction(func);
  }

  void runOnFunction(func::FuncOp func) {
    RematerializeFunctionOptions options;
    options.budget = bytes;
    options.maxExtraCompute = maxExtraCompute;
    options.schedule.sizes.countAlignmentPadding = countAlignmentPadding;
    options.schedule.search.exactStateBudget = stateBudget;
    FailureOr<RematerializeFunctionResult> result =
        rematerializeFunction(func, options);
    if (failed(result))
      return signalPassFailure();
    using Status = RematerializeFunctionResult::Status;
    if (result->status == Status::Unsupported) {
      reportUnsupported("memsched-rematerialize", func, result->unsupportedOp,
                        result->reason, strict);
      if (strict)
        signalPassFailure();
      return;
    }
    std::string head = "memsched-rematerialize: '" +
                       func.getSymName().str() + "' ";
    if (result->status == Status::WithinBudget) {
      if (emitRemarks)
        emitRemark(func.getLoc()) << head << "peaks at " << result->peakAfter
                          << " bytes, within the budget of " << uint64_t(bytes)
                          << " bytes: nothing recomputed";
      return;
    }
    bool met = result->metBudget;
    InFlightDiagnostic diag =
        !met && strict ? func.emitError()
        : !met         ? emitWarning(func.getLoc())
                       : (emitRemarks ? emitRemark(func.getLoc())
                                      : InFlightDiagnostic());
    if (result->status == Status::NoGain) {
      diag << head << "peaks at " << result->peakBefore
           << " bytes, above the budget of " << uint64_t(bytes)
           << " bytes, and no recomputation";
      if (maxExtraCompute >= 0)
        diag << " within max-extra-compute ("
             << llvm::formatv("{0:F2}", 100.0 * maxExtraCompute).str()
             << "% of its compute)";
      diag << " lowers its peak";
      if (result->rejectedUnsafe)
        diag << " (" << result->rejectedUnsafe
             << " dropped: an input of the producer is overwritten before "
                "the late readers)";
    } else {
      double percent = result->totalCompute
                           ? 100.0 * double(result->extraCompute) /
                                 double(result->totalCompute)
                           : 0.0;
      diag << head << "peak " << result->peakBefore << " -> "
           << result->peakAfter << " bytes"
           << (met ? ", within" : ", above") << " the budget of " << uint64_t(bytes)
           << " bytes, " << result->rematOps << " op(s) computed again: "
           << "extra compute " << result->extraCompute << " of "
           << result->totalCompute << " ("
           << llvm::formatv("{0:F2}", percent).str() << "%)";
      if (!met)
        diag << "; the lowest peak reached is " << result->peakAfter
             << " bytes";
      if (result->rejectedUnsafe)
        diag << " (" << result->rejectedUnsafe
             << " recomputation(s) dropped: an input of the producer is "
                "overwritten before the late readers)";
    }
    if (!met) {
      std::string limit =
          maxExtraCompute >= 0
              ? " within max-extra-compute (" +
                    llvm::formatv("{0:F2}", 100.0 * maxExtraCompute).str() +
                    "% of its compute)"
              : "";
      if (result->floor > uint64_t(bytes))
        diag << "; no recomputation of its ops can meet the budget: "
             << result->floorReason;
      else if (result->limitBound > uint64_t(bytes))
        diag << "; no recomputation memsched can make" << limit
             << " meets the budget: each peaks at " << result->limitBound
             << " bytes or more (what it recomputes from stays live until "
                "then)";
      else {
        diag << "; the lower bound proved for any recomputation of its ops "
                "is "
             << result->floor << " bytes";
        if (result->limitBound > result->floor)
          diag << ", for those memsched can make" << limit << " "
               << result->limitBound << " bytes";
      }
    }
    if (!met && strict)
      signalPassFailure();
  }
};
} // namespace
