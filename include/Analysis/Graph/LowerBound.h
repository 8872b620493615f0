//===- LowerBound.h - lower bounds on the peak of any order -----*- C++ -*-===//
//
// A lower bound L on the peak of every valid order of a MemoryGraph
// (DESIGN.md section 4). For each node v, the set S executed before v holds all
// ancestors of v and no descendant; every buffer touched both inside and
// outside S is live while v runs, plus the buffers v touches and v's transient
// bytes. The cheapest such S is an s-t min-cut. Per node, the same from the
// end (up-sets of descendants) is the same cut; what the end adds is a search
// over how orders end (the nodes run last have fixed memory), and the same
// from the start. A window search over the relative orders of a few nodes
// combines cuts. Includes no MLIR header.
//
// docs/lower-bounds.md proves each bound sound.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_LOWERBOUND_H
#define MEMSCHED_ANALYSIS_LOWERBOUND_H

#include "Analysis/Graph/MaxFlow.h"
#include "Analysis/Graph/MemoryGraph.h"

#include <limits>
#include <memory>

namespace memsched_core {

struct LowerBoundOptions {
  /// Stop as soon as the bound reaches this value (typically the peak of a
  /// found order: the order is then proved optimal).
  uint64_t target = std::numeric_limits<uint64_t>::max();
  /// Optional valid order (typically the scheduler's). The memory at each
  /// node in it is an upper estimate of that node's cut; nodes whose estimate
  /// cannot raise the bound need no max-flow. The program order is always
  /// used as well.
  const std::vector<NodeId> *order = nullptr;
  /// Use the orders of the peers' schedulers (sched::allPeers) the same way,
  /// the one of lowest peak as the window search's hint when `order` is not
  /// given: valid orders computed in O(n log n), far closer to the minimum
  /// at each node than the program order when that holds buffers long.
  bool peerEstimates = true;
  /// After each node cut that cannot raise the bound, complete the executed
  /// set that shows it (the cheapest one, or the one behind the network's
  /// upper estimate) to an order around the best order known so far
  /// (orderAroundExecutedSet). That order's memory is an upper estimate of
  /// every node's cut, so nodes it shows at or below the bound need no
  /// network (docs/lower-bounds.md, section 6).
  bool witnessEstimates = true;
  /// The peers' orders when already computed (sched::allPeerOrders on the
  /// same graph); otherwise computed here when peerEstimates is set.
  const std::vector<std::vector<NodeId>> *peerOrders = nullptr;
  /// Max-flow implementation for the per-node cuts.
  MaxFlowAlgorithm algorithm = MaxFlowAlgorithm::BoykovKolmogorov;
  /// Window strengthening (kind "window"): an exact search over the orders
  /// of at most this many nodes, each step priced by a constrained cut.
  /// 0 disables it.
  unsigned windowSize = 10;
  /// Budget of constrained cuts the window search may run.
  unsigned windowCutBudget = 4000;
  /// Searches over how orders end (method "end-search") and begin
  /// ("start-search"): evaluations allowed per direction (0 disables them)
  /// and the most nodes placed from one end.
  uint64_t endsEvaluationBudget = 50000;
  unsigned endsMaxDepth = 32;
  /// Reachability labels kept per node (4 bytes each) to find each node's
  /// incomparable nodes quickly; graphs needing more fall back to one BFS per
  /// examined node. 0 always uses the BFS.
  unsigned labelsPerNode = 16;
  /// Deterministic cap on the work (about one unit per free node, gadget
  /// touch and a few per flow arc) spent on cuts; past it the search stops
  /// and the bound found so far is returned (LowerBound::complete = false).
  /// 0 = automatic, linear in the graph size.
  uint64_t workBudget = 0;
};

struct LowerBound {
  uint64_t value = 0;
  /// The node whose cut proves `value` (meaningless for an empty graph).
  NodeId node = 0;
  /// Buffers counted in that cut (live whenever `node` runs, in any order).
  std::vector<BufferId> cutBuffers;
  /// Which family proved it: "trivial" (touched buffers + transient, plus
  /// buffers live in every order), "forward" (executed sets from the start:
  /// a node's min-cut, or the search over how orders begin), "backward" (the
  /// search over how orders end: up-sets of the nodes run last) or "window"
  /// (search over the orders of `window`, each step priced by a cut).
  std::string kind = "trivial";
  /// The method within the family: "local", "node-cut", "start-search",
  /// "end-search" or "window" (docs/lower-bounds.md).
  std::string method = "local";
  /// Number of max-flow computations run.
  unsigned maxFlows = 0;
  /// Number of node networks built (a flow is run on some of them).
  unsigned networks = 0;
  /// Number of witness orders whose memory lowered the nodes' estimates.
  unsigned witnessOrders = 0;
  /// The best witness order when its peak is below the peak of every order
  /// the bound was given (program order, `order`, peers), else empty; its
  /// peak is `improvedPeak`. A by-product: callers may schedule with it.
  std::vector<NodeId> improvedOrder;
  uint64_t improvedPeak = 0;
  /// False when the work budget stopped the search before every node that
  /// could raise the bound was examined (the bound is sound either way).
  bool complete = true;

