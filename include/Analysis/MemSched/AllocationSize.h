//===- AllocationSize.h - byte sizes of allocations -------------*- C++ -*-===//
//
// The size model of the lifetime analysis: an allocation's bytes are its
// element count times the element's size in the data layout (dynamic
// dimensions bounded with ValueBoundsConstraintSet; with a static strided
// layout, the elements from the base pointer to the last one the layout
// reaches), plus the padding the
// generic allocation lowering requests when asked to count it. Every product
// and sum is checked: a count that does not fit 64 bits is refused, never
// wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ALLOCATIONSIZE_H
#define MEMSCHED_ANALYSIS_ALLOCATIONSIZE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <memory>
#include <optional>
#include <string>

namespace memsched_core {
class SizePoly;
} // namespace memsched_core

namespace mlir {
namespace memsched {

class SizeSymbols;
struct SizePoint;

/// How buffer sizes are counted.
struct SizeModel {
  /// Add the bytes upstream's allocation lowering requests on top of the
  /// memref's size: for an allocation with an explicit `alignment`, the
  /// generic `_mlir_memref_to_llvm_alloc` call asks for size + alignment;
  /// without one, for elements that are not scalars (vectors, ...), size +
  /// the element's size (getElementTypeAlignment).
  bool countAlignmentPadding = false;
  /// Count one memory space only (a null attribute: the default space):
  /// allocations in other spaces count 0 bytes, so peaks and bounds are
  /// those of that space. Unset: every space counts, all in one total.
  std::optional<Attribute> memorySpace;
  /// Count the loop and branch bodies memsched reorders (isReorderableBody)
  /// at a lower bound of their peak over all their orders (the most one of
  /// their ops needs at once: the body's buffers it uses and what it needs
  /// inside; or the lower bound of the body's graph, when larger) instead
  /// of their peak as written. Bounds over every order,
  /// those of nested bodies too, use it.
  bool nestedBodiesAtBound = false;
  /// When set, a dynamic size that is one of these symbols takes its value
  /// at this point instead of its constant upper bound (SizeSymbols.h).
  std::shared_ptr<const SizePoint> point;
  /// A size computed as the max of expressions (an arena memsched-plan-arena
  /// sized for a range of sizes, getSizeExpression): unset, the max; set to
  /// k, its k-th alternative (the last when it has fewer), so that the
  /// memory with such sizes is the max over k of polynomials in the
  /// symbols (docs/dynamic.md).
  std::optional<unsigned> maxChoice;
  /// A call of the function whose allocation is sized (the buffer the call
  /// returns): the callee's arguments in its sizes are the call's operands,
  /// so a size made of them is the caller's (getSizeFactors).
  Operation *callSite = nullptr;
};

/// `sizes` for the allocations of the function `op` calls, seen from the
/// call (SizeModel::callSite); `sizes` itself when `op` is not a call.
SizeModel atCallSite(SizeModel sizes, Operation *op);

/// The alignment the stock lowering (`finalize-memref-to-llvm`) gives a
/// standalone allocation of `type` without an `alignment` attribute beyond
/// malloc's own: for an element type that is not a signless integer, index
/// or float (vectors, complex numbers, ...), the element's size in bytes
/// (rounded up to a power of two), since loads and stores of such elements
/// assume it; 1 otherwise. The lowering asks malloc for that many bytes more
/// (counted with countAlignmentPadding), and an arena offset of a buffer of
/// `type` must be a multiple of it.
uint64_t getElementTypeAlignment(MemRefType type, const DataLayout &layout);

/// Size in bytes of the allocation `allocOp` (one memref result). Sets
/// `isBound` when a dynamic dimension was replaced by its upper bound. On
/// failure `why` says what the user can do.
FailureOr<uint64_t> getAllocationSize(Operation *allocOp,
                                      const DataLayout &layout,
                                      SizeModel sizes, bool &isBound,
                                      std::string &why);

/// The size of `allocOp` as a polynomial in `symbols` (each dynamic
/// dimension that is a symbol is that symbol; one that is not is its
/// constant upper bound), times `times`; the same model as
/// getAllocationSize, whose value it has at every point. Fails with `why`
/// where getAllocationSize would, or for a strided layout with a symbolic
/// size.
FailureOr<::memsched_core::SizePoly>
getSymbolicAllocationSize(Operation *allocOp, const DataLayout &layout,
                          SizeModel sizes, const SizeSymbols &symbols,
                          uint64_t times, std::string &why);

/// True when `type`'s layout addresses its elements as the identity layout
/// does: the identity itself, or static row-major strides (any stride for a
/// dimension of size 1) at offset 0.
bool isIdentityInDisguise(MemRefType type);

/// MemRefType::getStridesAndOffset, answered without building affine
/// expressions for the identity layout of a static shape (row-major strides,
/// offset 0) and for strided layouts (read off the attribute): the same
/// result, at a fraction of the cost on the analysis's hot paths.
LogicalResult getStridesAndOffset(MemRefType type,
                                  SmallVectorImpl<int64_t> &strides,
                                  int64_t &offset);

/// Elements an allocation of `type` (a static strided layout) spans from its
/// base pointer: the largest offset its layout reaches, plus one (0 when a
/// dimension is empty). On failure `why` says what the user can do.
FailureOr<uint64_t> getStridedExtent(MemRefType type, std::string &why);

/// Checked sum; false on overflow.
inline bool addBytes(uint64_t &acc, uint64_t bytes) {
  if (acc > UINT64_MAX - bytes)
    return false;
  acc += bytes;
  return true;
}

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_ALLOCATIONSIZE_H
