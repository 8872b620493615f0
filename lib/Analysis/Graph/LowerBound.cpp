//===- LowerBound.cpp - lower bounds on the peak of any order ---*- C++ -*-===//
//
// The bounds, cheapest first (docs/lower-bounds.md has the proofs):
//  - local: what a node touches plus its transient bytes;
//  - the searches over how orders end and begin (BoundEnds.cpp);
//  - the forward cut of a node v: the minimum, over executed sets S (down-sets
//    holding every ancestor of v and not v), of the memory while v runs after
//    S. One s-t min-cut on the nodes incomparable to v, after fixing those
//    whose side provably does not matter;
//  - the window search: a bottleneck search over the relative orders of a few
//    nodes, each step priced by a cut constrained to that order.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace memsched_core;

using Capacity = FlowNetwork::Capacity;

namespace {

//===----------------------------------------------------------------------===//
// Reachability
//===----------------------------------------------------------------------===//

/// Ancestor and descendant queries. Nodes with successors are split into
/// chains (each totally ordered by reachability); label(u, c) is the highest
/// position on chain c of an ancestor-or-self of u. The ancestors of v on a
/// chain are a prefix and its descendants a suffix, so the nodes incomparable
/// to v are one segment per chain. Sinks (no successors) stay off the chains:
/// each would end a chain for good, and they are ancestors of nothing; their
/// labels come from their predecessors. When the labels would be too large
/// (very wide graphs), queries fall back to a BFS per node.
class Reachability {
public:
  Reachability(const MemoryGraph &graph, size_t maxLabels)
      : graph(graph), numEdges(graph.numEdges()) {
    for (NodeId u = 0; u < graph.numNodes(); ++u)
      if (graph.succs(u).empty())
        sinks.push_back(u);
    useChains = buildChains(maxLabels);
    if (!useChains) {
      ancStamp.assign(graph.numNodes(), 0);
      descStamp.assign(graph.numNodes(), 0);
    }
  }

  /// Prepares queries relative to `v` and lists the nodes incomparable to v
  /// (sorted) in `freeNodes`.
  void focus(NodeId v, std::vector<NodeId> &freeNodes) {
    focusNode = v;
    freeNodes.clear();
    if (!useChains) {
      lastFocusCost = graph.numNodes() + numEdges;
      ++stamp;
      mark(v, ancStamp, /*backward=*/true);
      mark(v, descStamp, /*backward=*/false);
      for (NodeId u = 0; u < graph.numNodes(); ++u)
        if (u != v && ancStamp[u] != stamp && descStamp[u] != stamp)
          freeNodes.push_back(u);
      return;
    }
    focusRow.assign(chains.size(), -1);
    bool sink = graph.succs(v).empty();
    if (sink) {
      for (NodeId p : graph.preds(v))
        for (size_t c = 0, e = rowLength(p); c < e; ++c)
          focusRow[c] = std::max(focusRow[c], labels[rowStart[p] + c]);
    } else {
      for (size_t c = 0, e = rowLength(v); c < e; ++c)
        focusRow[c] = labels[rowStart[v] + c];
    }
    for (uint32_t c = 0; c < chains.size(); ++c) {
      const std::vector<NodeId> &chain = chains[c];
      size_t lo = static_cast<size_t>(focusRow[c] + 1);
      // First position on the chain holding a descendant of v (a sink has
      // none).
      size_t first = sink ? chain.size() : lo, last = chain.size();
      while (first < last) {
        size_t mid = (first + last) / 2;
        if (reaches(v, chain[mid]))
          last = mid;
        else
          first = mid + 1;
      }
      for (size_t i = lo; i < first; ++i)
        if (chain[i] != v)
          freeNodes.push_back(chain[i]);
    }
    for (NodeId u : sinks)
      if (u != v && !reaches(v, u))
        freeNodes.push_back(u);
    std::sort(freeNodes.begin(), freeNodes.end());
    lastFocusCost = chains.size() + sinks.size() + freeNodes.size();
  }

  /// Relative to the focused node v: is u a (strict) ancestor / descendant?
  bool isAncestor(NodeId u) const {
    if (!useChains)
      return ancStamp[u] == stamp;
    return u != focusNode && !graph.succs(u).empty() &&
           static_cast<int32_t>(position[u]) <= focusRow[chainOf[u]];
  }
  bool isDescendant(NodeId u) const {
    if (!useChains)
      return descStamp[u] == stamp;
    return u != focusNode && reaches(focusNode, u);
  }

  /// Calls f(u) for every strict ancestor of the focused node.
  template <typename F> void forEachAncestor(F f) const {
    if (!useChains) {
      for (NodeId u = 0; u < graph.numNodes(); ++u)
        if (ancStamp[u] == stamp)
          f(u);
      return;
    }
    for (uint32_t c = 0; c < chains.size(); ++c)
      for (int32_t i = 0; i <= focusRow[c]; ++i)
        if (chains[c][i] != focusNode)
          f(chains[c][i]);
  }

  /// Rough cost of the last focus() in work units.
  uint64_t focusCost() const { return lastFocusCost; }

private:
  size_t rowLength(NodeId u) const { return rowStart[u + 1] - rowStart[u]; }
  /// Highest position on chain c of an ancestor-or-self of the non-sink u.
  int32_t label(NodeId u, uint32_t c) const {
    return c < rowLength(u) ? labels[rowStart[u] + c] : -1;
  }
  /// True when a path leads from a to b (or a == b).
  bool reaches(NodeId a, NodeId b) const {
    if (a == b)
      return true;
    if (graph.succs(a).empty())
      return false;
    if (!graph.succs(b).empty())
      return static_cast<int32_t>(position[a]) <= label(b, chainOf[a]);
    for (NodeId p : graph.preds(b))
      if (static_cast<int32_t>(position[a]) <= label(p, chainOf[a]))
        return true;
    return false;
  }

  bool buildChains(size_t maxLabels) {
    size_t n = graph.numNodes();
    chainOf.assign(n, 0);
    position.assign(n, 0);
    rowStart.assign(n + 1, 0);
    labels.clear();
    for (NodeId u = 0; u < n; ++u) {
      if (graph.succs(u).empty()) {
        rowStart[u + 1] = labels.size();
        continue;
      }
      // Row of u: elementwise max of its predecessors' rows. A chain created
      // after a node holds no ancestor of it, so rows may be short.
      size_t len = chains.size();
      if (labels.size() + len + 1 > maxLabels) {
        chains.clear();
        labels.clear();
        return false;
      }
      size_t start = labels.size();
      labels.resize(start + len, -1);
      for (NodeId p : graph.preds(u))
        for (size_t c = 0, e = rowLength(p); c < e; ++c)
          labels[start + c] =
              std::max(labels[start + c], labels[rowStart[p] + c]);
      // Extend a chain whose tail is an ancestor: a predecessor's chain if
      // possible, else the one with the latest tail, else start a new one.
      int64_t pick = -1;
      for (NodeId p : graph.preds(u))
        if (chains[chainOf[p]].back() == p) {
          pick = chainOf[p];
          break;
        }
      if (pick < 0) {
        NodeId bestTail = 0;
        for (size_t c = 0; c < len; ++c)
          if (labels[start + c] == static_cast<int32_t>(chains[c].size()) - 1 &&
              (pick < 0 || chains[c].back() > bestTail)) {
            pick = static_cast<int64_t>(c);
            bestTail = chains[c].back();
          }
      }
      if (pick < 0) {
        pick = static_cast<int64_t>(chains.size());
        chains.emplace_back();
        labels.push_back(-1);
      }
      chainOf[u] = static_cast<uint32_t>(pick);
      position[u] = static_cast<uint32_t>(chains[pick].size());
      chains[pick].push_back(u);
      labels[start + pick] = static_cast<int32_t>(position[u]);
      rowStart[u + 1] = labels.size();
    }
    return true;
  }

