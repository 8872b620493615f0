//===- MemoryGraph.h - MLIR-free scheduling graph ---------------*- C++ -*-===//
//
// The plain graph every memsched algorithm works on: schedulable nodes (one per
// op of a block, in program order), buffers with the nodes that touch them, and
// dependency edges. It includes no MLIR header so it can be used and tested
// without MLIR.
//
// Memory model (DESIGN.md section 1): for an order of the nodes, a buffer is
// live from its first toucher to its last toucher (inclusive). A `liveIn`
// buffer is live from the start of the order, a `liveOut` buffer until its
// end. The memory while node v runs is the sum of the sizes of the buffers live
// at v plus v's transient bytes; the peak of an order is the maximum over v.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_MEMORYGRAPH_H
#define MEMSCHED_ANALYSIS_MEMORYGRAPH_H

#include <cstdint>
#include <string>
#include <vector>

namespace memsched_core {

using NodeId = uint32_t;
using BufferId = uint32_t;

/// A range of ids stored contiguously (a row of a CSR list).
struct IdRange {
  const uint32_t *first = nullptr, *last = nullptr;
  const uint32_t *begin() const { return first; }
  const uint32_t *end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
  bool empty() const { return first == last; }
  uint32_t operator[](size_t i) const { return first[i]; }
  uint32_t front() const { return *first; }
  uint32_t back() const { return last[-1]; }
  std::vector<uint32_t> vec() const { return {first, last}; }
};

/// A buffer of the graph: its size and the nodes that touch it.
struct GraphBuffer {
  uint64_t size = 0;
  /// Nodes that read, write, allocate or free this buffer; sorted, unique
  /// after MemoryGraph::finalize().
  std::vector<NodeId> touchers;
  /// Live from the start of any order (allocated before the graph).
  bool liveIn = false;
  /// Live until the end of any order (escapes or is used after the graph).
  bool liveOut = false;
  /// Optional name for reports.
  std::string name;
};

/// A dependency graph over nodes with buffers attached. Nodes are numbered in
/// their original program order, so the identity permutation is the input
/// order (which must be valid: every edge goes from a lower to a higher id).
class MemoryGraph {
public:
  NodeId addNode(uint64_t transientBytes = 0, std::string name = {});
  BufferId addBuffer(uint64_t size, bool liveIn = false, bool liveOut = false,
                     std::string name = {});
  void addTouch(BufferId buffer, NodeId node);
  void setLiveOut(BufferId buffer, bool liveOut = true) {
    buffers[buffer].liveOut = liveOut;
  }
  void setLiveIn(BufferId buffer, bool liveIn = true) {
    buffers[buffer].liveIn = liveIn;
  }
  /// `from` must run before `to`. Self edges are ignored.
  void addEdge(NodeId from, NodeId to);

  /// Sorts and deduplicates touchers and edges and builds the per-node buffer
  /// lists. Must be called after the last add and before any query.
  void finalize();

  size_t numNodes() const { return transient.size(); }
  size_t numBuffers() const { return buffers.size(); }
  size_t numEdges() const;
  /// (buffer, node) touch pairs.
  size_t numTouches() const;

  uint64_t transientBytes(NodeId n) const { return transient[n]; }
  const std::string &nodeName(NodeId n) const { return nodeNames[n]; }
  const GraphBuffer &buffer(BufferId b) const { return buffers[b]; }
  /// Queries (after finalize()) read CSR rows: the algorithms walk these
  /// lists on graphs of 100,000 nodes, where a row in a heap block of its
  /// own costs a cache miss more per visit.
  IdRange preds(NodeId n) const { return row(predStart, predFlat, n); }
  IdRange succs(NodeId n) const { return row(succStart, succFlat, n); }
  /// Buffers touched by node n, sorted.
  IdRange buffersOf(NodeId n) const { return row(touchStart, touchFlat, n); }
  /// buffer(b).touchers and buffer(b).size, read from packed arrays.
  IdRange touchersOf(BufferId b) const {
    return row(toucherStart, toucherFlat, b);
  }
  uint64_t bufferSize(BufferId b) const { return sizes[b]; }

  /// True when `order` is a permutation of all nodes that respects every edge.
  bool isValidOrder(const std::vector<NodeId> &order) const;

  /// The identity order 0..n-1 (the program order).
  std::vector<NodeId> programOrder() const;

private:
  static IdRange row(const std::vector<size_t> &start,
                     const std::vector<uint32_t> &flat, uint32_t i) {
    return {flat.data() + start[i], flat.data() + start[i + 1]};
  }

  std::vector<uint64_t> transient;
  std::vector<std::string> nodeNames;
  std::vector<GraphBuffer> buffers;
  std::vector<std::vector<NodeId>> predList, succList;
  /// The lists as built (edges and touches may be added after a
  /// finalize(); the next finalize() packs them again).
  std::vector<std::vector<BufferId>> touchList;
  std::vector<size_t> predStart, succStart, touchStart, toucherStart;
  std::vector<uint32_t> predFlat, succFlat, touchFlat, toucherFlat;
  std::vector<uint64_t> sizes;
};

/// What evaluatePeak reports about an order.
struct PeakInfo {
  uint64_t peak = 0;
  /// Position in the order (not node id) where the peak is first reached;
  /// meaningless for an empty graph.
  size_t peakPosition = 0;
  /// Memory while each position runs.
  std::vector<uint64_t> memoryAt;
  /// Buffers live at the peak position, sorted.
  std::vector<BufferId> liveAtPeak;
};

/// The positions [first, last] where buffer `b` is live in an order whose
/// node positions are `pos` (pos[node]) over `numPositions` positions: from
/// its first toucher (the start for a liveIn buffer) to its last (the end
/// for a liveOut one); false when it is never live (no toucher, not both
/// liveIn and liveOut) or there are no positions.
bool getLiveInterval(const MemoryGraph &graph, BufferId b,
                     const std::vector<size_t> &pos, size_t numPositions,
                     size_t &first, size_t &last);

/// Peak memory of `order` (must be valid) under the model above, with every
/// buffer's bytes from `sizes` when given (one per buffer). O(V + touches).
uint64_t evaluatePeak(const MemoryGraph &graph,
                      const std::vector<NodeId> &order,
                      PeakInfo *info = nullptr,
                      const std::vector<uint64_t> *sizes = nullptr);

/// `graph` with every buffer's bytes from `sizes` (one per buffer): the
/// same nodes, edges, touches and names.
MemoryGraph withBufferSizes(const MemoryGraph &graph,
                            const std::vector<uint64_t> &sizes);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_MEMORYGRAPH_H
