//===- Remat.h - choice of what to recompute under a budget -----*- C++ -*-===//
//
// Rematerialisation on a MemoryGraph (DESIGN.md section 5): when no order of
// the existing nodes fits a byte budget, free a long-lived buffer early and
// compute it again before its late readers.
//
// A source is a buffer with the nodes that write it (its producers, all of
// them, before any reader) and the nodes that only read it. Recomputing it
// for a set of late readers adds a copy of the buffer (same size) and a clone
// of every producer writing the copy instead; the late readers read the copy.
// A source may be a chain: the producers of buffers it is computed from
// (inner buffers) are cloned too, into copies of their own.
// A clone has the dependencies of its producer (what must run before it, and
// what must wait for it other than the buffer's readers), so it reads what
// the producer read. Whether the producer's inputs are unchanged in between
// is the caller's to establish (the MLIR side checks it on the rewritten IR);
// here a choice whose clone would have to run before something that follows
// its producer's insertion point is rejected.
//
// The choice is greedy and prices a candidate by the peak of an order of the
// resulting graph (not by the bytes it frees): at each step the buffers live
// at the peak of the current order (a buffer, or the copy of an earlier
// recomputation of it) give one candidate each (their readers after the peak
// are the late ones), each is priced by the current order
// with its clones inserted before its first late reader, the one with the
// largest peak reduction per extra cost is kept and its graph scheduled
// (that order among the candidates); when several positions reach the peak
// and none lowers it, one that takes most positions off that plateau per
// extra cost is kept instead; the loop stops
// when the peak is within the budget, when no candidate lowers the peak, or
// when the extra cost would exceed its limit. The sequence of choices does
// not depend on the budget, only where it stops: a smaller budget never ends
// at a higher peak. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_REMAT_H
#define MEMSCHED_ANALYSIS_REMAT_H

#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/Scheduler.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace memsched_core {

/// A buffer that can be computed again.
struct RematSource {
  BufferId buffer = 0;
  /// The nodes that write the buffer, in program order; every one of them
  /// precedes every reader in the program order. With `inner` buffers, also
  /// the nodes that write those (a chain computed again as a whole).
  std::vector<NodeId> producers;
  /// The nodes that touch the buffer without writing it.
  std::vector<NodeId> readers;
  /// Buffers the chain's producers write before the buffer itself and its
  /// producers read (e.g. a convolution's output under its activation):
  /// each gets a copy of its own, touched by the clones only.
  std::vector<BufferId> inner;
};

/// One recomputation: the readers of `source` that read the copy.
///
/// A buffer may be recomputed several times: a later choice whose source has
/// the same buffer takes its late readers from whoever read them before (the
/// buffer itself, or the copy of an earlier choice), so the readers of a
/// buffer fall into groups, each reading its own copy computed right before
/// the group's first reader. Every prefix of a list of choices is a list of
/// choices too.
struct RematChoice {
  size_t source = 0;
  /// Readers (node ids of the base graph), sorted.
  std::vector<NodeId> lateReaders;
};

/// The readers each choice keeps: its late readers less those a later
/// choice on the same buffer takes (sorted). Choices whose source is out of
/// range keep their list as given.
std::vector<std::vector<NodeId>>
keptLateReaders(const std::vector<RematSource> &sources,
                const std::vector<RematChoice> &choices);

/// Where the nodes and buffers of the base graph went in a graph with
/// recomputations applied.
struct RematMapping {
  /// New id of each base node.
  std::vector<NodeId> baseToNew;
  /// For each new node: its base node, or -1 for a clone.
  std::vector<int64_t> newToBase;
  /// For each new node that is a clone (newToBase == -1): the choice (index
  /// in the choices given) and the producer (index in the source's
  /// producers) it copies; {kNotAClone, 0} for the others.
  static constexpr uint32_t kNotAClone = 0xffffffffu;
  std::vector<std::pair<uint32_t, uint32_t>> cloneOf;
  /// The copy buffer of each choice.
  std::vector<BufferId> copyBuffer;
};

/// The graph with `choices` applied (finalized). The clones of a choice run,
/// in program order, right before its first late reader, so the program
/// order of the result is the base program with the clones inserted there.
/// Returns false (and leaves `out` unspecified) when that program order is
/// not valid: a clone would have to follow a node placed after it (its
/// producer's inputs are overwritten before the late readers run); also
/// when a choice is not one a source allows: its buffer or an inner one
/// live-in or live-out, a late reader among the producers, or no reader
/// kept (keptLateReaders: every one taken by later choices).
bool applyRemat(const MemoryGraph &base, const std::vector<RematSource> &sources,
                const std::vector<RematChoice> &choices, MemoryGraph &out,
                RematMapping *mapping = nullptr);

