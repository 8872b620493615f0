//===- ArenaOrder.cpp - an order whose buffers pack better ------*- C++ -*-===//

#include "Analysis/Graph/ArenaOrder.h"

#include <algorithm>
#include <cassert>

using namespace memsched_core;

std::vector<ArenaBuffer>
memsched_core::getArenaBuffers(const MemoryGraph &graph,
                          const std::vector<NodeId> &order, uint64_t alignment,
                          std::vector<BufferId> *ids) {
  std::vector<size_t> pos(graph.numNodes());
  for (size_t i = 0; i < order.size(); ++i)
    pos[order[i]] = i;
  std::vector<ArenaBuffer> buffers;
  if (ids)
    ids->clear();
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buf = graph.buffer(b);
    if (buf.touchers.empty() || buf.liveIn || buf.liveOut || buf.size == 0)
      continue;
    ArenaBuffer a;
    a.size = buf.size;
    a.alignment = alignment;
    a.first = UINT64_MAX;
    for (NodeId t : buf.touchers) {
      a.first = std::min<uint64_t>(a.first, pos[t]);
      a.last = std::max<uint64_t>(a.last, pos[t]);
    }
    buffers.push_back(a);
    if (ids)
      ids->push_back(b);
  }
  return buffers;
}

namespace {
/// First and last position of each buffer's touchers under `pos`.
std::pair<size_t, size_t> span(const GraphBuffer &buf,
                               const std::vector<size_t> &pos) {
  size_t first = SIZE_MAX, last = 0;
  for (NodeId t : buf.touchers) {
    first = std::min(first, pos[t]);
    last = std::max(last, pos[t]);
  }
  return {first, last};
}
} // namespace

ArenaOrderResult memsched_core::improveArenaOrder(const MemoryGraph &graph,
                                             const std::vector<NodeId> &start,
                                             const ArenaOrderOptions &options) {
  assert(graph.isValidOrder(start) && "the start must be a valid order");
  ArenaOrderResult result;
  result.order = start;
  result.peak = evaluatePeak(graph, start);
  ArenaOptions heuristics;
  heuristics.heuristicOnly = true;
  auto arenaOf = [&](const std::vector<NodeId> &order) {
    ++result.evaluations;
    return planArena(getArenaBuffers(graph, order, options.alignment),
                     heuristics)
        .arenaSize;
  };
  result.arena = result.startArena = arenaOf(start);
  std::vector<ArenaBuffer> startBuffers =
      getArenaBuffers(graph, start, options.alignment);
  uint64_t ideal = getIdealArena(startBuffers);
  // Evaluations within the work budget (each places every buffer).
  uint64_t budget = std::min<uint64_t>(
      options.evaluationBudget,
      options.workBudget / std::max<uint64_t>(1, startBuffers.size()));
  size_t n = start.size();
  std::vector<NodeId> &order = result.order;
  std::vector<size_t> pos(graph.numNodes());
  for (size_t i = 0; i < n; ++i)
    pos[order[i]] = i;

  bool improved = true;
  while (improved && result.arena > ideal && result.evaluations < budget) {
    improved = false;
    for (size_t i = 0; i + 1 < n; ++i) {
      if (result.evaluations >= budget || result.arena <= ideal)
        break;
      NodeId a = order[i], b = order[i + 1];
      IdRange succ = graph.succs(a);
      if (std::find(succ.begin(), succ.end(), b) != succ.end())
        continue;
      // Only a swap that moves an end of some buffer's lifetime can change
      // the arena.
      std::vector<std::pair<size_t, size_t>> before;
      for (NodeId x : {a, b})
        for (BufferId buf : graph.buffersOf(x))
          before.push_back(span(graph.buffer(buf), pos));
      std::swap(order[i], order[i + 1]);
      pos[a] = i + 1;
      pos[b] = i;
      bool moved = false;
      size_t k = 0;
      for (NodeId x : {a, b})
        for (BufferId buf : graph.buffersOf(x))
          moved |= span(graph.buffer(buf), pos) != before[k++];
      bool keep = false;
      if (moved) {
        uint64_t peak = evaluatePeak(graph, order);
        if (peak <= options.peakLimit) {
          uint64_t arena = arenaOf(order);
          if (arena < result.arena) {
            result.arena = arena;
            result.peak = peak;
            keep = improved = true;
          }
        }
      }
      if (!keep) {
        std::swap(order[i], order[i + 1]);
        pos[a] = i;
        pos[b] = i + 1;
      }
    }
  }
  return result;
}
