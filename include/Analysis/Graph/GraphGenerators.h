//===- GraphGenerators.h - random and synthetic MemoryGraphs ----*- C++ -*-===//
//
// Seeded generators for the graph shapes real programs have, used by the unit
// tests and the benchmarks. Every graph is finalized and its program order
// (node ids) is valid. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_GRAPHGENERATORS_H
#define MEMSCHED_ANALYSIS_GRAPHGENERATORS_H

#include "Analysis/Graph/MemoryGraph.h"

#include <cstdint>

namespace memsched_core {

enum class GraphFamily {
  /// Random DAG: each node reads a few earlier outputs.
  Random,
  /// Layers of parallel ops, each reading outputs of the previous layers.
  Layered,
  /// Inception-like: blocks of parallel branches joined by a concat.
  SeriesParallel,
  /// A chain with long skip connections (U-Net, ResNet shortcuts).
  SkipConnections,
  /// One producer feeding many consumers, joined later (wide fans).
  WideFan,
  /// Several ops updating one buffer in place, in a fixed order.
  InPlace,
  /// A training step: a forward chain with residual blocks, a loss, and the
  /// backward pass reading the forward activations again in reverse order
  /// (gradients summed where an activation had several consumers; weight
  /// gradients, live-out, hanging off the backward chain).
  Training,
  /// A grid: node (i, j) reads the outputs of (i - 1, j) and (i, j - 1),
  /// rows of 3 to 12 nodes (wavefront pipelines, stencils).
  Lattice,
  /// ResNeXt-like: blocks of 8 to 32 parallel bottleneck branches of 3 to
  /// 10 ops each (wide intermediates, a last output of at most 1/32 of the
  /// largest size), joined by a sum that also reads the block's input (the
  /// residual).
  MultiBranch,
};

const char *familyName(GraphFamily family);

/// Every family, for loops in tests and benchmarks.
const std::vector<GraphFamily> &allFamilies();

/// A graph of `family` with about `numNodes` nodes, deterministic in `seed`.
/// Buffer sizes are drawn from [1, maxSize]; some nodes get transient bytes.
MemoryGraph generateGraph(GraphFamily family, unsigned numNodes,
                          uint64_t seed, uint64_t maxSize = 100);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_GRAPHGENERATORS_H
