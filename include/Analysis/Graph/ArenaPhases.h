//===- ArenaPhases.h - arenas by phase, never above the peak ----*- C++ -*-===//
//
// An arena allocated before its first buffer and freed after its last takes
// its whole size for that span, while the buffers it holds may be few at
// some of its positions: a buffer outside it allocated then (a returned
// result, a gradient) stacks on the full arena where, unplanned, it would
// stack on those few. Arenas by phase avoid that: the positions are cut
// into consecutive phases, each phase's buffers (allocated and freed
// within it) in an arena of their own, the buffers that cross a cut left
// outside. Arenas of different phases never live together.
//
// choosePhases picks the cuts among the given candidates, and for each
// phase whether it has an arena (without one, its buffers stay where they
// are): the memory of a phase [a, b) (its arena where it lives, plus every
// buffer outside it, at each position) depends on a, b and that choice
// alone, so the least peak over every set of cuts is a bottleneck path over
// the candidates (exact, O(K^2) phases for K candidates, each planned with
// the heuristics); among the sets of that peak, the one leaving the fewest
// bytes outside an arena. One phase without an arena is no arena at all
// (its memory is the peak): the result is never above the peak.
//
// Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ARENAPHASES_H
#define MEMSCHED_ANALYSIS_ARENAPHASES_H

#include "Analysis/Graph/ArenaPlanner.h"

#include <cstdint>
#include <vector>

namespace memsched_core {

/// A buffer that stays outside every arena: live over [first, last].
struct OutsideSpan {
  uint64_t first = 0, last = 0, size = 0;
};

struct ArenaPhases {
  /// Per phase, the buffers (indices into the buffers given) in its arena;
  /// phases in order, none empty.
  std::vector<std::vector<uint32_t>> phases;
  /// The buffers left outside (crossing a cut, or in a phase without an
  /// arena).
  std::vector<uint32_t> outside;
  /// The most bytes live at one position (arenas with the heuristics'
  /// sizes, plus everything outside): an estimate the exact placement of
  /// each phase only lowers.
  uint64_t memory = 0;
};

/// The memory at its worst position of buffers placed in arenas by phase:
/// `phases` as above, each arena of `arenaSizes[i]` bytes live from its
/// first buffer to its last, every other buffer and `fixed` outside.
uint64_t phaseMemory(const std::vector<ArenaBuffer> &buffers,
                     const std::vector<OutsideSpan> &fixed,
                     const std::vector<std::vector<uint32_t>> &phases,
                     const std::vector<uint64_t> &arenaSizes);

/// Where to cut, in this order while there is room (each pair of cuts is
/// a phase sized with the heuristics): around the runs of positions whose
/// live bytes come within `gap` (one arena's size over the most its
/// buffers have live at once) of the peak, the hottest first (there an
/// arena must pack without a gap); where a buffer of `fixed` that lives to
/// the end (a returned result) starts; where any other starts or ends;
/// where a buffer starts; the largest first within each. At most 48, and
/// fewer on large bodies: K^2 / 2 phases of up to N buffers each within
/// 2,000,000 buffers sized (a count of work, not time).
std::vector<uint64_t>
candidatePhaseCuts(const std::vector<ArenaBuffer> &buffers,
                   const std::vector<OutsideSpan> &fixed, uint64_t gap);

/// Arenas by phase for `buffers` (positions inclusive), with `fixed`
/// outside them, cut only at `cuts` (positions: a cut at p starts a phase
/// at p). Buffers of a phase are placed with the heuristics to size it.
ArenaPhases choosePhases(const std::vector<ArenaBuffer> &buffers,
                         const std::vector<OutsideSpan> &fixed,
                         std::vector<uint64_t> cuts);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_ARENAPHASES_H