  void mark(NodeId v, std::vector<uint32_t> &marks, bool backward) {
    queue.clear();
    queue.push_back(v);
    for (size_t i = 0; i < queue.size(); ++i) {
      IdRange next =
          backward ? graph.preds(queue[i]) : graph.succs(queue[i]);
      for (NodeId w : next)
        if (marks[w] != stamp) {
          marks[w] = stamp;
          queue.push_back(w);
        }
    }
  }

  const MemoryGraph &graph;
  bool useChains = false;
  NodeId focusNode = 0;
  size_t numEdges = 0;
  uint64_t lastFocusCost = 0;
  std::vector<NodeId> sinks;
  // Chain labels (rows of sinks are empty).
  std::vector<std::vector<NodeId>> chains;
  std::vector<uint32_t> chainOf, position;
  std::vector<size_t> rowStart;
  std::vector<int32_t> labels;
  /// Label row of the focused node.
  std::vector<int32_t> focusRow;
  // BFS fallback.
  uint32_t stamp = 0;
  std::vector<uint32_t> ancStamp, descStamp;
  std::vector<NodeId> queue;
};

//===----------------------------------------------------------------------===//
// Per-node cut networks
//===----------------------------------------------------------------------===//

/// The min-cut problem of one node v. The nodes incomparable to v ("free")
/// may run before or after it; some are fixed to a side (by the caller's
/// constraints, or because one side is never worse), the rest form a network:
/// node 0 is the source (runs before v), 1 the sink (runs after v), 2+i the
/// i-th unfixed free node, then gadget nodes. That network is split into its
/// components without s and t; a component that is one free node is solved
/// in closed form, every other one is its own small flow problem.
struct CutNetwork {
  struct Edge {
    unsigned from, to;
    Capacity cap;
  };
  /// One component: local node 0 = s, 1 = t, 2+j = members[j] (raw ids).
  struct Component {
    std::vector<unsigned> members;
    std::vector<Edge> edges;
    /// In the executed set behind `upper`: all members before v (else all
    /// after).
    bool allBefore = false;
  };

  NodeId node = 0;
  /// Transient bytes plus the buffers live at v in every order (the trivial
  /// bound).
  uint64_t mustLive = 0;
  /// Paid whatever the cut among the unfixed nodes: mustLive, buffers made
  /// live by the fixed sides, and the cheaper side of every lone node.
  uint64_t forced = 0;
  /// forced plus, per component, the cheaper of running all its nodes after
  /// v or all before: the cost of a valid executed set, so at least the cut.
  uint64_t upper = 0;
  std::vector<NodeId> freeNodes;
  /// Per free node: 0 unfixed, 1 fixed before v, 2 fixed after v.
  std::vector<uint8_t> fixed;
  /// Unfixed free nodes (indices into freeNodes); raw id 2+j is unfixed[j].
  std::vector<unsigned> unfixed;
  /// Per unfixed node: its component, or -1 when it is alone.
  std::vector<int> componentOf;
  /// Per lone unfixed node: the charge when it runs before / after v.
  std::vector<uint64_t> costBefore, costAfter;
  std::vector<Component> components;
  /// Size of the problem before reduction (free nodes + gadget touches), for
  /// the work budget.
  size_t work = 0;
};

/// Work units per node or touch visited while building a network; a flow
/// arc scan is one unit (measured: about 8x cheaper).
static constexpr uint64_t kWalkWeight = 8;

/// Builds and solves the cut networks of single nodes.
class CutBuilder {
public:
  CutBuilder(const MemoryGraph &graph, Reachability &reach,
             const std::vector<uint64_t> &programMemory)
      : graph(graph), reach(reach), programMemory(programMemory) {
    nodeStamp.assign(graph.numNodes(), 0);
    freeIndexOf.assign(graph.numNodes(), 0);
    bufInfo.resize(graph.numBuffers());
    for (BufferId b = 0; b < graph.numBuffers(); ++b) {
      const GraphBuffer &buf = graph.buffer(b);
      BufInfo &info = bufInfo[b];
      info.size = buf.size;
      info.liveIn = buf.liveIn;
      info.liveOut = buf.liveOut;
      if (!buf.touchers.empty()) {
        info.firstToucher = buf.touchers.front();
        info.lastToucher = buf.touchers.back();
      }
    }
  }

  /// Fills `net` for node v, with the graph nodes `before` / `after` forced
  /// to run before / after v (they must be consistent with the dependencies;
  /// ancestors of `before` nodes go before, descendants of `after` nodes
  /// after).
  void build(NodeId v, CutNetwork &net, const std::vector<NodeId> &before = {},
             const std::vector<NodeId> &after = {},
             const std::vector<BufferId> &alsoLive = {}) {
    net.node = v;
    reach.focus(v, net.freeNodes);
    size_t numFree = net.freeNodes.size();
    ++stamp;
    for (size_t i = 0; i < numFree; ++i) {
      nodeStamp[net.freeNodes[i]] = stamp;
      freeIndexOf[net.freeNodes[i]] = static_cast<unsigned>(i);
    }
    net.fixed.assign(numFree, 0);
    fixClosure(before, net, /*side=*/1);
    fixClosure(after, net, /*side=*/2);

    uint64_t touched = 0;
    for (BufferId b : graph.buffersOf(v)) {
      bufInfo[b].stamp = stamp;
      touched += bufInfo[b].size;
    }
    uint64_t mustLive = graph.transientBytes(v) + touched;
    // Buffers counted live while v runs, as if v touched them: those live
    // at v in program order are in programMemory[v] (as v's own are); the
    // others add their bytes.
    for (BufferId b : alsoLive) {
      BufInfo &buf = bufInfo[b];
      if (buf.stamp == stamp)
        continue;
      buf.stamp = stamp;
      bool liveInProgram =
          graph.touchersOf(b).size() == 0
              ? buf.liveIn && buf.liveOut
              : (buf.liveIn || buf.firstToucher <= v) &&
                    (buf.liveOut || buf.lastToucher >= v);
      if (liveInProgram)
        touched += buf.size;
      mustLive += buf.size;
    }

    // Buffers with a free toucher. Those without one are fixed: live in every
    // order iff live in the program order (their touchers before v there are
    // ancestors, those after are descendants), which gives their total.
    gadgets.clear();
    gadgetTouchers.clear();
    uint64_t liveInProgramWithFree = 0;
    for (NodeId u : net.freeNodes)
      for (BufferId b : graph.buffersOf(u)) {
        BufInfo &buf = bufInfo[b];
        if (buf.stamp == stamp)
          continue;
        buf.stamp = stamp;
        if (buf.size == 0)
          continue;
        if ((buf.liveIn || buf.firstToucher <= v) &&
            (buf.liveOut || buf.lastToucher >= v))
          liveInProgramWithFree += buf.size;
        mustLive += addGadget(b, net);
      }
    net.mustLive = mustLive + programMemory[v] - graph.transientBytes(v) -
                   touched - liveInProgramWithFree;
    net.work = numFree + gadgetTouchers.size();
    // Graph walks miss the cache far more than flow arc scans.
    workDone += kWalkWeight * (reach.focusCost() + net.work);

    peel(net);
    net.forced = net.mustLive + makeNetwork(net);
  }

