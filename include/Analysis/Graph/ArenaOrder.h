//===- ArenaOrder.h - an order whose buffers pack better --------*- C++ -*-===//
//
// The order with the lowest peak is rarely unique, and orders with the same
// peak can pack their buffers into different arenas. Starting from an order,
// a local search swaps adjacent independent nodes, keeps the peak within a
// limit, and accepts a swap when the arena of the heuristic portfolio
// (ArenaPlanner.h) shrinks. The budget counts arena evaluations and the
// buffers they place, so results are deterministic. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_ARENAORDER_H
#define MEMSCHED_ANALYSIS_ARENAORDER_H

#include "Analysis/Graph/ArenaPlanner.h"
#include "Analysis/Graph/MemoryGraph.h"

#include <cstdint>
#include <vector>

namespace memsched_core {

/// The buffers of `graph` an arena holds in `order`: each buffer with a
/// toucher, neither live in nor live out, from its first toucher to its last
/// (positions in `order`). `ids` (if given) receives their BufferIds.
std::vector<ArenaBuffer> getArenaBuffers(const MemoryGraph &graph,
                                         const std::vector<NodeId> &order,
                                         uint64_t alignment,
                                         std::vector<BufferId> *ids = nullptr);

struct ArenaOrderOptions {
  /// Orders must keep evaluatePeak at most this.
  uint64_t peakLimit = UINT64_MAX;
  /// Arena evaluations the search may spend.
  uint64_t evaluationBudget = 2000;
  /// And buffers placed over all evaluations (each places every buffer of
  /// the order): large bodies get fewer evaluations. A count of work, so
  /// results are the same on every machine.
  uint64_t workBudget = 4000000;
  /// Alignment of every offset.
  uint64_t alignment = 1;
};

struct ArenaOrderResult {
  std::vector<NodeId> order;
  uint64_t peak = 0;
  /// Arena of the heuristic portfolio for `order`.
  uint64_t arena = 0;
  /// The same for the starting order.
  uint64_t startArena = 0;
  uint64_t evaluations = 0;
};

/// A valid order with peak <= options.peakLimit whose heuristic arena is at
/// most the start's (the start itself when nothing better is found). `start`
/// must be valid and within the limit.
ArenaOrderResult improveArenaOrder(const MemoryGraph &graph,
                                   const std::vector<NodeId> &start,
                                   const ArenaOrderOptions &options = {});

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_ARENAORDER_H
