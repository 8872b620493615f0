//===- Scheduler.h - minimum-peak ordering of a MemoryGraph -----*- C++ -*-===//
//
// Finds a valid order of a MemoryGraph with a low peak (DESIGN.md section 3):
// decomposition at cut nodes, exact best-first search over executed sets per
// segment within a budget, memory-aware list scheduling plus local search as the
// fallback. The program order is always a candidate, so the result's peak never
// exceeds it. Deterministic. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_SCHEDULER_H
#define MEMSCHED_ANALYSIS_SCHEDULER_H

#include "Analysis/Graph/MemoryGraph.h"

namespace memsched_core {

struct ScheduleOptions {
  /// Maximum number of search states the exact search may expand per segment
  /// before giving up on that segment (then the heuristic result stands).
  uint64_t exactStateBudget = 1000000;
  /// Skip the exact search entirely.
  bool heuristicOnly = false;
  /// Rounds of local improvement after list scheduling (0 disables it).
  unsigned localSearchRounds = 2;
  /// Candidate orders local search starts from (the best ones); 0: every
  /// candidate on segments of up to 4,096 nodes, the best one above.
  unsigned localSearchStarts = 0;
  /// Include the orders of XLA's and Inductor's schedulers, computed on the
  /// whole graph, among the candidates of every segment: the result's peak
  /// is then at most each of theirs.
  bool peerCandidates = true;
  /// The peers' orders when already computed (sched::allPeerOrders on the
  /// same graph); otherwise schedule() computes them.
  const std::vector<std::vector<NodeId>> *peerOrders = nullptr;
  /// Merge nodes that some optimal order runs next to each other before
  /// searching a segment (same optimal peak, fewer states).
  bool contract = true;
  /// With `contract`: before the exact search, merge parallel chains whose
  /// buffers are their own or live across them into one chain
  /// (sched::mergeParallelChains; same optimal peak, fewer states).
  bool parallelChains = true;
  /// A proven lower bound on the peak of every valid order (e.g. from
  /// computeLowerBound). No order can beat it, so a segment whose heuristic
  /// order keeps the global memory within it needs no exact search.
  uint64_t lowerBound = 0;
  /// A peak at or below which lowering it is worth nothing (not a bound: the
  /// peak may end below it). The repair at the peak cuts only nodes above
  /// max(lowerBound, target). Windows set it to the whole graph's bound
  /// less what is live across the window.
  uint64_t target = 0;
  /// When the exact search gives up on a segment, search bands around the
  /// best order found (sched::improveInBands) with the same state budget.
  bool bandSearch = true;
  /// When a segment is left to the heuristics, lower the whole order's peak
  /// with node cuts afterwards (sched::repairAtPeak).
  bool cutRepair = true;
  /// Work budget of that repair in LowerBoundOptions::workBudget's units;
  /// 0: a base plus a share per node, edge and touch.
  uint64_t repairWorkBudget = 0;
  /// When the order is not proved optimal and the graph has more than
  /// `windowWidth` nodes: windows of that many nodes of the order around
  /// its peak scheduled again as graphs of their own (improveInWindows),
  /// at most `windowRounds` of them (0: 16 plus two per `windowWidth`
  /// nodes of the graph).
  bool windows = true;
  unsigned windowRounds = 0;
  unsigned windowWidth = 1024;
};

/// What happened to one segment (for reports and benchmarks).
struct SegmentInfo {
  NodeId begin = 0, end = 0;
  /// Best heuristic peak, the segment's static bound, the final peak and
  /// the bound proved (segment-local memory).
  uint64_t heuristicPeak = 0, staticBound = 0, peak = 0, provedBound = 0;
  /// Bytes live across the segment without being touched in it: the whole
  /// graph's memory at a node of the segment is its local memory plus this.
  uint64_t spanning = 0;
  bool exact = false;
  /// Nodes after contraction (what the search saw).
  uint32_t contractedNodes = 0;
  /// Exact search: states expanded, and what stopped it ("" when it
  /// finished or did not run): "states", "work" or "memory".
  uint64_t expanded = 0;
  const char *limit = "";
  /// States of the band search (improveInBands) after a failed exact search.
  uint64_t bandStates = 0;
  /// Edges rule (T) added between twins for the exact search (orderTwins).
  unsigned twinEdges = 0;
  /// Edges rule (P) added between parallel chains for the exact search
  /// (mergeParallelChains).
  unsigned chainEdges = 0;
};

struct ScheduleResult {
  std::vector<NodeId> order;
  uint64_t peak = 0;
  /// Peak of the program order, for reference.
  uint64_t inputPeak = 0;
  unsigned numSegments = 0;
  unsigned exactSegments = 0;
  unsigned heuristicSegments = 0;
  /// True when every segment was solved exactly: `peak` is then the minimum
  /// over all valid orders.
  bool provedOptimal = false;
  /// Proved: every valid order has a peak >= lowerBound (at least
  /// options.lowerBound; `peak` when provedOptimal). What the segments'
  /// static bounds and exact searches proved, each plus the bytes live across
  /// its segment untouched.
  uint64_t lowerBound = 0;
  /// The segment (index into `segments`) whose proof gives lowerBound, when
  /// it is above options.lowerBound; -1 otherwise.
  int boundSegment = -1;
  /// Per segment of more than one node.
  std::vector<SegmentInfo> segments;
  /// The repair at the peak (cutRepair): node cuts computed, orders taken.
  unsigned repairCuts = 0, repairAccepted = 0;
  /// Windows around the peak scheduled again, and those taken.
  unsigned windows = 0, windowsAccepted = 0;
};

/// Schedules `graph` (finalized). The result's order is valid and its peak is
/// at most the program order's peak (and, with peerCandidates, at most the
/// peak of each peer scheduler's order).
ScheduleResult schedule(const MemoryGraph &graph,
                        const ScheduleOptions &options = {});

struct WindowOptions {
  /// How the windows are scheduled (their own windows are not searched).
  /// By default: heuristics, one round of local search from the best
  /// candidate, the repair at the peak; no exact search (on a window of a
  /// thousand nodes it costs more than it finds).
  ScheduleOptions schedule = [] {
    ScheduleOptions o;
    o.heuristicOnly = true;
    o.localSearchRounds = 1;
    o.localSearchStarts = 1;
    o.windows = false;
    return o;
  }();
  /// Nodes per window, and windows tried at most.
  unsigned width = 1024;
  unsigned rounds = 64;
  /// A known lower bound: no window is tried once the peak reaches it.
  uint64_t floor = 0;
};

struct WindowResult {
  /// Valid; its peak is at most the given order's.
  std::vector<NodeId> order;
  uint64_t peak = 0, initialPeak = 0;
  unsigned windows = 0, accepted = 0;
};

/// Lowers the peak of a valid order of the whole graph by scheduling the
/// stretch of `width` nodes around its peak again as a graph of its own
/// (everything before it done, everything after it waiting), taking the
/// result when the peak goes down, and repeating at the new peak; a window
/// that did not help is not tried again until the order changes. At most
/// `rounds` windows. Deterministic.
WindowResult improveInWindows(const MemoryGraph &graph,
                              std::vector<NodeId> order,
                              const WindowOptions &options);

/// Exhaustive minimum peak over all valid orders. Exponential: for tests on
/// small graphs only (asserts numNodes() <= 20).
uint64_t bruteForceMinPeak(const MemoryGraph &graph,
                           std::vector<NodeId> *bestOrder = nullptr);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_SCHEDULER_H
