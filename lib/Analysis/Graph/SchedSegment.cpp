//===- SchedSegment.cpp - cut nodes, segment graphs, bounds -----*- C++ -*-===//

#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>

using namespace memsched_core;
using namespace memsched_core::sched;

//===----------------------------------------------------------------------===//
// Cut nodes
//===----------------------------------------------------------------------===//

// Node ids are a topological order, so the ancestors of node i have ids < i
// and its descendants ids > i. Node i is a cut node iff every u < i reaches i
// and i reaches every w > i.
//
// Claim: every u < i reaches i  <=>  every u < i has a successor s <= i.
// (=>) The first edge u->s of a path to i has s == i or s an ancestor of i.
// (<=) Induction on u from i-1 down: u's successor s satisfies u < s <= i, so
//      s == i or s < i reaches i by induction.
// Symmetrically, i reaches every w > i <=> every w > i has a predecessor >= i.
// With minSucc(u) (n if none) and maxPred(w) (-1 if none), node i is a cut
// node iff max_{u<i} minSucc(u) <= i and min_{w>i} maxPred(w) >= i: a prefix
// maximum and a suffix minimum, O(V + E).
std::vector<NodeId> sched::findCutNodes(const MemoryGraph &graph) {
  size_t n = graph.numNodes();
  std::vector<int64_t> suffixMinMaxPred(n + 1, INT64_MAX);
  for (size_t i = n; i-- > 0;) {
    IdRange preds = graph.preds(i);
    int64_t maxPred = preds.empty() ? -1 : int64_t(preds.back());
    suffixMinMaxPred[i] = std::min(suffixMinMaxPred[i + 1], maxPred);
  }
  std::vector<NodeId> cuts;
  int64_t prefixMaxMinSucc = -1;
  for (size_t i = 0; i < n; ++i) {
    if (prefixMaxMinSucc <= int64_t(i) && suffixMinMaxPred[i + 1] >= int64_t(i))
      cuts.push_back(static_cast<NodeId>(i));
    IdRange succs = graph.succs(i);
    int64_t minSucc = succs.empty() ? int64_t(n) : int64_t(succs.front());
    prefixMaxMinSucc = std::max(prefixMaxMinSucc, minSucc);
  }
  return cuts;
}

// Split points generalise cut nodes: the prefix P = [0, p) runs first in
// every valid order iff every node of P is an ancestor of every node of
// S = [p, n). It suffices that every maximal node of P (no successor in P)
// is a predecessor of every minimal node of S (no predecessor in S): every
// node of P reaches a maximal one, every node of S is reached from a minimal
// one; conversely a maximal x of P can reach a minimal m of S only by an
// edge (the path's second node is in S, hence m itself). Sweeping p upwards
// keeps cnt(y) = |preds(y) & max(P)| for y in S and the sum of cnt over
// min(S); p splits iff that sum is |min(S)| * |max(P)| (each term is at most
// |max(P)|). Every edge is visited a bounded number of times: O(V + E).
std::vector<NodeId> sched::findSplitPoints(const MemoryGraph &graph) {
  size_t n = graph.numNodes();
  std::vector<NodeId> splits;
  if (n < 2)
    return splits;
  std::vector<uint32_t> cnt(n, 0);
  std::vector<uint8_t> minimal(n, 0);
  uint64_t sum = 0, numMin = 0, numMax = 0;
  for (NodeId v = 0; v < n; ++v)
    if (graph.preds(v).empty()) {
      minimal[v] = 1;
      ++numMin;
    }
  for (NodeId p = 1; p < n; ++p) {
    NodeId x = p - 1; // moves from S to P
    if (minimal[x]) {
      minimal[x] = 0;
      --numMin;
      sum -= cnt[x];
    }
    // Predecessors whose first successor is x stop being maximal.
    for (NodeId q : graph.preds(x)) {
      if (graph.succs(q).front() != x)
        continue;
      --numMax;
      for (NodeId y : graph.succs(q))
        if (y >= p) {
          --cnt[y];
          if (minimal[y])
            --sum;
        }
    }
    // x is maximal in P: its successors all lie in S.
    ++numMax;
    for (NodeId y : graph.succs(x)) {
      ++cnt[y];
      if (minimal[y])
        ++sum;
    }
    // Successors whose last predecessor is x become minimal in S.
    for (NodeId y : graph.succs(x))
      if (graph.preds(y).back() == x) {
        minimal[y] = 1;
        ++numMin;
        sum += cnt[y];
      }
    if (sum == numMin * numMax)
      splits.push_back(p);
  }
  return splits;
}

//===----------------------------------------------------------------------===//
// Segment graphs
//===----------------------------------------------------------------------===//

