//===- SegmentChoice.h - which segments to run in fragments -----*- C++ -*-===//
//
// The choice behind `--memsched-split`'s row bands: a block's ops stand at
// positions 0..N-1 and use memory[p] bytes while the op at p runs; an
// option rewrites the positions [first, last] (a segment run by some
// number of bands), after which they use at most `peak` bytes, at `cost`
// extra compute. Options whose spans do not overlap combine: the peak of a
// choice is the largest of `floor` (the memory of what no option can
// touch), the chosen options' peaks and memory[p] at every position no
// chosen option covers; its cost is the sum of their costs.
//
// chooseSegments finds a choice of the least peak whose cost is within the
// budget, and among those one of the least cost: exactly, in O((N + K)
// log(N + K)) for K options. The least peak is the least threshold T for
// which the positions above T can be covered by disjoint options of peak at
// most T within the budget (feasibility only grows with T: a binary search
// over the values), and the cheapest cover of those positions is a dynamic
// program along the positions (the cheapest cover of the positions before p
// extends by skipping p, when p is at most T, or by an option ending at p
// from the cheapest cover before its first position).
//
// Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_SEGMENTCHOICE_H
#define MEMSCHED_ANALYSIS_SEGMENTCHOICE_H

#include <cstdint>
#include <vector>

namespace memsched_core {

struct SegmentOption {
  /// The positions it rewrites: [first, last].
  uint32_t first = 0, last = 0;
  /// The most bytes live while any of them runs once rewritten, and the
  /// position where that is reached.
  uint64_t peak = 0;
  uint32_t at = 0;
  /// Extra compute.
  uint64_t cost = 0;
};

struct SegmentChoiceResult {
  /// The chosen options (indices into the options given), by position.
  std::vector<uint32_t> chosen;
  uint64_t peak = 0;
  uint64_t cost = 0;
  /// Where the peak is reached: a position (memory[p] at an uncovered p,
  /// or the `at` of the chosen option whose peak it is), or none when the
  /// peak is `floor` alone.
  bool atFloor = false;
  uint32_t bottleneck = 0;
  /// Whether the bottleneck is covered by a chosen option.
  bool covered = false;
};

/// A choice of options of the least peak within `budget`, then of the
/// least cost. Options with first > last or last >= memory.size() are
/// ignored. Choosing none is always a candidate.
SegmentChoiceResult chooseSegments(const std::vector<uint64_t> &memory,
                                   uint64_t floor,
                                   const std::vector<SegmentOption> &options,
                                   uint64_t budget);

/// A span of positions [first, last] holding `weight`.
struct WeightedSpan {
  uint32_t first = 0, last = 0;
  uint64_t weight = 0;
};

/// Spans that pairwise do not meet (one ends before the other starts),
/// of the largest total weight (weighted interval scheduling: exact, in
/// O(K log K)). Returns their indices in increasing order; spans with
/// first > last are never chosen, ties go to the set found first along
/// the positions.
std::vector<uint32_t>
chooseDisjointSpans(const std::vector<WeightedSpan> &spans);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_SEGMENTCHOICE_H
