//===- StructuredAccess.h - how split rewrites see structured ops -*- C++ -*-===//
//
// What the fragment rewrites of --memsched-split (channel groups, row bands)
// share: the memref operands of a structured op with the map from its loops
// to their dimensions, what makes a buffer unaliased, and the check that a
// set of ops can move to the place of its last op.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_TRANSFORMS_STRUCTUREDACCESS_H
#define MEMSCHED_LIB_TRANSFORMS_STRUCTUREDACCESS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
namespace memsched {

/// A memref operand of a structured op, with the map from the op's loops
/// to its dimensions.
struct Access {
  unsigned operand;
  AffineMap map;
  bool isWrite;
};

/// Ops a fragment can hold: structured ops on buffers with static shapes
/// whose body does not read its iteration indices (a fragment would see its
/// own indices), and copies between memrefs of one rank.
bool isFragmentOp(Operation *op);

/// The memref operands of a fragment op (a copy: identity maps).
SmallVector<Access> getAccesses(Operation *op);

/// The buffer a memref value is a view of (through view-like ops).
Value getBase(Value value);

/// A buffer no other memref value reaches except through it: the
/// function's own allocation, or an argument marked `llvm.noalias`, whose
/// uses are all views, structured ops, copies, loads, stores, frees, calls
/// and returns.
bool isUnaliased(Value base);

/// A buffer that can be an intermediate of a fragment rewrite: allocated
/// in `block` with a static shape and identity layout, freed once in
/// `block`, used only by fragment ops of `block`, directly or through
/// subviews used only by them.
bool isFragmentIntermediate(Value value, Block &block);

/// Whether the ops of a fragment rewrite, `ops` (in block order), can all
/// move to the place of the last: no op between them (other than `own`
/// ops) touches what one of them before it touches in a way order matters
/// for. Accesses to values `isInternal` says are the rewrite's own
/// buffers do not count. Frees of buffers the ops read (and do not write)
/// are listed in `sunkFrees`: they move after the rewritten ops. On
/// failure, `at` and `why` name the op in the way.
bool canMoveToLast(ArrayRef<Operation *> ops,
                   const llvm::DenseSet<Operation *> &own,
                   llvm::function_ref<bool(Value)> isInternal,
                   SmallVectorImpl<Operation *> &sunkFrees, Operation *&at,
                   std::string &why);

/// After a fragment rewrite: erases the ops it replaced (`ops`, in block
/// order) and its intermediates (`buffers`: their allocations, frees and
/// the views left unused).
void eraseReplaced(ArrayRef<Operation *> ops, ArrayRef<Operation *> buffers);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_TRANSFORMS_STRUCTUREDACCESS_H
