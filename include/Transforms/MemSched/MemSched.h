//===- MemSched.h - public C++ API of memsched ------------------*- C++ -*-===//
//
// Run memsched from a custom compiler without going through passes:
//   - on a function: scheduleFunction / certifyFunction (this header);
//   - on the analysis alone: Analysis/MemSched/BufferLifetimeAnalysis.h;
//   - on a plain graph, without MLIR: Analysis/Graph/MemoryGraph.h,
//     Scheduler.h (schedule) and LowerBound.h (computeLowerBound).
// Passes: Transforms/MemSched/Passes.h (registerMemSchedPasses,
// buildMemSchedPipeline).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_MEMSCHED_H
#define MEMSCHED_TRANSFORMS_MEMSCHED_H

#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/Scheduler.h"
#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/SizeSymbols.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Reorder.h"
#include "Transforms/MemSched/Report.h"

namespace mlir {
namespace memsched {

struct ScheduleFunctionOptions {
  SizeModel sizes;
  ::memsched_core::ScheduleOptions search;
  /// Sink each allocation to its first user and hoist each deallocation after
  /// its last user. When false, allocations and deallocations stay next to
  /// the ops around them and only the other ops move.
  bool moveAllocations = true;
  /// Attach a certificate (computed on the final body).
  bool certify = true;
  /// Leave the body alone when its certificate proves it optimal and still
  /// matches its peak.
  bool skipCertified = true;
  /// When a block's order is not proved optimal, run the node cuts again
  /// around it (::memsched_core::improveOrderByCuts), which may find a lower
  /// order. Off where many trial schedules are compared (the recomputation
  /// pass's attempts).
  bool cutsAroundOrder = true;
  /// For a body that allocates in several memory spaces: the space whose
  /// peak the order minimises (a null attribute: the default space). Unset,
  /// or a space the body does not allocate in: the space with the largest
  /// peak as written. The peak of no other space goes up.
  std::optional<Attribute> memorySpace;
  /// Orders of the ops of a body with one block to try among the
  /// candidates (each a sequence of the block's ops; ops that are not
  /// scheduled nodes are skipped; an invalid order is ignored).
  std::vector<std::vector<Operation *>> orderHints;
  /// Ranges of dynamic sizes given outside the IR (docs/dynamic.md).
  const DeclaredRanges *ranges = nullptr;
};

/// One memory space of a body that allocates in several.
struct SpacePeaks {
  Attribute space;
  uint64_t peakBefore = 0, peakAfter = 0, lowerBound = 0;
};

struct ScheduleFunctionResult {
  enum class Status {
    /// The body cannot be analysed; `unsupportedOp`/`reason` say why. The
    /// function is unchanged.
    Unsupported,
    /// Its certificate already proves it optimal; unchanged.
    SkippedCertified,
    /// Scheduled (the body may or may not have changed, see `reordered`).
    Scheduled,
  };
  Status status = Status::Unsupported;
  Operation *unsupportedOp = nullptr;
  std::string reason;
  uint64_t peakBefore = 0, peakAfter = 0;
  bool reordered = false;
  /// Ops moved, in the body and in the loop and branch bodies nested in it.
  unsigned opsMoved = 0;
  /// Loop and branch bodies reordered (each on its own, before the body).
  unsigned nestedBodiesReordered = 0;
  /// Blocks of the body, each scheduled on its own.
  unsigned numBlocks = 1;
  /// What the search did (segments solved exactly or heuristically; with
  /// several blocks only the segment counts, summed over the blocks).
  ::memsched_core::ScheduleResult search;
  /// The bound and the attached certificate (when certifying).
  ::memsched_core::LowerBound bound;
  CertificateAttr certificate;
  /// Per block of the body: its op sequence before scheduling (node ops and
  /// allocations/deallocations included, terminator excluded) and its peak
  /// then, for reports.
  SmallVector<SmallVector<Operation *>, 1> sequencesBefore;
  SmallVector<uint64_t, 1> blockPeaksBefore;
  /// The memory each node of the body needs while it runs (its nested
  /// bodies' peak, scratch), as written, for nodes whose loop or branch
  /// bodies memsched reordered: reports draw the timeline before with it.
  DenseMap<Operation *, uint64_t> transientsBefore;
  /// With several memory spaces: each space's peaks and bound (the bound
  /// when certifying), and the space the order minimises.
  SmallVector<SpacePeaks> spaces;
  std::optional<Attribute> minimisedSpace;
};

/// Reorders the body of the function-like `func` for minimum peak memory and
/// (optionally) attaches a certificate. Never raises the peak: when no order
/// is better, the body is left as it is. Fails only on an internal
/// inconsistency (reported as an error on `func`).
FailureOr<ScheduleFunctionResult>
scheduleFunction(Operation *func, const ScheduleFunctionOptions &options = {});

struct CertifyFunctionResult {
  bool supported = false;
  Operation *unsupportedOp = nullptr;
  std::string reason;
  uint64_t peak = 0;
  ::memsched_core::LowerBound bound;
  CertificateAttr certificate;
};

/// The memory timeline of the analysed body laid out as `sequence` (node
/// ops, allocations and deallocations of `analysis`, in any order), as
/// written: ops are named `name#k` by their position k among the nodes.
/// `offsets`: arena offsets of allocations, for a function planned into an
/// arena; `arenaPhases`: which arena, for arenas by phase.
/// Buffers are named `buffer#i` by their index in the analysis, or by
/// `names` (allocation -> position among the body's allocations) when
/// given; buffers allocated before the block count from its start.
/// `transients`, when given, replaces the memory a node op needs while it
/// runs (e.g. a loop's body as it was before memsched reordered it).
Timeline buildTimeline(const BufferLifetimeAnalysis &analysis,
                       ArrayRef<Operation *> sequence, uint64_t peak,
                       const DenseMap<Operation *, uint64_t> *offsets = nullptr,
                       const DenseMap<Operation *, unsigned> *names = nullptr,
                       const DenseMap<Operation *, uint64_t> *transients = nullptr,
                       const DenseMap<Operation *, unsigned> *arenaPhases = nullptr);

/// The ops of `block`, in order, but its terminator.
SmallVector<Operation *> currentSequence(Block *block);

/// The report of a scheduled (or certified) function: timelines of
/// `before` and `after`, bound and cut from `certificate`.
FunctionReport buildFunctionReport(Operation *func,
                                   const BufferLifetimeAnalysis &analysis,
                                   ArrayRef<Operation *> before,
                                   uint64_t peakBefore,
                                   ArrayRef<Operation *> after,
                                   uint64_t peakAfter, bool reordered,
                                   CertificateAttr certificate,
                                   const DenseMap<Operation *, uint64_t> *offsets = nullptr,
                                   const DenseMap<Operation *, unsigned> *names = nullptr,
                                   const DenseMap<Operation *, uint64_t> *transientsBefore = nullptr,
                                   const DenseMap<Operation *, unsigned> *arenaPhases = nullptr);

/// Writes the reports of `func` as it stands (see writeFunctionReport): one
/// for a body with one block, one per block (suffix `.bb<i>`) otherwise.
/// `before` and `peaksBefore` hold each block's sequence and peak before
/// scheduling (the sequences as they stand when empty); the certificate's
/// bound and cut go to the report of the block that proves them;
/// `transientsBefore` (ScheduleFunctionResult) draws the nodes whose bodies
/// were reordered as they were.
LogicalResult
writeBodyReports(Operation *func, SizeModel sizes,
                 ArrayRef<SmallVector<Operation *>> before,
                 ArrayRef<uint64_t> peaksBefore, bool reordered,
                 CertificateAttr certificate, StringRef dir,
                 const DenseMap<Operation *, uint64_t> *transientsBefore = nullptr);

/// The file name (without extension) of a function's report: the symbol
/// name with every character other than letters, digits, `_`, `-` and `.`
/// (and a leading `.`) replaced by `_`, cut at 100 characters, and then
/// followed by `-<hash of the symbol>` when anything was replaced or cut.
std::string getReportFileStem(StringRef symbol);

/// Writes `<dir>/<stem>.json` and `<dir>/<stem>.svg` (see
/// getReportFileStem); errors go to `func`'s diagnostics.
LogicalResult writeFunctionReport(Operation *func, const FunctionReport &report,
                                  StringRef dir, StringRef suffix = "");

/// Writes `<dir>/<stem><suffix>.graph.json` (see getReportFileStem): the
/// graph of `analysis` in the format of Analysis/Graph/GraphIO.h, with each
/// node's compute cost and the recomputable buffers; errors go to `func`'s
/// diagnostics.
LogicalResult writeFunctionGraph(Operation *func,
                                 const BufferLifetimeAnalysis &analysis,
                                 StringRef dir, StringRef suffix = "");

/// The order of the nodes of one analysed block the scheduler picks (the
/// bound, the peers' orders, the search and the cuts around the order, as
/// scheduleFunction runs them): a valid order, the program order when
/// nothing lowers the block's peak.
std::vector<::memsched_core::NodeId>
planNodeOrder(const BufferLifetimeAnalysis &analysis,
              const ScheduleFunctionOptions &options);

/// Computes the certificate of `func` as it stands and attaches it when
/// `attach` is set. With `searchBudget`, when the cuts prove less than the
/// peak, the scheduler's exact search (that many states per segment) may
/// prove more (bound kind "exhaustive").
CertifyFunctionResult certifyFunction(Operation *func, SizeModel sizes = {},
                                      bool attach = true,
                                      uint64_t searchBudget = 0);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_MEMSCHED_H
