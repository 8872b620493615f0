//===- ArenaPlanner.h - offsets of buffers in one static arena --*- C++ -*-===//
//
// Dynamic storage allocation with known lifetimes: every buffer gets an
// offset in one arena so that no two buffers live at the same time share a
// byte, and the arena (the highest end offset) is as small as possible.
//
// The ideal (the largest total of bytes live at one time) is a lower bound
// on any arena. The planner runs a portfolio of heuristics (greedy by size
// first fit, as TensorFlow Lite Micro ships; best fit by size; first fit in
// allocation order, as ONNX Runtime and IREE; first fit by conflicts), then,
// when the best of them is above the bound, an exact search over canonical
// placements (each buffer at the top of the placed buffers it lives with, in
// offset order) with dominance, per-section stack bounds and independent
// parts, deciding at the lower bound first (exhausting it raises the bound),
// or at a given capacity to fit in, under a portfolio of preorders, within a
// work budget. Work is counted in search nodes (and listing and
// sorting steps), never time: results are deterministic. Includes no MLIR
// header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ARENAPLANNER_H
#define MEMSCHED_ANALYSIS_ARENAPLANNER_H

#include <cstdint>
#include <string>
#include <vector>

namespace memsched_core {

/// A buffer to place: live from position `first` to position `last`
/// (inclusive), its offset a multiple of `alignment` (a power of two).
struct ArenaBuffer {
  uint64_t size = 0;
  uint64_t first = 0, last = 0;
  uint64_t alignment = 1;
};

/// Whether two buffers are live at a common position.
inline bool liveTogether(const ArenaBuffer &a, const ArenaBuffer &b) {
  return a.first <= b.last && b.first <= a.last;
}

/// The heuristics of the portfolio, in the order they are tried.
enum class ArenaHeuristic {
  GreedyBySize,    ///< largest first, lowest offset that fits (TFLite Micro)
  BestFitBySize,   ///< largest first, the tightest gap that fits
  FirstFitByStart, ///< allocation order, lowest offset that fits
  FirstFitByConflicts, ///< most bytes live alongside first, lowest fit
};
const char *getHeuristicName(ArenaHeuristic h);

struct ArenaOptions {
  /// Work (search nodes, plus one unit per 64 buffers listed and per 256
  /// sorting steps) the exact search may spend over the whole instance.
  uint64_t workBudget = 2000000;
  /// Skip the exact search.
  bool heuristicOnly = false;
  /// When nonzero, a memory of this many bytes to fit in: the exact search
  /// decides "does it fit" first and stops as soon as the arena fits (then
  /// minimizes above it when it is proved not to).
  uint64_t capacity = 0;
};

struct ArenaPlan {
  std::vector<uint64_t> offsets;
  /// max over buffers of offset + size (0 when empty).
  uint64_t arenaSize = 0;
  /// The largest total of bytes live at one position.
  uint64_t ideal = 0;
  /// A lower bound on the arena of every valid placement (>= ideal): the
  /// ideal and the largest buffer rounded up to the gcd of the sizes and
  /// alignments, or what the exact search proved.
  uint64_t lowerBound = 0;
  /// arenaSize == lowerBound (proved optimal).
  bool optimal = false;
  /// Which method produced the placement: a heuristic's name or "exact".
  std::string method;
  /// Work spent by the exact search.
  uint64_t work = 0;
  /// False when the budget stopped the exact search before a proof (or,
  /// with a capacity, before the arena fit in it).
  bool complete = true;
  /// Arena of each heuristic, by ArenaHeuristic value.
  std::vector<uint64_t> heuristicArenas;
};

/// The largest total of bytes live at one position.
uint64_t getIdealArena(const std::vector<ArenaBuffer> &buffers);

/// Places the buffers with one heuristic; returns the offsets.
std::vector<uint64_t> placeHeuristic(const std::vector<ArenaBuffer> &buffers,
                                     ArenaHeuristic heuristic);

/// Checks a placement: every offset aligned, no two buffers live together
/// overlapping in [offset, offset + size), every end within `arenaSize`.
/// On failure `why` (if given) names the buffers.
bool isValidPlacement(const std::vector<ArenaBuffer> &buffers,
                      const std::vector<uint64_t> &offsets, uint64_t arenaSize,
                      std::string *why = nullptr);

/// The arena of a placement: max of offset + size.
uint64_t getArenaSize(const std::vector<ArenaBuffer> &buffers,
                      const std::vector<uint64_t> &offsets);

/// The best placement found: never above any heuristic's, proved optimal
/// when `optimal`. Sizes and offsets must fit in 63 bits.
ArenaPlan planArena(const std::vector<ArenaBuffer> &buffers,
                    const ArenaOptions &options = {});

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_ARENAPLANNER_H