/// A peak no recomputation can beat, and why.
struct RematFloor {
  enum class Kind {
    /// One node's own footprint: its transient bytes, the buffers it
    /// touches and the buffers live from start to end.
    Footprint,
    /// The last step: the buffers live to the end (results, arguments kept),
    /// plus the least any node adds to them.
    LiveToEnd,
  };
  uint64_t value = 0;
  Kind kind = Kind::Footprint;
  /// For Footprint: the node.
  NodeId node = 0;
};

/// A lower bound on the peak of every order of every graph applyRemat makes
/// from `base`, whatever the sources and choices it accepts (docs/remat.md,
/// "When the budget cannot be met"): every node still runs, touching buffers of the
/// same sizes (a late reader touches the copy), a clone touches what its
/// producer touches (copies for the buffers it writes), the buffers live
/// from start to end stay so, and so do the buffers live to the end.
RematFloor rematFloor(const MemoryGraph &base);

/// What rematBound proves.
struct RematBoundOptions {
  /// Try to prove that every plan within `maxExtraCost` has a peak above
  /// this (typically the budget): relaxations whose bound is above it are
  /// not split further.
  uint64_t target = 0;
  /// Extra cost allowed in all, as in RematOptions.
  uint64_t maxExtraCost = std::numeric_limits<uint64_t>::max();
  /// At most this many relaxations are bounded (each a lower bound and, when
  /// that does not settle it, a schedule of a graph of the base's size).
  uint64_t relaxationBudget = 2000;
  /// How the relaxations are scheduled (their exact search proves them).
  ScheduleOptions schedule;
};

struct RematBound {
  /// Every graph applyRemat makes from the sources with choices whose
  /// producers cost at most `maxExtraCost` in all has no order with a peak
  /// below this.
  uint64_t value = 0;
  /// value > target.
  bool proved = false;
  /// Relaxations bounded, and whether the search over them finished (when
  /// not, `value` still holds: it is the least bound of those left open).
  uint64_t relaxations = 0;
  bool complete = true;
};

/// A lower bound on the peak of every plan of recomputations within a cost
/// limit (docs/remat.md, "When the budget cannot be met"). A plan that
/// recomputes a set Z of buffers costs at least the producers of each;
/// every one of its orders, restricted to the base nodes, is an order of the
/// base graph in which each buffer outside Z is live at least as long, and
/// each buffer of Z (or a copy of it) at least while a node touching it
/// runs. So its peak is at least the optimum of the base graph with the
/// buffers of Z counted only in their touchers' transient bytes. The search
/// splits on the buffers that may be recomputed (those of the sources),
/// bounding each set of plans by the graph with every buffer it may still
/// recompute so counted.
RematBound rematBound(const MemoryGraph &base,
                      const std::vector<RematSource> &sources,
                      const std::vector<uint64_t> &cost,
                      const RematBoundOptions &options);

struct RematOptions {
  /// Stop once the peak is at most this.
  uint64_t budget = 0;
  /// Extra cost allowed in all (sum of the costs of the producers cloned).
  uint64_t maxExtraCost = std::numeric_limits<uint64_t>::max();
  /// How candidates and the final graph are scheduled.
  ScheduleOptions schedule;
  /// At most this many recomputations.
  unsigned maxChoices = 64;
};

/// The plan after one more recomputation: its graph's best order found
/// (node ids as mapped by `mapping`) and that order's peak.
struct RematStep {
  std::vector<NodeId> order;
  RematMapping mapping;
  uint64_t peak = 0;
};

struct RematPlan {
  std::vector<RematChoice> choices;
  /// After each choice (steps[i]: with choices 0..i).
  std::vector<RematStep> steps;
  /// The graph with the choices applied and its best order found.
  MemoryGraph graph;
  RematMapping mapping;
  std::vector<NodeId> order;
  /// Peak of the base graph's schedule and of `order`.
  uint64_t basePeak = 0, peak = 0;
  /// No plan goes below this (rematFloor); the choice stops there.
  RematFloor floor;
  /// Sum of the costs of the cloned producers.
  uint64_t extraCost = 0;
  /// Clones added.
  unsigned clonedNodes = 0;
  bool metBudget = false;
};

/// Chooses recomputations of `sources` (several sources may share a buffer:
/// chains of different lengths; a buffer may be recomputed several times,
/// each time for the readers of one group after the peak) (costs per base
/// node in `cost`) so
/// that the scheduled peak goes down to `options.budget` if it can. The plan
/// never has a higher peak than the base graph's schedule.
RematPlan chooseRemat(const MemoryGraph &base,
                      const std::vector<RematSource> &sources,
                      const std::vector<uint64_t> &cost,
                      const RematOptions &options);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_REMAT_H
