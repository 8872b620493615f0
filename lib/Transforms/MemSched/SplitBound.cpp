//===- SplitBound.cpp - the bound over every split of a body -------------===//

#include "Transforms/MemSched/SplitBound.h"

#include "Analysis/Graph/FragmentBound.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Transforms/MemSched/ChannelGroups.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::memsched;

std::optional<SplitBound>
mlir::memsched::computeSplitBound(Operation *func, SizeModel sizes,
                                  std::string &why, bool splits) {
  BodyLifetimes body(func, sizes);
  if (!body.isSupported()) {
    why = body.getUnsupportedReason().str();
    return std::nullopt;
  }
  if (body.getNumBlocks() != 1) {
    why = "the body has several blocks";
    return std::nullopt;
  }
  const BufferLifetimeAnalysis &analysis = body.getBlock(0);
  const ::memsched_core::MemoryGraph &given = analysis.getGraph();
  SmallVector<RefusedChain> refused;
  std::vector<ChannelChain> chains;
  if (splits)
    chains = findChannelChains(*analysis.getBlock(), refused);
  std::vector<::memsched_core::FragmentSet> sets;
  llvm::DenseSet<unsigned> taken;
  // Per node: the set it belongs to (or -1) and, for the nodes a split
  // moves down to its chain's last op, the position past which it moves
  // (0: none).
  std::vector<int> setOf(given.numNodes(), -1);
  std::vector<uint32_t> movesPast(given.numNodes(), 0);
  for (const ChannelChain &chain : chains) {
    ::memsched_core::FragmentSet set;
    set.fragments = std::max<int64_t>(1, chain.channels);
    llvm::DenseSet<Operation *> allocs;
    for (const auto &buffer : chain.buffers)
      allocs.insert(memref::AllocOp(buffer.first).getOperation());
    llvm::DenseSet<unsigned> nodes;
    for (Operation *op : chain.ops)
      if (std::optional<unsigned> node = analysis.getNodeIndex(op)) {
        nodes.insert(*node);
        set.cut.push_back(*node);
      }
    llvm::sort(set.cut);
    ArrayRef<BufferInfo> buffers = analysis.getBuffers();
    for (unsigned b = 0; b < buffers.size(); ++b) {
      if (!allocs.contains(buffers[b].allocOp))
        continue;
      set.internal.push_back(b);
      // Whatever touches an intermediate (its allocation and free) runs
      // in each group.
      for (uint32_t node : given.touchersOf(b))
        nodes.insert(node);
    }
    bool overlaps = false;
    for (unsigned node : nodes)
      overlaps |= taken.contains(node);
    if (overlaps) {
      why = "two channel chains share an op";
      return std::nullopt;
    }
    taken.insert(nodes.begin(), nodes.end());
    set.nodes.assign(nodes.begin(), nodes.end());
    llvm::sort(set.nodes);
    if (!set.cut.empty()) {
      uint32_t last = set.cut.back();
      for (uint32_t node : set.nodes) {
        setOf[node] = sets.size();
        movesPast[node] = last;
      }
      for (Operation *free : chain.sunkFrees)
        if (std::optional<unsigned> node = analysis.getNodeIndex(free))
          movesPast[*node] = std::max(movesPast[*node], last);
    }
    sets.push_back(std::move(set));
  }
  // The graph the bound cuts. A split runs a chain where its last op was:
  // its ops, and the frees it sinks, move past the nodes in between, so
  // their edges to those nodes (what the dependences ordered
  // conservatively, e.g. against an op with unknown effects that cannot
  // reach the chain's intermediates) do not hold in the split body.
  // The bytes allocated inside an op (loop and branch bodies, callees) are
  // their peak as written, which the schedule may lower by reordering those
  // bodies: the bound counts none of them.
  ::memsched_core::MemoryGraph graph;
  for (uint32_t n = 0; n < given.numNodes(); ++n)
    graph.addNode(0, given.nodeName(n));
  for (uint32_t b = 0; b < given.numBuffers(); ++b) {
    const ::memsched_core::GraphBuffer &buffer = given.buffer(b);
    uint32_t copy = graph.addBuffer(buffer.size, buffer.liveIn,
                                    buffer.liveOut, buffer.name);
    for (uint32_t n : given.touchersOf(b))
      graph.addTouch(copy, n);
  }
  for (uint32_t n = 0; n < given.numNodes(); ++n)
    for (uint32_t m : given.succs(n))
      if (!movesPast[n] || m >= movesPast[n] ||
          (setOf[n] >= 0 && setOf[m] == setOf[n]))
        graph.addEdge(n, m);
  graph.finalize();
  ::memsched_core::FragmentBoundResult result =
      ::memsched_core::computeFragmentBound(graph, sets);
  if (!result.valid) {
    why = "a channel chain's intermediate is used outside the chain";
    return std::nullopt;
  }
  SplitBound bound;
  bound.value = result.value;
  bound.chains = sets.size();
  if (result.node < analysis.getNodes().size())
    bound.at = analysis.getNodes()[result.node].op->getLoc();
  return bound;
}
