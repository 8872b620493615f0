//===- SchedWindows.cpp - the order rescheduled around its peak --*- C++ -*-===//
//
// On a large segment the heuristics lose what they find on a small one: list
// scheduling and local search are near the optimum on graphs of a thousand
// nodes and far from it on a hundred thousand (docs/performance.md). Only
// the stretch of the order around its peak sets the peak, so that stretch is
// scheduled again as a graph of its own:
//
//   the window pi[a, b) of the order pi, with everything before it done and
//   everything after it waiting, is a graph whose nodes are the window's,
//   with the edges among them, and whose buffers are those the window
//   touches: live-in when touched before the window (or live-in), live-out
//   when touched after it (or live-out). Every order of that graph, put
//   back between pi[0, a) and pi[b, n), is a valid order of the whole (the
//   edges into and out of the window go from before it or to after it), and
//   the memory at each of its nodes is the window graph's plus the bytes of
//   the buffers live across the window untouched in it, a constant.
//
// The window graph is scheduled by `schedule` (its own split points,
// heuristics, repair) and put back when the whole order's peak goes down;
// then the next window is taken around the new peak (the first position
// that reaches it). A window whose own peak does not go down is not tried
// again until the order changes; the search stops after `rounds` windows.
// Never raises the peak; deterministic.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/Scheduler.h"

#include <algorithm>
#include <set>

using namespace memsched_core;

namespace {

/// The windows of one order (see above), with the order's memory at each
/// position kept up to date as windows are put back.
class Windows {
public:
  Windows(const MemoryGraph &graph, std::vector<NodeId> order)
      : graph(graph), order(std::move(order)),
        position(graph.numNodes()), local(graph.numBuffers(), -1) {
    for (size_t i = 0; i < this->order.size(); ++i)
      position[this->order[i]] = static_cast<uint32_t>(i);
    PeakInfo info;
    evaluatePeak(graph, this->order, &info);
    memoryAt = std::move(info.memoryAt);
  }

  /// The window [a, b) as a graph of its own; node i is order[a + i].
  MemoryGraph graphOf(size_t a, size_t b) {
    MemoryGraph w;
    for (size_t i = a; i < b; ++i)
      w.addNode(graph.transientBytes(order[i]));
    std::vector<BufferId> seen;
    for (size_t i = a; i < b; ++i) {
      NodeId v = order[i];
      for (NodeId u : graph.preds(v))
        if (position[u] >= a)
          w.addEdge(static_cast<NodeId>(position[u] - a),
                    static_cast<NodeId>(i - a));
      for (BufferId buf : graph.buffersOf(v)) {
        if (local[buf] < 0) {
          const GraphBuffer &info = graph.buffer(buf);
          bool before = info.liveIn, after = info.liveOut;
          for (NodeId t : graph.touchersOf(buf)) {
            before |= position[t] < a;
            after |= position[t] >= b;
          }
          local[buf] = w.addBuffer(graph.bufferSize(buf), before, after);
          seen.push_back(buf);
        }
        w.addTouch(static_cast<BufferId>(local[buf]),
                   static_cast<NodeId>(i - a));
      }
    }
    for (BufferId buf : seen)
      local[buf] = -1;
    w.finalize();
    return w;
  }

  /// What is live across the window starting at `a` (graphOf's `w`)
  /// without being touched in it: the same at each of its positions.
  uint64_t acrossOf(size_t a, const MemoryGraph &w) const {
    PeakInfo before;
    std::vector<NodeId> identity(w.numNodes());
    for (NodeId i = 0; i < w.numNodes(); ++i)
      identity[i] = i;
    evaluatePeak(w, identity, &before);
    return memoryAt[a] - before.memoryAt[0];
  }

  /// Puts `windowOrder` (an order of graphOf(a, b)) in place of the
  /// window; `across` is acrossOf(a, w). The memory at the window's positions
  /// is the window graph's plus what is live across it untouched, the same
  /// before and after.
  void replace(size_t a, const MemoryGraph &w,
               const std::vector<NodeId> &windowOrder, uint64_t across) {
    PeakInfo after;
    evaluatePeak(w, windowOrder, &after);
    std::vector<NodeId> old(order.begin() + a,
                            order.begin() + a + w.numNodes());
    for (size_t i = 0; i < windowOrder.size(); ++i) {
      order[a + i] = old[windowOrder[i]];
      position[order[a + i]] = static_cast<uint32_t>(a + i);
      memoryAt[a + i] = after.memoryAt[i] + across;
    }
  }

  /// The peak, and the first position that reaches it.
  uint64_t peak(size_t &at) const {
    auto it = std::max_element(memoryAt.begin(), memoryAt.end());
    at = static_cast<size_t>(it - memoryAt.begin());
    return it == memoryAt.end() ? 0 : *it;
  }

  std::vector<NodeId> &getOrder() { return order; }

private:
  const MemoryGraph &graph;
  std::vector<NodeId> order;
  std::vector<uint32_t> position;
  std::vector<uint64_t> memoryAt;
  /// Per buffer of the graph: its id in the window being built, or -1.
  std::vector<int64_t> local;
};

} // namespace

WindowResult memsched_core::improveInWindows(const MemoryGraph &graph,
                                        std::vector<NodeId> order,
                                        const WindowOptions &options) {
  WindowResult result;
  size_t n = order.size();
  size_t width = std::min<size_t>(options.width, n);
  Windows windows(graph, std::move(order));
  size_t at = 0;
  uint64_t peak = windows.peak(at);
  result.initialPeak = peak;
  // Windows already tried around an order that has not changed since.
  std::set<std::pair<size_t, size_t>> tried;
  ScheduleOptions inner = options.schedule;
  inner.windows = false;
  inner.peerOrders = nullptr;
  for (unsigned round = 0; width >= 3 && round < options.rounds; ++round) {
    if (peak <= options.floor)
      break;
    // The window with the peak in its middle; then shifted by half a
    // window either way.
    size_t a = 0, b = 0;
    bool found = false;
    for (long shift : {0L, -1L, 1L}) {
      long center = static_cast<long>(at) + shift * static_cast<long>(width / 2);
      long start = std::clamp<long>(center - static_cast<long>(width / 2), 0,
                                    static_cast<long>(n - width));
      a = static_cast<size_t>(start);
      b = a + width;
      if (tried.insert({a, b}).second) {
        found = true;
        break;
      }
    }
    if (!found)
      break;
    ++result.windows;
    MemoryGraph w = windows.graphOf(a, b);
    // Below the whole graph's floor, a window's peak is worth nothing more.
    uint64_t across = windows.acrossOf(a, w);
    inner.target = options.floor > across ? options.floor - across : 0;
    ScheduleResult r = schedule(w, inner);
    // The memory outside the window does not change (the same nodes run
    // before each of its positions): a lower peak inside never raises the
    // whole order's. Where several stretches reach the peak, each is
    // lowered in turn.
    if (r.peak < r.inputPeak) {
      windows.replace(a, w, r.order, across);
      peak = windows.peak(at);
      ++result.accepted;
      tried.clear();
    }
  }
  result.order = std::move(windows.getOrder());
  result.peak = peak;
  return result;
}
