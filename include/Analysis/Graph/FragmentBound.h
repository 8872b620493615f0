//===- FragmentBound.h - a bound on the peak of every split ------*- C++ -*-===//
//
// A lower bound on the peak of every order of every program obtained from a
// MemoryGraph by running some sets of its nodes in fragments: a fragment set
// is a group of nodes (a chain of ops with the buffers only they use: its
// internal buffers) that a split may run as F independent fragments, each
// doing 1/F of every node's work on 1/F of every internal buffer, and
// touching every other (external) buffer the nodes touch. Channel groups
// are such splits (F = channels); a coarser split, or none, runs several
// fragments back to back and is one of the orders the bound covers.
//
// The finest split (every set in F fragments, no order between fragments)
// has too many nodes to cut directly. In every order, some fragment of set
// K runs its node v as the r-th of the F (for every r); its fragments are
// interchangeable, so the cut of v there has an optimum that treats the
// r - 1 fragments that ran v before alike, the F - r that run it after
// alike, and all fragments of every other set alike (the cut is a min-cut,
// an integral linear program: averaging an optimum over the permutations
// of interchangeable fragments gives one). That cut is the cut of v in a
// quotient graph where set K is three copies (r - 1, 1 and F - r
// fragments' worth of its internal and transient bytes) and every other
// set stays whole; the cut of a node outside every set is its cut in the
// graph as given. The bound is the largest of these cuts over nodes and
// ranks (docs/split.md, "The bound over all splits"). Includes no MLIR
// header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_FRAGMENTBOUND_H
#define MEMSCHED_ANALYSIS_FRAGMENTBOUND_H

#include "Analysis/Graph/MemoryGraph.h"

#include <vector>

namespace memsched_core {

struct FragmentSet {
  /// Nodes of the set (sorted, disjoint from every other set's).
  std::vector<NodeId> nodes;
  /// Buffers only the set's nodes touch (neither live-in nor live-out):
  /// each fragment gets 1/fragments of their bytes.
  std::vector<BufferId> internal;
  /// The finest number of fragments (at least 1).
  uint64_t fragments = 1;
  /// The nodes of the set whose cuts are computed (sorted; empty: all).
  /// Any subset gives a sound bound: the ops that compute, not the
  /// allocations and frees around them, set it.
  std::vector<NodeId> cut;
};

/// Alternatives for a node's cut: each a way of counting memory that is a
/// lower bound on some class of splits, the classes together covering
/// every split; the node's cut is the least over its alternatives. An
/// alternative takes every buffer's bytes from a vector of `sizes` and
/// counts the buffers of `alsoLive` live while the node runs (in a fragment
/// set's quotient: every copy of them).
struct CutAlternatives {
  struct Alternative {
    /// Index into `sizes`.
    unsigned sizes = 0;
    std::vector<BufferId> alsoLive;
  };
  /// Vectors of bytes, one per buffer of the graph.
  std::vector<std::vector<uint64_t>> sizes;
  /// Per node (empty, or one entry per node of the graph): its
  /// alternatives; none: the graph as given.
  std::vector<std::vector<Alternative>> perNode;
};

struct FragmentBoundResult {
  /// Lower bound on the peak of every order of every split.
  uint64_t value = 0;
  /// The node whose cut proves it (in the graph given).
  NodeId node = 0;
  /// The set that node belongs to, or -1 when it belongs to none.
  int set = -1;
  /// Number of node cuts computed.
  unsigned cuts = 0;
  /// False when a set is malformed (overlapping sets, an internal buffer
  /// touched outside its set, live-in or live-out): `value` is then 0.
  bool valid = true;
};

/// The quotient graph of `graph` in which `node` of `set` runs in its
/// `rank`-th fragment (1 to set.fragments): the set's nodes up to three
/// times (the rank - 1 fragments before, the fragment, the fragments
/// after, each copy with its share of the internal and transient bytes),
/// `node`'s copies ordered before and after its fragment's, the other
/// nodes once. `firstCopy[n]` receives every node's id in the quotient
/// (the fragment's copy for nodes of the set).
MemoryGraph fragmentQuotient(const MemoryGraph &graph, const FragmentSet &set,
                             NodeId node, uint64_t rank,
                             std::vector<NodeId> &firstCopy);
/// The same, and per buffer of the quotient the buffer of `graph` it stands
/// for and its copy (1: the fragments before, 2: the fragment, 3: the
/// fragments after; 0: whole).
MemoryGraph fragmentQuotient(const MemoryGraph &graph, const FragmentSet &set,
                             NodeId node, uint64_t rank,
                             std::vector<NodeId> &firstCopy,
                             std::vector<std::pair<BufferId, uint64_t>> &origin);

/// The bound over every split of `sets` (each run whole or in up to
/// `fragments` fragments): sound, never above the minimum peak of any
/// order of any such split.
FragmentBoundResult computeFragmentBound(const MemoryGraph &graph,
                                         const std::vector<FragmentSet> &sets);
/// The same with the cut of every node the least over its alternatives.
FragmentBoundResult
computeFragmentBound(const MemoryGraph &graph,
                     const std::vector<FragmentSet> &sets,
                     const CutAlternatives &alternatives);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_FRAGMENTBOUND_H