  /// Every buffer's bytes from `sizes` instead of the graph's.
  void setSizes(const std::vector<uint64_t> &sizes) {
    for (BufferId b = 0; b < graph.numBuffers(); ++b)
      bufInfo[b].size = sizes[b];
  }

  /// Exact minimum memory at net.node under build()'s constraints. Counts one
  /// flow if any component needed one.
  uint64_t solve(CutNetwork &net, MaxFlowAlgorithm algorithm,
                 unsigned &flowCount) {
    uint64_t total = net.forced;
    placeLoneNodes(net);
    for (const CutNetwork::Component &comp : net.components) {
      flow.clear();
      flow.addNodes(2 + static_cast<unsigned>(comp.members.size()));
      for (const CutNetwork::Edge &e : comp.edges)
        flow.addEdge(e.from, e.to, e.cap);
      total += static_cast<uint64_t>(flow.solve(0, 1, algorithm));
      workDone += flow.work() + 4 * comp.edges.size();
      for (size_t j = 0; j < comp.members.size(); ++j) {
        unsigned raw = comp.members[j];
        if (raw < 2 + net.unfixed.size())
          beforeV[raw - 2] = flow.sourceSide(2 + j);
      }
    }
    if (!net.components.empty())
      ++flowCount;
    return total;
  }

  /// Without a flow: places each component on its cheaper side, as
  /// net.upper does, so that executedSet() returns the set behind net.upper.
  void placeByUpperEstimate(const CutNetwork &net) {
    placeLoneNodes(net);
    for (const CutNetwork::Component &comp : net.components)
      for (unsigned raw : comp.members)
        if (raw < 2 + net.unfixed.size())
          beforeV[raw - 2] = comp.allBefore;
  }

  /// Work spent so far: free nodes, gadget touches and flow arc scans.
  uint64_t work() const { return workDone; }

  /// After solve(): the executed set of the last cut, as graph nodes
  /// (sorted), including every ancestor of net.node.
  std::vector<NodeId> executedSet(const CutNetwork &net) {
    std::vector<NodeId> s;
    reach.focus(net.node, scratch);
    reach.forEachAncestor([&](NodeId u) { s.push_back(u); });
    for (size_t i = 0; i < net.freeNodes.size(); ++i)
      if (net.fixed[i] == 1)
        s.push_back(net.freeNodes[i]);
    for (size_t j = 0; j < net.unfixed.size(); ++j)
      if (beforeV[j])
        s.push_back(net.freeNodes[net.unfixed[j]]);
    std::sort(s.begin(), s.end());
    return s;
  }

private:
  /// A buffer whose charge depends on the free nodes: charged iff
  /// (started or an unfixed toucher runs before v) and (pending or an unfixed
  /// toucher runs after v).
  struct Gadget {
    BufferId buffer;
    Capacity size;
    bool started, pending;
    unsigned unfixedCount;
    unsigned first, last; // its free touchers: gadgetTouchers[first, last)
  };

  /// Lone unfixed nodes on their cheaper side; the rest after v.
  void placeLoneNodes(const CutNetwork &net) {
    beforeV.assign(net.unfixed.size(), 0);
    for (size_t j = 0; j < net.unfixed.size(); ++j)
      if (net.componentOf[j] < 0 && net.costBefore[j] <= net.costAfter[j])
        beforeV[j] = 1;
  }

  int freeIndex(NodeId u) const {
    return nodeStamp[u] == stamp ? static_cast<int>(freeIndexOf[u]) : -1;
  }

  /// Fixes `roots` (when free) and their free ancestors (side 1) or
  /// descendants (side 2).
  void fixClosure(const std::vector<NodeId> &roots, CutNetwork &net,
                  uint8_t side) {
    worklist.clear();
    for (NodeId r : roots)
      if (int i = freeIndex(r); i >= 0 && !net.fixed[i]) {
        net.fixed[i] = side;
        worklist.push_back(static_cast<unsigned>(i));
      }
    while (!worklist.empty()) {
      NodeId u = net.freeNodes[worklist.back()];
      worklist.pop_back();
      for (NodeId w : side == 1 ? graph.preds(u) : graph.succs(u))
        if (int i = freeIndex(w); i >= 0 && !net.fixed[i]) {
          net.fixed[i] = side;
          worklist.push_back(static_cast<unsigned>(i));
        }
    }
  }

  /// Records buffer b (not touched by v, with a free toucher). Returns its
  /// size if it is live at v in every order, else 0.
  uint64_t addGadget(BufferId b, CutNetwork &net) {
    const BufInfo &buf = bufInfo[b];
    Gadget g{b,          static_cast<Capacity>(buf.size),
             buf.liveIn, buf.liveOut,
             0,          static_cast<unsigned>(gadgetTouchers.size()),
             0};
    bool mustStart = buf.liveIn, mustPend = buf.liveOut;
    for (NodeId t : graph.touchersOf(b)) {
      int i = freeIndex(t);
      if (i < 0) {
        if (reach.isAncestor(t))
          mustStart = true;
        else
          mustPend = true; // a descendant (v itself does not touch b)
        continue;
      }
      gadgetTouchers.push_back(static_cast<unsigned>(i));
      if (net.fixed[i] == 1)
        g.started = true;
      else if (net.fixed[i] == 2)
        g.pending = true;
      else
        ++g.unfixedCount;
    }
    if (mustStart && mustPend) {
      gadgetTouchers.resize(g.first);
      return buf.size;
    }
    g.started |= mustStart;
    g.pending |= mustPend;
    g.last = static_cast<unsigned>(gadgetTouchers.size());
    gadgets.push_back(g);
    return 0;
  }

  /// Whether moving free node i from before v to after v (side 2), or the
  /// reverse (side 1), never raises the charge of gadget g.
  static bool sideDominates(const Gadget &g, uint8_t side) {
    if (side == 2)
      return g.pending || (!g.started && g.unfixedCount == 1);
    return g.started || (!g.pending && g.unfixedCount == 1);
  }

