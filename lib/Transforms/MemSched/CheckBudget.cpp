//===- CheckBudget.cpp - fail when the peak exceeds a budget ----*- C++ -*-===//

#include "Analysis/Graph/Scheduler.h"
#include "Transforms/MemSched/Arena.h"
#include "Transforms/MemSched/CallOrder.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Reorder.h"

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
    if (!bytes.hasValue()) {
      getOperation().emitError() << "memsched-check-budget needs a budget: "
                                    "--memsched-check-budget=\"bytes=N\"";
      return signalPassFailure();
    }
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      runOnFunction(func);
  }

  void runOnFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    BodyLifetimes body(func, sizes);
    if (!body.isSupported()) {
      InFlightDiagnostic diag = func.emitError();
      diag << "memsched-check-budget: cannot check '" << func.getSymName()
           << "' against the budget: " << body.getUnsupportedReason();
      diag.attachNote(body.getUnsupportedOp()->getLoc()) << "the op at fault";
      signalPassFailure();
      return;
    }
    uint64_t budget = bytes;
    uint64_t peak = body.getPeakAsWritten();
    // A function planned into an arena needs what its arena and the buffers
    // outside it take (for an argument or a global arena, more than its peak
    // as it stands counts).
    std::string why;
    FailureOr<std::optional<Arena>> arena = findArena(func, why);
    if (succeeded(arena) && *arena) {
      FailureOr<uint64_t> memory =
          computeArenaMemory(func, **arena, sizes, why);
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
                       << "' needs " << *memory
                       << " bytes with its buffers in an arena of "
                       << (*arena)->size << " bytes, above the budget of "
                       << budget << " bytes";
      signalPassFailure();
      return;
    }
    if (peak <= budget)
      return;

    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-check-budget: '" << func.getSymName() << "' peaks at "
         << peak << " bytes, above the budget of " << budget << " bytes";

    // Can some order of the same ops fit? Each block over the budget must
    // fit on its own (orders never cross blocks).
    uint64_t scheduled = 0;
    std::optional<unsigned> proofBlock;
    ::memsched::LowerBound proof;
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
      ::memsched::ScheduleResult result =
          ::memsched::schedule(analysis.getGraph());
      SmallVector<unsigned> order(result.order.begin(), result.order.end());
      FailureOr<SmallVector<Operation *>> planned =
          planBlockOrder(analysis, order);
      uint64_t blockScheduled = succeeded(planned)
                                    ? getPeakOfSequence(analysis, *planned)
                                    : blockPeak;
      scheduled = std::max(scheduled, blockScheduled);
      if (blockScheduled <= budget || proofBlock)
        continue;
      ::memsched::LowerBound bound =
          computeBodyLowerBound(analysis, budget + 1, &result.order);
      if (bound.value <= budget && result.lowerBound > budget) {
        proof = exhaustiveBound(analysis.getGraph(), result);
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
             << " bytes (rematerialisation or tiling is needed)";
      else if (at)
        diag << "; no order of these ops fits: every order needs at least "
             << proof.value << " bytes while "
             << analysis.describeNode(proof.node) << where
             << " runs (rematerialisation or tiling is needed)";
      else
        diag << "; no order of these ops fits: every order needs at least "
             << proof.value << " bytes" << where
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