/// Fills a CSR (start, list) from per-item lists produced by `forEach`.
template <typename Fn>
static void buildCsr(size_t count, std::vector<uint32_t> &start,
                     std::vector<uint32_t> &list, Fn forEach) {
  start.assign(count + 1, 0);
  list.clear();
  for (size_t i = 0; i < count; ++i) {
    forEach(i, list);
    start[i + 1] = static_cast<uint32_t>(list.size());
  }
}

SegmentGraph sched::buildSegment(const MemoryGraph &graph, NodeId begin,
                                 NodeId end) {
  assert(begin <= end && end <= graph.numNodes() && "bad range");
  SegmentGraph seg;
  seg.begin = begin;
  size_t n = end - begin;
  seg.transient.resize(n);
  for (size_t i = 0; i < n; ++i)
    seg.transient[i] = graph.transientBytes(begin + i);

  buildCsr(n, seg.predStart, seg.predList,
           [&](size_t i, std::vector<uint32_t> &out) {
             for (NodeId p : graph.preds(begin + i))
               if (p >= begin)
                 out.push_back(p - begin);
           });
  buildCsr(n, seg.succStart, seg.succList,
           [&](size_t i, std::vector<uint32_t> &out) {
             for (NodeId s : graph.succs(begin + i))
               if (s < end)
                 out.push_back(s - begin);
           });

  // Local buffer ids in order of first local touch. A segment touching
  // about as many buffers as the graph has maps them through a dense array
  // (one load per touch); a small one through a sorted vector of its own
  // buffers, so that many small segments cost no pass over all buffers.
  std::vector<BufferId> globalOf;
  for (size_t i = 0; i < n; ++i)
    for (BufferId b : graph.buffersOf(begin + i))
      if (graph.buffer(b).size != 0)
        globalOf.push_back(b);
  std::vector<BufferId> ordered;
  std::vector<BufferId> sortedGlobal;
  std::vector<uint32_t> localOfSorted, dense;
  bool useDense = 4 * globalOf.size() >= graph.numBuffers();
  if (useDense) {
    dense.assign(graph.numBuffers(), UINT32_MAX);
    for (BufferId b : globalOf)
      if (dense[b] == UINT32_MAX) {
        dense[b] = static_cast<uint32_t>(ordered.size());
        ordered.push_back(b);
      }
  } else {
    sortedGlobal = globalOf;
    std::sort(sortedGlobal.begin(), sortedGlobal.end());
    sortedGlobal.erase(std::unique(sortedGlobal.begin(), sortedGlobal.end()),
                       sortedGlobal.end());
    localOfSorted.assign(sortedGlobal.size(), UINT32_MAX);
    for (BufferId b : globalOf) {
      size_t k =
          std::lower_bound(sortedGlobal.begin(), sortedGlobal.end(), b) -
          sortedGlobal.begin();
      if (localOfSorted[k] == UINT32_MAX) {
        localOfSorted[k] = static_cast<uint32_t>(ordered.size());
        ordered.push_back(b);
      }
    }
  }
  auto localOf = [&](BufferId b) {
    if (useDense)
      return dense[b];
    return localOfSorted[std::lower_bound(sortedGlobal.begin(),
                                          sortedGlobal.end(), b) -
                         sortedGlobal.begin()];
  };

  size_t numBufs = ordered.size();
  seg.size.resize(numBufs);
  seg.liveIn.resize(numBufs);
  seg.liveOut.resize(numBufs);
  for (size_t l = 0; l < numBufs; ++l) {
    const GraphBuffer &buf = graph.buffer(ordered[l]);
    seg.size[l] = buf.size;
    seg.liveIn[l] = buf.liveIn || buf.touchers.front() < begin;
    seg.liveOut[l] = buf.liveOut || buf.touchers.back() >= end;
  }
  buildCsr(n, seg.bufStart, seg.bufList,
           [&](size_t i, std::vector<uint32_t> &out) {
             for (BufferId b : graph.buffersOf(begin + i))
               if (graph.buffer(b).size != 0)
                 out.push_back(localOf(b));
           });
  buildCsr(numBufs, seg.touchStart, seg.touchList,
           [&](size_t l, std::vector<uint32_t> &out) {
             const std::vector<NodeId> &t = graph.buffer(ordered[l]).touchers;
             auto it = std::lower_bound(t.begin(), t.end(), begin);
             for (; it != t.end() && *it < end; ++it)
               out.push_back(*it - begin);
           });
  return seg;
}

