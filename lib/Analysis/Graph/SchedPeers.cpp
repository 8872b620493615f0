//===- SchedPeers.cpp - the orders of other compilers' schedulers -*- C++ -*-===//
//
// The memory-aware orders that XLA and PyTorch Inductor compute, on a
// segment graph, so that memsched's candidates always include them (its
// result is never worse than theirs) and the benchmarks can compare. Each
// follows the published algorithm, transposed to this graph: a node
// "defines" the buffers whose first toucher in the program order it is (not
// live-in), and "reads" the other buffers it touches; memory is measured in
// memsched's model (a buffer lives from its first toucher to its last).
//
//   xla-list        XLA's ListMemoryScheduler: list scheduling that picks the
//                   ready node with the most bytes freed minus bytes
//                   started, then the most successors, then program order.
//   xla-dfs         XLA's DFSMemoryScheduler: post-order DFS from the sinks;
//                   operands visited by most extra users in their subgraph
//                   (successors beyond the first, summed), then largest
//                   subgraph bytes, then program order.
//   xla-postorder   XLA's PostOrderMemoryScheduler: post-order DFS from the
//                   sinks in program order, operands in program order.
//   inductor-lpmf   Inductor's topological_sort_lpmf ("least peak memory
//                   first"): among ready nodes, the one whose memory while
//                   running stays within the peak so far and that leaves
//                   the least memory behind; if none stays within the peak,
//                   the one running at the lowest memory.
//   inductor-bfs    Inductor's topological_sort_bfs: the ready node whose
//                   predecessors ran earliest (their sorted positions
//                   compared lexicographically), then program order.
//   inductor-dfs    Inductor's topological_sort_dfs: nodes visited by
//                   ascending bytes defined plus bytes read, each after a
//                   post-order visit of its predecessors in that order.
//
// All are deterministic. The DFS and BFS orders take O((V + E) log V);
// xla-list and inductor-lpmf scan the ready nodes at each step (as XLA and
// Inductor do), O(V * ready + touches).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"
#include "ReadyTracker.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace memsched_core;
using namespace memsched_core::sched;

const char *sched::peerName(PeerScheduler peer) {
  switch (peer) {
  case PeerScheduler::XlaList:
    return "xla-list";
  case PeerScheduler::XlaDfs:
    return "xla-dfs";
  case PeerScheduler::XlaPostOrder:
    return "xla-postorder";
  case PeerScheduler::InductorLpmf:
    return "inductor-lpmf";
  case PeerScheduler::InductorBfs:
    return "inductor-bfs";
  case PeerScheduler::InductorDfs:
    return "inductor-dfs";
  }
  return "unknown";
}

const std::vector<PeerScheduler> &sched::allPeers() {
  static const std::vector<PeerScheduler> peers = {
      PeerScheduler::XlaList,      PeerScheduler::XlaDfs,
      PeerScheduler::XlaPostOrder, PeerScheduler::InductorLpmf,
      PeerScheduler::InductorBfs,  PeerScheduler::InductorDfs};
  return peers;
}

namespace {

/// Bytes each node defines (buffers it is the first toucher of, not
/// live-in) and reads (the other buffers it touches).
struct DefinedRead {
  std::vector<uint64_t> defined, read;
};

DefinedRead definedAndRead(const SegmentGraph &seg) {
  DefinedRead r;
  r.defined.assign(seg.numNodes(), 0);
  r.read.assign(seg.numNodes(), 0);
  for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
    IdRange t = seg.touchers(b);
    for (const uint32_t *it = t.begin(); it != t.end(); ++it) {
      bool defines = it == t.begin() && !seg.liveIn[b];
      (defines ? r.defined : r.read)[*it] += seg.size[b];
    }
  }
  return r;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/// Post-order DFS over predecessors: visits `roots` in the given order, the
/// predecessors of each node in the order `less` gives. Iterative (chains of
/// 100k nodes).
template <typename Less>
std::vector<LocalId> postOrder(const SegmentGraph &seg,
                               const std::vector<LocalId> &roots, Less less) {
  size_t n = seg.numNodes();
  std::vector<uint8_t> seen(n, 0);
  std::vector<LocalId> order;
  order.reserve(n);
  // Stack of (node, its predecessors sorted, next index).
  struct Frame {
    LocalId node;
    std::vector<LocalId> preds;
    size_t next;
  };
  std::vector<Frame> stack;
  auto push = [&](LocalId v) {
    seen[v] = 1;
    IdRange p = seg.preds(v);
    Frame f{v, std::vector<LocalId>(p.begin(), p.end()), 0};
    std::stable_sort(f.preds.begin(), f.preds.end(), less);
    stack.push_back(std::move(f));
  };
  for (LocalId root : roots) {
    if (seen[root])
      continue;
    push(root);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next < top.preds.size()) {
        LocalId p = top.preds[top.next++];
        if (!seen[p])
          push(p);
        continue;
      }
      order.push_back(top.node);
      stack.pop_back();
    }
  }
  assert(order.size() == n && "every node reaches a sink");
  return order;
}

