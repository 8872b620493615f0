//===- AsyncOrder.h - the order async tokens give GPU work -------*- C++ -*-===//
//
// Asynchronous GPU ops (`gpu.alloc async`, `gpu.memcpy async`,
// `gpu.launch_func async`, `gpu.dealloc async`, `gpu.wait async`) run on the
// device after the work their token operands stand for, not where the host
// issues them. This header answers, for the nodes of one block, which
// asynchronous work is known to be complete before which: through the
// tokens, and on the host through a synchronous `gpu.wait` on them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ASYNCORDER_H
#define MEMSCHED_ANALYSIS_ASYNCORDER_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace memsched {

class AsyncTokenOrder {
public:
  /// `nodes`: the schedulable ops of one block in block order; `nodeIndex`
  /// maps each to its position in `nodes`.
  AsyncTokenOrder(ArrayRef<Operation *> nodes,
                  const DenseMap<Operation *, unsigned> &nodeIndex);

  /// Whether node `n` is an asynchronous op (isAsyncOp).
  bool isAsync(unsigned n) const { return asyncId.count(n); }
  /// Whether any node is asynchronous.
  bool any() const { return !asyncNodes.empty(); }

  /// Whether the device runs asynchronous node `later` only after
  /// asynchronous node `earlier` has completed: `later` waits for it through
  /// its tokens, directly or through other nodes.
  bool waitsFor(unsigned later, unsigned earlier) const;

  /// The asynchronous nodes a synchronous `gpu.wait` node waits for, through
  /// its tokens, that no earlier synchronous `gpu.wait` waited for (the host
  /// knows those complete since). False when some token it waits for comes
  /// from outside the nodes (a block argument, a region's result, an op of
  /// another block): what it waits for is then not known.
  bool waitedFor(unsigned wait, SmallVectorImpl<unsigned> &nodes) const;

  /// The first synchronous `gpu.wait` node after asynchronous node `n`, in
  /// block order and before node `before`, that waits for `n`: after it, the
  /// host knows `n` has completed.
  std::optional<unsigned> coveringWait(unsigned n, unsigned before) const;

private:
  /// Node -> dense index of an asynchronous node.
  DenseMap<unsigned, unsigned> asyncId;
  /// Dense index -> node.
  SmallVector<unsigned> asyncNodes;
  /// Per asynchronous node (dense index): the asynchronous nodes it waits
  /// for (dense indices), and whether all its tokens come from nodes.
  SmallVector<llvm::BitVector> waits;
  SmallVector<bool> complete;
  /// Synchronous waits: node, the asynchronous nodes waited for (all, and
  /// those no earlier synchronous wait waited for), complete.
  struct SyncWait {
    unsigned node;
    llvm::BitVector waits, newly;
    bool complete;
  };
  SmallVector<SyncWait> syncWaits;
  /// Folds what the token `token` stands for into `into`; false when it
  /// does not come from an asynchronous node.
  bool addToken(Value token, llvm::BitVector &into,
                const DenseMap<Operation *, unsigned> &nodeIndex) const;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_ASYNCORDER_H
