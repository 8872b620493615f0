//===- ScheduleRange.h - one order for a range of dynamic sizes -*- C++ -*-===//
//
// A function whose allocations have dynamic sizes is scheduled for every
// size in their ranges at once (docs/dynamic.md): the sizes are polynomials
// in the symbols of SizeSymbols.h, the memory at each position of an order
// a sum of them, and the peak the max of those sums. Orders the scheduler
// finds at the ends of the ranges are candidates; one is taken only when
// its peak is proved never above the peak of the order as written for any
// value of the symbols in their ranges (memsched_core::proveMaxAtMost, not
// sampling), and the best of those at the upper ends. Otherwise the order
// as written stays.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_SCHEDULERANGE_H
#define MEMSCHED_TRANSFORMS_SCHEDULERANGE_H

#include "Analysis/MemSched/SizeSymbols.h"
#include "Transforms/MemSched/MemSched.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {

/// Work a comparison of two peaks over the ranges may spend.
constexpr uint64_t kRangeProofBudget = 4000000;

struct RangeScheduleResult {
  enum class Status {
    /// No allocation of the body has a dynamic size: schedule as usual.
    NotSymbolic,
    /// The body is outside what ranges support (several blocks, several
    /// memory spaces, nested allocations sized by the symbols), but every
    /// symbol has a constant upper bound: schedule as usual, at those
    /// bounds; `reason` says why.
    AtUpperBound,
    /// The body is left unchanged; `unsupportedOp` and `reason` say why.
    Unsupported,
    /// Scheduled over the ranges (`reordered` says whether it changed).
    Scheduled,
  };
  Status status = Status::NotSymbolic;
  Operation *unsupportedOp = nullptr;
  std::string reason;
  SizeSymbols symbols;
  /// The peak as written and after, as `max(...)` of polynomials in the
  /// symbols' names.
  std::string peakBefore, peakAfter;
  /// The points the candidates were scheduled at (lower ends; upper ends,
  /// or a large value for a symbol without one) and the peaks there.
  std::vector<uint64_t> low, high;
  uint64_t peakBeforeLow = 0, peakAfterLow = 0;
  uint64_t peakBeforeHigh = 0, peakAfterHigh = 0;
  /// With a declared typical value (SizeSymbols::getTypicalPoint): the
  /// point, the first the candidates are compared at, and the peaks there.
  std::optional<std::vector<uint64_t>> typical;
  uint64_t peakBeforeTypical = 0, peakAfterTypical = 0;
  bool reordered = false;
  /// The body as written holds some buffers beyond their uses (allocated
  /// before the first, freed after the last): `peakBefore` counts them from
  /// use to use, the numbers at the points as written.
  bool allocationsMoved = false;
  /// Stretches of a candidate not proved as a whole that were taken.
  unsigned stretchesTaken = 0;
  /// When an order lower at one of the points was not taken: why (the
  /// point where it is worse, or that the comparison ran out of work).
  std::string kept;
};

/// The memory of a body over the ranges of its dynamic sizes, as it
/// stands: `profile`, one polynomial per op of the order as written (its
/// max at a point is the peak there); `floors`, for each op the buffers it
/// touches and what it needs inside (their max at a point is a lower bound
/// on the peak of every order there); each without the polynomials another
/// dominates.
struct RangeBody {
  std::vector<::memsched_core::SizePoly> profile, floors;
  /// The peak as written (allocations where they stand) at each point.
  std::vector<uint64_t> writtenPeaks;
};

/// The RangeBody of `func` with the symbols `symbols`, its analyses run at
/// the points `at` and checked against one another. Fails, naming the op
/// and the reason, where the body is outside what ranges model.
FailureOr<RangeBody> getRangeBody(Operation *func, const SizeModel &sizes,
                                  bool pinAllocations,
                                  const SizeSymbols &symbols,
                                  ArrayRef<std::vector<uint64_t>> at,
                                  Operation *&where, std::string &why);

/// Reads what describeMaxOfPolys writes in full: `max(p, q, ...)` or one
/// polynomial, in the symbols' names.
FailureOr<std::vector<::memsched_core::SizePoly>>
parseMaxOfPolys(StringRef text, const std::vector<std::string> &names,
                std::string &why);

/// The points a body with these symbols is scheduled and checked at: the
/// lower ends of the ranges, and the upper ends (a symbol without one at
/// 1,024 times its lower end, at least 1,024).
void getRangeEnds(const SizeSymbols &symbols, std::vector<uint64_t> &low,
                  std::vector<uint64_t> &high);

/// A certificate of a body with dynamic sizes (docs/dynamic.md).
struct RangeCertificate {
  /// The numbers at the upper ends of the ranges (`sizes_at`), with
  /// `peak_expr` and `lower_bound_expr` when the body is modelled over the
  /// ranges; no certificate when a size that is not an argument has no
  /// upper bound (`why` says so).
  CertifyFunctionResult cert;
  std::string why;
  /// The lower bound over the ranges, for remarks, and whether the peak is
  /// proved equal to it at every size.
  std::string boundExpr;
  bool optimalOverRange = false;
  /// `lower_bound_low`, when recorded.
  std::optional<uint64_t> boundLow;
};

/// Computes and attaches the certificate of `func` as it stands, its
/// dynamic sizes `symbols` over their ranges.
RangeCertificate certifyOverRange(Operation *func, const SizeModel &sizes,
                                  bool pinAllocations,
                                  const SizeSymbols &symbols,
                                  uint64_t searchBudget = 0);

/// Schedules `func` over the ranges of its dynamic sizes (see above).
/// Fails only when a planned order cannot be applied.
FailureOr<RangeScheduleResult>
scheduleOverRange(Operation *func, const ScheduleFunctionOptions &options);

/// `max(p, q, ...)` (or `p` alone) of the polynomials, at most `limit`
/// of them written out.
std::string
describeMaxOfPolys(const std::vector<::memsched_core::SizePoly> &polys,
                   const std::vector<std::string> &names, size_t limit = 6);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_SCHEDULERANGE_H
