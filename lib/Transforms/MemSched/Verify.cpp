//===- Verify.cpp - check certificates against the IR -----------*- C++ -*-===//

#include "Transforms/MemSched/CallOrder.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_VERIFY
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct VerifyPass : public mlir::memsched::impl::VerifyBase<VerifyPass> {
  using VerifyBase::VerifyBase;

  void runOnOperation() override {
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      runOnFunction(func);
    markAllAnalysesPreserved();
  }

  void runOnFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    CertificateAttr cert = getCertificate(func);
    if (!cert) {
      if (require) {
        func.emitError() << "memsched-verify: '" << func.getSymName()
                         << "' has no memsched.certificate";
        signalPassFailure();
      }
      return;
    }
    BufferLifetimeAnalysis analysis(func, getSizeModel(cert));
    if (!analysis.isSupported()) {
      InFlightDiagnostic diag = func.emitError();
      diag << "memsched-verify: cannot check the certificate of '"
           << func.getSymName()
           << "': " << analysis.getUnsupportedReason();
      diag.attachNote(analysis.getUnsupportedOp()->getLoc())
          << "the op at fault";
      signalPassFailure();
      return;
    }
    uint64_t peak = analysis.getPeakAsWritten();
    if (peak != cert.getPeak()) {
      func.emitError() << "memsched-verify: stale certificate on '"
                       << func.getSymName() << "': it records a peak of "
                       << cert.getPeak()
                       << " bytes but the body as it stands peaks at " << peak
                       << " bytes (the IR changed after certification; "
                          "re-run memsched-certify or memsched-schedule)";
      signalPassFailure();
      return;
    }
    ::memsched::LowerBound bound =
        computeBodyLowerBound(analysis, cert.getLowerBound());
    if (bound.value < cert.getLowerBound()) {
      func.emitError() << "memsched-verify: inconsistent certificate on '"
                       << func.getSymName() << "': it records a lower bound of "
                       << cert.getLowerBound()
                       << " bytes but only " << bound.value
                       << " bytes can be proved for this body";
      signalPassFailure();
      return;
    }
    ++numVerified;
  }
};
} // namespace