  /// Fixes unfixed free nodes whose side does not matter: a node with no
  /// unfixed free successor can leave S (S stays down-closed), and if no
  /// gadget of it charges more that way, some minimum cut has it after v;
  /// symmetrically before v. Exact: the minimum is unchanged.
  void peel(CutNetwork &net) {
    size_t numFree = net.freeNodes.size();
    // Gadgets of each free node (CSR).
    nodeGadgetStart.assign(numFree + 1, 0);
    for (unsigned t : gadgetTouchers)
      ++nodeGadgetStart[t + 1];
    for (size_t i = 0; i < numFree; ++i)
      nodeGadgetStart[i + 1] += nodeGadgetStart[i];
    nodeGadgets.resize(gadgetTouchers.size());
    fill.assign(nodeGadgetStart.begin(), nodeGadgetStart.end() - 1);
    for (unsigned g = 0; g < gadgets.size(); ++g)
      for (unsigned k = gadgets[g].first; k < gadgets[g].last; ++k)
        nodeGadgets[fill[gadgetTouchers[k]]++] = g;
    // Unfixed free neighbours in the dependency graph.
    openPreds.assign(numFree, 0);
    openSuccs.assign(numFree, 0);
    for (size_t i = 0; i < numFree; ++i) {
      if (net.fixed[i])
        continue;
      for (NodeId p : graph.preds(net.freeNodes[i]))
        if (int j = freeIndex(p); j >= 0 && !net.fixed[j]) {
          ++openPreds[i];
          ++openSuccs[j];
        }
    }
    queued.assign(numFree, 0);
    worklist.clear();
    for (size_t i = numFree; i-- > 0;)
      if (!net.fixed[i]) {
        worklist.push_back(static_cast<unsigned>(i));
        queued[i] = 1;
      }
    auto push = [&](unsigned i) {
      if (!net.fixed[i] && !queued[i]) {
        queued[i] = 1;
        worklist.push_back(i);
      }
    };
    while (!worklist.empty()) {
      unsigned i = worklist.back();
      worklist.pop_back();
      queued[i] = 0;
      if (net.fixed[i])
        continue;
      uint8_t side = 0;
      for (uint8_t s : {uint8_t(2), uint8_t(1)}) {
        if ((s == 2 && openSuccs[i]) || (s == 1 && openPreds[i]))
          continue;
        bool ok = true;
        for (unsigned k = nodeGadgetStart[i]; k < nodeGadgetStart[i + 1] && ok;
             ++k)
          ok = sideDominates(gadgets[nodeGadgets[k]], s);
        if (ok) {
          side = s;
          break;
        }
      }
      if (!side)
        continue;
      net.fixed[i] = side;
      NodeId u = net.freeNodes[i];
      for (NodeId p : graph.preds(u))
        if (int j = freeIndex(p); j >= 0 && !net.fixed[j]) {
          --openSuccs[j];
          push(static_cast<unsigned>(j));
        }
      for (NodeId w : graph.succs(u))
        if (int j = freeIndex(w); j >= 0 && !net.fixed[j]) {
          --openPreds[j];
          push(static_cast<unsigned>(j));
        }
      for (unsigned k = nodeGadgetStart[i]; k < nodeGadgetStart[i + 1]; ++k) {
        Gadget &g = gadgets[nodeGadgets[k]];
        bool wasStarted = g.started, wasPending = g.pending;
        --g.unfixedCount;
        (side == 1 ? g.started : g.pending) = true;
        // Neighbours only need a new look when a test input changed.
        if (g.started != wasStarted || g.pending != wasPending ||
            g.unfixedCount == 1)
          for (unsigned m = g.first; m < g.last; ++m)
            push(gadgetTouchers[m]);
      }
    }
  }

  /// Builds the network of the unfixed nodes and splits it; returns the
  /// charge of the gadgets the fixed sides decide plus the closed-form
  /// charge of the lone nodes, and sets net.upper.
  uint64_t makeNetwork(CutNetwork &net) {
    size_t numFree = net.freeNodes.size();
    net.unfixed.clear();
    rawOf.assign(numFree, 0);
    for (size_t i = 0; i < numFree; ++i)
      if (!net.fixed[i]) {
        rawOf[i] = 2 + static_cast<unsigned>(net.unfixed.size());
        net.unfixed.push_back(static_cast<unsigned>(i));
      }
    rawEdges.clear();
    rawNodes = 2 + static_cast<unsigned>(net.unfixed.size());
    // Down-closure: u in S needs its free predecessors in S.
    for (unsigned i : net.unfixed)
      for (NodeId p : graph.preds(net.freeNodes[i]))
        if (int j = freeIndex(p); j >= 0 && !net.fixed[j])
          rawEdges.push_back({rawOf[i], rawOf[j], FlowNetwork::kInfinite});
    uint64_t decided = 0;
    for (const Gadget &g : gadgets) {
      if (g.started && g.pending) {
        decided += static_cast<uint64_t>(g.size);
        continue;
      }
      ids.clear();
      for (unsigned k = g.first; k < g.last; ++k)
        if (!net.fixed[gadgetTouchers[k]])
          ids.push_back(rawOf[gadgetTouchers[k]]);
      addGadgetEdges(g, ids);
    }
    uint64_t lone = split(net);
    net.upper = net.mustLive + decided + lone + spreadCharge;
    return decided + lone;
  }

  /// Arcs charging g.size when the gadget's buffer is live at v, given its
  /// unfixed touchers' raw ids.
  void addGadgetEdges(const Gadget &g, const std::vector<unsigned> &free) {
    if (free.empty())
      return;
    if (g.started) {
      // Charged when some unfixed toucher runs after v.
      if (free.size() == 1) {
        rawEdges.push_back({0, free[0], g.size});
        return;
      }
      unsigned x = rawNodes++;
      rawEdges.push_back({0, x, g.size});
      for (unsigned id : free)
        rawEdges.push_back({x, id, FlowNetwork::kInfinite});
      return;
    }
    if (g.pending) {
      // Charged when some unfixed toucher runs before v.
      if (free.size() == 1) {
        rawEdges.push_back({free[0], 1, g.size});
        return;
      }
      unsigned y = rawNodes++;
      for (unsigned id : free)
        rawEdges.push_back({id, y, FlowNetwork::kInfinite});
      rawEdges.push_back({y, 1, g.size});
      return;
    }
    // Charged when the unfixed touchers are split by the cut.
    if (free.size() == 1)
      return;
    if (free.size() == 2) {
      rawEdges.push_back({free[0], free[1], g.size});
      rawEdges.push_back({free[1], free[0], g.size});
      return;
    }
    unsigned y = rawNodes++, x = rawNodes++;
    for (unsigned id : free) {
      rawEdges.push_back({id, y, FlowNetwork::kInfinite});
      rawEdges.push_back({x, id, FlowNetwork::kInfinite});
    }
    rawEdges.push_back({y, x, g.size});
  }

  unsigned findRoot(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }

