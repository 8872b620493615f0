//===- Certificate.h - build and read memsched certificates -----*- C++ -*-===//

#ifndef MEMSCHED_TRANSFORMS_CERTIFICATE_H
#define MEMSCHED_TRANSFORMS_CERTIFICATE_H

#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/Scheduler.h"
#include "Dialect/MemSched/MemSchedDialect.h"

namespace mlir {
namespace memsched {

/// The certificate for a function body whose peak as it stands is `peak`,
/// proved by `bound`, with the ops and allocations named by their positions in
/// the body as analysed by `analysis`.
CertificateAttr buildCertificate(MLIRContext *context,
                                 const BufferLifetimeAnalysis &analysis,
                                 uint64_t peak,
                                 const ::memsched::LowerBound &bound,
                                 SizeModel sizes);

/// The same for a body reordered after `analysis`: node `k` of the analysis
/// now stands at position `nodePosition[k]` among the nodes and buffer `b` at
/// position `bufferPosition[b]` among the allocations.
CertificateAttr buildCertificate(MLIRContext *context,
                                 const BufferLifetimeAnalysis &analysis,
                                 uint64_t peak,
                                 const ::memsched::LowerBound &bound,
                                 SizeModel sizes,
                                 ArrayRef<unsigned> nodePosition,
                                 ArrayRef<unsigned> bufferPosition);

/// Lower bound for the analysed body, stopping once it reaches `target`.
::memsched::LowerBound
computeBodyLowerBound(const BufferLifetimeAnalysis &analysis, uint64_t target,
                      const std::vector<::memsched::NodeId> *order = nullptr,
                      const std::vector<std::vector<::memsched::NodeId>>
                          *peerOrders = nullptr);

/// The bound the scheduler's search proved (schedule.lowerBound), as a bound
/// of kind "exhaustive" named by the first node of the segment whose search
/// proved it (or the node where the optimal order peaks). No cut: the
/// search, not one op's live buffers, is the proof.
::memsched::LowerBound
exhaustiveBound(const ::memsched::MemoryGraph &graph,
                const ::memsched::ScheduleResult &schedule);

/// Proves a bound of at least `target` for the analysed body the way
/// memsched-schedule does: the cut bound, then, when it stays below `target`,
/// the scheduler's exact search with `stateBudget` states per segment.
::memsched::LowerBound
reproveBodyLowerBound(const BufferLifetimeAnalysis &analysis, uint64_t target,
                      uint64_t stateBudget);

/// The certificate attached to `op`, if any.
CertificateAttr getCertificate(Operation *op);
void setCertificate(Operation *op, CertificateAttr certificate);

/// Reports that `func` cannot be analysed: a remark on the op at fault `at`,
/// or an error when `asError`.
void reportUnsupported(StringRef passName, Operation *func, Operation *at,
                       StringRef reason, bool asError);

/// The size model a certificate was computed with.
SizeModel getSizeModel(CertificateAttr certificate);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_CERTIFICATE_H
