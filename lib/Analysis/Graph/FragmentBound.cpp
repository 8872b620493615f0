//===- FragmentBound.cpp - a bound on the peak of every split ------------===//
//
// See FragmentBound.h and docs/split.md, "The bound over all splits".
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/FragmentBound.h"
#include "Analysis/Graph/LowerBound.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>

using namespace memsched_core;

namespace {
/// floor(value * numerator / denominator) without overflow.
uint64_t scale(uint64_t value, uint64_t numerator, uint64_t denominator) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(value) *
                               numerator / denominator);
}

/// Per node: the index of its set, or -1. Empty when the sets are
/// malformed.
std::vector<int> setOfNode(const MemoryGraph &graph,
                           const std::vector<FragmentSet> &sets) {
  std::vector<int> setOf(graph.numNodes(), -1);
  for (unsigned k = 0; k < sets.size(); ++k)
    for (NodeId n : sets[k].nodes) {
      if (n >= graph.numNodes() || setOf[n] != -1)
        return {};
      setOf[n] = static_cast<int>(k);
    }
  for (unsigned k = 0; k < sets.size(); ++k) {
    if (sets[k].fragments == 0)
      return {};
    for (NodeId n : sets[k].cut)
      if (n >= graph.numNodes() || setOf[n] != static_cast<int>(k))
        return {};
    for (BufferId b : sets[k].internal) {
      if (b >= graph.numBuffers())
        return {};
      const GraphBuffer &buffer = graph.buffer(b);
      if (buffer.liveIn || buffer.liveOut)
        return {};
      for (NodeId n : graph.touchersOf(b))
        if (setOf[n] != static_cast<int>(k))
          return {};
    }
  }
  return setOf;
}
} // namespace

MemoryGraph memsched_core::fragmentQuotient(const MemoryGraph &graph,
                                            const FragmentSet &set,
                                            NodeId node, uint64_t rank,
                                            std::vector<NodeId> &firstCopy) {
  std::vector<std::pair<BufferId, uint64_t>> origin;
  return fragmentQuotient(graph, set, node, rank, firstCopy, origin);
}

MemoryGraph memsched_core::fragmentQuotient(
    const MemoryGraph &graph, const FragmentSet &set, NodeId node,
    uint64_t rank, std::vector<NodeId> &firstCopy,
    std::vector<std::pair<BufferId, uint64_t>> &origin) {
  origin.clear();
  uint64_t f = std::max<uint64_t>(1, set.fragments);
  rank = std::clamp<uint64_t>(rank, 1, f);
  // The fragments in which `node` ran before (rank - 1 of them), the one
  // it runs in, the ones it runs in after (f - rank).
  const uint64_t weight[3] = {rank - 1, 1, f - rank};
  std::vector<char> inSet(graph.numNodes(), 0), internal(graph.numBuffers(), 0);
  for (NodeId n : set.nodes)
    inSet[n] = 1;
  for (BufferId b : set.internal)
    internal[b] = 1;
  MemoryGraph q;
  const NodeId none = ~NodeId(0);
  // copy[c][n]: node n in copy c (copies 0 and 2 of nodes of the set only,
  // and only when they stand for some fragment).
  std::vector<NodeId> copy[3];
  for (auto &c : copy)
    c.assign(graph.numNodes(), none);
  static const char *const suffix[3] = {" (fragments before)", " (fragment)",
                                        " (fragments after)"};
  for (NodeId n = 0; n < graph.numNodes(); ++n) {
    uint64_t t = graph.transientBytes(n);
    if (!inSet[n]) {
      copy[1][n] = q.addNode(t, graph.nodeName(n));
      continue;
    }
    for (unsigned c = 0; c < 3; ++c)
      if (weight[c])
        copy[c][n] = q.addNode(scale(t, weight[c], f),
                               graph.nodeName(n) + suffix[c]);
  }
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buffer = graph.buffer(b);
    if (!internal[b]) {
      BufferId whole = q.addBuffer(buffer.size, buffer.liveIn, buffer.liveOut,
                                   buffer.name);
      origin.push_back({b, 0});
      for (NodeId n : graph.touchersOf(b))
        for (auto &c : copy)
          if (c[n] != none)
            q.addTouch(whole, c[n]);
      continue;
    }
    for (unsigned c = 0; c < 3; ++c) {
      if (!weight[c])
        continue;
      BufferId piece =
          q.addBuffer(scale(buffer.size, weight[c], f), false, false,
                      buffer.name);
      origin.push_back({b, c + 1});
      for (NodeId n : graph.touchersOf(b))
        q.addTouch(piece, copy[c][n]);
    }
  }
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    for (NodeId m : graph.succs(n)) {
      if (inSet[n] && inSet[m]) {
        // Within the set: within each fragment.
        for (auto &c : copy)
          if (c[n] != none)
            q.addEdge(c[n], c[m]);
        continue;
      }
      for (auto &from : copy)
        for (auto &to : copy)
          if (from[n] != none && to[m] != none)
            q.addEdge(from[n], to[m]);
    }
  // `node` ran in the fragments before and runs in the ones after: its
  // copies come before and after its fragment's.
  if (copy[0][node] != none)
    q.addEdge(copy[0][node], copy[1][node]);
  if (copy[2][node] != none)
    q.addEdge(copy[1][node], copy[2][node]);
  q.finalize();
  firstCopy = std::move(copy[1]);
  return q;
}