std::vector<LocalId> sinksOf(const SegmentGraph &seg) {
  std::vector<LocalId> sinks;
  for (LocalId v = 0; v < seg.numNodes(); ++v)
    if (seg.succs(v).size() == 0)
      sinks.push_back(v);
  return sinks;
}

std::vector<LocalId> xlaPostOrder(const SegmentGraph &seg) {
  return postOrder(seg, sinksOf(seg),
                   [](LocalId a, LocalId b) { return a < b; });
}

std::vector<LocalId> xlaDfs(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  DefinedRead dr = definedAndRead(seg);
  // Subgraph statistics in program order (a topological order); XLA sums
  // over the unique operands, so shared subgraphs count more than once.
  std::vector<uint64_t> extraUsers(n), totalSizes(n);
  for (LocalId v = 0; v < n; ++v) {
    size_t users = seg.succs(v).size();
    extraUsers[v] = users ? users - 1 : 0;
    totalSizes[v] = dr.defined[v];
    for (LocalId p : seg.preds(v)) {
      extraUsers[v] = saturatingAdd(extraUsers[v], extraUsers[p]);
      totalSizes[v] = saturatingAdd(totalSizes[v], totalSizes[p]);
    }
  }
  auto less = [&](LocalId a, LocalId b) {
    if (extraUsers[a] != extraUsers[b])
      return extraUsers[a] > extraUsers[b];
    if (totalSizes[a] != totalSizes[b])
      return totalSizes[a] > totalSizes[b];
    return a < b;
  };
  std::vector<LocalId> roots = sinksOf(seg);
  std::stable_sort(roots.begin(), roots.end(), less);
  return postOrder(seg, roots, less);
}

std::vector<LocalId> inductorDfs(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  DefinedRead dr = definedAndRead(seg);
  std::vector<uint64_t> key(n);
  for (LocalId v = 0; v < n; ++v)
    key[v] = saturatingAdd(dr.defined[v], dr.read[v]);
  auto less = [&](LocalId a, LocalId b) {
    return key[a] != key[b] ? key[a] < key[b] : a < b;
  };
  std::vector<LocalId> roots(n);
  for (LocalId v = 0; v < n; ++v)
    roots[v] = v;
  std::stable_sort(roots.begin(), roots.end(), less);
  return postOrder(seg, roots, less);
}

std::vector<LocalId> inductorBfs(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  std::vector<uint32_t> position(n, 0), indeg(n);
  struct Entry {
    std::vector<uint32_t> priority;
    LocalId node;
    bool operator<(const Entry &o) const { // inverted: min-heap
      if (priority != o.priority)
        return o.priority < priority;
      return o.node < node;
    }
  };
  std::priority_queue<Entry> heap;
  auto entryFor = [&](LocalId v) {
    Entry e{{}, v};
    for (LocalId p : seg.preds(v))
      e.priority.push_back(position[p]);
    std::sort(e.priority.begin(), e.priority.end());
    return e;
  };
  for (LocalId v = 0; v < n; ++v) {
    indeg[v] = static_cast<uint32_t>(seg.preds(v).size());
    if (indeg[v] == 0)
      heap.push(entryFor(v));
  }
  std::vector<LocalId> order;
  order.reserve(n);
  while (!heap.empty()) {
    LocalId v = heap.top().node;
    heap.pop();
    position[v] = static_cast<uint32_t>(order.size());
    order.push_back(v);
    for (LocalId s : seg.succs(v))
      if (--indeg[s] == 0)
        heap.push(entryFor(s));
  }
  assert(order.size() == n && "segment graph has a cycle");
  return order;
}

