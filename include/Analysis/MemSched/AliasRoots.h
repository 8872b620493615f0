//===- AliasRoots.h - what memory a memref value may point into -*- C++ -*-===//
//
// Maps every memref value of a function to the "roots" it may point into:
// an allocation of the analysed block, an allocation elsewhere in the
// function, the function's arguments (one root shared by the arguments that
// may alias, one per `llvm.noalias` argument), a global, or unknown memory.
// Values flow through view ops, region branches (loop-carried values,
// `scf.if` results), branches between blocks (successor operands to the
// successor's arguments) and any other op with memref results (selects, unknown
// ops: their results may alias every memref operand). A call to a function
// of the module whose results are views of its arguments (by the same
// analysis of the callee, to a bounded depth) aliases just those operands;
// a result that is an allocation the callee makes and hands over (not
// freed, not captured: a fresh buffer) is a root of its own, an allocation
// of the caller made by the call. Any other call may return anything. A
// fixpoint over a worklist.
//
// Memory named by anything else (an `!llvm.ptr`, an integer) is unknown:
// `effectRoots` maps it to the unknown root.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ALIASROOTS_H
#define MEMSCHED_ANALYSIS_ALIASROOTS_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir {
namespace memsched {

enum class RootKind { Buffer, Local, Argument, Global, Unknown };

struct Root {
  RootKind kind;
  /// Buffer index for Buffer roots.
  unsigned buffer = 0;
  /// The allocation of a Local root (or the call that returns it).
  Operation *alloc = nullptr;
  /// For Buffer and Local roots: the allocated value (the allocation's
  /// result, or the call's fresh result).
  Value value;
};

/// What a memref result of a function of the module may be, read from its
/// body: views of some of its arguments, or a fresh buffer (an allocation of
/// its body it returns, neither freed nor captured there).
struct ReturnedValue {
  /// Arguments the result may point into (empty for a fresh buffer and for
  /// non-memref results).
  SmallVector<unsigned, 1> args;
  /// The allocation a fresh result returns.
  Operation *freshAlloc = nullptr;
};
using ReturnSummary = SmallVector<ReturnedValue>;

class AliasRoots {
public:
  using RootSet = SmallVector<unsigned, 2>;

  /// `blockAllocs` maps the values allocated by the analysed block's
  /// allocations (and the fresh results of its calls) to buffer ids.
  /// With `distinctArgs`, every argument is a root of its own (to attribute
  /// a callee's effects to its arguments; the caller knows their aliasing).
  /// `depth`: how many callers' analyses this one serves (a call's results
  /// are summarised by analysing its callee, to a bounded depth).
  AliasRoots(Operation *func, const DenseMap<Value, unsigned> &blockAllocs,
             bool distinctArgs = false, unsigned depth = 0);

  /// Makes the roots of the allocations in `blockAllocs` Buffer roots (with
  /// their buffer ids) and every other allocation's a Local root, as if
  /// built with `blockAllocs`: the roots of values do not depend on which
  /// allocations are the analysed block's, so one analysis of a function
  /// serves all of its blocks and loop bodies. Moving ops within their
  /// blocks keeps it valid; adding or erasing ops does not.
  void rebase(const DenseMap<Value, unsigned> &blockAllocs);

  /// Whether some op of the function is asynchronous GPU work (isAsyncOp).
  bool hasAsyncWork() const { return asyncWork; }

  /// The roots of a memref value (empty for values the function does not
  /// define).
  const RootSet &rootsOf(Value v) const;
  /// The roots of memory an effect on `v` may touch: those of a memref, the
  /// unknown root for anything else (pointers, integers) or a memref with no
  /// known root.
  const RootSet &effectRoots(Value v) const;
  const Root &root(unsigned id) const { return table[id]; }
  unsigned getUnknownRoot() const { return unknownRoot; }
  /// The root shared by the arguments that are not `llvm.noalias`: memory
  /// the caller provides, which may also be any global.
  unsigned getSharedArgumentRoot() const { return sharedArgRoot; }

  /// For the analysis of a function with `distinctArgs` and its entry block:
  /// per operand of the block's terminator, the arguments whose memory it
  /// may be a view of, or the fresh buffer it is; none when a memref operand
  /// may be anything else (a global, unknown memory, an allocation that is
  /// freed, captured or returned twice, a mix).
  std::optional<ReturnSummary> returnedValuesOf(Block &entry) const;

  /// The summary of what the callee of `call` returns (see ReturnedValue),
  /// when it is a function of the module with one block that can be read.
  static std::optional<ReturnSummary> summarizeCall(Operation *call,
                                                    unsigned depth = 0);

private:
  unsigned addRoot(Root r);
  /// The root of a buffer `op` makes, `value`: a Buffer root when it is
  /// one of `blockAllocs`, a Local one otherwise.
  unsigned addAllocationRoot(Operation *op, Value value,
                             const DenseMap<Value, unsigned> &blockAllocs);
  void seed(Value v, unsigned rootId);
  void flow(Value from, Value to);
  void visit(Operation *op, const DenseMap<Value, unsigned> &blockAllocs);
  void propagate();
  /// summarizeCall, cached per callee. None when unknown (external or
  /// unresolved callee, results from anywhere else, too deep).
  std::optional<ReturnSummary> returnedValues(Operation *call);

  SmallVector<Root> table;
  /// Per allocated value, its Buffer or Local roots; the Buffer roots now
  /// (what rebase changes).
  DenseMap<Value, SmallVector<unsigned, 1>> allocationRoots;
  SmallVector<unsigned> bufferRoots;
  DenseMap<Value, RootSet> roots;
  DenseMap<Value, SmallVector<Value, 2>> edges;
  DenseSet<Value> hasIncoming;
  llvm::SetVector<Value> worklist;
  llvm::StringMap<unsigned> globals;
  unsigned unknownRoot = 0, sharedArgRoot = 0;
  unsigned depth = 0;
  bool asyncWork = false;
  /// returnedValues per callee.
  DenseMap<Operation *, std::optional<ReturnSummary>> summaries;
  RootSet empty, unknownOnly;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_ALIASROOTS_H
