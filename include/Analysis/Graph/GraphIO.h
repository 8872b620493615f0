//===- GraphIO.h - MemoryGraph as plain JSON --------------------*- C++ -*-===//
//
// A MemoryGraph written to and read from a small JSON document, so that graphs
// taken from real programs (`memsched-schedule{graph-dir=...}`) can be
// scheduled, bounded and benchmarked without MLIR (`memsched-graph-bench
// --graph FILE`). Format (docs/graph-format.md):
//
//   {"format": "memsched-graph", "version": 1,
//    "nodes": [{"name": "linalg.fill#0", "transient": 0}, ...],
//    "buffers": [{"name": "%alloc", "size": 4096, "touchers": [0, 3],
//                 "live_in": false, "live_out": false}, ...],
//    "edges": [[0, 1], ...]}
//
// Node ids are positions in "nodes" (the program order); every edge must go
// from a lower to a higher id. Includes no MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_GRAPHIO_H
#define MEMSCHED_ANALYSIS_GRAPHIO_H

#include "Analysis/Graph/MemoryGraph.h"
#include "Analysis/Graph/Remat.h"

#include <string>
#include <vector>

namespace memsched_core {

/// What rematerialisation needs beyond the graph: each node's compute cost
/// and the buffers that can be computed again (docs/graph-format.md).
struct GraphRematData {
  /// Per node; empty when the file has no costs.
  std::vector<uint64_t> cost;
  std::vector<RematSource> sources;
};

/// The graph (finalized) as a JSON document, one node, buffer or edge list
/// per line; with `remat`, each node's `cost` and the `remat_sources`.
std::string writeGraphJson(const MemoryGraph &graph,
                           const GraphRematData *remat = nullptr);

/// Parses a document written by writeGraphJson (or by hand in that format)
/// into `graph` (finalized), and, with `remat`, the costs and sources it
/// has. On malformed input returns false and sets `error` to a message
/// naming what is wrong and where (byte offset).
bool readGraphJson(const std::string &text, MemoryGraph &graph,
                   std::string &error, GraphRematData *remat = nullptr);

/// Reads the file at `path` and parses it as readGraphJson does; the error
/// names the file.
bool readGraphFile(const std::string &path, MemoryGraph &graph,
                   std::string &error, GraphRematData *remat = nullptr);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_GRAPHIO_H
