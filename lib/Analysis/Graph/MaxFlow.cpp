//===- MaxFlow.cpp - s-t minimum cuts for the lower bounds ------*- C++ -*-===//
//
// Every Boost.Graph template instantiation of the project lives in this file.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/MaxFlow.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <cassert>

using namespace memsched_core;

/// Auto uses Dinic below this many edges and Boykov-Kolmogorov above (fewer
/// passes on long dependency chains). Measured with memsched-bound-bench, see
/// docs/lower-bounds.md.
static constexpr size_t kAutoDinicEdges = 256;

const char *memsched_core::maxFlowAlgorithmName(MaxFlowAlgorithm algorithm) {
  switch (algorithm) {
  case MaxFlowAlgorithm::BoykovKolmogorov:
    return "boykov-kolmogorov";
  case MaxFlowAlgorithm::PushRelabel:
    return "push-relabel";
  case MaxFlowAlgorithm::Dinic:
    return "dinic";
  case MaxFlowAlgorithm::Auto:
    return "auto";
  }
  return "unknown";
}

void FlowNetwork::clear() {
  nodeCount = 0;
  edgeFrom.clear();
  edgeTo.clear();
  edgeCap.clear();
}

unsigned FlowNetwork::addNodes(unsigned count) {
  unsigned first = nodeCount;
  nodeCount += count;
  return first;
}

void FlowNetwork::addEdge(unsigned from, unsigned to, Capacity cap) {
  assert(from < nodeCount && to < nodeCount && cap >= 0 && "bad edge");
  edgeFrom.push_back(from);
  edgeTo.push_back(to);
  edgeCap.push_back(cap);
}

/// Lays the arcs out by tail (counting sort, so the layout is deterministic):
/// arc k runs from its tail to arcHead[k] with residual arcResidual[k], and
/// arcReverse[k] is its partner. kInfinite becomes one more than the sum of
/// the finite capacities: no minimum cut can hold such an arc, and
/// push-relabel, which adds up the capacities leaving the source, cannot
/// overflow.
void FlowNetwork::buildArcs() {
  Capacity finite = 0;
  for (Capacity c : edgeCap)
    if (c < kInfinite)
      finite += c;
  assert(finite < kInfinite && "capacities too large");
  for (Capacity &c : edgeCap)
    if (c >= kInfinite)
      c = finite + 1;

  size_t numEdges = edgeFrom.size();
  firstArc.assign(nodeCount + 1, 0);
  for (size_t e = 0; e < numEdges; ++e) {
    ++firstArc[edgeFrom[e] + 1];
    ++firstArc[edgeTo[e] + 1];
  }
  for (unsigned n = 0; n < nodeCount; ++n)
    firstArc[n + 1] += firstArc[n];
  arcHead.resize(2 * numEdges);
  arcReverse.resize(2 * numEdges);
  arcResidual.resize(2 * numEdges);
  edgeArc.resize(numEdges);
  currentArc.assign(firstArc.begin(), firstArc.end() - 1);
  for (size_t e = 0; e < numEdges; ++e) {
    unsigned forward = currentArc[edgeFrom[e]]++;
    unsigned backward = currentArc[edgeTo[e]]++;
    arcHead[forward] = edgeTo[e];
    arcHead[backward] = edgeFrom[e];
    arcReverse[forward] = backward;
    arcReverse[backward] = forward;
    arcResidual[forward] = edgeCap[e];
    arcResidual[backward] = 0;
    edgeArc[e] = forward;
  }
}

void FlowNetwork::markSourceSide(unsigned s) {
  reached.assign(nodeCount, 0);
  queue.clear();
  queue.push_back(s);
  reached[s] = 1;
  for (size_t i = 0; i < queue.size(); ++i) {
    unsigned u = queue[i];
    for (unsigned k = firstArc[u]; k < firstArc[u + 1]; ++k) {
      unsigned head = arcHead[k];
      if (arcResidual[k] > 0 && !reached[head]) {
        reached[head] = 1;
        queue.push_back(head);
      }
    }
  }
}

