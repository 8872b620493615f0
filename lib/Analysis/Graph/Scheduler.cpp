//===- Scheduler.cpp - minimum-peak ordering of a MemoryGraph ---*- C++ -*-===//
//
// Cuts the graph at split points (positions every valid order passes
// through: cut nodes and the like, SchedSegment.h) and schedules each
// segment on its own:
//  1. list scheduling (SchedHeuristic.cpp) gives an order and an upper bound;
//     with the static lower bound (SchedSegment.cpp) it may already be proved;
//  2. the exact search (SchedExact.cpp) then either finds the optimum below
//     that bound or proves the heuristic order optimal, within the budget;
//  3. when the search gives up, local search improves the heuristic orders,
//     the same search restricted to bands around the best of them improves
//     it further (SchedBand.cpp; exact where the bands are separators), and
//     the bound the search proved before giving up may still prove it;
//  4. when some segment was left to the heuristics, the whole order is
//     repaired at its peak with node cuts (SchedRepair.cpp).
// The program order is one of the candidates, so no segment gets worse.
//
// Why segments are independent: with split points p1 < p2 < ..., every
// valid order runs exactly the program range [p_i, p_{i+1}) after the nodes
// before p_i and before those from p_{i+1} on, so the valid
// orders are exactly the concatenations of valid orders of the segments. The
// memory at a node of a segment only depends on the order inside the segment
// (a buffer's liveness there only depends on whether it is touched before,
// inside or after the segment) and is the segment-local memory plus a
// constant. Hence the minimum peak is the maximum over segments of their
// minimum, reached by concatenating optimal segment orders.
//
// Effort: exactStateBudget states per segment for each of the two searches,
// scaled down in proportion for segments above kFullBudgetNodes nodes (the
// search's work per state grows with the segment's size in words); the
// exact search also stops at a fixed
// amount of work per state and of memory. All limits count work, not time,
// so the result is deterministic.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/Scheduler.h"
#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>

using namespace memsched_core;
using namespace memsched_core::sched;

/// Segments above this size get a proportionally smaller state budget: the
/// search's work per state grows with the segment (its sets in words), and
/// such segments are rarely solved. Every segment the corpus needs searched
/// has at most 432 nodes after contraction and at most 652,098 states (a
/// 150-node segment); the 4,871-node segment of the layered generated graph
/// of 5,000 nodes is solved within its budget here (49,786 of 52,480
/// states, the reversed search's share first). A full budget up to 1,024
/// nodes cost 1-2.5 s more on the generated graphs of 2,000 nodes and on the
/// 1,000-op synthetic program, and lowered no peak (docs/performance.md).
static constexpr uint64_t kFullBudgetNodes = 256;

/// The exact search first spends 1/kReverseShare of the unscaled budget
/// (at most the segment's) on the reversed segment.
static constexpr uint64_t kReverseShare = 16;

/// Automatic work budget of the repair at the peak: a base plus this much
/// per node, edge and touch (half of what the lower bound's node cuts get:
/// doubling it gained nothing on the 100,000-node generated graphs).
static constexpr uint64_t kRepairWorkBase = 2000000;
static constexpr uint64_t kRepairWorkPerElement = 200;

static bool programOrderIsValid(const MemoryGraph &graph) {
  for (NodeId v = 0; v < graph.numNodes(); ++v)
    if (!graph.preds(v).empty() && graph.preds(v).back() >= v)
      return false;
  return true;
}

