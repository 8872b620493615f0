//===- DeallocHelper.h - upstream's lowered bufferization.dealloc -*- C++ -*-===//
//
// `--bufferization-lower-deallocations` (the end of
// `--buffer-deallocation-pipeline`) lowers a bufferization.dealloc of
// several memrefs to a call of a helper function it adds to the module:
//
//   %ptrs  = memref.alloc() : memref<Kxindex>   (a store of each memref's
//   %conds = memref.alloc() : memref<Kxi1>       pointer and condition)
//   %kept  = memref.alloc() : memref<Rxindex>   (the retained pointers)
//   %out   = memref.alloc() : memref<Kxi1>
//   call @dealloc_helper(%ptrs, %kept, %conds, %out, %keptOut)
//   %d_i = memref.load %out[%c_i]
//   scf.if %d_i { memref.dealloc %m_i }
//
// The helper sets %out[i] to cond_i, unless the pointer of memref i is one
// of the retained ones or that of an earlier memref. An entry is
// recognised only when the call's callee has exactly the body upstream
// builds (buildDeallocationLibraryFunction) and the lists are filled by
// stores at constant indices before the call and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_DEALLOCHELPER_H
#define MEMSCHED_ANALYSIS_DEALLOCHELPER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace memsched {

struct HelperDeallocEntry {
  /// What the scf.if frees, and the condition stored for it.
  Value memref, condition;
  /// The memrefs of the entries before it and after it, and the retained
  /// memrefs.
  SmallVector<Value, 2> earlier, later, retained;
  /// The pointer extractions that only fill the helper's lists (they do
  /// not let an address go anywhere else).
  SmallVector<Operation *, 4> pointerOps;
};

/// When `op` is `scf.if %d { memref.dealloc %m }` with %d an entry of the
/// output of upstream's deallocation helper (see above): that entry.
std::optional<HelperDeallocEntry> matchHelperDeallocEntry(Operation *op);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_DEALLOCHELPER_H
