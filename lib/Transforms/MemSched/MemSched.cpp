//===- MemSched.cpp - public C++ API of memsched ----------------*- C++ -*-===//

#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Certificate.h"

#include "mlir/IR/OpDefinition.h"

using namespace mlir;
using namespace mlir::memsched;

/// The current op sequence of the analysed block, terminator excluded.
static SmallVector<Operation *> currentSequence(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : *block)
    if (!op.hasTrait<OpTrait::IsTerminator>())
      ops.push_back(&op);
  return ops;
}

FailureOr<ScheduleFunctionResult>
mlir::memsched::scheduleFunction(Operation *func,
                                 const ScheduleFunctionOptions &options) {
  ScheduleFunctionResult result;
  BufferLifetimeAnalysis analysis(func, options.sizes);
  if (!analysis.isSupported()) {
    result.unsupportedOp = analysis.getUnsupportedOp();
    result.reason = analysis.getUnsupportedReason().str();
    return result;
  }
  uint64_t before = analysis.getPeakAsWritten();
  result.peakBefore = result.peakAfter = before;
  result.sequenceBefore = currentSequence(analysis.getBlock());

  // A certificate proving this very body optimal: nothing to search.
  if (CertificateAttr cert = getCertificate(func);
      options.skipCertified && cert && cert.isOptimal() &&
      cert.getPeak() == before &&
      getSizeModel(cert).countAlignmentPadding ==
          options.sizes.countAlignmentPadding) {
    result.status = ScheduleFunctionResult::Status::SkippedCertified;
    result.certificate = cert;
    result.bound.value = cert.getLowerBound();
    result.sequenceAfter = result.sequenceBefore;
    return result;
  }
  result.status = ScheduleFunctionResult::Status::Scheduled;
  result.search = ::memsched::schedule(analysis.getGraph(), options.search);

  SmallVector<unsigned> order(result.search.order.begin(),
                              result.search.order.end());
  SmallVector<Operation *> sequence =
      planBlockOrder(analysis, order, options.placement);
  uint64_t after = getPeakOfSequence(analysis, sequence);

  // Never make a function worse: keep it as it is unless the peak goes down.
  if (after < before) {
    for (unsigned i = 0; i < order.size(); ++i)
      result.opsMoved += order[i] != i;
    applyBlockOrder(analysis, sequence);
    result.reordered = true;
    result.peakAfter = after;
  }
  result.sequenceAfter = currentSequence(analysis.getBlock());
  if (!options.certify)
    return result;

  // The certificate names ops and allocations by their positions in the
  // final body: analyse it again, which also checks the planned peak.
  std::optional<BufferLifetimeAnalysis> fresh;
  if (result.reordered) {
    fresh.emplace(func, options.sizes);
    if (!fresh->isSupported() || fresh->getPeakAsWritten() != after)
      return func->emitError()
             << "memsched-schedule: internal error: the reordered body "
                "does not analyse to its planned peak of "
             << after << " bytes";
  }
  const BufferLifetimeAnalysis &final = fresh ? *fresh : analysis;
  result.bound = computeBodyLowerBound(final, result.peakAfter);
  result.certificate = buildCertificate(func->getContext(), final,
                                        result.peakAfter, result.bound,
                                        options.sizes);
  setCertificate(func, result.certificate);
  return result;
}

CertifyFunctionResult mlir::memsched::certifyFunction(Operation *func,
                                                      SizeModel sizes,
                                                      bool attach) {
  CertifyFunctionResult result;
  BufferLifetimeAnalysis analysis(func, sizes);
  if (!analysis.isSupported()) {
    result.unsupportedOp = analysis.getUnsupportedOp();
    result.reason = analysis.getUnsupportedReason().str();
    return result;
  }
  result.supported = true;
  result.peak = analysis.getPeakAsWritten();
  result.bound = computeBodyLowerBound(analysis, result.peak);
  result.certificate = buildCertificate(func->getContext(), analysis,
                                        result.peak, result.bound, sizes);
  if (attach)
    setCertificate(func, result.certificate);
  return result;
}