  /// Splits the raw network into components; returns the closed-form charge
  /// of the lone nodes and sets net.upper.
  uint64_t split(CutNetwork &net) {
    size_t numUnfixed = net.unfixed.size();
    parent.resize(rawNodes);
    for (unsigned x = 0; x < rawNodes; ++x)
      parent[x] = x;
    alone.assign(rawNodes, 1);
    for (const CutNetwork::Edge &e : rawEdges)
      if (e.from >= 2 && e.to >= 2) {
        parent[findRoot(e.from)] = findRoot(e.to);
        alone[e.from] = alone[e.to] = 0;
      }
    net.componentOf.assign(numUnfixed, -1);
    net.costBefore.assign(numUnfixed, 0);
    net.costAfter.assign(numUnfixed, 0);
    net.components.clear();
    // Components numbered by first member, so the order is deterministic.
    compOfRoot.assign(rawNodes, -1);
    localOf.assign(rawNodes, 0);
    for (unsigned x = 2; x < rawNodes; ++x) {
      if (alone[x])
        continue; // a lone unfixed node (gadget nodes always have neighbours)
      unsigned r = findRoot(x);
      if (compOfRoot[r] < 0) {
        compOfRoot[r] = static_cast<int>(net.components.size());
        net.components.emplace_back();
      }
      CutNetwork::Component &comp = net.components[compOfRoot[r]];
      localOf[x] = 2 + static_cast<unsigned>(comp.members.size());
      comp.members.push_back(x);
      if (x < 2 + numUnfixed)
        net.componentOf[x - 2] = compOfRoot[r];
    }
    for (const CutNetwork::Edge &e : rawEdges) {
      if (e.from >= 2 && alone[e.from]) {
        net.costBefore[e.from - 2] += static_cast<uint64_t>(e.cap); // u -> t
        continue;
      }
      if (e.to >= 2 && alone[e.to]) {
        net.costAfter[e.to - 2] += static_cast<uint64_t>(e.cap); // s -> u
        continue;
      }
      unsigned inner = e.from >= 2 ? e.from : e.to;
      CutNetwork::Component &comp = net.components[compOfRoot[findRoot(inner)]];
      comp.edges.push_back({e.from >= 2 ? localOf[e.from] : e.from,
                            e.to >= 2 ? localOf[e.to] : e.to, e.cap});
    }
    uint64_t lone = 0;
    for (size_t j = 0; j < numUnfixed; ++j)
      if (net.componentOf[j] < 0)
        lone += std::min(net.costBefore[j], net.costAfter[j]);
    // All of a component after v cuts the arcs leaving s, all before cuts
    // those entering t; components share no arc, so any mix is a valid S.
    uint64_t spread = 0;
    for (CutNetwork::Component &comp : net.components) {
      uint64_t fromSource = 0, toSink = 0;
      for (const CutNetwork::Edge &e : comp.edges) {
        if (e.from == 0)
          fromSource += static_cast<uint64_t>(e.cap);
        if (e.to == 1)
          toSink += static_cast<uint64_t>(e.cap);
      }
      comp.allBefore = toSink <= fromSource;
      spread += std::min(fromSource, toSink);
    }
    spreadCharge = spread;
    return lone;
  }

  const MemoryGraph &graph;
  Reachability &reach;
  const std::vector<uint64_t> &programMemory;
  uint32_t stamp = 0;
  std::vector<uint32_t> nodeStamp;
  std::vector<unsigned> freeIndexOf;
  /// What build() reads per buffer, in one place (the network of a node of a
  /// 100,000-node graph visits most buffers once).
  struct BufInfo {
    uint64_t size = 0;
    /// Its first and last toucher (buffers without one are never visited).
    NodeId firstToucher = 0, lastToucher = 0;
    /// Visited by the network stamped `stamp`.
    uint32_t stamp = 0;
    bool liveIn = false, liveOut = false;
  };
  std::vector<BufInfo> bufInfo;
  std::vector<Gadget> gadgets;
  std::vector<unsigned> gadgetTouchers, nodeGadgetStart, nodeGadgets, fill;
  std::vector<unsigned> openPreds, openSuccs, worklist, rawOf, ids;
  std::vector<uint8_t> queued, alone, beforeV;
  std::vector<NodeId> scratch;
  std::vector<CutNetwork::Edge> rawEdges;
  unsigned rawNodes = 0;
  uint64_t spreadCharge = 0;
  uint64_t workDone = 0;
  std::vector<unsigned> parent, localOf;
  std::vector<int> compOfRoot;
  FlowNetwork flow;
};

} // namespace

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::vector<NodeId>
memsched_core::orderAroundExecutedSet(const MemoryGraph &graph,
                                 const std::vector<NodeId> &base, NodeId node,
                                 const std::vector<NodeId> &executed) {
  size_t n = graph.numNodes();
  if (node >= n || base.size() != n)
    return {};
  std::vector<uint8_t> inS(n, 0);
  for (NodeId u : executed) {
    if (u >= n || u == node)
      return {};
    inS[u] = 1;
  }
  std::vector<NodeId> order;
  order.reserve(n);
  for (NodeId u : base)
    if (u < n && inS[u])
      order.push_back(u);
  order.push_back(node);
  for (NodeId u : base)
    if (u < n && !inS[u] && u != node)
      order.push_back(u);
  // Valid exactly when `executed` is down-closed, holds node's ancestors and
  // none of its descendants (given a valid base).
  if (!graph.isValidOrder(order))
    return {};
  return order;
}

namespace {
/// The orders made of cut witnesses (orderAroundExecutedSet) around the best
/// order known so far; each lowers the upper estimates of the node cuts.
class WitnessOrders {
public:
  WitnessOrders(const MemoryGraph &graph, std::vector<NodeId> base,
                uint64_t basePeak)
      : graph(graph), base(std::move(base)), basePeak(basePeak),
        givenPeak(basePeak) {}

  /// Lowers `upper` to the memory of the order around v's executed set;
  /// false if that set does not make a valid order (nothing changes then).
  bool lower(NodeId v, const std::vector<NodeId> &executed,
             std::vector<uint64_t> &upper) {
    std::vector<NodeId> order =
        orderAroundExecutedSet(graph, base, v, executed);
    assert(!order.empty() && "a cut's executed set makes a valid order");
    if (order.empty())
      return false;
    PeakInfo info;
    uint64_t peak = evaluatePeak(graph, order, &info);
    for (size_t i = 0; i < order.size(); ++i)
      upper[order[i]] = std::min(upper[order[i]], info.memoryAt[i]);
    // The next witness is placed around the best order so far.
    if (peak <= basePeak) {
      base = std::move(order);
      basePeak = peak;
    }
    return true;
  }

  /// The best order so far if it beats every order given, with its peak.
  bool improved() const { return basePeak < givenPeak; }
  std::vector<NodeId> &best() { return base; }
  uint64_t bestPeak() const { return basePeak; }

private:
  const MemoryGraph &graph;
  std::vector<NodeId> base;
  uint64_t basePeak, givenPeak;
};
} // namespace

/// Memory at each node (indexed by node id) when running the graph's
/// program order with every buffer's bytes taken from `sizes`.
static std::vector<uint64_t>
memoryByNodeSized(const MemoryGraph &graph,
                  const std::vector<uint64_t> &sizes) {
  std::vector<NodeId> order = graph.programOrder();
  PeakInfo info;
  evaluatePeak(graph, order, &info, &sizes);
  std::vector<uint64_t> mem(graph.numNodes());
  for (size_t i = 0; i < order.size(); ++i)
    mem[order[i]] = info.memoryAt[i];
  return mem;
}

/// Memory at each node (indexed by node id) when running `order`.
static std::vector<uint64_t> memoryByNode(const MemoryGraph &graph,
                                          const std::vector<NodeId> &order) {
  PeakInfo info;
  evaluatePeak(graph, order, &info);
  std::vector<uint64_t> mem(graph.numNodes());
  for (size_t i = 0; i < order.size(); ++i)
    mem[order[i]] = info.memoryAt[i];
  return mem;
}

/// Buffers live at v when it runs right after `executed` (sorted; when
/// `live` is given), and the buffers live at v in every order.
static void describeCut(const MemoryGraph &graph, NodeId v,
                        const std::vector<NodeId> &executed,
                        Reachability &reach, std::vector<BufferId> *live,
                        std::vector<BufferId> &forced) {
  std::vector<uint8_t> inS(graph.numNodes(), 0);
  for (NodeId u : executed)
    inS[u] = 1;
  std::vector<NodeId> scratch;
  reach.focus(v, scratch);
  std::vector<BufferId> dummy;
  if (!live)
    live = &dummy;
  live->clear();
  forced.clear();
  IdRange own = graph.buffersOf(v);
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buf = graph.buffer(b);
    if (buf.size == 0)
      continue;
    if (std::binary_search(own.begin(), own.end(), b)) {
      live->push_back(b);
      forced.push_back(b);
      continue;
    }
    bool started = buf.liveIn, pending = buf.liveOut;
    bool mustStart = buf.liveIn, mustPend = buf.liveOut;
    for (NodeId t : buf.touchers) {
      if (inS[t])
        started = true;
      else
        pending = true;
      if (reach.isAncestor(t))
        mustStart = true;
      else if (reach.isDescendant(t))
        mustPend = true;
    }
    if (started && pending)
      live->push_back(b);
    if (mustStart && mustPend)
      forced.push_back(b);
  }
}

