//===- Certify.cpp - attach a peak-memory certificate -----------*- C++ -*-===//

#include "Transforms/MemSched/Certificate.h"
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
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    BufferLifetimeAnalysis analysis(func, sizes);
    if (!analysis.isSupported()) {
      ++numUnsupported;
      reportUnsupported("memsched-certify", func, analysis, strict);
      if (strict)
        signalPassFailure();
      markAllAnalysesPreserved();
      return;
    }
    uint64_t peak = analysis.getPeakAsWritten();
    ::memsched::LowerBound bound = computeBodyLowerBound(analysis, peak);
    CertificateAttr cert =
        buildCertificate(&getContext(), analysis, peak, bound, sizes);
    setCertificate(func, cert);
    ++numCertified;
    if (cert.isOptimal())
      ++numOptimal;
    if (emitRemarks) {
      InFlightDiagnostic diag = func.emitRemark();
      diag << "memsched-certify: peak " << peak << " bytes, lower bound "
           << bound.value << " bytes";
      if (cert.isOptimal())
        diag << ": the order is optimal";
      else
        diag << ": any reordering gains at most " << peak - bound.value
             << " bytes";
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