/// Per segment [starts[s], starts[s+1]): the bytes of buffers live across
/// it (touched, or live-in/out, on both sides) with no toucher inside it.
static std::vector<uint64_t> spanningBytes(const MemoryGraph &graph,
                                           const std::vector<NodeId> &starts) {
  size_t numSegments = starts.size() - 1;
  auto segmentOf = [&](NodeId v) {
    return static_cast<size_t>(
        std::upper_bound(starts.begin(), starts.end(), v) - starts.begin() - 1);
  };
  // Difference array: +size at the first segment of a gap, -size after it.
  std::vector<int64_t> delta(numSegments + 1, 0);
  auto addGap = [&](size_t from, size_t to, uint64_t size) {
    if (from < to) {
      delta[from] += static_cast<int64_t>(size);
      delta[to] -= static_cast<int64_t>(size);
    }
  };
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buf = graph.buffer(b);
    if (buf.touchers.empty()) {
      if (buf.liveIn && buf.liveOut)
        addGap(0, numSegments, buf.size);
      continue;
    }
    size_t prev = segmentOf(buf.touchers.front());
    if (buf.liveIn)
      addGap(0, prev, buf.size);
    for (NodeId t : buf.touchers) {
      size_t seg = segmentOf(t);
      addGap(prev + 1, seg, buf.size);
      prev = seg;
    }
    if (buf.liveOut)
      addGap(prev + 1, numSegments, buf.size);
  }
  std::vector<uint64_t> result(numSegments + 1, 0);
  int64_t running = 0;
  for (size_t s = 0; s < numSegments; ++s) {
    running += delta[s];
    result[s] = static_cast<uint64_t>(running);
  }
  return result;
}