/// Automatic work budget: base plus this much per node, edge and touch.
static constexpr uint64_t kAutoWorkBase = 4000000;
static constexpr uint64_t kAutoWorkPerElement = 400;
/// Witness orders (WitnessOrders) cost a pass over the whole graph each;
/// one per cut would make the bound quadratic in the graph. Their total
/// work (about 3 n + edges + touches per order) stays below this base plus
/// this much per node, edge and touch: every witness the small graphs of
/// real networks make, a few dozen on graphs of 100,000 nodes.
static constexpr uint64_t kWitnessWorkBase = 20000000;
static constexpr uint64_t kWitnessWorkPerElement = 16;
/// Runs of improveOrderByCuts at most (each around the last one's order).
static constexpr unsigned kCutRounds = 4;

/// Windows searched per bound at most.
static constexpr unsigned kMaxWindows = 8;

/// True when node ids are a topological order, as MemoryGraph requires (the
/// reachability labels and the program-order estimates rely on it).
static bool idsAreTopological(const MemoryGraph &graph) {
  for (NodeId v = 0; v < graph.numNodes(); ++v)
    if (!graph.preds(v).empty() && graph.preds(v).back() >= v)
      return false;
  return true;
}

/// Reachability labels allowed before the queries fall back to BFS.
static size_t labelBudget(size_t numNodes, unsigned perNode) {
  if (perNode == 0)
    return 0;
  return std::max<size_t>(size_t(perNode) * numNodes, size_t(1) << 20);
}

NodeCut memsched_core::computeNodeCut(const MemoryGraph &graph, NodeId node,
                                 MaxFlowAlgorithm algorithm) {
  assert(node < graph.numNodes() && "node out of range");
  assert(idsAreTopological(graph) && "node ids must be a topological order");
  std::vector<uint64_t> programMemory =
      memoryByNode(graph, graph.programOrder());
  Reachability reach(graph, /*maxLabels=*/0);
  CutBuilder builder(graph, reach, programMemory);
  CutNetwork net;
  builder.build(node, net);
  unsigned flows = 0;
  NodeCut cut;
  cut.value = builder.solve(net, algorithm, flows);
  cut.executed = builder.executedSet(net);
  describeCut(graph, node, cut.executed, reach, &cut.liveBuffers,
              cut.forcedBuffers);
  cut.forced = graph.transientBytes(node);
  for (BufferId b : cut.forcedBuffers)
    cut.forced += graph.buffer(b).size;
  return cut;
}

struct NodeCutSolver::Impl {
  Impl(const MemoryGraph &graph, MaxFlowAlgorithm algorithm)
      : graph(graph), algorithm(algorithm),
        programMemory(memoryByNode(graph, graph.programOrder())),
        reach(graph, labelBudget(graph.numNodes(), 16)),
        builder(graph, reach, programMemory) {}
  const MemoryGraph &graph;
  MaxFlowAlgorithm algorithm;
  std::vector<uint64_t> programMemory;
  Reachability reach;
  CutBuilder builder;
  CutNetwork net;
  unsigned flows = 0;
};

NodeCutSolver::NodeCutSolver(const MemoryGraph &graph,
                             MaxFlowAlgorithm algorithm) {
  assert(idsAreTopological(graph) && "node ids must be a topological order");
  impl = std::make_unique<Impl>(graph, algorithm);
}

NodeCutSolver::~NodeCutSolver() = default;

uint64_t NodeCutSolver::solve(NodeId node, std::vector<NodeId> &executed) {
  impl->builder.build(node, impl->net);
  uint64_t value =
      impl->builder.solve(impl->net, impl->algorithm, impl->flows);
  executed = impl->builder.executedSet(impl->net);
  return value;
}

uint64_t NodeCutSolver::solve(NodeId node, std::vector<NodeId> &executed,
                              const std::vector<BufferId> &alsoLive) {
  impl->builder.build(node, impl->net, {}, {}, alsoLive);
  uint64_t value =
      impl->builder.solve(impl->net, impl->algorithm, impl->flows);
  executed = impl->builder.executedSet(impl->net);
  return value;
}

void NodeCutSolver::setBufferSizes(const std::vector<uint64_t> &sizes) {
  assert(sizes.size() == impl->graph.numBuffers() && "one size per buffer");
  // programMemory is held by reference in the builder: updated in place.
  impl->programMemory = memoryByNodeSized(impl->graph, sizes);
  impl->builder.setSizes(sizes);
}

uint64_t NodeCutSolver::work() const { return impl->builder.work(); }

//===----------------------------------------------------------------------===//
// Window search
//===----------------------------------------------------------------------===//

namespace {
/// Bottleneck search over the relative orders of a few nodes W: a state is
/// the set D of W-nodes already run; running w next costs the cut of w with D
/// forced before it and the rest of W after it. Every valid order of the
/// graph runs W in some order allowed here, and pays at least each step's
/// constrained cut, so the cheapest path to D = W is a lower bound.
class WindowSearch {
public:
  WindowSearch(const MemoryGraph &graph, Reachability &reach,
               CutBuilder &builder, MaxFlowAlgorithm algorithm,
               const std::vector<uint64_t> &programMemory,
               const std::vector<NodeId> *hintOrder,
               const std::vector<uint64_t> *hintMemory)
      : graph(graph), reach(reach), builder(builder), algorithm(algorithm),
        programMemory(programMemory), hintOrder(hintOrder),
        hintMemory(hintMemory) {}

