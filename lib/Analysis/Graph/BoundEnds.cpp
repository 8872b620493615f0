//===- BoundEnds.cpp - bounds from how orders end or begin ------*- C++ -*-===//
//
// Every valid order ends with some node z that has no successor, and when z
// runs last everything else has run: its memory is fixed. More generally, the
// memory of a node y whose set U of later nodes is known (an up-set) is fixed,
// since the executed set is V \ U \ {y}. A bottleneck search from the end over
// these up-sets (cheapest tail first) bounds the peak of every order: every
// order's tail is one of the paths searched. The same runs from the start
// over down-sets. docs/lower-bounds.md has the proof.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/LowerBound.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <queue>

using namespace memsched_core;

namespace {
/// One search direction. Terms are for the search from the end; from the
/// start, swap predecessors and successors, liveIn and liveOut.
class EndSearch {
public:
  EndSearch(const MemoryGraph &graph, bool fromEnd)
      : graph(graph), fromEnd(fromEnd) {
    count.assign(graph.numBuffers(), 0);
    inSet.assign(graph.numNodes(), 0);
    laterSuccs.assign(graph.numNodes(), 0);
    // Buffers live at a node whenever none of their touchers is among the
    // nodes placed so far: live to the end and begun.
    for (BufferId b = 0; b < graph.numBuffers(); ++b)
      if (openEnded(b))
        openTotal += graph.buffer(b).size;
  }

  EndsBound run(uint64_t target, uint64_t evaluationBudget, unsigned maxDepth) {
    EndsBound result;
    size_t n = graph.numNodes();
    if (n == 0) {
      result.exhaustive = true;
      return result;
    }
    std::vector<NodeId> ends; // nodes that may come first from this end
    for (NodeId u = 0; u < n; ++u)
      if (next(u).empty())
        ends.push_back(u);

    // Lazy Dijkstra on the bottleneck cost: entries are (key, parent, node);
    // a state is materialized when first popped.
    struct Entry {
      uint64_t key;
      size_t parent;
      NodeId node;
      NodeId proof; // the node on the path whose memory is `key`
      bool operator>(const Entry &o) const {
        if (key != o.key)
          return key > o.key;
        if (parent != o.parent)
          return parent > o.parent;
        return node > o.node;
      }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    std::map<std::vector<NodeId>, size_t> settled;
    std::vector<std::vector<NodeId>> states;
    std::vector<NodeId> placed, options;
    const size_t root = SIZE_MAX;
    heap.push({0, root, 0, 0});
    uint64_t evaluations = 0;
    while (!heap.empty()) {
      Entry top = heap.top();
      heap.pop();
      placed = top.parent == root ? std::vector<NodeId>{} : states[top.parent];
      if (top.parent != root)
        placed.insert(std::upper_bound(placed.begin(), placed.end(), top.node),
                      top.node);
      if (!settled.emplace(placed, states.size()).second)
        continue;
      size_t id = states.size();
      states.push_back(placed);
      // Every order's tail passes through a state not settled yet, whose
      // key is at least this one.
      result.value = top.key;
      result.node = top.proof;
      result.depth = static_cast<unsigned>(placed.size());
      if (placed.size() == n) {
        result.exhaustive = true;
        break;
      }
      if (top.key >= target || evaluations >= evaluationBudget ||
          placed.size() >= maxDepth)
        break;
      enter(placed);
      options = ends;
      for (NodeId u : placed)
        for (NodeId p : prev(u))
          if (laterSuccs[p] == next(p).size())
            options.push_back(p);
      std::sort(options.begin(), options.end());
      options.erase(std::unique(options.begin(), options.end()), options.end());
      for (NodeId y : options) {
        if (inSet[y])
          continue;
        ++evaluations;
        uint64_t mem = memoryOf(y);
        if (mem > top.key || top.parent == root)
          heap.push({std::max(mem, top.key), id, y, y});
        else
          heap.push({top.key, id, y, top.proof});
      }
      leave(placed);
    }
    result.evaluations = evaluations;
    return result;
  }

private:
  IdRange next(NodeId u) const {
    return fromEnd ? graph.succs(u) : graph.preds(u);
  }
  IdRange prev(NodeId u) const {
    return fromEnd ? graph.preds(u) : graph.succs(u);
  }
  /// Live at the far end (liveOut from the end, liveIn from the start).
  bool farLive(const GraphBuffer &buf) const {
    return fromEnd ? buf.liveOut : buf.liveIn;
  }
  bool nearLive(const GraphBuffer &buf) const {
    return fromEnd ? buf.liveIn : buf.liveOut;
  }
  /// Live at a node when no toucher is placed and it does not touch it.
  bool openEnded(BufferId b) const {
    const GraphBuffer &buf = graph.buffer(b);
    return buf.size && farLive(buf) && (nearLive(buf) || !buf.touchers.empty());
  }

  /// Marks `placed` (the nodes after the next one) and sums what they fix.
  void enter(const std::vector<NodeId> &placed) {
    placedTotal = openTotal;
    for (NodeId u : placed) {
      inSet[u] = 1;
      for (NodeId p : prev(u))
        ++laterSuccs[p];
      for (BufferId b : graph.buffersOf(u))
        if (count[b]++ == 0)
          touched.push_back(b);
    }
    // A buffer touched by a placed node is still needed later; it is live at
    // the next node if it also began (some toucher runs earlier, or near-end
    // live). Open-ended buffers among them are counted here instead.
    for (BufferId b : touched) {
      const GraphBuffer &buf = graph.buffer(b);
      if (openEnded(b))
        placedTotal -= buf.size;
      if (beganWithout(b, nullptr))
        placedTotal += buf.size;
    }
  }

  void leave(const std::vector<NodeId> &placed) {
    for (NodeId u : placed) {
      inSet[u] = 0;
      for (NodeId p : prev(u))
        --laterSuccs[p];
    }
    for (BufferId b : touched)
      count[b] = 0;
    touched.clear();
  }

  /// Whether buffer b (touched by a placed node) has begun at the next node:
  /// near-end live or touched by a node neither placed nor `y`.
  bool beganWithout(BufferId b, const NodeId *y) const {
    const GraphBuffer &buf = graph.buffer(b);
    size_t used = count[b] + (y ? 1 : 0);
    return nearLive(buf) || used < buf.touchers.size();
  }

  /// Memory while y runs with exactly the placed nodes on the far side.
  uint64_t memoryOf(NodeId y) const {
    uint64_t mem = graph.transientBytes(y) + placedTotal;
    for (BufferId b : graph.buffersOf(y)) {
      const GraphBuffer &buf = graph.buffer(b);
      mem += buf.size;
      // Counted above as live-but-not-touched-by-y: remove the double count.
      if (count[b] ? beganWithout(b, nullptr) : openEnded(b))
        mem -= buf.size;
    }
    return mem;
  }

  const MemoryGraph &graph;
  bool fromEnd;
  uint64_t openTotal = 0, placedTotal = 0;
  std::vector<uint32_t> count;
  std::vector<uint8_t> inSet;
  std::vector<uint32_t> laterSuccs;
  std::vector<BufferId> touched;
};
} // namespace

EndsBound memsched_core::computeEndsBound(const MemoryGraph &graph, bool fromEnd,
                                     uint64_t target, uint64_t evaluationBudget,
                                     unsigned maxDepth) {
  return EndSearch(graph, fromEnd).run(target, evaluationBudget, maxDepth);
}
