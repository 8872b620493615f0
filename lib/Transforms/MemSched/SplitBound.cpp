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
  const ::memsched::MemoryGraph &graph = analysis.getGraph();
  SmallVector<RefusedChain> refused;
  std::vector<ChannelChain> chains;
  if (splits)
    chains = findChannelChains(*analysis.getBlock(), refused);
  std::vector<::memsched::FragmentSet> sets;
  llvm::DenseSet<unsigned> taken;
  for (const ChannelChain &chain : chains) {
    ::memsched::FragmentSet set;
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
      for (uint32_t node : graph.touchersOf(b))
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
    sets.push_back(std::move(set));
  }
  ::memsched::FragmentBoundResult result =
      ::memsched::computeFragmentBound(graph, sets);
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
