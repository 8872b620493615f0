//===- SchedRepair.cpp - lowering an order's peak with node cuts ----------===//
//
// repairAtPeak: the local search that follows the list schedulers on
// segments the exact search could not finish (docs/lower-bounds.md, section
// 8d). For a node v, the node cut gives the least memory v can run with and
// an executed set S that achieves it; the order that runs S (in the current
// order), then v, then the rest (in the current order) is valid, and v's
// memory there is the cut. Sweeps visit the nodes above the floor, highest
// memory first, and take each such order that does not raise the current
// peak; the best order seen by (peak, steps at the peak) is the result.
// When a cut equals that best peak, no order does better: the search stops
// with a proof.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>

using namespace memsched_core;

namespace {
/// An order's peak and how many of its steps reach it.
struct PeakShape {
  uint64_t peak = 0;
  size_t atPeak = 0;
  bool operator<(const PeakShape &o) const {
    return peak != o.peak ? peak < o.peak : atPeak < o.atPeak;
  }
};

PeakShape shapeOf(const MemoryGraph &graph, const std::vector<NodeId> &order,
                  PeakInfo &info) {
  PeakShape shape;
  shape.peak = evaluatePeak(graph, order, &info);
  for (uint64_t m : info.memoryAt)
    shape.atPeak += m == shape.peak;
  return shape;
}
} // namespace

sched::RepairResult sched::repairAtPeak(const MemoryGraph &graph,
                                        std::vector<NodeId> order,
                                        uint64_t floor, uint64_t workBudget) {
  assert(graph.isValidOrder(order) && "repair needs a valid order");
  RepairResult result;
  size_t n = graph.numNodes();
  PeakInfo info;
  PeakShape shape = shapeOf(graph, order, info);
  result.initialPeak = shape.peak;
  if (n < 2 || shape.peak <= floor) {
    result.order = std::move(order);
    result.peak = shape.peak;
    return result;
  }
  std::vector<NodeId> best = order;
  PeakShape bestShape = shape;
  NodeCutSolver solver(graph);
  std::vector<NodeId> executed, sweep;
  // Per node: its memory in the current order, and its cut once known.
  std::vector<uint64_t> memory(n), cutOf(n, 0);
  auto record = [&](const std::vector<NodeId> &o, const PeakInfo &pi) {
    for (size_t i = 0; i < o.size(); ++i)
      memory[o[i]] = pi.memoryAt[i];
  };
  record(order, info);
  // Sweeps over the nodes above the floor, highest memory first. A move is
  // taken when it does not raise the current peak (moves along a plateau
  // included: they change which nodes the next cuts see); the best order
  // seen, by (peak, steps at the peak), is the result. A sweep that does not
  // improve the best ends the search, as do the floor and the budget.
  bool improved = true;
  while (improved && bestShape.peak > floor && solver.work() < workBudget &&
         !result.provedOptimal) {
    improved = false;
    sweep.clear();
    for (NodeId v = 0; v < n; ++v)
      if (memory[v] > floor && memory[v] > cutOf[v])
        sweep.push_back(v);
    std::stable_sort(sweep.begin(), sweep.end(), [&](NodeId a, NodeId b) {
      return memory[a] > memory[b];
    });
    for (NodeId v : sweep) {
      if (solver.work() >= workBudget)
        break;
      // Moves taken earlier in the sweep may have lowered v already.
      if (memory[v] <= floor || memory[v] <= cutOf[v])
        continue;
      uint64_t cut = solver.solve(v, executed);
      cutOf[v] = cut;
      ++result.cuts;
      if (cut >= bestShape.peak) {
        // v needs that much in every order: the best order is optimal.
        assert(cut == bestShape.peak && "a cut above an order's memory");
        result.provedOptimal = true;
        break;
      }
      if (cut >= memory[v])
        continue;
      std::vector<NodeId> candidate =
          orderAroundExecutedSet(graph, order, v, executed);
      if (candidate.empty())
        continue; // cannot happen for a cut's set; never trust it blindly
      PeakInfo candidateInfo;
      PeakShape candidateShape = shapeOf(graph, candidate, candidateInfo);
      if (candidateShape.peak > shape.peak)
        continue;
      order = std::move(candidate);
      shape = candidateShape;
      record(order, candidateInfo);
      ++result.accepted;
      if (shape < bestShape) {
        best = order;
        bestShape = shape;
        improved = true;
        if (bestShape.peak <= floor)
          break;
      }
    }
  }
  result.order = std::move(best);
  result.peak = bestShape.peak;
  return result;
}