FragmentBoundResult
memsched_core::computeFragmentBound(const MemoryGraph &graph,
                                    const std::vector<FragmentSet> &sets) {
  return computeFragmentBound(graph, sets, CutAlternatives());
}

FragmentBoundResult
memsched_core::computeFragmentBound(const MemoryGraph &graph,
                                    const std::vector<FragmentSet> &sets,
                                    const CutAlternatives &alternatives) {
  FragmentBoundResult result;
  if (graph.numNodes() == 0)
    return result;
  std::vector<int> setOf = setOfNode(graph, sets);
  bool altsValid =
      alternatives.perNode.empty() ||
      alternatives.perNode.size() == graph.numNodes();
  for (const std::vector<uint64_t> &sizes : alternatives.sizes)
    altsValid &= sizes.size() == graph.numBuffers();
  for (const auto &alts : alternatives.perNode)
    for (const CutAlternatives::Alternative &alt : alts) {
      altsValid &= alt.sizes < alternatives.sizes.size();
      for (BufferId b : alt.alsoLive)
        altsValid &= b < graph.numBuffers();
    }
  if (setOf.empty() || !altsValid) {
    result.valid = false;
    return result;
  }
  auto alternativesOf =
      [&](NodeId n) -> const std::vector<CutAlternatives::Alternative> * {
    if (alternatives.perNode.empty() || alternatives.perNode[n].empty())
      return nullptr;
    return &alternatives.perNode[n];
  };
  auto consider = [&](uint64_t value, NodeId node, int set) {
    ++result.cuts;
    if (value > result.value) {
      result.value = value;
      result.node = node;
      result.set = set;
    }
  };
  std::vector<NodeId> executed;
  std::vector<uint64_t> ownSizes(graph.numBuffers());
  for (BufferId b = 0; b < graph.numBuffers(); ++b)
    ownSizes[b] = graph.buffer(b).size;
  {
    // Nodes outside every set (and in sets that cannot be split): their
    // cut in the graph as given, or the least over their alternatives.
    NodeCutSolver solver(graph);
    bool resized = false;
    for (NodeId n = 0; n < graph.numNodes(); ++n) {
      if (setOf[n] != -1 && sets[setOf[n]].fragments > 1)
        continue;
      const auto *alts = alternativesOf(n);
      if (!alts) {
        if (resized) {
          solver.setBufferSizes(ownSizes);
          resized = false;
        }
        consider(solver.solve(n, executed), n, setOf[n]);
        continue;
      }
      uint64_t value = ~uint64_t(0);
      for (const CutAlternatives::Alternative &alt : *alts) {
        solver.setBufferSizes(alternatives.sizes[alt.sizes]);
        resized = true;
        value = std::min(value, solver.solve(n, executed, alt.alsoLive));
      }
      consider(value, n, setOf[n]);
    }
  }
  std::vector<uint64_t> quotientSizes;
  std::vector<BufferId> quotientLive;
  for (unsigned k = 0; k < sets.size(); ++k) {
    const FragmentSet &set = sets[k];
    if (set.fragments <= 1)
      continue;
    // The quotients of the ranks 2 to fragments - 1 have one structure
    // (the three copies all stand for some fragment): built once per node,
    // with its reachability, and solved with each rank's bytes. Transient
    // bytes are scaled into the nodes, so only when the set's are zero.
    bool oneStructure = set.fragments >= 3;
    for (NodeId n : set.nodes)
      oneStructure &= graph.transientBytes(n) == 0;
    for (NodeId n : set.cut.empty() ? set.nodes : set.cut) {
      const auto *alts = alternativesOf(n);
      struct Quotient {
        std::unique_ptr<MemoryGraph> graph;
        std::vector<NodeId> copy;
        std::vector<std::pair<BufferId, uint64_t>> origin;
        std::unique_ptr<NodeCutSolver> solver;
      };
      std::optional<Quotient> middle;
      auto build = [&](uint64_t rank) {
        Quotient q;
        q.graph = std::make_unique<MemoryGraph>(
            fragmentQuotient(graph, set, n, rank, q.copy, q.origin));
        q.solver = std::make_unique<NodeCutSolver>(*q.graph);
        return q;
      };
      // The cut while the rank-th fragment runs n: a minimum of functions
      // linear in the rank (each executed set's memory), so concave up to
      // the rounding of the pieces; the first and last ranks, and a
      // ternary search over the others. With alternatives, the least of
      // their cuts (a minimum of concave functions is concave).
      auto cutAt = [&](uint64_t rank) {
        std::optional<Quotient> own;
        Quotient *q;
        if (oneStructure && rank > 1 && rank < set.fragments) {
          if (!middle)
            middle = build(rank);
          q = &*middle;
        } else {
          own = build(rank);
          q = &*own;
        }
        const uint64_t weight[3] = {rank - 1, 1, set.fragments - rank};
        auto solveWith = [&](const std::vector<uint64_t> &sizes,
                             const std::vector<BufferId> &alsoLive) {
          quotientSizes.assign(q->graph->numBuffers(), 0);
          quotientLive.clear();
          for (BufferId qb = 0; qb < q->graph->numBuffers(); ++qb) {
            auto [b, c] = q->origin[qb];
            quotientSizes[qb] =
                c ? scale(sizes[b], weight[c - 1], set.fragments) : sizes[b];
            if (std::find(alsoLive.begin(), alsoLive.end(), b) !=
                alsoLive.end())
              quotientLive.push_back(qb);
          }
          q->solver->setBufferSizes(quotientSizes);
          return q->solver->solve(q->copy[n], executed, quotientLive);
        };
        uint64_t value = ~uint64_t(0);
        if (!alts)
          value = solveWith(ownSizes, {});
        else
          for (const CutAlternatives::Alternative &alt : *alts)
            value = std::min(
                value, solveWith(alternatives.sizes[alt.sizes], alt.alsoLive));
        consider(value, n, static_cast<int>(k));
        return value;
      };
      cutAt(1);
      cutAt(set.fragments);
      uint64_t low = 2, high = set.fragments - 1;
      while (low + 2 <= high) {
        uint64_t third = (high - low) / 3;
        uint64_t m1 = low + third, m2 = high - third;
        if (m1 == m2)
          ++m2;
        if (cutAt(m1) < cutAt(m2))
          low = m1 + 1;
        else
          high = m2 - 1;
      }
      for (uint64_t rank = low; rank <= high; ++rank)
        cutAt(rank);
    }
  }
  return result;
}
