//===- SchedSegment.h - scheduler building blocks ---------------*- C++ -*-===//
//
// The pieces `schedule()` is made of, exposed for unit tests and benchmarks:
// cut-node decomposition, the self-contained graph of one segment, the
// memory-aware list schedulers with local search, and the exact best-first
// search. All orders here are in local node ids (0..n-1, program order of the
// segment). Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_SCHEDSEGMENT_H
#define MEMSCHED_ANALYSIS_SCHEDSEGMENT_H

#include "Analysis/Graph/MemoryGraph.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace memsched_core {
namespace sched {

using LocalId = uint32_t;

/// Nodes that every other node is an ancestor or a descendant of, ascending.
/// In every valid order such a node runs at its program position, after
/// exactly its ancestors. O(V + E). Requires a valid program order.
std::vector<NodeId> findCutNodes(const MemoryGraph &graph);

/// Positions p (0 < p < numNodes, ascending) such that every valid order
/// runs the nodes [0, p) before the nodes [p, numNodes): each node before p
/// is an ancestor of each node from p on. Every cut node c gives c (when
/// c > 0) and c + 1 (when below numNodes); wide graphs have more, e.g. two
/// independent nodes that every later node reads. O(V + E). Requires a
/// valid program order.
std::vector<NodeId> findSplitPoints(const MemoryGraph &graph);

/// The nodes [begin, begin + n) of a graph as a graph of their own. Buffers
/// touched before the range (or live-in) are live-in here; buffers touched
/// after it (or live-out) are live-out. Buffers of size 0 are dropped. When
/// the range is delimited by cut nodes, the memory at every node of the range
/// in a global order equals the local memory plus a constant, so the range can
/// be scheduled on its own.
struct SegmentGraph {
  NodeId begin = 0;
  std::vector<uint64_t> transient;
  std::vector<uint32_t> predStart, predList, succStart, succList;
  /// Per node: local buffer ids it touches.
  std::vector<uint32_t> bufStart, bufList;
  std::vector<uint64_t> size;
  std::vector<uint8_t> liveIn, liveOut;
  /// Per buffer: local touchers, ascending.
  std::vector<uint32_t> touchStart, touchList;

  size_t numNodes() const { return transient.size(); }
  size_t numBuffers() const { return size.size(); }
  IdRange preds(LocalId v) const { return range(predStart, predList, v); }
  IdRange succs(LocalId v) const { return range(succStart, succList, v); }
  IdRange bufs(LocalId v) const { return range(bufStart, bufList, v); }
  IdRange touchers(uint32_t b) const { return range(touchStart, touchList, b); }

private:
  static IdRange range(const std::vector<uint32_t> &start,
                       const std::vector<uint32_t> &list, uint32_t i) {
    return {list.data() + start[i], list.data() + start[i + 1]};
  }
};

/// Builds the segment graph of the nodes [begin, end) of `graph`.
SegmentGraph buildSegment(const MemoryGraph &graph, NodeId begin, NodeId end);

/// The same segment with time reversed: local id i becomes n-1-i, edges flip,
/// live-in and live-out swap. An order's reverse has the same peak there.
SegmentGraph reverseSegment(const SegmentGraph &seg);

/// One touch of a buffer of `size` bytes by the node that runs: a buffer not
/// `started` is allocated by it (counted in `mem`, the memory while it runs,
/// and in `live`, the bytes live after it, when `pending`); a started one
/// that is not `pending` is freed after it.
inline void touchBuffer(uint64_t size, bool started, bool pending,
                        uint64_t &mem, uint64_t &live) {
  if (!started) {
    mem += size;
    if (pending)
      live += size;
  } else if (!pending) {
    live -= size;
  }
}

/// Peak of a valid local `order` of `seg`; optionally the memory at each
/// position and the bytes live between positions (before position q).
uint64_t segmentPeak(const SegmentGraph &seg, const std::vector<LocalId> &order,
                     std::vector<uint64_t> *memoryAt = nullptr,
                     std::vector<uint64_t> *liveBefore = nullptr);

/// Strict descendants (or, with `ancestors`, ancestors) of every node as
/// bitsets: node u's set is words [u * W, (u + 1) * W) with W = (n + 63) / 64.
/// O(E * n / 64) time, n * n / 8 bytes.
std::vector<uint64_t> reachBits(const SegmentGraph &seg, bool ancestors);

/// Per node u, bytes live while u runs in every order: u's transient bytes,
/// u's buffers, and every buffer with a toucher (or live-in) among u's
/// ancestors and a toucher (or live-out) among u's descendants.
struct NodeBounds {
  std::vector<uint64_t> all;
  /// The same without live-out buffers.
  std::vector<uint64_t> withoutLiveOut;
  /// Memory of the first and last step of any order: all live-in (resp.
  /// live-out) buffers plus the cheapest source (resp. sink).
  uint64_t endpoints = 0;

