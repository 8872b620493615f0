//===- SplitBound.cpp - the bound over every split of a body -------------===//

#include "Transforms/MemSched/SplitBound.h"

#include "Analysis/Graph/FragmentBound.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Transforms/MemSched/ChannelGroups.h"
#include "Transforms/MemSched/RowBands.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::memsched;

/// The bound of `analysis`'s body with `chains` (ChannelGroups.h) as its
/// channel chains.
static std::optional<SplitBound>
computeSplitBoundWith(const BufferLifetimeAnalysis &analysis,
                      ArrayRef<ChannelChain> chains, std::string &why,
                      bool splits, bool bands) {
  const ::memsched_core::MemoryGraph &given = analysis.getGraph();
  std::vector<::memsched_core::FragmentSet> sets;
  llvm::DenseSet<unsigned> taken;
  // Groups of nodes a split moves down to its last op (a chain run by
  // groups, a segment run by bands, with the frees they sink): their edges
  // to the nodes they move past do not hold in the split body.
  struct Moved {
    /// The nodes that run in each group (band): their edges among
    /// themselves hold.
    std::vector<uint32_t> nodes;
    /// The frees sunk past the last op.
    std::vector<uint32_t> sunk;
    uint32_t last;
    /// Whether the edges among `nodes` hold (false: the bound reads each
    /// node in a band of its own).
    bool keepsOrder = true;
  };
  std::vector<Moved> moved;
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
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
      Moved group{set.nodes, {}, set.cut.back(), true};
      for (Operation *free : chain.sunkFrees)
        if (std::optional<unsigned> node = analysis.getNodeIndex(free))
          group.sunk.push_back(*node);
      moved.push_back(std::move(group));
    }
    sets.push_back(std::move(set));
  }
  // Segments run by bands without extra compute (RowBands.h): every
  // segment of every output and reach, along the rows and the columns,
  // that some boundary splits without recomputing a row. A split runs such
  // a segment once per band where its last op was; the bound reads its ops
  // in the last band that runs all of them, where the output and the
  // inputs are allocated whole as in the body and each intermediate holds
  // at least the rows one output row of that band needs: along that
  // dimension, it counts the fewest such rows over the output's rows (a
  // segment none of whose rows runs all its ops: no bytes, and its ops
  // unordered). docs/split.md, "The bound over all splits".
  struct Shrink {
    /// The segment's op nodes (sorted).
    std::vector<uint32_t> ops;
    /// The buffers its ops touch that are not its intermediates (its
    /// inputs and its output).
    llvm::DenseSet<unsigned> external;
    /// Its output (a buffer of the graph), or ~0u when it is none.
    unsigned output = ~0u;
    /// Per intermediate: its allocation, row dimension and fewest rows.
    SmallVector<std::tuple<Operation *, unsigned, int64_t>> rows;
  };
  std::vector<Shrink> shrinks;
  // The graph buffer of each allocation.
  llvm::DenseMap<Operation *, unsigned> bufferOf;
  for (unsigned b = 0; b < buffers.size(); ++b)
    bufferOf.try_emplace(buffers[b].allocOp, b);
  if (splits && bands) {
    for (Operation &op : *analysis.getBlock()) {
      auto output = dyn_cast<memref::AllocOp>(&op);
      if (!output || !output.getType().hasStaticShape() ||
          output.getType().getRank() < 2)
        continue;
      unsigned rank = output.getType().getRank();
      for (unsigned dim : {rank - 2, rank - 1}) {
        size_t previous = 0;
        for (unsigned depth = 1; depth <= kMaxBandDepth; ++depth) {
          RefusedChain refusal{nullptr, ""};
          FailureOr<BandSegment> segment =
              findBandSegment(output, dim, depth, refusal);
          if (failed(segment) || segment->ops.size() == previous)
            break;
          previous = segment->ops.size();
          BandFloor floor = computeBandFloor(*segment);
          // A deeper reach keeps the rows this one recomputes.
          if (!floor.withoutExtraCompute)
            break;
          Moved group{{}, {}, 0, floor.everyOpRuns};
          llvm::DenseSet<unsigned> intermediates;
          for (const auto &entry : segment->buffers)
            if (auto it = bufferOf.find(
                    memref::AllocOp(entry.first).getOperation());
                it != bufferOf.end())
              intermediates.insert(it->second);
          Shrink shrink;
          if (auto it = bufferOf.find(output.getOperation());
              it != bufferOf.end())
            shrink.output = it->second;
          for (Operation *segmentOp : segment->ops)
            if (std::optional<unsigned> node =
                    analysis.getNodeIndex(segmentOp)) {
              group.nodes.push_back(*node);
              shrink.ops.push_back(*node);
              group.last = std::max<uint32_t>(group.last, *node);
            }
          llvm::sort(shrink.ops);
          for (Operation *free : segment->sunkFrees)
            if (std::optional<unsigned> node = analysis.getNodeIndex(free))
              group.sunk.push_back(*node);
          // What touches an intermediate (its allocation and free) runs
          // in each band; what the segment's ops touch besides is its
          // inputs and its output.
          for (unsigned b : intermediates)
            for (uint32_t node : given.touchersOf(b))
              group.nodes.push_back(node);
          for (uint32_t node : shrink.ops)
            for (uint32_t b : given.buffersOf(node))
              if (!intermediates.contains(b))
                shrink.external.insert(b);
          moved.push_back(std::move(group));
          if (!floor.shrinksWithoutExtraCompute)
            continue;
          for (auto [i, entry] : llvm::enumerate(segment->buffers))
            shrink.rows.push_back({memref::AllocOp(entry.first).getOperation(),
                                   entry.second, floor.fewestRows[i]});
          shrinks.push_back(std::move(shrink));
        }
      }
    }
  }
  // Every buffer's bytes in the bound when the segments `banded` admits
  // may run by bands: of each dimension a segment bands it along, the
  // fewest rows it holds, of its elements' bytes (alignment padding aside).
  auto sizesWith = [&](llvm::function_ref<bool(unsigned)> banded) {
    llvm::DenseMap<std::pair<Operation *, unsigned>, int64_t> fewest;
    for (unsigned i = 0; i < shrinks.size(); ++i) {
      if (!banded(i))
        continue;
      for (auto [alloc, dim, rows] : shrinks[i].rows) {
        auto [it, inserted] = fewest.try_emplace({alloc, dim}, rows);
        if (!inserted)
          it->second = std::min(it->second, rows);
      }
    }
    std::vector<uint64_t> sizes(given.numBuffers());
    for (uint32_t b = 0; b < given.numBuffers(); ++b) {
      sizes[b] = given.buffer(b).size;
      auto alloc = b < buffers.size()
                       ? dyn_cast_or_null<memref::AllocOp>(buffers[b].allocOp)
                       : memref::AllocOp();
      if (fewest.empty() || !alloc || !alloc.getType().hasStaticShape() ||
          !alloc.getType().getElementType().isIntOrFloat())
        continue;
      MemRefType type = alloc.getType();
      unsigned __int128 bytes =
          static_cast<unsigned __int128>(type.getNumElements()) *
          ((type.getElementTypeBitWidth() + 7) / 8);
      bool shrunk = false;
      for (unsigned d = 0; d < type.getRank(); ++d) {
        auto it = fewest.find({alloc.getOperation(), d});
        if (it == fewest.end() || type.getDimSize(d) <= 0)
          continue;
        bytes = bytes * static_cast<uint64_t>(it->second) /
                static_cast<uint64_t>(type.getDimSize(d));
        shrunk = true;
      }
      if (shrunk)
        sizes[b] = std::min<uint64_t>(sizes[b], static_cast<uint64_t>(bytes));
    }
    return sizes;
  };
  std::vector<uint64_t> allBanded = sizesWith([](unsigned) { return true; });
  // The cut of an op v is the least of alternatives that together cover
  // every split: one in which no segment holding v runs by bands (their
  // intermediates whole, every other segment's reduced: that only lowers
  // the count), and one per output E of the segments holding v in which
  // one of them does (every reduction; E and the inputs all those segments
  // share counted live while v runs: the bands write E from the first
  // band on and the inputs are freed after the last; a channel chain's
  // intermediate among them then runs whole too). docs/split.md, "The
  // bound over all splits".
  ::memsched_core::CutAlternatives alternatives;
  if (!shrinks.empty()) {
    alternatives.sizes.push_back(allBanded);
    alternatives.perNode.resize(given.numNodes());
    std::vector<std::vector<unsigned>> holding(given.numNodes());
    for (unsigned i = 0; i < shrinks.size(); ++i)
      for (uint32_t node : shrinks[i].ops)
        holding[node].push_back(i);
    std::map<std::vector<unsigned>, unsigned> withoutThese;
    for (uint32_t v = 0; v < given.numNodes(); ++v) {
      const std::vector<unsigned> &mine = holding[v];
      if (mine.empty())
        continue;
      auto [it, inserted] =
          withoutThese.try_emplace(mine, alternatives.sizes.size());
      if (inserted)
        alternatives.sizes.push_back(sizesWith([&](unsigned i) {
          return !std::binary_search(mine.begin(), mine.end(), i);
        }));
      auto &alts = alternatives.perNode[v];
      alts.push_back({it->second, {}});
      std::map<unsigned, std::vector<unsigned>> byOutput;
      for (unsigned i : mine)
        byOutput[shrinks[i].output].push_back(i);
      for (auto &[output, segments] : byOutput) {
        ::memsched_core::CutAlternatives::Alternative alt{0, {}};
        for (unsigned b : shrinks[segments.front()].external)
          if (llvm::all_of(segments, [&](unsigned i) {
                return shrinks[i].external.contains(b);
              }))
            alt.alsoLive.push_back(b);
        llvm::sort(alt.alsoLive);
        alts.push_back(std::move(alt));
      }
    }
  }
  // The graph the bound cuts. A split runs a chain (a segment) where its
  // last op was: its ops, and the frees it sinks, move past the nodes in
  // between, so their edges to those nodes (what the dependences ordered
  // conservatively, e.g. against an op with unknown effects that cannot
  // reach the chain's intermediates) do not hold in the split body.
  // The bytes allocated inside an op (loop and branch bodies, callees) are
  // their peak as written, which the schedule may lower by reordering those
  // bodies: the bound counts none of them.
  std::set<std::pair<uint32_t, uint32_t>> dropped;
  {
    std::vector<char> inGroup(given.numNodes(), 0);
    for (const Moved &group : moved) {
      for (uint32_t n : group.nodes)
        inGroup[n] = 1;
      for (uint32_t n : group.nodes)
        for (uint32_t m : given.succs(n))
          if (m < group.last && (!inGroup[m] || !group.keepsOrder))
            dropped.insert({n, m});
      for (uint32_t n : group.sunk)
        for (uint32_t m : given.succs(n))
          if (m < group.last)
            dropped.insert({n, m});
      for (uint32_t n : group.nodes)
        inGroup[n] = 0;
    }
  }
  ::memsched_core::MemoryGraph graph;
  for (uint32_t n = 0; n < given.numNodes(); ++n)
    graph.addNode(0, given.nodeName(n));
  for (uint32_t b = 0; b < given.numBuffers(); ++b) {
    const ::memsched_core::GraphBuffer &buffer = given.buffer(b);
    uint32_t copy = graph.addBuffer(allBanded[b], buffer.liveIn,
                                    buffer.liveOut, buffer.name);
    for (uint32_t n : given.touchersOf(b))
      graph.addTouch(copy, n);
  }
  for (uint32_t n = 0; n < given.numNodes(); ++n)
    for (uint32_t m : given.succs(n))
      if (!dropped.count({n, m}))
        graph.addEdge(n, m);
  graph.finalize();
  ::memsched_core::FragmentBoundResult result =
      ::memsched_core::computeFragmentBound(graph, sets, alternatives);
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

std::optional<SplitBound>
mlir::memsched::computeSplitBound(Operation *func, SizeModel sizes,
                                  std::string &why, bool splits,
                                  bool bands) {
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
  SmallVector<RefusedChain> refused;
  SmallVector<ChainSet, 2> found;
  if (splits)
    found = findChannelChainSets(*analysis.getBlock(), refused);
  else
    found.emplace_back();
  // A split keeps the chains of either selection (ChainSelection): the
  // bound holds for both when it is the lesser of the two.
  std::optional<SplitBound> bound;
  for (const ChainSet &set : found) {
    std::optional<SplitBound> each =
        computeSplitBoundWith(analysis, set.chains, why, splits, bands);
    if (!each)
      return std::nullopt;
    if (!bound || each->value < bound->value)
      bound = each;
  }
  return bound;
}
