//===- Rematerialize.h - recompute buffers to meet a budget -----*- C++ -*-===//
//
// When no order of a function's ops fits a byte budget, free long-lived
// buffers early and compute them again before their late readers
// (docs/remat.md). The choice works on the MemoryGraph
// (Analysis/Graph/Remat.h); this is the IR side: which buffers can be
// recomputed (Analysis/MemSched/RematSources.h), the cost of each op
// (Analysis/MemSched/ComputeCost.h), the rewrite and its safety check.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_REMATERIALIZE_H
#define MEMSCHED_TRANSFORMS_REMATERIALIZE_H

#include "Transforms/MemSched/MemSched.h"

namespace mlir {
namespace memsched {

struct RematerializeFunctionOptions {
  /// The budget in bytes.
  uint64_t budget = 0;
  /// Extra compute allowed, as a fraction of the function's compute before
  /// (ComputeCost), of each block's in a body with several blocks;
  /// negative: no limit.
  double maxExtraCompute = 0.1;
  /// How the function is scheduled before and after (size model, search).
  ScheduleFunctionOptions schedule;
  /// Exact-search states per segment when a candidate is priced.
  uint64_t candidateStateBudget = 20000;
};

struct RematerializeFunctionResult {
  enum class Status {
    /// The body cannot be analysed; unchanged.
    Unsupported,
    /// Scheduled; its peak is within the budget: nothing recomputed.
    WithinBudget,
    /// Scheduled; above the budget and no recomputation lowers its peak.
    NoGain,
    /// Recomputations applied: the peak went down (maybe not to the
    /// budget: see metBudget).
    Rematerialized,
  };
  Status status = Status::Unsupported;
  Operation *unsupportedOp = nullptr;
  std::string reason;
  /// Peak after scheduling alone, and at the end.
  uint64_t peakBefore = 0, peakAfter = 0;
  bool metBudget = false;
  /// Ops cloned, their estimated work, and the function's work before.
  unsigned rematOps = 0;
  uint64_t extraCompute = 0, totalCompute = 0;
  /// Recomputations rejected because a producer's input is overwritten
  /// before the late readers.
  unsigned rejectedUnsafe = 0;
  /// No recomputation of the body's ops can bring its peak below `floor`
  /// (::memsched_core::rematFloor, or the buffers never freed); `floorReason`
  /// says why, in words.
  uint64_t floor = 0;
  std::string floorReason;
  /// When the budget is not met: no plan of recomputations of the body's
  /// ops within the extra-compute limit (chains of any depth, by the rules
  /// of findRematSources) peaks below this (::memsched_core::rematBound, the
  /// largest over the blocks above the budget; 0 when not computed).
  uint64_t limitBound = 0;
  CertificateAttr certificate;
};

/// Schedules `func` and, when its peak stays above `options.budget`,
/// recomputes buffers to bring it down. Never leaves the peak above what
/// scheduling alone reaches. Fails only on an internal inconsistency.
FailureOr<RematerializeFunctionResult>
rematerializeFunction(Operation *func, const RematerializeFunctionOptions &options);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_REMATERIALIZE_H