ScheduleResult memsched_core::schedule(const MemoryGraph &graph,
                                  const ScheduleOptions &options) {
  ScheduleResult result;
  std::vector<NodeId> input = graph.programOrder();
  result.inputPeak = evaluatePeak(graph, input);
  size_t n = graph.numNodes();
  if (n == 0) {
    result.provedOptimal = true;
    return result;
  }
  if (!programOrderIsValid(graph)) {
    // Not a MemoryGraph the contract allows; leave it alone.
    result.order = std::move(input);
    result.peak = result.inputPeak;
    result.lowerBound = options.lowerBound;
    result.numSegments = result.heuristicSegments = 1;
    return result;
  }

  // Segments between split points (cut nodes included): every valid order
  // runs them one after the other.
  std::vector<NodeId> starts = findSplitPoints(graph);
  starts.insert(starts.begin(), 0);
  starts.push_back(static_cast<NodeId>(n));

  // Bytes live across each segment without being touched in it: the global
  // memory at a segment's node is its local memory plus this constant.
  std::vector<uint64_t> spanning = spanningBytes(graph, starts);

  // The peers' orders of the whole graph, split by segment: every valid
  // order runs the segments one after the other, so each peer order is the
  // concatenation of its restrictions, and a segment order at least as good
  // as every restriction keeps the whole peak at most the peer's.
  std::vector<std::vector<std::vector<LocalId>>> peerParts(starts.size() - 1);
  if (options.peerCandidates && starts.size() > 1) {
    std::vector<uint32_t> segmentOf(n);
    for (size_t s = 0; s + 1 < starts.size(); ++s)
      for (NodeId v = starts[s]; v < starts[s + 1]; ++v)
        segmentOf[v] = static_cast<uint32_t>(s);
    std::vector<std::vector<NodeId>> ownPeerOrders;
    const std::vector<std::vector<NodeId>> *peerOrders = options.peerOrders;
    if (!peerOrders) {
      ownPeerOrders = allPeerOrders(graph);
      peerOrders = &ownPeerOrders;
    }
    for (const std::vector<NodeId> &peer : *peerOrders) {
      assert(graph.isValidOrder(peer) && "peer orders of another graph");
      for (auto &parts : peerParts)
        parts.emplace_back();
      for (NodeId v : peer) {
        uint32_t s = segmentOf[v];
        peerParts[s].back().push_back(v - starts[s]);
      }
    }
  }

  result.order.reserve(n);
  for (size_t s = 0; s + 1 < starts.size(); ++s) {
    NodeId begin = starts[s], end = starts[s + 1];
    ++result.numSegments;
    if (end - begin == 1) {
      result.order.push_back(begin);
      ++result.exactSegments;
      continue;
    }
    SegmentGraph original = buildSegment(graph, begin, end);
    // Search the contracted segment (same optimal peak, fewer nodes); the
    // peers' orders come along projected onto it, which never raises their
    // peak, and the program order is its identity order.
    ContractedSegment contracted;
    if (options.contract) {
      contracted = contractSegment(original);
      for (std::vector<LocalId> &part : peerParts[s])
        part = projectOrder(contracted, part);
    }
    const SegmentGraph &seg = options.contract ? contracted.graph : original;
    NodeBounds bounds = segmentNodeBounds(seg);
    uint64_t bound = bounds.peakBound();
    if (options.contract)
      bound = std::max(bound, segmentStaticBound(original));
    uint64_t peak = 0;
    // Local search runs after a failed exact search only: when the exact
    // search succeeds it is wasted work.
    unsigned rounds = options.heuristicOnly ? options.localSearchRounds : 0;
    std::vector<LocalId> order =
        heuristicSchedule(seg, rounds, bound, peak, peerParts[s],
                          options.localSearchStarts);
    // Within the global lower bound, this segment cannot be what keeps the
    // peak above the optimum.
    SegmentInfo info;
    info.begin = begin;
    info.end = end;
    info.heuristicPeak = peak;
    info.staticBound = bound;
    bool exact = peak <= bound || peak + spanning[s] <= options.lowerBound;
    if (!exact && !options.heuristicOnly) {
      uint64_t budget = options.exactStateBudget;
      if (seg.numNodes() > kFullBudgetNodes)
        budget = budget / seg.numNodes() * kFullBudgetNodes;
      // Within the global lower bound the segment is good enough.
      uint64_t floor = options.lowerBound > spanning[s]
                           ? options.lowerBound - spanning[s]
                           : 0;
      // Rules (T) and (P): the search sees twins in a fixed order and
      // independent parallel chains merged (the same optimum, fewer
      // executed sets); its orders are the segment's.
      OrderedSegment twins, chains;
      NodeBounds reducedBounds;
      if (options.contract) {
        twins = orderTwins(seg);
        if (options.parallelChains)
          chains = mergeParallelChains(twins.edges ? twins.graph : seg);
        if (twins.edges || chains.edges)
          reducedBounds = segmentNodeBounds(
              chains.edges ? chains.graph : twins.graph);
      }
      info.twinEdges = twins.edges;
      info.chainEdges = chains.edges;
      const SegmentGraph &searched =
          chains.edges ? chains.graph : twins.edges ? twins.graph : seg;
      const NodeBounds &searchedBounds =
          twins.edges || chains.edges ? reducedBounds : bounds;
      // The time reversal has the same orders' peaks but can need far fewer
      // states (the backward pass of a training step read backwards): a
      // short search there first, the rest of the budget forwards.
      ExactResult r;
      // The share of the unscaled budget (within the segment's): where the
      // reversal is what makes a large segment easy, it is so early.
      uint64_t reverseBudget =
          std::min(budget, options.exactStateBudget / kReverseShare);
      if (reverseBudget >= seg.numNodes()) {
        SegmentGraph reversed = reverseSegment(searched);
        NodeBounds reversedBounds = segmentNodeBounds(reversed);
        r = exactSearch(reversed, peak, reverseBudget, &reversedBounds,
                        floor);
        if (r.status == ExactStatus::Improved) {
          std::reverse(r.order.begin(), r.order.end());
          for (LocalId &v : r.order)
            v = static_cast<LocalId>(seg.numNodes() - 1 - v);
        }
      }
      if (r.status == ExactStatus::GaveUp) {
        ExactResult forward =
            exactSearch(searched, peak, budget - std::min(budget, r.expanded),
                        &searchedBounds, floor);
        forward.lowerBound = std::max(forward.lowerBound, r.lowerBound);
        forward.expanded += r.expanded;
        r = std::move(forward);
      }
      if (r.status == ExactStatus::Improved)
        for (LocalId &v : r.order) {
          if (chains.edges)
            v = chains.oldId[v];
          if (twins.edges)
            v = twins.oldId[v];
        }
      info.expanded = r.expanded;
      switch (r.limit) {
      case ExactResult::Limit::None:
        break;
      case ExactResult::Limit::States:
        info.limit = "states";
        break;
      case ExactResult::Limit::Work:
        info.limit = "work";
        break;
      case ExactResult::Limit::Memory:
        info.limit = "memory";
        break;
      }
      if (r.status == ExactStatus::Improved) {
        order = std::move(r.order);
        exact = true;
      } else if (r.status == ExactStatus::NoneBelowBound) {
        exact = true;
      } else {
        // What the search proved before giving up still counts.
        bound = std::max(bound, r.lowerBound);
        if (options.localSearchRounds > 0)
          order = heuristicSchedule(seg, options.localSearchRounds, bound,
                                    peak, peerParts[s],
                                    options.localSearchStarts);
        exact = peak <= bound;
        if (!exact && options.bandSearch) {
          // The exact search restricted to bands around the best order:
          // linear in the segment, never worse, and exact where the bands
          // are separators.
          bool bandExact = false;
          BandResult banded = improveInBands(
              seg, order, budget, std::max(floor, bound), &bounds,
              bandExact);
          info.bandStates = banded.states;
          order = std::move(banded.order);
          peak = banded.peak;
          exact = bandExact || peak <= bound;
        }
      }
    }
    peerParts[s].clear();
    peerParts[s].shrink_to_fit();
    info.peak = segmentPeak(seg, order);
    info.provedBound = exact ? info.peak : bound;
    info.spanning = spanning[s];
    info.exact = exact;
    info.contractedNodes = static_cast<uint32_t>(seg.numNodes());
    result.segments.push_back(info);
    if (options.contract)
      order = expandOrder(contracted, order);
    ++(exact ? result.exactSegments : result.heuristicSegments);
    for (LocalId v : order)
      result.order.push_back(begin + v);
  }

  assert(graph.isValidOrder(result.order) && "scheduler broke a dependency");
  // Segments the heuristics decided: repair the whole order at its peak
  // with node cuts (a cut spans segments, and the order is global here).
  if (result.heuristicSegments > 0 && options.cutRepair) {
    uint64_t budget = options.repairWorkBudget;
    if (budget == 0)
      budget = kRepairWorkBase + kRepairWorkPerElement *
                                     (n + graph.numEdges() + graph.numTouches());
    RepairResult repaired =
        repairAtPeak(graph, result.order,
                     std::max(options.lowerBound, options.target), budget);
    result.repairCuts = repaired.cuts;
    result.repairAccepted = repaired.accepted;
    if (repaired.peak < repaired.initialPeak)
      result.order = std::move(repaired.order);
  }
  // Still left to the heuristics somewhere: the stretch of the order
  // around its peak, scheduled again as a graph of its own (a graph of the
  // size the heuristics do well on).
  if (result.heuristicSegments > 0 && options.windows &&
      options.windowWidth >= 3 && n > options.windowWidth) {
    WindowOptions windows;
    windows.width = options.windowWidth;
    windows.rounds =
        options.windowRounds
            ? options.windowRounds
            : static_cast<unsigned>(16 + 2 * (n / options.windowWidth));
    windows.floor = options.lowerBound;
    WindowResult improved =
        improveInWindows(graph, std::move(result.order), windows);
    result.order = std::move(improved.order);
    result.windows = improved.windows;
    result.windowsAccepted = improved.accepted;
  }
  result.peak = evaluatePeak(graph, result.order);
  assert(result.peak <= result.inputPeak && "scheduler raised the peak");
  if (result.peak > result.inputPeak) {
    // Unreachable by construction; never hand out a worse order.
    result.order = std::move(input);
    result.peak = result.inputPeak;
    result.heuristicSegments += result.exactSegments;
    result.exactSegments = 0;
  }
  result.provedOptimal = result.heuristicSegments == 0;
  // Every order's peak is at least each segment's local optimum plus the
  // bytes spanning it. A segment's provedBound is at most that, or within
  // the floor options.lowerBound - spanning it was searched against: either
  // way the maximum stays at most max(optimum, options.lowerBound).
  result.lowerBound = options.lowerBound;
  for (size_t i = 0; i < result.segments.size(); ++i) {
    const SegmentInfo &info = result.segments[i];
    if (info.provedBound + info.spanning > result.lowerBound) {
      result.lowerBound = info.provedBound + info.spanning;
      result.boundSegment = static_cast<int>(i);
    }
  }
  if (result.provedOptimal && result.peak > result.lowerBound) {
    // The peak is at a node that runs alone in its segment.
    result.lowerBound = result.peak;
    result.boundSegment = -1;
  }
  assert(result.lowerBound <= result.peak && "bound above an order's peak");
  return result;
}
