//===- Footprint.cpp - which elements of a buffer an access touches -*- C++ -*-===//

#include "Analysis/MemSched/Footprint.h"
#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::memsched;

bool mlir::memsched::decomposeBoxOffset(int64_t offset, ArrayRef<int64_t> sizes,
                                        ArrayRef<int64_t> strides,
                                        SmallVectorImpl<int64_t> &out) {
  out.clear();
  // Zero or negative strides first: the checks below divide by them.
  if (offset < 0 || llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return false;
  for (size_t i = 0; i < strides.size(); ++i) {
    if (i + 1 < strides.size()) {
      std::optional<int64_t> row = llvm::checkedMul(sizes[i + 1], strides[i + 1]);
      if (strides[i] % strides[i + 1] != 0 || !row || strides[i] < *row)
        return false;
    }
    out.push_back(offset / strides[i]);
    offset %= strides[i];
  }
  if (offset != 0)
    return false;
  // Inner coordinates must stay within their row: a box starting at column 6
  // of rows of 8 and 4 wide wraps into the next row, and the per-dimension
  // test would miss the overlap there.
  for (size_t i = 1; i < strides.size(); ++i)
    if (out[i] + sizes[i] > strides[i - 1] / strides[i])
      return false;
  return true;
}

bool mlir::memsched::mayOverlap(const Footprint &a, const Footprint &b) {
  if (a.whole || b.whole || a.base != b.base)
    return true;
  if (a.hi < a.lo || b.hi < b.lo)
    return false; // empty
  if (a.hi < b.lo || b.hi < a.lo)
    return false;
  if (a.strides != b.strides)
    return true;
  SmallVector<int64_t, 4> ca, cb;
  if (!decomposeBoxOffset(a.offset, a.sizes, a.strides, ca) ||
      !decomposeBoxOffset(b.offset, b.sizes, b.strides, cb))
    return true;
  for (size_t i = 0; i < ca.size(); ++i)
    if (ca[i] + a.sizes[i] <= cb[i] || cb[i] + b.sizes[i] <= ca[i])
      return false;
  return true;
}

bool mlir::memsched::isContainedIn(const Footprint &inner,
                                   const Footprint &outer) {
  if (outer.whole)
    return true;
  if (inner.whole || inner.base != outer.base || !outer.dense)
    return false;
  if (inner.hi < inner.lo)
    return true;
  return outer.lo <= inner.lo && inner.hi <= outer.hi;
}

/// The source of a view whose type's strided layout is expressed relative to
/// the same base pointer and element type as its source; null otherwise.
static Value getLayoutPreservingSource(Operation *def) {
  if (!def)
    return nullptr;
  if (auto transpose = dyn_cast<memref::TransposeOp>(def))
    return transpose.getIn();
  if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
          memref::CollapseShapeOp, memref::ReinterpretCastOp>(def))
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      return view.getViewSource();
  return nullptr;
}

Footprint mlir::memsched::getFootprint(Value value) {
  Footprint whole;
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return whole;
  Value base = value;
  while (Value source = getLayoutPreservingSource(base.getDefiningOp()))
    base = source;
  auto baseType = dyn_cast<MemRefType>(base.getType());
  Operation *def = base.getDefiningOp();
  bool isAlloc = def && (isAllocation(def) || isAsyncAllocation(def));
  bool isRoot = isa<BlockArgument>(base) || isAlloc;
  if (!isRoot || !baseType || !isIdentityInDisguise(baseType) ||
      baseType.getElementType() != type.getElementType())
    return whole;
  if (!type.hasStaticShape())
    return whole;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return whole;
  Footprint f;
  f.whole = false;
  f.base = base;
  f.offset = offset;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    // Unit dimensions do not move; drop them so equal boxes compare equal.
    if (size == 1)
      continue;
    f.sizes.push_back(size);
    f.strides.push_back(stride);
  }
  // Range of the box, checked.
  int64_t lo = offset, hi = offset, count = 1;
  for (auto [size, stride] : llvm::zip(f.sizes, f.strides)) {
    if (size == 0) {
      f.lo = 0;
      f.hi = -1;
      return f;
    }
    std::optional<int64_t> step = llvm::checkedMul(size - 1, stride);
    std::optional<int64_t> n = llvm::checkedMul(count, size);
    if (!step || !n)
      return whole;
    count = *n;
    std::optional<int64_t> moved = llvm::checkedAdd(stride < 0 ? lo : hi, *step);
    if (!moved)
      return whole;
    (stride < 0 ? lo : hi) = *moved;
  }
  f.lo = lo;
  f.hi = hi;
  // A box of distinct elements (positive strides, nested: the view is
  // injective) as many as its range has is dense: it holds every element of
  // the range, whatever the base. A dense box whose range is the whole
  // allocation covers it. Arguments never cover: the caller's buffer may be
  // larger than the argument's type says (a reinterpret_cast reaches past
  // it), but a dense box of an argument still contains the boxes within its
  // range.
  // The box is a set: order its dimensions by decreasing stride (a
  // transpose) before checking that the strides nest.
  SmallVector<std::pair<int64_t, int64_t>, 4> dims;
  for (auto [size, stride] : llvm::zip(f.sizes, f.strides))
    dims.push_back({stride, size});
  llvm::sort(dims, [](auto x, auto y) { return x.first > y.first; });
  SmallVector<int64_t, 4> sortedSizes, sortedStrides, coords;
  for (auto [stride, size] : dims) {
    sortedSizes.push_back(size);
    sortedStrides.push_back(stride);
  }
  std::optional<int64_t> range = llvm::checkedSub(hi, lo);
  f.dense = range && *range == count - 1 &&
            decomposeBoxOffset(0, sortedSizes, sortedStrides, coords);
  if (f.dense && isAlloc && baseType.hasStaticShape() && lo == 0 &&
      count == baseType.getNumElements())
    f.coversBase = true;
  return f;
}
