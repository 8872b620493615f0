//===- ArenaRange.h - one arena placement for a range of sizes --*- C++ -*-===//
//
// Buffers whose sizes are polynomials in symbols with ranges (SymbolicSize.h)
// placed in one arena at offsets that are polynomials too, so that no two
// buffers live at the same time share a byte for ANY value of the symbols in
// their ranges, and the arena's size is the max of polynomials (the highest
// end of a buffer): one plan, evaluated for the actual sizes at run time.
//
// The placement is first fit over polynomials: buffers in a given order
// (the order of their offsets in a plan at one point, or by size), each at
// the lowest candidate offset (0, or the end of a buffer already placed
// that lives with it) that is proved either above or below each such
// buffer over the whole ranges; the sum of their ends, coefficient by
// coefficient, always is. Static buffers thus share with dynamic ones
// wherever the ranges allow: `max(112 + a, a + b, 208)` where stacking the
// dynamic buffers above the static ones gives `208 + a + b`.
//
// Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ARENARANGE_H
#define MEMSCHED_ANALYSIS_ARENARANGE_H

#include "Analysis/Graph/SymbolicSize.h"

#include <cstdint>
#include <vector>

namespace memsched_core {

/// A buffer of `size` bytes live over the positions [first, last]
/// (inclusive); its offset must be a multiple of `alignment` (a power of
/// two) at every point.
struct RangeArenaBuffer {
  SizePoly size;
  uint64_t first = 0, last = 0;
  uint64_t alignment = 1;
};

struct RangeArenaPlan {
  /// One per buffer: where its slot starts. Unless roundUp[b], every
  /// coefficient is a multiple of the buffer's alignment (so is the offset
  /// at every point) and the slot is the buffer's size; with roundUp[b], the
  /// buffer starts at the offset rounded up to its alignment at run time
  /// and its slot is its size + alignment - 1 (a buffer of 4*n bytes
  /// aligned to 16 costs 15 bytes more, not 12*n).
  std::vector<SizePoly> offsets;
  std::vector<bool> roundUp;
  /// The arena's bytes: the max of these (offset + size of buffers, none
  /// dominated by another); empty for no buffer.
  std::vector<SizePoly> size;
  /// Work spent proving (proveMaxAtMost's units).
  uint64_t work = 0;
};

/// `p` with every coefficient rounded up to a multiple of `alignment`: a
/// multiple of it at every point, and the least such polynomial of the same
/// monomials.
SizePoly alignCoefficients(const SizePoly &p, uint64_t alignment);

/// Whether every coefficient of `p` is a multiple of `alignment`.
bool hasAlignedCoefficients(const SizePoly &p, uint64_t alignment);

/// The bytes a buffer of `size` takes at `offset`: its size, or with
/// `roundUp` (the offset rounded up to `alignment` at run time) its size +
/// alignment - 1.
SizePoly getSlot(const SizePoly &size, uint64_t alignment, bool roundUp);

/// Whether a >= b at every point of `ranges`: coefficient by coefficient,
/// else proved by proveMaxAtMost within `budget` (its work added to `work`).
bool provedAtLeast(const SizePoly &a, const SizePoly &b,
                   const std::vector<SymbolRange> &ranges, uint64_t budget,
                   uint64_t &work);

/// First fit over polynomials, in `order` (a permutation of the buffers'
/// indices). Candidates of a buffer are tried by their value at `point` (then
/// at `low`); each proof may spend `proofBudget`. Always succeeds: a buffer
/// no candidate fits goes above every buffer it lives with.
RangeArenaPlan placeOverRange(const std::vector<RangeArenaBuffer> &buffers,
                              const std::vector<SymbolRange> &ranges,
                              const std::vector<uint32_t> &order,
                              const std::vector<uint64_t> &point,
                              const std::vector<uint64_t> &low,
                              uint64_t proofBudget);

/// The better of first fit in the order of `hintOffsets` (offsets of a plan
/// at `point`, ties by index) and in decreasing size at `point`: the smaller
/// arena at `point`, then at `low`.
RangeArenaPlan planOverRange(const std::vector<RangeArenaBuffer> &buffers,
                             const std::vector<SymbolRange> &ranges,
                             const std::vector<uint64_t> &hintOffsets,
                             const std::vector<uint64_t> &point,
                             const std::vector<uint64_t> &low,
                             uint64_t proofBudget);

/// Orders first fit can place buffers in.
enum class RangeOrder {
  /// By the offsets of a plan at `point` (ties by index).
  Hint,
  /// By decreasing size at `point`, then at `low`.
  SizeAtPoint,
  /// By decreasing size at `low`, then at `point`.
  SizeAtLow,
  /// By first position (allocation order).
  Start,
  /// By decreasing lifetime (last - first), then size at `point`.
  Lifetime,
};

/// The buffers' indices in the order `kind`.
std::vector<uint32_t>
getRangeOrder(const std::vector<RangeArenaBuffer> &buffers, RangeOrder kind,
              const std::vector<uint64_t> &hintOffsets,
              const std::vector<uint64_t> &point,
              const std::vector<uint64_t> &low);

/// Whether the placement keeps every pair of buffers live at a common
/// position apart at every point of `ranges`, each offset aligned and the
/// buffers within `size`: an independent check of a plan (pairs, proved
/// with proveMaxAtMost). False when a proof ran out of `proofBudget`.
bool checkPlanOverRange(const std::vector<RangeArenaBuffer> &buffers,
                        const std::vector<SymbolRange> &ranges,
                        const RangeArenaPlan &plan, uint64_t proofBudget);

/// What stacking gives: the buffers of constant size placed (first fit by
/// decreasing size) in a static region, and the others above it one on top
/// of another: the static region's size plus every dynamic size (the
/// placement of compilers that plan only static sizes).
SizePoly getStackedArena(const std::vector<RangeArenaBuffer> &buffers);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_ARENARANGE_H
