//===- MemoryGraph.cpp - MLIR-free scheduling graph -------------*- C++ -*-===//

#include "Analysis/Graph/MemoryGraph.h"

#include <algorithm>
#include <cassert>

using namespace memsched_core;

template <typename T> static void sortUnique(std::vector<T> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

NodeId MemoryGraph::addNode(uint64_t transientBytes, std::string name) {
  transient.push_back(transientBytes);
  nodeNames.push_back(std::move(name));
  predList.emplace_back();
  succList.emplace_back();
  touchList.emplace_back();
  return static_cast<NodeId>(transient.size() - 1);
}

BufferId MemoryGraph::addBuffer(uint64_t size, bool liveIn, bool liveOut,
                                std::string name) {
  GraphBuffer b;
  b.size = size;
  b.liveIn = liveIn;
  b.liveOut = liveOut;
  b.name = std::move(name);
  buffers.push_back(std::move(b));
  return static_cast<BufferId>(buffers.size() - 1);
}

void MemoryGraph::addTouch(BufferId buffer, NodeId node) {
  assert(buffer < buffers.size() && node < numNodes() && "out of range");
  buffers[buffer].touchers.push_back(node);
}

void MemoryGraph::addEdge(NodeId from, NodeId to) {
  assert(from < numNodes() && to < numNodes() && "out of range");
  if (from == to)
    return;
  succList[from].push_back(to);
  predList[to].push_back(from);
}

void MemoryGraph::finalize() {
  for (auto &l : predList)
    sortUnique(l);
  for (auto &l : succList)
    sortUnique(l);
  for (auto &l : touchList)
    l.clear();
  for (BufferId b = 0; b < buffers.size(); ++b) {
    sortUnique(buffers[b].touchers);
    for (NodeId n : buffers[b].touchers)
      touchList[n].push_back(b);
  }
  auto pack = [](size_t count, auto listOf, std::vector<size_t> &start,
                 std::vector<uint32_t> &flat) {
    start.assign(count + 1, 0);
    for (size_t i = 0; i < count; ++i)
      start[i + 1] = start[i] + listOf(i).size();
    flat.clear();
    flat.reserve(start.back());
    for (size_t i = 0; i < count; ++i)
      flat.insert(flat.end(), listOf(i).begin(), listOf(i).end());
  };
  size_t n = numNodes();
  pack(n, [&](size_t i) -> auto & { return predList[i]; }, predStart, predFlat);
  pack(n, [&](size_t i) -> auto & { return succList[i]; }, succStart, succFlat);
  pack(n, [&](size_t i) -> auto & { return touchList[i]; }, touchStart,
       touchFlat);
  pack(buffers.size(), [&](size_t b) -> auto & { return buffers[b].touchers; },
       toucherStart, toucherFlat);
  sizes.resize(buffers.size());
  for (BufferId b = 0; b < buffers.size(); ++b)
    sizes[b] = buffers[b].size;
}

size_t MemoryGraph::numEdges() const { return succFlat.size(); }

size_t MemoryGraph::numTouches() const {
  size_t t = 0;
  for (const GraphBuffer &buf : buffers)
    t += buf.touchers.size();
  return t;
}

bool MemoryGraph::isValidOrder(const std::vector<NodeId> &order) const {
  if (order.size() != numNodes())
    return false;
  std::vector<size_t> pos(numNodes(), SIZE_MAX);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= numNodes() || pos[order[i]] != SIZE_MAX)
      return false;
    pos[order[i]] = i;
  }
  for (NodeId n = 0; n < numNodes(); ++n)
    for (NodeId s : succs(n))
      if (pos[n] >= pos[s])
        return false;
  return true;
}

std::vector<NodeId> MemoryGraph::programOrder() const {
  std::vector<NodeId> order(numNodes());
  for (NodeId i = 0; i < order.size(); ++i)
    order[i] = i;
  return order;
}

bool memsched_core::getLiveInterval(const MemoryGraph &graph, BufferId b,
                                    const std::vector<size_t> &pos,
                                    size_t numPositions, size_t &first,
                                    size_t &last) {
  const GraphBuffer &buf = graph.buffer(b);
  if (numPositions == 0 ||
      (buf.touchers.empty() && !(buf.liveIn && buf.liveOut)))
    return false;
  first = SIZE_MAX;
  last = 0;
  for (NodeId t : buf.touchers) {
    first = std::min(first, pos[t]);
    last = std::max(last, pos[t]);
  }
  if (buf.liveIn)
    first = 0;
  if (buf.liveOut)
    last = numPositions - 1;
  return true;
}

uint64_t memsched_core::evaluatePeak(const MemoryGraph &graph,
                                const std::vector<NodeId> &order,
                                PeakInfo *info,
                                const std::vector<uint64_t> *sizes) {
  size_t n = order.size();
  assert(n == graph.numNodes() && "order must cover every node");
  std::vector<size_t> pos(graph.numNodes());
  for (size_t i = 0; i < n; ++i)
    pos[order[i]] = i;

  // Difference array over positions: +size at interval start, -size after end.
  std::vector<int64_t> delta(n + 1, 0);
  std::vector<std::pair<size_t, size_t>> interval(graph.numBuffers(),
                                                  {SIZE_MAX, 0});
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    uint64_t size = sizes ? (*sizes)[b] : graph.buffer(b).size;
    size_t first, last;
    if (size == 0 || !getLiveInterval(graph, b, pos, n, first, last))
      continue;
    interval[b] = {first, last};
    delta[first] += static_cast<int64_t>(size);
    delta[last + 1] -= static_cast<int64_t>(size);
  }

  uint64_t peak = 0;
  size_t peakPos = 0;
  int64_t running = 0;
  if (info)
    info->memoryAt.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    running += delta[i];
    uint64_t mem = static_cast<uint64_t>(running) +
                   graph.transientBytes(order[i]);
    if (info)
      info->memoryAt[i] = mem;
    if (mem > peak) {
      peak = mem;
      peakPos = i;
    }
  }
  if (info) {
    info->peak = peak;
    info->peakPosition = peakPos;
    info->liveAtPeak.clear();
    for (BufferId b = 0; b < graph.numBuffers(); ++b)
      if (interval[b].first <= peakPos && peakPos <= interval[b].second)
        info->liveAtPeak.push_back(b);
  }
  return peak;
}

MemoryGraph memsched_core::withBufferSizes(const MemoryGraph &graph,
                                           const std::vector<uint64_t> &sizes) {
  MemoryGraph copy;
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    copy.addNode(graph.transientBytes(n), graph.nodeName(n));
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buf = graph.buffer(b);
    BufferId id = copy.addBuffer(sizes[b], buf.liveIn, buf.liveOut, buf.name);
    for (NodeId t : graph.touchersOf(b))
      copy.addTouch(id, t);
  }
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    for (NodeId m : graph.succs(n))
      copy.addEdge(n, m);
  copy.finalize();
  return copy;
}