  /// Returns a lower bound >= floor (exact for this window unless the budget
  /// ran out or the search stopped at `target`).
  uint64_t run(const std::vector<NodeId> &window, uint64_t floor,
               uint64_t target, unsigned cutBudget, uint64_t workBudget,
               unsigned &cuts, unsigned &flowCount) {
    unsigned k = static_cast<unsigned>(window.size());
    assert(k <= 20 && "window too large");
    std::vector<NodeId> scratch;
    std::vector<uint32_t> predMask(k, 0), programBefore(k, 0), hintBefore(k, 0);
    std::vector<size_t> hintPos;
    if (hintOrder) {
      hintPos.assign(graph.numNodes(), 0);
      for (size_t i = 0; i < hintOrder->size(); ++i)
        hintPos[(*hintOrder)[i]] = i;
    }
    for (unsigned i = 0; i < k; ++i) {
      reach.focus(window[i], scratch);
      for (unsigned j = 0; j < k; ++j) {
        if (reach.isAncestor(window[j]))
          predMask[i] |= 1u << j;
        if (window[j] < window[i])
          programBefore[i] |= 1u << j;
        if (hintOrder && hintPos[window[j]] < hintPos[window[i]])
          hintBefore[i] |= 1u << j;
      }
    }

    uint32_t full = (k == 32) ? ~0u : (1u << k) - 1;
    std::vector<uint64_t> key(size_t(full) + 1, UINT64_MAX);
    using Entry = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    key[0] = floor;
    heap.push({floor, 0});
    std::vector<NodeId> before, after;
    while (!heap.empty()) {
      auto [value, done] = heap.top();
      heap.pop();
      if (value != key[done])
        continue;
      // Every unsettled state, the goal included, is at least `value`.
      if (done == full || value >= target)
        return value;
      for (unsigned i = 0; i < k; ++i) {
        uint32_t bit = 1u << i;
        if ((done & bit) || (predMask[i] & ~done))
          continue;
        // A known order that runs exactly `done` of W before window[i]
        // bounds the step from above; no flow when that cannot raise value.
        uint64_t estimate = UINT64_MAX;
        if (programBefore[i] == done)
          estimate = programMemory[window[i]];
        if (hintOrder && hintBefore[i] == done)
          estimate = std::min(estimate, (*hintMemory)[window[i]]);
        uint64_t cost = value;
        if (estimate > value) {
          if (cuts >= cutBudget || builder.work() >= workBudget)
            return value;
          ++cuts;
          before.clear();
          after.clear();
          for (unsigned j = 0; j < k; ++j)
            if (j != i)
              ((done >> j) & 1 ? before : after).push_back(window[j]);
          builder.build(window[i], net, before, after);
          cost = std::max(value, builder.solve(net, algorithm, flowCount));
        }
        uint32_t next = done | bit;
        if (cost < key[next]) {
          key[next] = cost;
          heap.push({cost, next});
        }
      }
    }
    assert(false && "the full window is always reachable");
    return floor;
  }

private:
  const MemoryGraph &graph;
  Reachability &reach;
  CutBuilder &builder;
  MaxFlowAlgorithm algorithm;
  const std::vector<uint64_t> &programMemory;
  const std::vector<NodeId> *hintOrder;
  const std::vector<uint64_t> *hintMemory;
  CutNetwork net;
};
} // namespace

/// Grows a window from `pivot`: repeatedly adds the best-scored node
/// incomparable to some member (ties: higher upper estimate, then lower id).
/// Nodes comparable to every member would only be priced by their own cut.
/// `seen` is scratch of one entry per node, all different from `epoch`.
static std::vector<NodeId> growWindow(NodeId pivot, unsigned size,
                                      const std::vector<uint64_t> &score,
                                      const std::vector<uint64_t> &upper,
                                      Reachability &reach,
                                      std::vector<uint32_t> &seen,
                                      uint32_t epoch) {
  auto better = [&](NodeId a, NodeId b) {
    if (score[a] != score[b])
      return score[a] > score[b];
    if (upper[a] != upper[b])
      return upper[a] > upper[b];
    return a < b;
  };
  std::vector<NodeId> window{pivot}, pool, freeNodes;
  seen[pivot] = epoch;
  size_t expanded = 0;
  while (window.size() < size && expanded < window.size()) {
    reach.focus(window[expanded++], freeNodes);
    // Each node enters the pool once (window members came from it).
    for (NodeId u : freeNodes)
      if (seen[u] != epoch) {
        seen[u] = epoch;
        pool.push_back(u);
      }
    if (pool.empty())
      continue;
    auto it = std::min_element(pool.begin(), pool.end(), better);
    window.push_back(*it);
    pool.erase(it);
    // Keep expanding from the members in order; refill from the pool first.
    while (window.size() < size && !pool.empty() &&
           expanded == window.size() - 1) {
      it = std::min_element(pool.begin(), pool.end(), better);
      window.push_back(*it);
      pool.erase(it);
    }
  }
  std::sort(window.begin(), window.end());
  return window;
}

//===----------------------------------------------------------------------===//
// computeLowerBound
//===----------------------------------------------------------------------===//

/// Local bound: per node, what it touches, its transient bytes, and the
/// buffers live from start to end (`score`); returns the most of them and
/// sets `bestNode` to the first node that needs it.
static uint64_t localScores(const MemoryGraph &graph,
                            std::vector<uint64_t> &score, NodeId &bestNode) {
  size_t n = graph.numNodes();
  uint64_t alwaysLive = 0;
  for (BufferId b = 0; b < graph.numBuffers(); ++b)
    if (graph.buffer(b).liveIn && graph.buffer(b).liveOut)
      alwaysLive += graph.buffer(b).size;
  uint64_t best = 0;
  bestNode = 0;
  score.assign(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    uint64_t local = graph.transientBytes(v) + alwaysLive;
    for (BufferId b : graph.buffersOf(v))
      if (!(graph.buffer(b).liveIn && graph.buffer(b).liveOut))
        local += graph.buffer(b).size;
    score[v] = local;
    if (local > best || v == 0) {
      best = local;
      bestNode = v;
    }
  }
  return best;
}

uint64_t memsched_core::computeLocalBound(const MemoryGraph &graph) {
  std::vector<uint64_t> score;
  NodeId node = 0;
  return localScores(graph, score, node);
}

