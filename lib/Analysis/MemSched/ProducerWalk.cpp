//===- ProducerWalk.cpp - post-order over an op's producers -----*- C++ -*-===//

#include "Analysis/MemSched/ProducerWalk.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::memsched;

void mlir::memsched::forEachBlockOperand(Operation *op, Block *block,
                                         function_ref<void(Value)> fn) {
  // Most ops (allocations, views, frees) have no region: no walk needed.
  if (op->getNumRegions() == 0) {
    for (Value operand : op->getOperands())
      if (operand.getParentBlock() == block)
        fn(operand);
    return;
  }
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (operand.getParentBlock() == block)
        fn(operand);
  });
}

LogicalResult
mlir::memsched::walkProducersPostOrder(Operation *root, Block *block,
                                       function_ref<bool(Operation *)> stop,
                                       function_ref<void(Operation *)> visit) {
  // An op is pushed unexpanded; when it comes to the top it is expanded (its
  // unvisited producers pushed above it) and, the next time it is on top,
  // visited. An op pushed again while a copy waits lower in the stack is
  // handled by the upper copy; the lower one is then skipped. A producer
  // being expanded (an ancestor in the walk) is a cycle.
  enum class State { Expanding, Visited };
  DenseMap<Operation *, State> state;
  SmallVector<std::pair<Operation *, bool>> stack{{root, false}};
  bool cycle = false;
  while (!stack.empty()) {
    auto [op, expanded] = stack.back();
    auto it = state.find(op);
    if (expanded) {
      stack.pop_back();
      it->second = State::Visited;
      visit(op);
      continue;
    }
    if (it != state.end()) {
      // Visited through another user meanwhile; Expanding cannot happen here
      // (a copy above an expanding op is an ancestor's producer, caught
      // below).
      stack.pop_back();
      continue;
    }
    stack.back().second = true;
    state[op] = State::Expanding;
    forEachBlockOperand(op, block, [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def || def == op)
        return;
      auto defIt = state.find(def);
      if (defIt != state.end()) {
        if (defIt->second == State::Expanding)
          cycle = true;
        return;
      }
      if (stop(def))
        return;
      stack.push_back({def, false});
    });
    if (cycle)
      return failure();
  }
  return success();
}