/// Runs the nodes one by one, each time the one `pick` chooses from the
/// ready nodes (in the order they became ready).
template <typename Pick>
std::vector<LocalId> scanSchedule(const SegmentGraph &seg, Pick pick) {
  ReadyTracker t(seg);
  std::vector<LocalId> ready, order;
  order.reserve(seg.numNodes());
  t.initialReady([&](LocalId v) { ready.push_back(v); });
  while (!ready.empty()) {
    LocalId v = pick(t, ready);
    ready.erase(std::find(ready.begin(), ready.end(), v));
    t.run(
        v, [](LocalId) {}, [&](LocalId s) { ready.push_back(s); });
    order.push_back(v);
  }
  assert(order.size() == seg.numNodes() && "segment graph has a cycle");
  return order;
}

std::vector<LocalId> inductorLpmf(const SegmentGraph &seg) {
  uint64_t peakSoFar = 0;
  return scanSchedule(seg, [&](const ReadyTracker &t,
                               const std::vector<LocalId> &ready) {
    LocalId pick = ready.front();
    uint64_t bestMem = 0;
    int64_t bestNet = 0;
    // The live-in bytes at the start; later never above a step's memory.
    peakSoFar = std::max(peakSoFar, t.liveBytes());
    for (size_t i = 0; i < ready.size(); ++i) {
      LocalId u = ready[i];
      uint64_t mem = std::max(t.runMemory(u), peakSoFar);
      int64_t net = t.net(u);
      if (i == 0 || mem < bestMem ||
          (mem == bestMem && (net < bestNet || (net == bestNet && u < pick)))) {
        pick = u;
        bestMem = mem;
        bestNet = net;
      }
    }
    peakSoFar = std::max(peakSoFar, t.runMemory(pick));
    return pick;
  });
}

std::vector<LocalId> xlaList(const SegmentGraph &seg) {
  return scanSchedule(seg, [&](const ReadyTracker &t,
                               const std::vector<LocalId> &ready) {
    LocalId pick = ready.front();
    for (LocalId u : ready) {
      int64_t a = t.net(u), b = t.net(pick);
      size_t su = seg.succs(u).size(), sp = seg.succs(pick).size();
      if (a < b || (a == b && (su > sp || (su == sp && u < pick))))
        pick = u;
    }
    return pick;
  });
}

} // namespace

std::vector<LocalId> sched::peerSchedule(const SegmentGraph &seg,
                                         PeerScheduler peer) {
  if (seg.numNodes() == 0)
    return {};
  switch (peer) {
  case PeerScheduler::XlaList:
    return xlaList(seg);
  case PeerScheduler::XlaDfs:
    return xlaDfs(seg);
  case PeerScheduler::XlaPostOrder:
    return xlaPostOrder(seg);
  case PeerScheduler::InductorLpmf:
    return inductorLpmf(seg);
  case PeerScheduler::InductorBfs:
    return inductorBfs(seg);
  case PeerScheduler::InductorDfs:
    return inductorDfs(seg);
  }
  return {};
}

std::vector<NodeId> sched::peerOrder(const MemoryGraph &graph,
                                     PeerScheduler peer) {
  SegmentGraph whole =
      buildSegment(graph, 0, static_cast<NodeId>(graph.numNodes()));
  return peerSchedule(whole, peer);
}

std::vector<std::vector<NodeId>>
memsched_core::sched::allPeerOrders(const MemoryGraph &graph) {
  std::vector<std::vector<NodeId>> orders;
  for (PeerScheduler peer : allPeers())
    orders.push_back(peerOrder(graph, peer));
  return orders;
}