/// The segment with its nodes relabelled: node i of the result is node
/// oldId[i] of `seg` (newId is the inverse). With `reverse`, time runs
/// backwards: predecessors and successors, live-in and live-out swap.
/// `extraPreds` and `extraSuccs` (in new ids, per new node; empty for none)
/// are edges added. Every list comes out sorted, without duplicates.
static SegmentGraph
relabelSegment(const SegmentGraph &seg, const std::vector<LocalId> &oldId,
               const std::vector<LocalId> &newId, bool reverse,
               const std::vector<std::vector<uint32_t>> &extraPreds = {},
               const std::vector<std::vector<uint32_t>> &extraSuccs = {}) {
  size_t n = seg.numNodes();
  SegmentGraph out;
  out.begin = seg.begin;
  out.transient.resize(n);
  for (size_t i = 0; i < n; ++i)
    out.transient[i] = seg.transient[oldId[i]];
  auto mapped = [&](IdRange r, const std::vector<std::vector<uint32_t>> &extra,
                    size_t i, std::vector<uint32_t> &list) {
    size_t at = list.size();
    for (uint32_t x : r)
      list.push_back(newId[x]);
    if (!extra.empty())
      list.insert(list.end(), extra[i].begin(), extra[i].end());
    std::sort(list.begin() + at, list.end());
    list.erase(std::unique(list.begin() + at, list.end()), list.end());
  };
  buildCsr(n, out.predStart, out.predList,
           [&](size_t i, std::vector<uint32_t> &list) {
             LocalId v = oldId[i];
             mapped(reverse ? seg.succs(v) : seg.preds(v), extraPreds, i, list);
           });
  buildCsr(n, out.succStart, out.succList,
           [&](size_t i, std::vector<uint32_t> &list) {
             LocalId v = oldId[i];
             mapped(reverse ? seg.preds(v) : seg.succs(v), extraSuccs, i, list);
           });
  buildCsr(n, out.bufStart, out.bufList,
           [&](size_t i, std::vector<uint32_t> &list) {
             for (uint32_t b : seg.bufs(oldId[i]))
               list.push_back(b);
           });
  out.size = seg.size;
  out.liveIn = reverse ? seg.liveOut : seg.liveIn;
  out.liveOut = reverse ? seg.liveIn : seg.liveOut;
  buildCsr(seg.numBuffers(), out.touchStart, out.touchList,
           [&](size_t b, std::vector<uint32_t> &list) {
             mapped(seg.touchers(b), {}, b, list);
           });
  return out;
}

SegmentGraph sched::reverseSegment(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  std::vector<LocalId> flipped(n);
  for (size_t i = 0; i < n; ++i)
    flipped[i] = static_cast<LocalId>(n - 1 - i);
  return relabelSegment(seg, flipped, flipped, /*reverse=*/true);
}

SegmentGraph sched::renumberSegment(
    const SegmentGraph &seg, const std::vector<LocalId> &newId,
    const std::vector<std::pair<LocalId, LocalId>> &extraEdges) {
  size_t n = seg.numNodes();
  std::vector<LocalId> oldId(n);
  for (LocalId v = 0; v < n; ++v)
    oldId[newId[v]] = v;
  // Extra edges, in new ids, by source and by target.
  std::vector<std::vector<uint32_t>> extraSuccs(n), extraPreds(n);
  for (auto [u, v] : extraEdges) {
    assert(newId[u] < newId[v] && "an extra edge against the new order");
    extraSuccs[newId[u]].push_back(newId[v]);
    extraPreds[newId[v]].push_back(newId[u]);
  }
  return relabelSegment(seg, oldId, newId, /*reverse=*/false, extraPreds,
                        extraSuccs);
}

uint64_t sched::segmentPeak(const SegmentGraph &seg,
                            const std::vector<LocalId> &order,
                            std::vector<uint64_t> *memoryAt,
                            std::vector<uint64_t> *liveBefore) {
  size_t n = seg.numNodes();
  assert(order.size() == n && "order must cover the segment");
  std::vector<uint32_t> remaining(seg.numBuffers());
  uint64_t cur = 0;
  for (size_t b = 0; b < seg.numBuffers(); ++b) {
    remaining[b] = static_cast<uint32_t>(seg.touchers(b).size());
    if (seg.liveIn[b])
      cur += seg.size[b];
  }
  if (memoryAt)
    memoryAt->resize(n);
  if (liveBefore)
    liveBefore->resize(n + 1);
  uint64_t peak = 0;
  for (size_t q = 0; q < n; ++q) {
    LocalId v = order[q];
    if (liveBefore)
      (*liveBefore)[q] = cur;
    uint64_t mem = cur + seg.transient[v];
    for (uint32_t b : seg.bufs(v)) {
      bool started = seg.liveIn[b] || remaining[b] != seg.touchers(b).size();
      --remaining[b];
      bool pending = seg.liveOut[b] || remaining[b] != 0;
      touchBuffer(seg.size[b], started, pending, mem, cur);
    }
    if (memoryAt)
      (*memoryAt)[q] = mem;
    peak = std::max(peak, mem);
  }
  if (liveBefore)
    (*liveBefore)[n] = cur;
  return peak;
}