FlowNetwork::Capacity FlowNetwork::solve(unsigned s, unsigned t,
                                         MaxFlowAlgorithm algorithm) {
  assert(s < nodeCount && t < nodeCount && s != t && "bad terminals");
  buildArcs();
  if (algorithm == MaxFlowAlgorithm::Auto)
    algorithm = edgeFrom.size() < kAutoDinicEdges
                    ? MaxFlowAlgorithm::Dinic
                    : MaxFlowAlgorithm::BoykovKolmogorov;
  Capacity flow = algorithm == MaxFlowAlgorithm::Dinic ? solveDinic(s, t)
                  : algorithm == MaxFlowAlgorithm::BoykovKolmogorov
                      ? solveBK(s, t)
                      : solveBoost(s, t, algorithm);
  markSourceSide(s);
  return flow;
}

//===----------------------------------------------------------------------===//
// Dinic
//===----------------------------------------------------------------------===//

FlowNetwork::Capacity FlowNetwork::solveDinic(unsigned s, unsigned t) {
  Capacity flow = 0;
  uint64_t scans = 0;
  std::vector<unsigned> &path = pathArcs;
  std::vector<unsigned> &tails = pathNodes;
  while (true) {
    // BFS levels from s over arcs with residual capacity.
    level.assign(nodeCount, -1);
    queue.clear();
    queue.push_back(s);
    level[s] = 0;
    for (size_t i = 0; i < queue.size() && level[t] < 0; ++i) {
      unsigned u = queue[i];
      scans += firstArc[u + 1] - firstArc[u];
      for (unsigned k = firstArc[u]; k < firstArc[u + 1]; ++k) {
        unsigned v = arcHead[k];
        if (arcResidual[k] > 0 && level[v] < 0) {
          level[v] = level[u] + 1;
          queue.push_back(v);
        }
      }
    }
    if (level[t] < 0) {
      lastWork = scans;
      return flow;
    }

    // Blocking flow by iterative DFS with current-arc pointers.
    currentArc.assign(firstArc.begin(), firstArc.end() - 1);
    path.clear();
    tails.clear();
    unsigned u = s;
    while (true) {
      if (u == t) {
        Capacity push = FlowNetwork::kInfinite;
        for (unsigned k : path)
          push = std::min(push, arcResidual[k]);
        size_t firstSaturated = path.size();
        for (size_t i = 0; i < path.size(); ++i) {
          arcResidual[path[i]] -= push;
          arcResidual[arcReverse[path[i]]] += push;
          if (arcResidual[path[i]] == 0 && firstSaturated == path.size())
            firstSaturated = i;
        }
        flow += push;
        // Resume from the tail of the first saturated arc.
        u = tails[firstSaturated];
        path.resize(firstSaturated);
        tails.resize(firstSaturated);
        continue;
      }
      bool advanced = false;
      for (unsigned &k = currentArc[u]; k < firstArc[u + 1]; ++k) {
        ++scans;
        unsigned v = arcHead[k];
        if (arcResidual[k] > 0 && level[v] == level[u] + 1) {
          path.push_back(k);
          tails.push_back(u);
          u = v;
          advanced = true;
          break;
        }
      }
      if (advanced)
        continue;
      // Dead end: u cannot reach t in this phase.
      level[u] = -1;
      if (u == s)
        break;
      u = tails.back();
      path.pop_back();
      tails.pop_back();
      ++currentArc[u];
    }
  }
}

//===----------------------------------------------------------------------===//
// Boykov-Kolmogorov
//===----------------------------------------------------------------------===//

// Boykov and Kolmogorov, "An experimental comparison of min-cut/max-flow
// algorithms for energy minimization in vision", PAMI 2004: two search trees,
// S from the source and T from the sink, grow over arcs with residual
// capacity until they touch; the path through the touching arc is augmented;
// nodes cut off from their tree's root by saturated arcs (orphans) look for a
// new parent in the same tree or become free. Here on the CSR arcs, so a
// solve allocates nothing once the scratch vectors have grown. parentArc[v]
// is the arc from v to its parent (in v's list); the tree arc is that arc's
// reverse in S (parent -> v) and the arc itself in T (v -> parent).

namespace {
constexpr unsigned kNoParent = ~0u, kTerminal = ~0u - 1, kOrphan = ~0u - 2;
constexpr uint8_t kFree = 0, kSourceTree = 1, kSinkTree = 2;
} // namespace

