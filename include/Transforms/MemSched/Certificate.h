//===- Certificate.h - build and read memsched certificates -----*- C++ -*-===//

#ifndef MEMSCHED_TRANSFORMS_CERTIFICATE_H
#define MEMSCHED_TRANSFORMS_CERTIFICATE_H

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/Scheduler.h"
#include "Dialect/MemSched/MemSchedDialect.h"

namespace mlir {
namespace memsched {

/// The certificate of a function body as it stands, whose peak is `peak`,
/// from the bounds of its blocks (`bounds[i]` for block `i` of `body`): the
/// largest bound, with the witness of the first block that proves it. Ops are
/// named by their positions among the nodes of that block and allocations by
/// their positions among the body's allocations, both as the IR stands now
/// (the analyses may predate a reordering of the same ops).
/// `spaces` (null when the body allocates in the default space only) goes
/// to the certificate's `spaces` field; `searchBudget` (the states per
/// stretch of the search that proved an `exhaustive` bound) to its
/// `search_budget`.
CertificateAttr buildCertificate(MLIRContext *context, const BodyLifetimes &body,
                                 uint64_t peak,
                                 ArrayRef<::memsched_core::LowerBound> bounds,
                                 SizeModel sizes, ArrayAttr spaces = {},
                                 uint64_t searchBudget = 0);

/// The `#memsched.space` entry of `space` for `func` as it stands: the peak
/// of that space alone and a bound proved as computeBlockBounds does (with
/// `searchBudget`). Fails, with the reason in `why`, when the body counted
/// in that space cannot be analysed.
FailureOr<SpaceAttr> computeSpaceEntry(Operation *func, SizeModel sizes,
                                       Attribute space, uint64_t searchBudget,
                                       std::string &why);

/// The certificate's `spaces` field for `func` as it stands, whose spaces
/// are `spaces` (collectMemorySpaces): null when that is the default space
/// alone; for one other space, its entry is the body's own `peak` and
/// `bound`; otherwise an entry per space (computeSpaceEntry).
FailureOr<ArrayAttr> computeSpaceEntries(Operation *func, SizeModel sizes,
                                         ArrayRef<Attribute> spaces,
                                         uint64_t peak, uint64_t bound,
                                         uint64_t searchBudget,
                                         std::string &why);

/// The position of each allocation of the body among the body's
/// allocations (block after block, in the order of the IR as it stands):
/// how certificates name buffers.
DenseMap<Operation *, unsigned> getAllocationPositions(const BodyLifetimes &body);

/// The block whose bound is the body's: the first with the largest bound.
unsigned getStrongestBlock(ArrayRef<::memsched_core::LowerBound> bounds);

/// Bounds for every block of `body`, each stopping once it reaches `target`
/// (or the block's peak as written, if lower); with a `searchBudget`, as
/// reproveBodyLowerBound.
SmallVector<::memsched_core::LowerBound>
computeBlockBounds(const BodyLifetimes &body, uint64_t target,
                   uint64_t searchBudget = 0);

/// Bytes allocated in every order of the block at its end (buffers it never
/// frees) or at its start (buffers allocated before it), whichever is more:
/// a lower bound on every order's peak, also where the graph does not see
/// them. `buffers` receives them (analysis buffer ids, live-in ones after
/// the block's own), `atStart` which of the two it is.
uint64_t getBytesAllocatedThroughout(
    const BufferLifetimeAnalysis &analysis,
    std::vector<::memsched_core::BufferId> *buffers = nullptr,
    bool *atStart = nullptr);

/// Lower bound for the analysed body, stopping once it reaches `target`.
::memsched_core::LowerBound
computeBodyLowerBound(const BufferLifetimeAnalysis &analysis, uint64_t target,
                      const std::vector<::memsched_core::NodeId> *order = nullptr,
                      const std::vector<std::vector<::memsched_core::NodeId>>
                          *peerOrders = nullptr);

/// The bound the scheduler's search proved (schedule.lowerBound), as a bound
/// of kind "exhaustive" named by the first node of the segment whose search
/// proved it (or the node where the optimal order peaks). No cut: the
/// search, not one op's live buffers, is the proof.
::memsched_core::LowerBound
exhaustiveBound(const ::memsched_core::MemoryGraph &graph,
                const ::memsched_core::ScheduleResult &schedule);

/// Proves a bound of at least `target` for the analysed body the way
/// memsched-schedule does: the cut bound, then, when it stays below `target`,
/// the scheduler's exact search with `stateBudget` states per segment.
::memsched_core::LowerBound
reproveBodyLowerBound(const BufferLifetimeAnalysis &analysis, uint64_t target,
                      uint64_t stateBudget);

/// Checks that what `certificate` names can exist in `body` as it stands:
/// `block` is one of its blocks (absent for a body of one block),
/// `bound_op` is `name#k` with at least k + 1 scheduled ops in that block
/// and one of them named `name` (when the k-th is another op, ops moved
/// since: reproveRecordedBound then proves without that evidence), and
/// `cut` lists positions of the body's allocations, increasing.
/// On failure `why` says which does not.
LogicalResult checkCertificateReferences(const BodyLifetimes &body,
                                         CertificateAttr certificate,
                                         std::string &why);

/// `value` as a lower bound of `body` (the certified body analysed at other
/// sizes: the lower ends of its ranges), proved as reproveRecordedBound
/// proves `lower_bound`, from the evidence `certificate` records. Returns
/// the value proved.
uint64_t reproveBoundAt(const BodyLifetimes &body, CertificateAttr certificate,
                        uint64_t value, uint64_t searchBudget = 0);

/// The lower bound `certificate` records, proved again on `body` as it
/// stands from nothing but what the certificate records. For a cut bound
/// (`trivial`, `forward`) the evidence first: the exact forward cut of
/// `bound_op` (one max-flow) and the bytes allocated throughout; when that
/// proves less, the bound procedure of computeBlockBounds stopping at the
/// recorded bound, with the recorded `search_budget` for an `exhaustive`
/// bound (`searchBudget` when it records none). Returns the value proved:
/// the certificate checks when it is at least its `lower_bound`.
/// checkCertificateReferences must have succeeded.
uint64_t reproveRecordedBound(const BodyLifetimes &body,
                              CertificateAttr certificate,
                              uint64_t searchBudget = 0);

/// `certificate` (of `body` as it stands) when reproveRecordedBound proves
/// its bound again; otherwise the certificate of the bounds proved on the
/// body as it stands (computeBlockBounds with `searchBudget`), and failing
/// that the forward cut of its op: a pass records only a bound
/// --memsched-verify can prove from what the certificate records.
CertificateAttr ensureReprovable(const BodyLifetimes &body,
                                 CertificateAttr certificate,
                                 uint64_t searchBudget = 0);

/// `certificate` with its recomputation fields (`remat_ops`,
/// `extra_compute_ppm`) set to these.
CertificateAttr withRematFields(CertificateAttr certificate, uint64_t rematOps,
                                uint64_t extraComputePpm);

/// `certificate` with the expressions over the ranges of the body's
/// dynamic sizes (`peak_expr`, `lower_bound_expr`) and the bound at the
/// lower ends of the ranges (`lower_bound_low`) set to these.
CertificateAttr withRangeFields(CertificateAttr certificate,
                                StringAttr peakExpr, StringAttr lowerBoundExpr,
                                std::optional<uint64_t> lowerBoundLow);

/// `certificate` (computed for `func`) with the recomputation fields of
/// `func`'s current certificate when it has none: a body certified again
/// after --memsched-rematerialize still holds its clones.
CertificateAttr carryRematFields(Operation *func, CertificateAttr certificate);

/// Attaches carryRematFields(func, certificate) to `func`; returns it.
CertificateAttr replaceCertificate(Operation *func, CertificateAttr certificate);

/// The certificate attached to `op`, if any.
CertificateAttr getCertificate(Operation *op);
void setCertificate(Operation *op, CertificateAttr certificate);

/// Reports that `func` cannot be analysed: a remark on the op at fault `at`,
/// or an error when `asError`.
void reportUnsupported(StringRef passName, Operation *func, Operation *at,
                       StringRef reason, bool asError);

/// The size model a certificate of `func` was computed with (with its
/// `sizes_at`, the dynamic sizes at the values it records).
SizeModel getSizeModel(CertificateAttr certificate, Operation *func);

/// The `sizes_at` entry of a certificate computed with `sizes`: the value
/// of each symbol of an argument at `sizes.point` (null when none).
DictionaryAttr getSizesAtAttr(MLIRContext *context, const SizeModel &sizes);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_CERTIFICATE_H
