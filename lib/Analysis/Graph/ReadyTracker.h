//===- ReadyTracker.h - memory figures of the nodes left to run -*- C++ -*-===//
//
// Private to the MemSchedGraph library: the state every list scheduler keeps
// while it runs the nodes of a segment one by one. For every node u not run
// yet, with respect to the nodes run so far:
//   newBytes(u): bytes of the buffers u would start (none of their touchers
//                ran, not live-in): they add to the memory while u runs;
//   alloc(u):    the part of newBytes still live after u;
//   freed(u):    bytes of started buffers whose only remaining toucher is u
//                (not live-out): released after u.
// These only change when a buffer starts or gets down to one remaining
// toucher, once per buffer each, so keeping them costs O(touches) overall.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_ANALYSIS_GRAPH_READYTRACKER_H
#define MEMSCHED_LIB_ANALYSIS_GRAPH_READYTRACKER_H

#include "Analysis/Graph/SchedSegment.h"

namespace memsched_core {
namespace sched {

class ReadyTracker {
public:
  explicit ReadyTracker(const SegmentGraph &seg)
      : seg(seg), remaining(seg.numBuffers()), started(seg.numBuffers()),
        indeg(seg.numNodes()), done(seg.numNodes(), 0),
        newBytes(seg.numNodes(), 0), alloc(seg.numNodes(), 0),
        freed(seg.numNodes(), 0) {
    for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
      remaining[b] = static_cast<uint32_t>(seg.touchers(b).size());
      started[b] = seg.liveIn[b];
      if (seg.liveIn[b])
        live += seg.size[b];
      int64_t size = static_cast<int64_t>(seg.size[b]);
      for (LocalId u : seg.touchers(b)) {
        if (!started[b]) {
          newBytes[u] += size;
          if (seg.liveOut[b] || remaining[b] > 1)
            alloc[u] += size;
        } else if (!seg.liveOut[b] && remaining[b] == 1) {
          freed[u] += size;
        }
      }
    }
    for (LocalId v = 0; v < seg.numNodes(); ++v)
      indeg[v] = static_cast<uint32_t>(seg.preds(v).size());
  }

  /// Calls `ready(v)` for every node ready before anything runs.
  template <typename Ready> void initialReady(Ready ready) const {
    for (LocalId v = 0; v < seg.numNodes(); ++v)
      if (indeg[v] == 0)
        ready(v);
  }

  /// Bytes live between steps (started and still pending).
  uint64_t liveBytes() const { return live; }
  /// Memory while u runs.
  uint64_t runMemory(LocalId u) const {
    return live + seg.transient[u] + static_cast<uint64_t>(newBytes[u]);
  }
  /// Bytes u runs at on top of what is live (transient and started).
  int64_t runBytes(LocalId u) const {
    return static_cast<int64_t>(seg.transient[u]) + newBytes[u];
  }
  /// Bytes live after u minus bytes live before it.
  int64_t net(LocalId u) const { return alloc[u] - freed[u]; }
  bool isDone(LocalId u) const { return done[u]; }
  bool isReady(LocalId u) const { return !done[u] && indeg[u] == 0; }

  /// Runs v (ready). Calls `changed(u)` for each node not run whose figures
  /// changed (possibly more than once), then `ready(s)` for each successor
  /// that became ready.
  template <typename Changed, typename Ready>
  void run(LocalId v, Changed changed, Ready ready) {
    done[v] = 1;
    live = static_cast<uint64_t>(static_cast<int64_t>(live) + net(v));
    for (uint32_t b : seg.bufs(v)) {
      int64_t size = static_cast<int64_t>(seg.size[b]);
      uint32_t left = --remaining[b];
      if (!started[b]) {
        started[b] = 1;
        // Every other toucher counted b in newBytes and alloc (at least two
        // touchers were pending).
        for (LocalId u : seg.touchers(b)) {
          if (done[u])
            continue;
          newBytes[u] -= size;
          alloc[u] -= size;
          if (left == 1 && !seg.liveOut[b])
            freed[u] += size;
          changed(u);
        }
      } else if (left == 1 && !seg.liveOut[b]) {
        for (LocalId u : seg.touchers(b)) {
          if (done[u])
            continue;
          freed[u] += size;
          changed(u);
        }
      }
    }
    for (LocalId s : seg.succs(v))
      if (--indeg[s] == 0)
        ready(s);
  }

private:
  const SegmentGraph &seg;
  std::vector<uint32_t> remaining;
  std::vector<uint8_t> started;
  std::vector<uint32_t> indeg;
  std::vector<uint8_t> done;
  std::vector<int64_t> newBytes, alloc, freed;
  uint64_t live = 0;
};

} // namespace sched
} // namespace memsched_core

#endif // MEMSCHED_LIB_ANALYSIS_GRAPH_READYTRACKER_H
