//===- Footprint.h - which elements of a buffer an access touches -*- C++ -*-===//
//
// A footprint is a strided box in the linear element space of a base (an
// allocation or a function argument), or "whole": anything the root may
// hold. Boxes come from static view chains that keep the base pointer and
// the element type (subview, cast, expand/collapse_shape, reinterpret_cast,
// transpose). Two boxes of one base that provably share no element let the
// accesses commute (the slices of a concatenation); in every other case the
// accesses may overlap. All arithmetic is checked: a box whose extent does
// not fit 64 bits is whole.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_FOOTPRINT_H
#define MEMSCHED_ANALYSIS_FOOTPRINT_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mlir {
namespace memsched {

struct Footprint {
  bool whole = true;
  /// The allocation or argument the box is relative to.
  Value base;
  int64_t offset = 0;
  SmallVector<int64_t, 4> sizes, strides;
  /// Linear element range [lo, hi] of the box (lo > hi: empty).
  int64_t lo = 0, hi = -1;
  /// The box holds every element of its range [lo, hi] (distinct elements,
  /// as many as the range has): any box of the same base within that range
  /// is inside it.
  bool dense = false;
  /// The box is dense and its range is [0, N), N the element count of its
  /// base, an allocation: every access of the base is inside the box.
  bool coversBase = false;
};

/// The footprint of an access through `value`.
Footprint getFootprint(Value value);

/// False only when the two footprints provably share no element.
bool mayOverlap(const Footprint &a, const Footprint &b);

/// True when every element of `inner` is provably an element of `outer`.
bool isContainedIn(const Footprint &inner, const Footprint &outer);

/// Decomposes `offset` into per-dimension coordinates for strides that are
/// nested (each stride positive, a multiple of the next and at least the
/// next extent times its stride) with every inner coordinate inside its row;
/// false when they are not of that form. Exposed for tests.
bool decomposeBoxOffset(int64_t offset, ArrayRef<int64_t> sizes,
                        ArrayRef<int64_t> strides,
                        SmallVectorImpl<int64_t> &coordinates);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_FOOTPRINT_H