std::vector<uint64_t> sched::reachBits(const SegmentGraph &seg,
                                      bool ancestors) {
  // Local ids are a topological order: a node's set is complete once every
  // predecessor's (resp. successor's) is.
  size_t n = seg.numNodes(), words = (n + 63) / 64;
  std::vector<uint64_t> bits(n * words, 0);
  for (size_t i = 0; i < n; ++i) {
    LocalId v = static_cast<LocalId>(ancestors ? i : n - 1 - i);
    for (LocalId w : ancestors ? seg.preds(v) : seg.succs(v)) {
      uint64_t *dst = &bits[v * words];
      const uint64_t *src = &bits[w * words];
      for (size_t k = 0; k < words; ++k)
        dst[k] |= src[k];
      dst[w >> 6] |= uint64_t(1) << (w & 63);
    }
  }
  return bits;
}

NodeBounds sched::segmentNodeBounds(const SegmentGraph &seg,
                                    size_t maxReachNodes) {
  size_t n = seg.numNodes(), numBufs = seg.numBuffers();
  NodeBounds nb;
  nb.all.assign(n, 0);
  nb.withoutLiveOut.assign(n, 0);
  for (LocalId u = 0; u < n; ++u) {
    nb.all[u] = nb.withoutLiveOut[u] = seg.transient[u];
    for (uint32_t b : seg.bufs(u)) {
      nb.all[u] += seg.size[b];
      if (!seg.liveOut[b])
        nb.withoutLiveOut[u] += seg.size[b];
    }
  }
  // Buffers not touched by u that are live at u in every order.
  auto addSpan = [&](uint32_t b, LocalId u) {
    nb.all[u] += seg.size[b];
    if (!seg.liveOut[b])
      nb.withoutLiveOut[u] += seg.size[b];
  };
  // The first step runs a source while every live-in buffer is live; the
  // last runs a sink while every live-out buffer is.
  uint64_t liveInBytes = 0, liveOutBytes = 0;
  for (uint32_t b = 0; b < numBufs; ++b) {
    liveInBytes += seg.liveIn[b] ? seg.size[b] : 0;
    liveOutBytes += seg.liveOut[b] ? seg.size[b] : 0;
  }
  uint64_t cheapestSource = UINT64_MAX, cheapestSink = UINT64_MAX;
  for (LocalId u = 0; u < n; ++u) {
    uint64_t first = seg.transient[u], last = seg.transient[u];
    for (uint32_t b : seg.bufs(u)) {
      first += seg.liveIn[b] ? 0 : seg.size[b];
      last += seg.liveOut[b] ? 0 : seg.size[b];
    }
    if (seg.preds(u).size() == 0)
      cheapestSource = std::min(cheapestSource, first);
    if (seg.succs(u).size() == 0)
      cheapestSink = std::min(cheapestSink, last);
  }
  if (n > 0)
    nb.endpoints =
        std::max(liveInBytes + cheapestSource, liveOutBytes + cheapestSink);

  std::vector<uint32_t> touchMark(n, UINT32_MAX);
  if (n > maxReachNodes) {
    for (uint32_t b = 0; b < numBufs; ++b) {
      if (!seg.liveIn[b] || !seg.liveOut[b])
        continue;
      for (LocalId t : seg.touchers(b))
        touchMark[t] = b;
      for (LocalId u = 0; u < n; ++u)
        if (touchMark[u] != b)
          addSpan(b, u);
    }
    return nb;
  }

  // anc[u] / desc[u]: strict ancestors / descendants as bitsets.
  size_t words = (n + 63) / 64;
  std::vector<uint64_t> anc = reachBits(seg, true),
                        desc = reachBits(seg, false);
  // u is spanned by b iff u is a descendant of a toucher (or b is live-in)
  // and an ancestor of a toucher (or b is live-out).
  std::vector<uint64_t> after(words), before(words);
  for (uint32_t b = 0; b < numBufs; ++b) {
    std::fill(after.begin(), after.end(), seg.liveIn[b] ? ~uint64_t(0) : 0);
    std::fill(before.begin(), before.end(), seg.liveOut[b] ? ~uint64_t(0) : 0);
    for (LocalId t : seg.touchers(b)) {
      touchMark[t] = b;
      for (size_t w = 0; w < words; ++w) {
        after[w] |= desc[t * words + w];
        before[w] |= anc[t * words + w];
      }
    }
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t m = after[w] & before[w]; m; m &= m - 1) {
        LocalId u = static_cast<LocalId>(w * 64 + __builtin_ctzll(m));
        if (u < n && touchMark[u] != b)
          addSpan(b, u);
      }
    }
  }
  return nb;
}

uint64_t NodeBounds::peakBound() const {
  uint64_t bound = endpoints;
  for (uint64_t x : all)
    bound = std::max(bound, x);
  return bound;
}

uint64_t sched::segmentStaticBound(const SegmentGraph &seg) {
  return segmentNodeBounds(seg).peakBound();
}
