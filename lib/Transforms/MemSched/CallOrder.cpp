//===- CallOrder.cpp - functions of a module, callees first -----*- C++ -*-===//

#include "Transforms/MemSched/CallOrder.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::memsched;

SmallVector<func::FuncOp> mlir::memsched::getFunctionsCalleesFirst(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      funcs.push_back(func);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  DenseMap<Operation *, SmallVector<func::FuncOp, 4>> callees;
  for (func::FuncOp func : funcs) {
    SmallVector<func::FuncOp, 4> &list = callees[func];
    func.walk([&](CallOpInterface call) {
      if (auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable()))
        if (!llvm::is_contained(list, callee))
          list.push_back(callee);
    });
  }
  SmallVector<func::FuncOp> order;
  DenseSet<Operation *> visited;
  for (func::FuncOp root : funcs) {
    if (!visited.insert(root).second)
      continue;
    // Post-order DFS with an explicit stack of (function, next callee).
    SmallVector<std::pair<func::FuncOp, unsigned>> stack{{root, 0}};
    while (!stack.empty()) {
      auto &[func, next] = stack.back();
      const SmallVector<func::FuncOp, 4> &list = callees[func];
      if (next < list.size()) {
        func::FuncOp callee = list[next++];
        if (callees.count(callee) && visited.insert(callee).second)
          stack.push_back({callee, 0});
        continue;
      }
      order.push_back(func);
      stack.pop_back();
    }
  }
  return order;
}
