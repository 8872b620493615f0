//===- CallGraph.h - the functions of a module and who may call whom -*- C++ -*-===//
//
// One call graph for every memsched pass. Its nodes are the module's
// func.func ops (nested symbol tables included); a call op has an edge to
//  - the function it resolves to (func.call and any CallOpInterface op with
//    a symbol callee), and
//  - when it does not resolve (func.call_indirect, an unknown symbol), or
//    calls an external function and hands it a function value, every
//    function whose address is taken: a function whose symbol is used other
//    than as the callee of a call that resolves to it (func.constant, an
//    unknown op naming it), since that use may end up as the callee of any
//    such call. A call through a value of function type only reaches
//    functions of that type.
// A function is recursive when it lies on a cycle of this graph. The passes
// order functions callees first with it (a caller sees its callees' final
// bodies), refuse to share storage across activations of a recursive
// function, and name the cycle in their remarks.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_CALLGRAPH_H
#define MEMSCHED_ANALYSIS_CALLGRAPH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir {
namespace memsched {

class ModuleCallGraph {
public:
  explicit ModuleCallGraph(Operation *module);

  /// Every function, callees before callers; the functions of a cycle in
  /// the order the depth-first walk (module order, then call order) leaves
  /// them.
  ArrayRef<func::FuncOp> getFunctionsCalleesFirst() const { return order; }

  /// Whether `func` lies on a cycle of calls (itself included).
  bool isRecursive(func::FuncOp func) const;

  /// A cycle through `func` for a remark: "@f -> @g (func.call_indirect)
  /// -> @f", each edge named by the op that makes it when that op is not a
  /// direct call. Empty when `func` is not recursive.
  std::string describeCycle(func::FuncOp func) const;

  /// The functions of the module `call` may run: what it resolves to, and
  /// for an unresolved call (or an external callee handed a function value)
  /// every function whose address is taken, of the callee value's type
  /// when it calls through a value.
  SmallVector<func::FuncOp> getPossibleCallees(CallOpInterface call) const;

  /// Whether `func`'s symbol is used other than by calls resolving to it.
  bool isAddressTaken(func::FuncOp func) const {
    return addressTaken.contains(func);
  }

private:
  struct Edge {
    unsigned callee;
    Operation *call;
  };
  SmallVector<func::FuncOp> funcs;
  DenseMap<Operation *, unsigned> index;
  SmallVector<SmallVector<Edge, 4>> edges;
  DenseSet<Operation *> addressTaken;
  SmallVector<unsigned> component;
  SmallVector<bool> onCycle;
  SmallVector<func::FuncOp> order;

  void computeComponents();
};

/// The function (or other callable) `call` runs when that is known: the
/// symbol it names, or the function of the func.constant its callee value
/// comes from. Null otherwise (a callee value of unknown origin).
Operation *resolveCallee(CallOpInterface call);

/// Every func.func of `module`, callees first (ModuleCallGraph).
SmallVector<func::FuncOp> getFunctionsCalleesFirst(ModuleOp module);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_CALLGRAPH_H
