//===- MemorySpaces.h - the memory spaces a function allocates in -*- C++ -*-===//
//
// Buffers in different memory spaces (host and device memory, GPU workgroup
// memory, numbered address spaces) take memory from different pools: each
// space has its own peak and its own bound. `gpu.alloc` takes device memory
// even for a memref type without a memory space. The analysis counts one space at
// a time through SizeModel::memorySpace; this header finds the spaces a
// function allocates in (its own allocations, those of nested regions and
// those of the module's functions it calls) and names them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_MEMORYSPACES_H
#define MEMSCHED_ANALYSIS_MEMORYSPACES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace memsched {

/// The pool an allocation takes its memory from: the memory space of its
/// memref type, except that `gpu.alloc` of a memref in the default space
/// takes device memory, `#gpu.address_space<global>` (the default space is
/// the host's).
Attribute getMemoryPool(Operation *allocOp);

/// The memory spaces of the allocations `func` makes, directly, in nested
/// regions or through calls to functions defined in the module: the default
/// space (a null attribute) first when present, then the others in the order
/// of their first allocation.
SmallVector<Attribute> collectMemorySpaces(Operation *func);

/// True when `spaces` is empty or holds only the default space: one pool,
/// the totals are its figures.
bool hasOnlyDefaultSpace(ArrayRef<Attribute> spaces);

/// How messages and reports name a space: "default" for the default space,
/// otherwise the attribute as printed (`1`, `#gpu.address_space<workgroup>`).
std::string describeMemorySpace(Attribute space);

/// Reads a space as options spell it: `default` (or `0`) for the default
/// space, otherwise an attribute (`1`, `#gpu.address_space<workgroup>`),
/// with integers read as i64 like a memref type's memory space.
FailureOr<Attribute> parseMemorySpace(StringRef text, MLIRContext *context,
                                      std::string &why);

/// A pass's `memory-space` option: unset when `text` is empty, otherwise
/// the space it names; a text that names none is an error on `at`
/// ("<pass>: memory-space: ...").
LogicalResult parseMemorySpaceOption(StringRef text, Operation *at,
                                     StringRef pass,
                                     std::optional<Attribute> &space);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_MEMORYSPACES_H