  /// The resulting lower bound on the peak of every order.
  uint64_t peakBound() const;
};

/// Computes NodeBounds with reachability bitsets when the segment has at most
/// `maxReachNodes` nodes; above, counts only the buffers u touches and those
/// live-in and live-out (still sound, weaker).
NodeBounds segmentNodeBounds(const SegmentGraph &seg,
                             size_t maxReachNodes = 4096);

/// A lower bound on the peak of every order of `seg`:
/// segmentNodeBounds().peakBound().
uint64_t segmentStaticBound(const SegmentGraph &seg);

/// A segment with nodes merged that some optimal order runs next to each
/// other (SchedReduce.cpp: a node with one successor whose buffers that
/// successor touches runs right before it, and the time reversal). Same
/// buffers as the segment; the optimal peak is the same.
struct ContractedSegment {
  SegmentGraph graph;
  /// Per contracted node: the segment's nodes it stands for, in the order
  /// they run.
  std::vector<std::vector<LocalId>> members;
  /// Per contracted node: the member the others were merged into; the
  /// contracted ids follow these in program order.
  std::vector<LocalId> representatives;
};

/// Contracts `seg` until no rule applies. O((V + E) * degree).
ContractedSegment contractSegment(const SegmentGraph &seg);

/// An order of the segment from an order of the contracted graph: each
/// contracted node replaced by its members. Same peak.
std::vector<LocalId> expandOrder(const ContractedSegment &contracted,
                                 const std::vector<LocalId> &order);

/// An order of the contracted graph from a valid order of the segment: each
/// group at the position of its representative. Valid, and its peak is at
/// most the segment order's.
std::vector<LocalId> projectOrder(const ContractedSegment &contracted,
                                  const std::vector<LocalId> &order);

/// The same segment with node v renumbered newId[v] (a permutation that
/// keeps the numbering topological) and the edges `extraEdges` (pairs of old
/// ids, each from a lower to a higher new id) added.
SegmentGraph
renumberSegment(const SegmentGraph &seg, const std::vector<LocalId> &newId,
                const std::vector<std::pair<LocalId, LocalId>> &extraEdges);

/// A segment with edges added that keep its optimal peak: same optimum, and
/// each of its orders (in old ids: oldId) is an order of the given segment.
struct OrderedSegment {
  /// The segment renumbered (still topologically) with the edges added;
  /// empty when no edge was added.
  SegmentGraph graph;
  std::vector<LocalId> oldId;
  /// Edges added.
  unsigned edges = 0;
};

/// Twins ordered (rule (T), SchedReduce.cpp): nodes with the same
/// predecessors and successors that some optimal order runs in a fixed order
/// get edges in that order. O((V + E) log V + touches * degree).
OrderedSegment orderTwins(const SegmentGraph &seg);

/// Parallel chains merged (rule (P), SchedParallel.cpp): chains with the same
/// predecessors and successors whose buffers are private to them or live
/// across them become one chain, in the order of their blocks that some
/// optimal order follows (Johnson's rule on rises and falls); a buffer only
/// they share counts for one owner, when the merged order makes the owner's
/// touches its first and last; rounds repeat while merged chains form new
/// groups, so series-parallel pieces with such buffers become paths. O(rounds * (V + E) log V + touches * degree), plus
/// a transitive reduction with reachability bitsets up to 4,096 nodes.
OrderedSegment mergeParallelChains(const SegmentGraph &seg);

/// No deferral target (deferralTargets).
constexpr LocalId kNoDeferral = UINT32_MAX;

/// Per node u of `seg`: the node v that some optimal order runs right after u
/// (rule (D), SchedReduce.cpp), or kNoDeferral. v is u's only successor; it
/// is the target of no other node and has no target itself, so every valid
/// order can have all these pairs adjacent at once without a higher peak.
/// Unlike contractSegment's rules, u may free buffers at its step, so the
/// pair is not one node of the model: the exact search runs it as two steps.
/// Empty of targets above `maxNodes` nodes. O(V^2 / 64 + touches * degree).
std::vector<LocalId> deferralTargets(const SegmentGraph &seg,
                                     size_t maxNodes = 4096);

/// Memory-aware list scheduling priorities.
enum class Priority {
  /// Least net allocation (bytes allocated minus bytes freed) first.
  MinNetAlloc,
  /// Lowest memory while the node runs first.
  MinRunMemory,
  /// Most recently enabled node first: finishes a branch (DFS-like).
  Depth,
};

/// List-schedules `seg` with `priority`. O((V + E + touches) log V).
std::vector<LocalId> listSchedule(const SegmentGraph &seg, Priority priority);

/// The schedulers of other compilers, as memsched computes them on a segment
/// (SchedPeers.cpp documents each): memsched's candidates include their
/// orders, and the benchmarks compare with them.
enum class PeerScheduler {
  XlaList,
  XlaDfs,
  XlaPostOrder,
  InductorLpmf,
  InductorBfs,
  InductorDfs,
};
const char *peerName(PeerScheduler peer);
const std::vector<PeerScheduler> &allPeers();

/// The order `peer` computes for `seg`. Deterministic.
std::vector<LocalId> peerSchedule(const SegmentGraph &seg, PeerScheduler peer);

/// The order `peer` computes for the whole graph (finalized, valid program
/// order).
std::vector<NodeId> peerOrder(const MemoryGraph &graph, PeerScheduler peer);

/// peerOrder of every peer, in allPeers() order.
std::vector<std::vector<NodeId>> allPeerOrders(const MemoryGraph &graph);

/// Improves `order` around its peak: moves single nodes to other valid
/// positions, and reorders small windows of consecutive positions with the
/// exact search (small budgets). At most `rounds` rounds of bounded work.
/// Never increases the peak. Returns the new peak.
uint64_t improveOrder(const SegmentGraph &seg, std::vector<LocalId> &order,
                      unsigned rounds);

/// The best order the heuristics find: the program order, every priority
/// forwards and on the reversed segment, the `extra` orders (e.g. the
/// peers' orders restricted to the segment), then local search on the best
/// unless its peak already equals `lowerBound`. Local search starts from
/// the `localSearchStarts` best candidates; 0: from every candidate on
/// segments of up to 4,096 nodes, from the best one above.
std::vector<LocalId>
heuristicSchedule(const SegmentGraph &seg, unsigned localSearchRounds,
                  uint64_t lowerBound, uint64_t &peak,
                  const std::vector<std::vector<LocalId>> &extra = {},
                  unsigned localSearchStarts = 0);

/// Outcome of the exact search below a bound.
enum class ExactStatus {
  /// Found an order with peak below the bound; it is optimal.
  Improved,
  /// Proved that no order has a peak below the bound.
  NoneBelowBound,
  /// Ran out of budget (states or memory).
  GaveUp,
};

struct ExactResult {
  ExactStatus status = ExactStatus::GaveUp;
  /// Set when status is Improved.
  std::vector<LocalId> order;
  uint64_t peak = 0;
  /// Proved: every order of the segment has a peak >= lowerBound (the key
  /// the search had reached, or the static bound). Meaningful even when the
  /// search gave up.
  uint64_t lowerBound = 0;
  /// States expanded (including free-first steps).
  uint64_t expanded = 0;
  /// Why the search gave up (status GaveUp).
  enum class Limit { None, States, Work, Memory } limit = Limit::None;
};

/// Best-first search over executed sets for an order of `seg` with peak below
/// `upperBound`, expanding at most `stateBudget` states. `bounds`, when given,
/// must be segmentNodeBounds(seg) (saves recomputing it). `floor`: a peak
/// that is good enough (e.g. what a bound on the whole graph allows this
/// segment); the search then stops at the first order within it, and the
/// lowerBound it reports is only "optimal or within the floor".
ExactResult exactSearch(const SegmentGraph &seg, uint64_t upperBound,
                        uint64_t stateBudget,
                        const NodeBounds *bounds = nullptr,
                        uint64_t floor = 0);

/// What bandSearch found.
struct BandResult {
  /// Valid, with peak `peak` at most the reference's; the reference itself
  /// when the band holds nothing better (or the search ran out of budget).
  std::vector<LocalId> order;
  uint64_t peak = 0;
  /// The search finished within its budget: no order of the band has a
  /// peak below max(peak, floor).
  bool complete = false;
  /// States created.
  uint64_t states = 0;
};

/// Widest band bandSearch takes (bits of a mask).
constexpr unsigned kMaxBandWidth = 63;
/// Widest band coveringBandWidth checks.
constexpr unsigned kMaxCoveringBandWidth = 31;
constexpr unsigned kNoCoveringBand = ~0u;

/// The least peak over the orders of `seg` in the band of width `width`
/// around the valid order `reference` (SchedBand.cpp): at every step, with m
/// the first position of the reference not yet run, nothing after position
/// m + width has run. Exact within the band; the reference is in it. Creates
/// at most `stateBudget` states (at most numNodes * 2^width exist); peaks up
/// to `floor` count as equal. `bounds`, when given, must be
/// segmentNodeBounds(seg): the search then skips sets whose remaining nodes
/// cannot run below the reference's peak. Deterministic.
BandResult bandSearch(const SegmentGraph &seg,
                      const std::vector<LocalId> &reference, unsigned width,
                      uint64_t stateBudget, uint64_t floor = 0,
                      const NodeBounds *bounds = nullptr);

/// The least width <= kMaxCoveringBandWidth whose band around `reference`
/// holds every valid order of `seg` (each node of the reference is an
/// ancestor of every node more than width positions later), or
/// kNoCoveringBand. A complete bandSearch of at least that width is then an
/// exact search of the whole segment. O(V + E).
unsigned coveringBandWidth(const SegmentGraph &seg,
                           const std::vector<LocalId> &reference);

/// First band width and width increment of improveInBands.
constexpr unsigned kFirstBandWidth = 6;
constexpr unsigned kBandWidthStep = 3;

/// Lowers the peak of the valid order `order` with bandSearch, within
/// `stateBudget` states in all: around the best order so far, first in
/// bands of width kFirstBandWidth, then wider while the narrower band holds
/// nothing better. `exact` is set when a band held every valid order
/// (coveringBandWidth) and its search completed: the result is then optimal,
/// or within `floor`; `complete` is cleared when the last search ran out of
/// budget. The result's peak is at most the order's. `bounds`: as for
/// bandSearch.
BandResult improveInBands(const SegmentGraph &seg,
                          const std::vector<LocalId> &order,
                          uint64_t stateBudget, uint64_t floor,
                          const NodeBounds *bounds, bool &exact);

/// What repairAtPeak found.
struct RepairResult {
  /// Valid, with a peak at most the given order's.
  std::vector<NodeId> order;
  uint64_t peak = 0, initialPeak = 0;
  /// Node cuts computed, and orders accepted.
  unsigned cuts = 0, accepted = 0;
  /// A node where `order` peaks cannot run with less: `peak` is optimal.
  bool provedOptimal = false;
};

/// Lowers the peak of a valid order of the whole graph: sweeps over the
/// nodes above `floor`, highest memory first, run each node right after a
/// cheapest executed set (its node cut's), the other nodes keeping their
/// relative order, whenever that does not raise the current peak; the best
/// order seen by (peak, steps at the peak) is returned. Stops at `floor` (a
/// known lower bound), after a sweep that does not improve the best, or
/// after `workBudget` units of cut work (LowerBoundOptions::workBudget's
/// units).
/// Deterministic. Node ids must be a topological order.
RepairResult repairAtPeak(const MemoryGraph &graph, std::vector<NodeId> order,
                          uint64_t floor, uint64_t workBudget);

} // namespace sched
} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_SCHEDSEGMENT_H