LowerBound memsched_core::computeLowerBound(const MemoryGraph &graph,
                                       const LowerBoundOptions &options) {
  LowerBound result;
  size_t n = graph.numNodes();
  if (n == 0)
    return result;

  // Upper estimates: the memory at each node in known valid orders.
  bool topological = idsAreTopological(graph);
  assert(topological && "node ids must be a topological order");
  std::vector<uint64_t> programMemory =
      memoryByNode(graph, graph.programOrder());
  std::vector<uint64_t> upper = programMemory, hintMemory;
  const std::vector<NodeId> *hintOrder = nullptr;
  uint64_t hintPeak = UINT64_MAX, lowestOrderPeak = UINT64_MAX;
  const std::vector<NodeId> *lowestOrder = nullptr;
  auto useOrder = [&](const std::vector<NodeId> &order) {
    std::vector<uint64_t> memory = memoryByNode(graph, order);
    for (NodeId v = 0; v < n; ++v)
      upper[v] = std::min(upper[v], memory[v]);
    uint64_t peak = *std::max_element(memory.begin(), memory.end());
    if (peak < lowestOrderPeak) {
      lowestOrderPeak = peak;
      lowestOrder = &order;
    }
    if (peak < hintPeak) {
      hintPeak = peak;
      hintOrder = &order;
      hintMemory = std::move(memory);
    }
  };
  std::vector<std::vector<NodeId>> ownPeerOrders;
  const std::vector<std::vector<NodeId>> *peerOrders = options.peerOrders;
  if (options.peerEstimates && topological && !peerOrders) {
    ownPeerOrders = sched::allPeerOrders(graph);
    peerOrders = &ownPeerOrders;
  }
  if (options.order && graph.isValidOrder(*options.order)) {
    useOrder(*options.order);
    hintPeak = 0; // the caller's order stays the hint
  }
  if (options.peerEstimates && peerOrders)
    for (const std::vector<NodeId> &order : *peerOrders)
      if (graph.isValidOrder(order))
        useOrder(order);

  // Best known lower bound on each node's cut: the local bound first.
  std::vector<uint64_t> score;
  NodeId bestNode = 0;
  uint64_t best = localScores(graph, score, bestNode);
  std::string kind = "trivial", method = "local";
  if (!topological) {
    // Broken input: keep to the bound that needs no order.
    result.value = best;
    result.node = bestNode;
    result.complete = false;
    return result;
  }

  // No bound exceeds the peak of a known order: stop there too.
  uint64_t knownPeak = 0;
  for (NodeId v = 0; v < n; ++v)
    knownPeak = std::max(knownPeak, programMemory[v]);
  knownPeak = std::min(knownPeak, lowestOrderPeak);
  uint64_t target = std::min(options.target, knownPeak);

  // How orders end and begin: cheap, and strong when results or arguments
  // dominate.
  for (bool fromEnd : {true, false}) {
    if (best >= target || options.endsEvaluationBudget == 0)
      break;
    EndsBound ends =
        computeEndsBound(graph, fromEnd, target, options.endsEvaluationBudget,
                         options.endsMaxDepth);
    if (ends.value > best) {
      best = ends.value;
      bestNode = ends.node;
      kind = fromEnd ? "backward" : "forward";
      method = fromEnd ? "end-search" : "start-search";
    }
  }

  // Nodes whose cut could raise the bound, most promising first.
  std::vector<NodeId> candidates;
  for (NodeId v = 0; v < n; ++v)
    if (upper[v] > best)
      candidates.push_back(v);
  std::sort(candidates.begin(), candidates.end(), [&](NodeId a, NodeId b) {
    return upper[a] != upper[b] ? upper[a] > upper[b] : a < b;
  });

  uint64_t workBudget = options.workBudget;
  if (workBudget == 0)
    workBudget = kAutoWorkBase + kAutoWorkPerElement * (n + graph.numEdges() +
                                                        graph.numTouches());

  Reachability reach(graph, labelBudget(n, options.labelsPerNode));
  CutBuilder builder(graph, reach, programMemory);
  CutNetwork net;
  uint64_t programPeak = 0;
  for (NodeId v = 0; v < n; ++v)
    programPeak = std::max(programPeak, programMemory[v]);
  bool fromGiven = lowestOrder && lowestOrderPeak < programPeak;
  uint64_t witnessCost = 3 * n + graph.numEdges() + graph.numTouches();
  uint64_t witnessBudget =
      kWitnessWorkBase +
      kWitnessWorkPerElement * (n + graph.numEdges() + graph.numTouches());
  uint64_t witnessWork = 0;
  WitnessOrders witnesses(
      graph, fromGiven ? *lowestOrder : graph.programOrder(),
      fromGiven ? lowestOrderPeak : programPeak);
  for (NodeId v : candidates) {
    if (best >= target)
      break;
    // Candidates come by decreasing first estimate; a witness order may
    // have lowered v's since.
    if (upper[v] <= best)
      continue;
    if (builder.work() >= workBudget) {
      result.complete = false;
      break;
    }
    builder.build(v, net);
    ++result.networks;
    uint64_t value = net.forced;
    // The cut lies in [forced, upper]; a flow only helps strictly inside.
    bool flowNeeded =
        net.forced < upper[v] && !net.components.empty() && net.upper > best;
    if (flowNeeded)
      value = builder.solve(net, options.algorithm, result.maxFlows);
    else
      builder.placeByUpperEstimate(net);
    // An executed set that shows v's cut at most the bound (a cheapest one,
    // or the one behind net.upper), completed to an order, bounds the cuts
    // of the nodes around v from above too.
    if (options.witnessEstimates && value <= best &&
        (flowNeeded || net.upper <= best) && witnessWork < witnessBudget &&
        witnesses.lower(v, builder.executedSet(net), upper)) {
      ++result.witnessOrders;
      witnessWork += witnessCost;
    }
    score[v] = value;
    if (value > best) {
      best = value;
      bestNode = v;
      // Equal to the buffers live in every order: trivial after all.
      kind = value > net.mustLive ? "forward" : "trivial";
      method = "node-cut";
    }
  }

  // Window strengthening: windows grown from the best-scored nodes.
  if (options.windowSize >= 2 && best < target && n >= 2) {
    std::vector<NodeId> pivots(n);
    for (NodeId v = 0; v < n; ++v)
      pivots[v] = v;
    std::sort(pivots.begin(), pivots.end(), [&](NodeId a, NodeId b) {
      if (score[a] != score[b])
        return score[a] > score[b];
      return upper[a] != upper[b] ? upper[a] > upper[b] : a < b;
    });
    WindowSearch search(graph, reach, builder, options.algorithm, programMemory,
                        hintOrder, hintOrder ? &hintMemory : nullptr);
    unsigned size = std::min<unsigned>(options.windowSize, 16);
    unsigned budget = options.windowCutBudget, tries = 0;
    std::vector<std::vector<NodeId>> tried;
    std::vector<uint32_t> seen(n, 0);
    uint32_t epoch = 0;
    for (NodeId pivot : pivots) {
      if (best >= target || budget == 0 || tries >= kMaxWindows ||
          builder.work() >= workBudget)
        break;
      std::vector<NodeId> window =
          growWindow(pivot, size, score, upper, reach, seen, ++epoch);
      if (window.size() < 2 ||
          std::find(tried.begin(), tried.end(), window) != tried.end())
        continue;
      tried.push_back(window);
      ++tries;
      unsigned cuts = 0;
      uint64_t value = search.run(window, best, target, budget, workBudget,
                                  cuts, result.maxFlows);
      budget -= std::min(budget, cuts);
      if (value > best) {
        best = value;
        bestNode = pivot;
        kind = method = "window";
        result.window = window;
      }
    }
  }

  if (witnesses.improved()) {
    result.improvedOrder = std::move(witnesses.best());
    result.improvedPeak = witnesses.bestPeak();
  }
  result.value = best;
  result.node = bestNode;
  result.method = method;
  result.kind = kind;
  // For a bound proved by cuts, the cheapest executed set of the node as a
  // witness (one more flow); in any case the buffers live in every order.
  bool witness = method == "node-cut" || method == "window";
  if (witness) {
    builder.build(bestNode, net);
    builder.solve(net, options.algorithm, result.maxFlows);
    result.minCutExecuted = builder.executedSet(net);
  }
  describeCut(graph, bestNode, result.minCutExecuted, reach,
              witness ? &result.minCutBuffers : nullptr, result.cutBuffers);
  return result;
}

bool memsched_core::improveOrderByCuts(
    const MemoryGraph &graph, std::vector<NodeId> &order, uint64_t &peak,
    uint64_t bound, const std::vector<std::vector<NodeId>> &peerOrders,
    LowerBound *stronger) {
  // Each run within a quarter of the automatic work budget: most of what it
  // finds comes early, and a pass on 100,000 ops stays within its time.
  LowerBoundOptions options;
  options.peerOrders = &peerOrders;
  options.workBudget =
      (kAutoWorkBase + kAutoWorkPerElement * (graph.numNodes() +
                                              graph.numEdges() +
                                              graph.numTouches())) /
      4;
  bool improved = false;
  for (unsigned round = 0; round < kCutRounds; ++round) {
    if (order.empty() || peak <= bound)
      break;
    options.target = peak;
    options.order = &order;
    LowerBound again = computeLowerBound(graph, options);
    // A node's cut holds whatever order found it.
    bool nodeCut = (again.kind == "forward" || again.kind == "trivial") &&
                   (again.method == "node-cut" || again.method == "local");
    if (stronger && nodeCut && again.value > bound &&
        again.value > stronger->value) {
      *stronger = again;
      stronger->improvedOrder.clear();
    }
    if (again.improvedOrder.empty() || again.improvedPeak >= peak)
      break;
    order = std::move(again.improvedOrder);
    peak = again.improvedPeak;
    improved = true;
  }
  return improved;
}