FlowNetwork::Capacity FlowNetwork::solveBK(unsigned s, unsigned t) {
  std::vector<uint8_t> &tree = bkTree;
  std::vector<unsigned> &parentArc = bkParent;
  std::vector<uint32_t> &stamp = bkStamp;
  std::vector<unsigned> &dist = bkDist;
  std::vector<unsigned> &active = queue;
  std::vector<unsigned> &orphans = pathNodes;
  tree.assign(nodeCount, kFree);
  parentArc.assign(nodeCount, kNoParent);
  stamp.assign(nodeCount, 0);
  dist.assign(nodeCount, 0);
  std::vector<uint8_t> &isActive = reached;
  isActive.assign(nodeCount, 0);
  active.clear();
  orphans.clear();
  uint32_t time = 1;
  uint64_t scans = 0;
  tree[s] = kSourceTree;
  tree[t] = kSinkTree;
  parentArc[s] = parentArc[t] = kTerminal;
  stamp[s] = stamp[t] = time;
  auto activate = [&](unsigned v) {
    if (!isActive[v]) {
      isActive[v] = 1;
      active.push_back(v);
    }
  };
  activate(s);
  activate(t);
  // Residual capacity of the tree arc into v from its parent.
  auto treeCap = [&](unsigned v) {
    unsigned k = parentArc[v];
    return tree[v] == kSourceTree ? arcResidual[arcReverse[k]]
                                  : arcResidual[k];
  };
  Capacity flow = 0;
  size_t head = 0;
  while (head < active.size()) {
    unsigned p = active[head];
    if (tree[p] == kFree) {
      isActive[p] = 0;
      ++head;
      continue;
    }
    // Grow: find an arc into the other tree.
    unsigned meet = kNoParent; // arc from the S side to the T side
    for (unsigned k = firstArc[p]; k < firstArc[p + 1]; ++k) {
      ++scans;
      unsigned q = arcHead[k];
      Capacity cap = tree[p] == kSourceTree ? arcResidual[k]
                                             : arcResidual[arcReverse[k]];
      if (cap <= 0)
        continue;
      if (tree[q] == kFree) {
        tree[q] = tree[p];
        parentArc[q] = arcReverse[k];
        stamp[q] = stamp[p];
        dist[q] = dist[p] + 1;
        activate(q);
      } else if (tree[q] != tree[p]) {
        meet = tree[p] == kSourceTree ? k : arcReverse[k];
        break;
      }
    }
    if (meet == kNoParent) {
      isActive[p] = 0;
      ++head;
      continue;
    }
    // Augment along s ~> tail(meet) -> head(meet) ~> t.
    ++time;
    unsigned a = arcHead[arcReverse[meet]], b = arcHead[meet];
    Capacity push = arcResidual[meet];
    for (unsigned x = a; parentArc[x] != kTerminal; x = arcHead[parentArc[x]])
      push = std::min(push, treeCap(x));
    for (unsigned x = b; parentArc[x] != kTerminal; x = arcHead[parentArc[x]])
      push = std::min(push, treeCap(x));
    arcResidual[meet] -= push;
    arcResidual[arcReverse[meet]] += push;
    for (unsigned x : {a, b})
      for (unsigned y = x; parentArc[y] != kTerminal;) {
        unsigned k = parentArc[y];
        unsigned up = tree[y] == kSourceTree ? arcReverse[k] : k;
        arcResidual[up] -= push;
        arcResidual[arcReverse[up]] += push;
        unsigned next = arcHead[k];
        if (arcResidual[up] == 0) {
          parentArc[y] = kOrphan;
          orphans.push_back(y);
        }
        y = next;
      }
    flow += push;
    // Adopt: each orphan finds a parent in its tree whose path reaches the
    // root, or becomes free.
    while (!orphans.empty()) {
      unsigned x = orphans.back();
      orphans.pop_back();
      uint8_t side = tree[x];
      unsigned bestArc = kNoParent, bestDist = ~0u;
      for (unsigned k = firstArc[x]; k < firstArc[x + 1]; ++k) {
        ++scans;
        unsigned q = arcHead[k];
        if (tree[q] != side)
          continue;
        Capacity cap = side == kSourceTree ? arcResidual[arcReverse[k]]
                                           : arcResidual[k];
        if (cap <= 0)
          continue;
        // Does q still reach the root? Stamps mark nodes verified this round.
        unsigned d = 0, y = q;
        bool rooted = false;
        while (true) {
          if (stamp[y] == time) {
            d += dist[y];
            rooted = true;
            break;
          }
          unsigned k2 = parentArc[y];
          if (k2 == kTerminal) {
            stamp[y] = time;
            dist[y] = 0;
            rooted = true;
            break;
          }
          if (k2 == kOrphan || k2 == kNoParent)
            break;
          ++d;
          y = arcHead[k2];
        }
        if (!rooted)
          continue;
        if (d < bestDist) {
          bestDist = d;
          bestArc = k;
        }
        // Record the distances on the verified path.
        for (unsigned z = q; stamp[z] != time; z = arcHead[parentArc[z]]) {
          stamp[z] = time;
          dist[z] = d--;
        }
      }
      if (bestArc != kNoParent) {
        parentArc[x] = bestArc;
        stamp[x] = time;
        dist[x] = bestDist + 1;
        continue;
      }
      // No parent: x leaves its tree; its children become orphans and the
      // neighbours that could take it back become active.
      for (unsigned k = firstArc[x]; k < firstArc[x + 1]; ++k) {
        unsigned q = arcHead[k];
        if (tree[q] != side)
          continue;
        Capacity cap = side == kSourceTree ? arcResidual[arcReverse[k]]
                                           : arcResidual[k];
        if (cap > 0)
          activate(q);
        unsigned qk = parentArc[q];
        if (qk != kTerminal && qk != kOrphan && qk != kNoParent &&
            arcHead[qk] == x) {
          parentArc[q] = kOrphan;
          orphans.push_back(q);
        }
      }
      tree[x] = kFree;
      parentArc[x] = kNoParent;
    }
    // p may still touch the other tree: look at it again.
    if (tree[p] != kFree)
      activate(p); // no-op while it is still queued
  }
  lastWork = scans;
  return flow;
}

