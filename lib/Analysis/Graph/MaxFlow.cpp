//===- MaxFlow.cpp - s-t minimum cuts for the lower bounds ------*- C++ -*-===//
//
// Every Boost.Graph template instantiation of the project lives in this file.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/MaxFlow.h"

// GCC's -Wmaybe-uninitialized misfires inside Boost's BK edge iterators.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <cassert>

using namespace memsched;

/// Auto uses Dinic below this many edges (where building Boost's graph costs
/// more than the flow) and Boykov-Kolmogorov above (fewer passes on long
/// dependency chains). Measured with memsched-bound-bench, see
/// docs/lower-bounds.md.
static constexpr size_t kAutoDinicEdges = 256;

const char *memsched::maxFlowAlgorithmName(MaxFlowAlgorithm algorithm) {
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
  Capacity flow = algorithm == MaxFlowAlgorithm::Dinic
                      ? solveDinic(s, t)
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

  Capacity flow = algorithm == MaxFlowAlgorithm::BoykovKolmogorov
                      ? boost::boykov_kolmogorov_max_flow(g, s, t)
                      : boost::push_relabel_max_flow(g, s, t);
  // Boost does not report its work; charge a flat multiple of the size.
  lastWork = 16 * (nodeCount + arcs.size());

  for (size_t e = 0; e < edgeFrom.size(); ++e) {
    arcResidual[edgeArc[e]] = residualMap[arcs[2 * e]];
    arcResidual[arcReverse[edgeArc[e]]] = residualMap[arcs[2 * e + 1]];
  }
  return flow;
}
