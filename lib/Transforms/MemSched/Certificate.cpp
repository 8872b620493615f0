//===- Certificate.cpp - build and read memsched certificates ---*- C++ -*-===//

#include "Transforms/MemSched/Certificate.h"

#include "Analysis/Graph/SchedSegment.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::memsched;

::memsched::LowerBound mlir::memsched::computeBodyLowerBound(
    const BufferLifetimeAnalysis &analysis, uint64_t target,
    const std::vector<::memsched::NodeId> *order,
    const std::vector<std::vector<::memsched::NodeId>> *peerOrders) {
  ::memsched::LowerBoundOptions options;
  options.target = target;
  options.order = order;
  options.peerOrders = peerOrders;
  ::memsched::LowerBound bound =
      ::memsched::computeLowerBound(analysis.getGraph(), options);
  // Buffers that are never freed are all allocated once the last of them is,
  // in any order; those no node touches are allocated after the last node,
  // where the graph does not see them.
  uint64_t escaping = 0;
  std::vector<::memsched::BufferId> never;
  for (auto [b, buf] : llvm::enumerate(analysis.getBuffers()))
    if (!buf.dealloc && buf.size) {
      (void)addBytes(escaping, buf.size); // the analysis checked the total
      never.push_back(b);
    }
  if (escaping > bound.value) {
    bound.value = escaping;
    bound.kind = "trivial";
    bound.method = "escaping";
    bound.node = analysis.getNodes().empty() ? 0 : analysis.getNodes().size() - 1;
    bound.cutBuffers = std::move(never);
    bound.minCutExecuted.clear();
    bound.minCutBuffers.clear();
    bound.window.clear();
  }
  return bound;
}

::memsched::LowerBound
mlir::memsched::exhaustiveBound(const ::memsched::MemoryGraph &graph,
                                const ::memsched::ScheduleResult &schedule) {
  ::memsched::LowerBound bound;
  bound.value = schedule.lowerBound;
  bound.kind = "exhaustive";
  bound.method = "exact-search";
  if (schedule.boundSegment >= 0) {
    bound.node = schedule.segments[schedule.boundSegment].begin;
  } else if (!schedule.order.empty()) {
    ::memsched::PeakInfo info;
    ::memsched::evaluatePeak(graph, schedule.order, &info);
    bound.node = schedule.order[info.peakPosition];
  }
  return bound;
}

::memsched::LowerBound mlir::memsched::reproveBodyLowerBound(
    const BufferLifetimeAnalysis &analysis, uint64_t target,
    uint64_t stateBudget) {
  const ::memsched::MemoryGraph &graph = analysis.getGraph();
  std::vector<std::vector<::memsched::NodeId>> peerOrders =
      ::memsched::sched::allPeerOrders(graph);
  ::memsched::LowerBound bound =
      computeBodyLowerBound(analysis, target, nullptr, &peerOrders);
  if (bound.value >= target)
    return bound;
  ::memsched::ScheduleOptions options;
  options.exactStateBudget = stateBudget;
  options.peerOrders = &peerOrders;
  options.lowerBound = bound.value;
  ::memsched::ScheduleResult schedule = ::memsched::schedule(graph, options);
  if (schedule.lowerBound > bound.value)
    return exhaustiveBound(graph, schedule);
  return bound;
}

CertificateAttr mlir::memsched::buildCertificate(
    MLIRContext *context, const BufferLifetimeAnalysis &analysis,
    uint64_t peak, const ::memsched::LowerBound &bound, SizeModel sizes,
    ArrayRef<unsigned> nodePosition, ArrayRef<unsigned> bufferPosition) {
  Builder b(context);
  StringAttr kind, op;
  SmallVector<uint64_t> cut;
  if (!analysis.getNodes().empty() && bound.value > 0) {
    kind = b.getStringAttr(bound.kind);
    unsigned node = nodePosition.empty() ? bound.node : nodePosition[bound.node];
    op = b.getStringAttr(
        analysis.getNodes()[bound.node].op->getName().getStringRef() + "#" +
        Twine(node));
    for (::memsched::BufferId buffer : bound.cutBuffers)
      cut.push_back(bufferPosition.empty() ? buffer : bufferPosition[buffer]);
    llvm::sort(cut);
  }
  StringAttr model =
      sizes.countAlignmentPadding ? b.getStringAttr("allocator") : StringAttr();
  // The bound is on the tight model, never above the peak of an order as
  // written.
  assert(bound.value <= peak && "lower bound above the peak of an order");
  return CertificateAttr::get(context, peak, bound.value, kind, op, cut, model,
                              std::nullopt, std::nullopt);
}

CertificateAttr mlir::memsched::buildCertificate(
    MLIRContext *context, const BufferLifetimeAnalysis &analysis,
    uint64_t peak, const ::memsched::LowerBound &bound, SizeModel sizes) {
  return buildCertificate(context, analysis, peak, bound, sizes, {}, {});
}

CertificateAttr mlir::memsched::getCertificate(Operation *op) {
  return op->getAttrOfType<CertificateAttr>(
      MemSchedDialect::getCertificateAttrName());
}

void mlir::memsched::setCertificate(Operation *op,
                                    CertificateAttr certificate) {
  op->setAttr(MemSchedDialect::getCertificateAttrName(), certificate);
}

SizeModel mlir::memsched::getSizeModel(CertificateAttr certificate) {
  SizeModel sizes;
  sizes.countAlignmentPadding = certificate.getSizeModel() &&
                                certificate.getSizeModel() == "allocator";
  return sizes;
}

void mlir::memsched::reportUnsupported(StringRef passName, Operation *func,
                                       Operation *at, StringRef reason,
                                       bool asError) {
  InFlightDiagnostic diag = asError ? at->emitError() : at->emitRemark();
  diag << passName << ": '" << SymbolTable::getSymbolName(func).getValue()
       << "' left unchanged: " << reason;
}
