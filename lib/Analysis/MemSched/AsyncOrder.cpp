//===- AsyncOrder.cpp - the order async tokens give GPU work ----*- C++ -*-===//

#include "Analysis/MemSched/AsyncOrder.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::memsched;

AsyncTokenOrder::AsyncTokenOrder(
    ArrayRef<Operation *> nodes,
    const DenseMap<Operation *, unsigned> &nodeIndex) {
  for (auto [n, op] : llvm::enumerate(nodes))
    if (isAsyncOp(op)) {
      asyncId[n] = asyncNodes.size();
      asyncNodes.push_back(n);
    }
  unsigned k = asyncNodes.size();
  waits.assign(k, llvm::BitVector(k));
  complete.assign(k, true);
  // Tokens come from earlier ops: one pass in block order.
  llvm::BitVector waitedSoFar(k);
  for (auto [n, op] : llvm::enumerate(nodes)) {
    auto wait = dyn_cast<gpu::WaitOp>(op);
    bool isSyncWait = wait && !wait.getAsyncToken();
    if (!isSyncWait && !isAsync(n))
      continue;
    llvm::BitVector set(k);
    bool all = true;
    for (Value token : getAsyncDependencies(op))
      all &= addToken(token, set, nodeIndex);
    if (isSyncWait) {
      llvm::BitVector newly = set;
      newly.reset(waitedSoFar);
      waitedSoFar |= set;
      syncWaits.push_back(
          {static_cast<unsigned>(n), std::move(set), std::move(newly), all});
      continue;
    }
    unsigned id = asyncId.lookup(n);
    waits[id] = std::move(set);
    complete[id] = all;
  }
}

bool AsyncTokenOrder::addToken(
    Value token, llvm::BitVector &into,
    const DenseMap<Operation *, unsigned> &nodeIndex) const {
  Operation *def = token.getDefiningOp();
  auto it = def ? nodeIndex.find(def) : nodeIndex.end();
  if (it == nodeIndex.end())
    return false;
  auto id = asyncId.find(it->second);
  if (id == asyncId.end())
    return false;
  into.set(id->second);
  into |= waits[id->second];
  return complete[id->second];
}

bool AsyncTokenOrder::waitsFor(unsigned later, unsigned earlier) const {
  auto l = asyncId.find(later), e = asyncId.find(earlier);
  return l != asyncId.end() && e != asyncId.end() &&
         waits[l->second].test(e->second);
}

bool AsyncTokenOrder::waitedFor(unsigned wait,
                                SmallVectorImpl<unsigned> &nodes) const {
  for (const SyncWait &w : syncWaits) {
    if (w.node != wait)
      continue;
    for (unsigned id : w.newly.set_bits())
      nodes.push_back(asyncNodes[id]);
    return w.complete;
  }
  return false;
}

std::optional<unsigned> AsyncTokenOrder::coveringWait(unsigned n,
                                                      unsigned before) const {
  auto id = asyncId.find(n);
  if (id == asyncId.end())
    return std::nullopt;
  for (const SyncWait &w : syncWaits)
    if (w.node > n && w.node < before && w.waits.test(id->second))
      return w.node;
  return std::nullopt;
}
