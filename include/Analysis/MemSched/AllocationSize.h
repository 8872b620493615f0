//===- AllocationSize.h - byte sizes of allocations -------------*- C++ -*-===//
//
// The size model of the lifetime analysis: an allocation's bytes are its
// element count times the element's size in the data layout (dynamic
// dimensions bounded with ValueBoundsConstraintSet), plus the padding the
// generic allocation lowering requests when asked to count it. Every product
// and sum is checked: a count that does not fit 64 bits is refused, never
// wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ALLOCATIONSIZE_H
#define MEMSCHED_ANALYSIS_ALLOCATIONSIZE_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <string>

namespace mlir {
namespace memsched {

/// How buffer sizes are counted.
struct SizeModel {
  /// Add the bytes upstream's allocation lowering requests on top of the
  /// memref's size: for an allocation with an explicit `alignment`, the
  /// generic `_mlir_memref_to_llvm_alloc` call asks for size + alignment.
  bool countAlignmentPadding = false;
};

/// Size in bytes of the allocation `allocOp` (one memref result). Sets
/// `isBound` when a dynamic dimension was replaced by its upper bound. On
/// failure `why` says what the user can do.
FailureOr<uint64_t> getAllocationSize(Operation *allocOp,
                                      const DataLayout &layout,
                                      SizeModel sizes, bool &isBound,
                                      std::string &why);

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