  /// For the methods node-cut and window (empty otherwise): a cheapest
  /// executed set for `node` (sorted). Running `node` right after exactly
  /// these nodes needs transientBytes(node) + the sizes of `minCutBuffers`:
  /// `value` for node-cut, at most `value` for window; every valid order
  /// needs at least that much while `node` runs.
  std::vector<NodeId> minCutExecuted;
  /// Buffers live at `node` after `minCutExecuted` (sorted; a superset of
  /// `cutBuffers`).
  std::vector<BufferId> minCutBuffers;
  /// For kind "window": the nodes whose relative orders were searched.
  std::vector<NodeId> window;
};

/// A sound lower bound: never above the minimum peak over valid orders.
LowerBound computeLowerBound(const MemoryGraph &graph,
                             const LowerBoundOptions &options = {});

/// The local bound, computeLowerBound's first step: the most one node needs
/// (what it touches, its transient bytes and the buffers live from start to
/// end). Linear in the graph. Where it reaches the peak of the order as
/// written, computeLowerBound returns it whatever estimates it is given.
uint64_t computeLocalBound(const MemoryGraph &graph);

/// What computeEndsBound found.
/// After a schedule whose `order` peaks at `peak`, above the proved
/// `bound`: the cuts again (computeLowerBound with `order` as the upper
/// estimate of each node's cut and the order their witness orders are
/// built around; docs/lower-bounds.md, section 8e), each run within a
/// quarter of the automatic work budget. The scheduler's order is often far
/// closer to the optimum than the peers' orders the bound had before it,
/// and a witness order built around it may peak lower: it then replaces
/// `order` (and `peak`), and the cuts run again around it, up to four runs
/// in all, while each lowers the peak. Returns whether any did. The bounds
/// these runs prove depend on the order given, which a later check of the
/// result does not have, except a node's cut (kind "forward" or "trivial",
/// method "node-cut" or "local"): its value is the least memory the node
/// runs with in any order, which a check recomputes from the node alone.
/// The strongest such bound above `bound`, if any, goes to `stronger`.
bool improveOrderByCuts(const MemoryGraph &graph, std::vector<NodeId> &order,
                        uint64_t &peak, uint64_t bound,
                        const std::vector<std::vector<NodeId>> &peerOrders,
                        LowerBound *stronger = nullptr);

struct EndsBound {
  /// Lower bound on the peak of every valid order.
  uint64_t value = 0;
  /// A node whose memory, on the cheapest path settled last, is `value`.
  NodeId node = 0;
  /// Length of the longest tail (or head) settled by the search.
  unsigned depth = 0;
  /// True when the search covered whole orders: `value` is the optimum.
  bool exhaustive = false;
  /// Number of (node, placed set) memories evaluated.
  uint64_t evaluations = 0;
};

/// Bound from how orders end (`fromEnd`) or begin: a node whose later
/// (earlier) nodes are known has a fixed memory; a cheapest-first search over
/// those sets bounds every order. Stops at `target`, after
/// `evaluationBudget` evaluations, or at `maxDepth` placed nodes; sound in
/// every case.
EndsBound computeEndsBound(const MemoryGraph &graph, bool fromEnd,
                           uint64_t target, uint64_t evaluationBudget,
                           unsigned maxDepth);

/// The forward cut of one node: the least memory `node` can run with.
struct NodeCut {
  /// Minimum over all valid orders of the memory while `node` runs.
  uint64_t value = 0;
  /// Transient bytes plus the sizes of `forcedBuffers`: paid in every order.
  uint64_t forced = 0;
  /// Buffers live at `node` in every valid order (sorted).
  std::vector<BufferId> forcedBuffers;
  /// A cheapest executed set (sorted): `node` right after it needs `value`.
  std::vector<NodeId> executed;
  /// Buffers live at `node` after `executed` (sorted).
  std::vector<BufferId> liveBuffers;
};

/// Computes the forward cut of `node` exactly (one max-flow at most).
NodeCut
computeNodeCut(const MemoryGraph &graph, NodeId node,
               MaxFlowAlgorithm algorithm = MaxFlowAlgorithm::BoykovKolmogorov);

/// Node cuts of many nodes of one graph: the reachability labels and the
/// scratch space are built once (computeNodeCut builds them per call).
class NodeCutSolver {
public:
  explicit NodeCutSolver(
      const MemoryGraph &graph,
      MaxFlowAlgorithm algorithm = MaxFlowAlgorithm::BoykovKolmogorov);
  ~NodeCutSolver();
  NodeCutSolver(const NodeCutSolver &) = delete;
  NodeCutSolver &operator=(const NodeCutSolver &) = delete;

  /// The least memory `node` can run with in any valid order; `executed`
  /// receives a cheapest executed set (sorted, holding node's ancestors).
  uint64_t solve(NodeId node, std::vector<NodeId> &executed);
  /// The same with the buffers of `alsoLive` counted live while `node`
  /// runs, as if it touched them: the least memory of `node` in any valid
  /// order, plus those of them not live there.
  uint64_t solve(NodeId node, std::vector<NodeId> &executed,
                 const std::vector<BufferId> &alsoLive);
  /// Every buffer's bytes from `sizes` (one per buffer of the graph) in
  /// the solves that follow; the graph's structure stays.
  void setBufferSizes(const std::vector<uint64_t> &sizes);
  /// Work spent so far, in the units of LowerBoundOptions::workBudget.
  uint64_t work() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The order that runs `executed` (a down-closed set holding every ancestor
/// of `node` and neither `node` nor a descendant of it, e.g. a cut's
/// executed set) in the order of `base`, then `node`, then the other nodes in
/// the order of `base`. `base` must be a valid order; so is the result.
/// Returns an empty vector when `executed` is not such a set.
std::vector<NodeId> orderAroundExecutedSet(const MemoryGraph &graph,
                                           const std::vector<NodeId> &base,
                                           NodeId node,
                                           const std::vector<NodeId> &executed);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_LOWERBOUND_H
