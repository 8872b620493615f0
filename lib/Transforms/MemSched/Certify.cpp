//===- Certify.cpp - attach a peak-memory certificate -----------*- C++ -*-===//

#include "Transforms/MemSched/Placement.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/ScheduleRange.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Passes.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_CERTIFY
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct CertifyPass : public mlir::memsched::impl::CertifyBase<CertifyPass> {
  using CertifyBase::CertifyBase;

  void runOnOperation() override {
    std::string why;
    if (failed(givenRanges.parse(ranges, why))) {
      getOperation().emitError() << "memsched-certify: " << why;
      return signalPassFailure();
    }
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      runOnFunction(func);
    markAllAnalysesPreserved();
  }
  DeclaredRanges givenRanges;

  void runOnFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    Misplacement misplaced = findMisplacement(func);
    if (misplaced != Misplacement::None)
      emitWarning(func.getLoc())
          << describeMisplacement("memsched-certify", func, misplaced);
    if (misplaced == Misplacement::NotBufferized)
      return;
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    // Dynamic sizes: at the upper ends of their ranges, with the
    // expressions over the ranges (docs/dynamic.md).
    std::string why;
    FailureOr<SizeSymbols> symbols =
        SizeSymbols::collect(func, why, &givenRanges);
    RangeCertificate range;
    CertifyFunctionResult result;
    if (failed(symbols)) {
      result.unsupportedOp = func;
      result.reason = why;
    } else if (!symbols->empty()) {
      range = certifyOverRange(func, sizes, /*pinAllocations=*/false,
                               *symbols, searchBudget);
      result = range.cert;
      if (!result.supported && result.reason.empty()) {
        result.unsupportedOp = func;
        result.reason = range.why;
      }
    } else {
      result = certifyFunction(func, sizes, /*attach=*/true, searchBudget);
    }
    if (!result.supported) {
      ++numUnsupported;
      reportUnsupported("memsched-certify", func, result.unsupportedOp, result.reason,
                        strict);
      if (strict)
        signalPassFailure();
      markAllAnalysesPreserved();
      return;
    }
    ++numCertified;
    if (!reportDir.empty() &&
        failed(writeBodyReports(func, sizes, {}, {}, /*reordered=*/false,
                                result.certificate, reportDir)))
      return signalPassFailure();
    if (result.certificate.isOptimal())
      ++numOptimal;
    if (emitRemarks) {
      InFlightDiagnostic diag = emitRemark(func.getLoc());
      diag << "memsched-certify: peak " << result.peak
           << " bytes, lower bound " << result.bound.value << " bytes";
      if (result.certificate.isOptimal())
        diag << ": the order is optimal";
      else
        diag << ": any reordering gains at most "
             << result.peak - result.bound.value << " bytes";
      if (DictionaryAttr at = result.certificate.getSizesAt())
        diag << " (sizes at " << at << ")";
      if (!range.boundExpr.empty())
        diag << "; over the ranges of the dynamic sizes: lower bound "
             << range.boundExpr << " bytes"
             << (range.optimalOverRange ? " (optimal at every size)" : "");
      if (range.boundLow)
        diag << "; at the lower ends of the ranges: lower bound "
             << *range.boundLow << " bytes";
      if (ArrayAttr spaces = result.certificate.getSpaces())
        for (auto space : spaces.getAsRange<SpaceAttr>())
          diag << "; memory space " << describeMemorySpace(space.getMemorySpace())
               << ": peak " << space.getPeak() << " bytes, lower bound "
               << space.getLowerBound() << " bytes";
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
