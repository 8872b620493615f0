//===- RematSources.cpp - buffers that can be computed again --------------===//

#include "Analysis/MemSched/RematSources.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::memsched;

Value mlir::memsched::getViewSourceOf(Operation *op) {
  auto view = dyn_cast_or_null<ViewLikeOpInterface>(op);
  if (!view || !isMemoryEffectFree(op) || op->getNumResults() != 1)
    return nullptr;
  return view.getViewSource();
}

bool mlir::memsched::isViewChainOf(Value v, Value buffer) {
  while (v && v != buffer)
    v = getViewSourceOf(v.getDefiningOp());
  return v == buffer;
}

namespace {
/// What an op (with the ops nested in it) does to one buffer.
struct BufferAccess {
  bool reads = false, writes = false;
  /// An effect on the buffer that is not a read or a write, or an op whose
  /// effects are not known.
  bool unknown = false;
  /// A write to anything else, an effect on unknown memory, an allocation
  /// or a free, a call, asynchronous GPU work: the op cannot be cloned.
  bool notClonable = false;
};
} // namespace

static BufferAccess classify(Operation *op, Value buffer) {
  BufferAccess access;
  op->walk([&](Operation *nested) {
    // Asynchronous work is done when the device gets to it, not where the
    // clone stands.
    access.notClonable |= isAsyncOp(nested);
    if (isa<CallOpInterface>(nested)) {
      access.notClonable = true;
      for (Value v : nested->getOperands())
        access.unknown |= isViewChainOf(v, buffer);
      return;
    }
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface) {
      if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
        access.notClonable = true;
        for (Value v : nested->getOperands())
          access.unknown |= isViewChainOf(v, buffer);
      }
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &e : effects) {
      Value v = e.getValue();
      bool onBuffer = v && isViewChainOf(v, buffer);
      if (isa<MemoryEffects::Read>(e.getEffect())) {
        access.reads |= onBuffer;
        access.notClonable |= !v;
      } else if (isa<MemoryEffects::Write>(e.getEffect())) {
        access.writes |= onBuffer;
        access.notClonable |= !onBuffer;
      } else {
        // Allocate, Free.
        access.unknown |= onBuffer;
        access.notClonable = true;
      }
    }
  });
  return access;
}

/// Every use of `buffer` (through views) is the deallocation, a view, or
/// an operand of an op in `touchers` or nested in one.
static bool usesAreKnown(Value buffer, Operation *dealloc,
                         ArrayRef<Operation *> touchers) {
  SmallVector<Value> work{buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == dealloc)
        continue;
      if (getViewSourceOf(user) == v) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (!llvm::any_of(touchers,
                        [&](Operation *t) { return t->isAncestor(user); }))
        return false;
    }
  }
  return true;
}

namespace {
/// A buffer whose content its producers alone make.
struct Recomputable {
  bool ok = false;
  std::vector<::memsched_core::NodeId> producers, readers;
};
} // namespace

static Recomputable classifyBuffer(const BufferLifetimeAnalysis &analysis,
                                   const BufferInfo &buf) {
  Recomputable r;
  ArrayRef<NodeInfo> nodes = analysis.getNodes();
  if (buf.allocatedByNode || !buf.escape.empty() || !buf.dealloc ||
      !buf.size || !isAllocation(buf.allocOp) ||
      getDeallocatedValue(buf.dealloc) != buf.value || buf.touchers.size() < 2)
    return r;
  SmallVector<Operation *> touchers;
  for (unsigned t : buf.touchers)
    touchers.push_back(nodes[t].op);
  if (!usesAreKnown(buf.value, buf.dealloc, touchers))
    return r;
  for (unsigned t : buf.touchers) {
    Operation *op = nodes[t].op;
    // Whether the node may write or free the buffer is the analysis's
    // answer (through any alias: region arguments, selects, the base of
    // extract_strided_metadata, callees), the one the scheduler orders by.
    // The syntactic view of the op only decides whether a writer can be
    // cloned onto a copy: a clone writes the copy only where the producer
    // names the buffer through a chain of views.
    bool writes = llvm::is_contained(buf.writers, t);
    BufferAccess access = classify(op, buf.value);
    if (access.unknown || nodes[t].barrier)
      return r;
    if (writes) {
      if (!access.writes || access.notClonable || op->getNumResults() != 0)
        return r;
      r.producers.push_back(t);
    } else {
      if (access.writes)
        return r;
      r.readers.push_back(t);
    }
  }
  r.ok = !r.producers.empty() && !r.readers.empty() &&
         r.producers.back() < r.readers.front();
  return r;
}

std::vector<::memsched_core::RematSource>
mlir::memsched::findRematSources(const BufferLifetimeAnalysis &analysis,
                                 unsigned maxChainDepth,
                                 ArrayRef<uint64_t> cost, uint64_t maxCost) {
  auto chainCost = [&](const std::vector<::memsched_core::NodeId> &producers) {
    uint64_t c = 0;
    for (::memsched_core::NodeId p : producers)
      c += p < cost.size() ? std::min(cost[p], UINT64_MAX - c) : 0;
    return c;
  };
  std::vector<::memsched_core::RematSource> sources;
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
  std::vector<Recomputable> info;
  DenseMap<Value, unsigned> bufferOf;
  for (auto [b, buf] : llvm::enumerate(buffers)) {
    info.push_back(classifyBuffer(analysis, buf));
    bufferOf[buf.value] = b;
  }
  // The buffer a value points into, through views.
  auto rootBuffer = [&](Value v) -> std::optional<unsigned> {
    while (v) {
      if (auto it = bufferOf.find(v); it != bufferOf.end())
        return it->second;
      v = getViewSourceOf(v.getDefiningOp());
    }
    return std::nullopt;
  };
  for (auto [b, main] : llvm::enumerate(info)) {
    if (!main.ok || main.readers.size() < 2)
      continue;
    ::memsched_core::RematSource src;
    src.buffer = b;
    src.producers = main.producers;
    src.readers = main.readers;
    sources.push_back(src);
    // Longer chains: the producers of the buffers the chain reads, when
    // those are recomputable too (e.g. a convolution's output under its
    // activation, freed right after it).
    std::vector<::memsched_core::NodeId> frontier = main.producers;
    for (unsigned depth = 0; depth < maxChainDepth; ++depth) {
      std::vector<::memsched_core::NodeId> added;
      for (::memsched_core::NodeId p : frontier)
        for (Value operand : analysis.getNodes()[p].op->getOperands()) {
          std::optional<unsigned> t = rootBuffer(operand);
          if (!t || *t == b || !info[*t].ok ||
              llvm::is_contained(src.inner, *t))
            continue;
          src.inner.push_back(*t);
          llvm::append_range(added, info[*t].producers);
        }
      if (added.empty())
        break;
      llvm::append_range(src.producers, added);
      llvm::sort(src.producers);
      src.producers.erase(llvm::unique(src.producers), src.producers.end());
      if (src.producers.back() > src.readers.front() ||
          chainCost(src.producers) > maxCost)
        break;
      sources.push_back(src);
      frontier = std::move(added);
    }
  }
  return sources;
}