//===----------------------------------------------------------------------===//
// Boost.Graph
//===----------------------------------------------------------------------===//

namespace {
using Traits =
    boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Capacity = FlowNetwork::Capacity;
using BoostGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    // vecS vertices carry an implicit vertex_index.
    boost::property<boost::vertex_color_t, boost::default_color_type,
                    boost::property<boost::vertex_distance_t, long,
                                    boost::property<boost::vertex_predecessor_t,
                                                    Traits::edge_descriptor>>>,
    boost::property<boost::edge_capacity_t, Capacity,
                    boost::property<boost::edge_residual_capacity_t, Capacity,
                                    boost::property<boost::edge_reverse_t,
                                                    Traits::edge_descriptor>>>>;
} // namespace

FlowNetwork::Capacity FlowNetwork::solveBoost(unsigned s, unsigned t,
                                              MaxFlowAlgorithm algorithm) {
  BoostGraph g(nodeCount);
  auto capacity = boost::get(boost::edge_capacity, g);
  auto reverse = boost::get(boost::edge_reverse, g);
  auto residualMap = boost::get(boost::edge_residual_capacity, g);

  std::vector<Traits::edge_descriptor> arcs(2 * edgeFrom.size());
  for (size_t e = 0; e < edgeFrom.size(); ++e) {
    auto forward = boost::add_edge(edgeFrom[e], edgeTo[e], g).first;
    auto backward = boost::add_edge(edgeTo[e], edgeFrom[e], g).first;
    capacity[forward] = edgeCap[e];
    capacity[backward] = 0;
    reverse[forward] = backward;
    reverse[backward] = forward;
    arcs[2 * e] = forward;
    arcs[2 * e + 1] = backward;
  }

  assert(algorithm == MaxFlowAlgorithm::PushRelabel && "not a Boost back end");
  (void)algorithm;
  Capacity flow = boost::push_relabel_max_flow(g, s, t);
  // Boost does not report its work; charge a flat multiple of the size.
  lastWork = 16 * (nodeCount + arcs.size());

  for (size_t e = 0; e < edgeFrom.size(); ++e) {
    arcResidual[edgeArc[e]] = residualMap[arcs[2 * e]];
    arcResidual[arcReverse[edgeArc[e]]] = residualMap[arcs[2 * e + 1]];
  }
  return flow;
}
