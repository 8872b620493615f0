//===- SchedBand.cpp - exact search within a band of an order ---*- C++ -*-===//
//
// The least peak over the orders that stay close to a reference order pi:
// dynamic programming over executed sets, restricted to the sets S with
//
//   pi[0, m) in S, pi[m] not in S, S within pi[0, m + W]        (the band)
//
// where m is the first position of pi not in S. Such a set is the pair
// (m, mask) with bit i of mask telling whether pi[m + 1 + i] ran, so there
// are at most n * 2^W of them, whatever the graph's width: the search is
// the exact search of SchedExact.cpp over a state space that grows linearly
// with the segment. pi itself stays in the band, so the result is never worse
// than pi; a wider band holds more orders.
//
// Search: A* on the bottleneck cost, smallest key first, deepest first at
// equal key. The key of a set S reached by a path is
//   f(S) = max(floor, the largest memory of a step of the path, h(S)),
//   h(S) = out(S) + max over the nodes u not in S of s(u)
// with out(S) the live-out bytes started in S and s(u) =
// NodeBounds::withoutLiveOut, as in SchedExact.cpp: every later step u
// costs at least s(u) + out(S), so h never overestimates, and f never
// decreases along a path. A child whose key reaches pi's peak is dropped (pi
// already has it). The first complete set popped ends an order of least
// peak within the band; an empty queue proves that no order of the band
// beats pi.
//
// When the band holds every order. If for all positions i < j with
// j - i > W the node pi[i] is an ancestor of pi[j], a set that misses pi[m]
// misses every descendant of it, so every executed set lies within the
// band: the search then is exact. The windows pi[m, m + W] are vertex
// separators (all that comes before a window precedes all that comes after
// it) and the search is a dynamic program along this path of separators;
// W = 0 is the case of split points, where the segment is a chain of
// single nodes. coveringBandWidth checks the condition with 64 bits per node
// in O(V + E): M(j), the set of distances d in [1, 64] with pi[j - d] an
// ancestor of pi[j], is the union over the predecessors p of pi[j] at
// distance d0 <= 64 of {d0} and M(p) shifted by d0. With G = W + 1 <= 32 it
// suffices that M(j) holds every d in [G, 2G - 1] (with j - d >= 0): for
// d >= 2G, pi[j - G] is an ancestor of pi[j] and, by induction on j, pi[j -
// d] one of pi[j - G].
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"
#include "SearchLimits.h"

#include <algorithm>
#include <cassert>
#include <queue>
#include <unordered_map>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// Bytes of an index entry besides the state (hash node and bucket).
constexpr uint64_t kIndexEntryBytes = 48;

struct BandState {
  uint64_t mask;
  uint64_t live;
  /// Live-out bytes started: out(S).
  uint64_t out;
  uint64_t cost;
  uint32_t m;
  uint32_t parent;
  uint32_t node;
  bool closed;
};

struct KeyHash {
  size_t operator()(const std::pair<uint32_t, uint64_t> &k) const {
    uint64_t x = k.second * 0x9E3779B97F4A7C15ULL ^ (uint64_t(k.first) << 1);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    return static_cast<size_t>(x ^ (x >> 32));
  }
};

/// Queue entry: smallest cost first, then deepest (most nodes run).
struct QueueEntry {
  uint64_t cost;
  uint32_t depth;
  uint32_t state;
  bool operator<(const QueueEntry &o) const {
    if (cost != o.cost)
      return cost > o.cost;
    if (depth != o.depth)
      return depth < o.depth;
    return state < o.state;
  }
};

class BandSearch {
public:
  BandSearch(const SegmentGraph &seg, const std::vector<LocalId> &reference,
             unsigned width, const NodeBounds *bounds)
      : seg(seg), pi(reference), width(width), n(seg.numNodes()),
        pos(n), cost(n, 0), suffixCost(n + 1, 0) {
    for (size_t q = 0; q < n; ++q)
      pos[pi[q]] = static_cast<uint32_t>(q);
    if (bounds)
      for (size_t q = 0; q < n; ++q)
        cost[q] = bounds->withoutLiveOut[pi[q]];
    for (size_t q = n; q-- > 0;)
      suffixCost[q] = std::max(suffixCost[q + 1], cost[q]);
    // Per buffer, the positions of its touchers, ascending.
    touchStart.assign(seg.numBuffers() + 1, 0);
    for (size_t b = 0; b < seg.numBuffers(); ++b) {
      touchStart[b + 1] =
          touchStart[b] + static_cast<uint32_t>(seg.touchers(b).size());
      for (LocalId t : seg.touchers(b))
        touchPos.push_back(pos[t]);
      std::sort(touchPos.begin() + touchStart[b], touchPos.end());
    }
  }

  BandResult run(uint64_t upperBound, uint64_t floor, uint64_t budget) {
    BandResult result;
    budget = std::min<uint64_t>(budget, UINT32_MAX - 1); // state indices
    // Past the memory cap the search stops, incomplete.
    uint64_t memoryLimit = searchMemoryLimit(budget);
    uint64_t live0 = 0;
    for (size_t b = 0; b < seg.numBuffers(); ++b)
      if (seg.liveIn[b])
        live0 += seg.size[b];
    uint64_t key0 = std::max(floor, estimate(0, 0, 0));
    states.push_back({0, live0, 0, key0, 0, UINT32_MAX, UINT32_MAX, false});
    index.emplace(std::make_pair(0u, uint64_t(0)), 0);
    std::priority_queue<QueueEntry> queue;
    queue.push({key0, 0, 0});
    while (!queue.empty()) {
      if (states.size() * (sizeof(BandState) + kIndexEntryBytes) +
              queue.size() * sizeof(QueueEntry) >
          memoryLimit) {
        result.states = states.size();
        return result; // out of memory: incomplete
      }
      QueueEntry top = queue.top();
      queue.pop();
      BandState s = states[top.state];
      if (s.closed || top.cost != s.cost)
        continue;
      states[top.state].closed = true;
      if (s.m == n) {
        result.complete = true;
        result.peak = s.cost;
        for (uint32_t i = top.state; states[i].parent != UINT32_MAX;
             i = states[i].parent)
          result.order.push_back(states[i].node);
        std::reverse(result.order.begin(), result.order.end());
        result.states = states.size();
        return result;
      }
      uint32_t last = std::min<uint32_t>(n - 1, s.m + width);
      for (uint32_t p = s.m; p <= last; ++p) {
        if (p > s.m && (s.mask >> (p - s.m - 1) & 1))
          continue;
        LocalId u = pi[p];
        bool ready = true;
        for (LocalId w : seg.preds(u))
          if (!executed(s, pos[w])) {
            ready = false;
            break;
          }
        if (!ready)
          continue;
        uint64_t mem = s.live + seg.transient[u], live = s.live, out = s.out;
        for (uint32_t b : seg.bufs(u)) {
          bool started = seg.liveIn[b] || anyRan(s, b);
          touchBuffer(seg.size[b], started,
                      seg.liveOut[b] || anyPending(s, b, p), mem, live);
          if (!started && seg.liveOut[b])
            out += seg.size[b];
        }
        uint64_t key = std::max(s.cost, mem);
        if (key >= upperBound)
          continue;
        uint32_t m = s.m;
        uint64_t mask = s.mask;
        if (p == m) {
          // Bit i now stands for position m + 1 + i = (m + 1) + i: skip the
          // run of executed positions, then realign past the new m.
          ++m;
          while (mask & 1) {
            mask >>= 1;
            ++m;
          }
          mask >>= 1;
        } else {
          mask |= uint64_t(1) << (p - m - 1);
        }
        key = std::max(key, estimate(m, mask, out));
        if (key >= upperBound)
          continue;
        auto [it, inserted] = index.try_emplace(
            std::make_pair(m, mask), static_cast<uint32_t>(states.size()));
        if (inserted) {
          if (states.size() >= budget) {
            result.states = states.size();
            return result; // out of budget: incomplete
          }
          states.push_back({mask, live, out, key, m, top.state, u, false});
        } else {
          BandState &t = states[it->second];
          if (t.closed || t.cost <= key)
            continue;
          t.cost = key;
          t.parent = top.state;
          t.node = u;
        }
        queue.push({key, m + static_cast<uint32_t>(__builtin_popcountll(mask)),
                    it->second});
      }
    }
    // No order of the band below the upper bound.
    result.complete = true;
    result.states = states.size();
    return result;
  }

private:
  /// h of the set (m, mask) with out(S) = `out`; 0 for the complete set.
  uint64_t estimate(uint32_t m, uint64_t mask, uint64_t out) const {
    if (m >= n)
      return 0;
    uint64_t h = std::max(cost[m], suffixCost[std::min<size_t>(
                                       n, size_t(m) + width + 1)]);
    for (uint32_t i = 0; i < width && m + 1 + i < n; ++i)
      if (!(mask >> i & 1))
        h = std::max(h, cost[m + 1 + i]);
    return out + h;
  }
  bool executed(const BandState &s, uint32_t q) const {
    if (q < s.m)
      return true;
    if (q == s.m || q > s.m + width)
      return false;
    return s.mask >> (q - s.m - 1) & 1;
  }
  /// Some toucher of b ran at s.
  bool anyRan(const BandState &s, uint32_t b) const {
    for (uint32_t i = touchStart[b]; i < touchStart[b + 1]; ++i) {
      uint32_t q = touchPos[i];
      if (q > s.m + width)
        return false;
      if (executed(s, q))
        return true;
    }
    return false;
  }
  /// Some toucher of b other than the one at position `self` has not run.
  bool anyPending(const BandState &s, uint32_t b, uint32_t self) const {
    for (uint32_t i = touchStart[b + 1]; i-- > touchStart[b];) {
      uint32_t q = touchPos[i];
      if (q < s.m)
        return false;
      if (q != self && !executed(s, q))
        return true;
    }
    return false;
  }

  const SegmentGraph &seg;
  const std::vector<LocalId> &pi;
  uint32_t width;
  uint32_t n;
  std::vector<uint32_t> pos;
  /// s(pi[q]) per position q (0 without bounds), and its maximum over q..n-1.
  std::vector<uint64_t> cost, suffixCost;
  std::vector<uint32_t> touchStart, touchPos;
  std::vector<BandState> states;
  std::unordered_map<std::pair<uint32_t, uint64_t>, uint32_t, KeyHash> index;
};

} // namespace

unsigned sched::coveringBandWidth(const SegmentGraph &seg,
                                  const std::vector<LocalId> &reference) {
  size_t n = seg.numNodes();
  std::vector<uint32_t> pos(n);
  for (size_t q = 0; q < n; ++q)
    pos[reference[q]] = static_cast<uint32_t>(q);
  // M(j): bit d - 1 set when pi[j - d] is an ancestor of pi[j].
  std::vector<uint64_t> near(n, 0);
  for (size_t j = 0; j < n; ++j)
    for (LocalId p : seg.preds(reference[j])) {
      uint64_t d0 = j - pos[p];
      if (d0 <= 64)
        near[j] |= (uint64_t(1) << (d0 - 1)) |
                   (d0 < 64 ? near[pos[p]] << d0 : 0);
    }
  for (unsigned w = 0; w < kMaxCoveringBandWidth + 1; ++w) {
    unsigned g = w + 1;
    bool holds = true;
    for (size_t j = g; j < n && holds; ++j)
      for (unsigned d = g; d < 2 * g && d <= j; ++d)
        if (!(near[j] >> (d - 1) & 1)) {
          holds = false;
          break;
        }
    if (holds)
      return w;
  }
  return kNoCoveringBand;
}

BandResult sched::bandSearch(const SegmentGraph &seg,
                             const std::vector<LocalId> &reference,
                             unsigned width, uint64_t stateBudget,
                             uint64_t floor, const NodeBounds *bounds) {
  assert(width <= kMaxBandWidth && "band wider than a mask");
  uint64_t refPeak = segmentPeak(seg, reference);
  BandResult result;
  if (seg.numNodes() > 0 && refPeak > floor)
    result = BandSearch(seg, reference, width, bounds)
                 .run(refPeak, floor, stateBudget);
  else
    result.complete = true;
  if (result.order.empty()) {
    result.order = reference;
    result.peak = refPeak;
  } else {
    result.peak = segmentPeak(seg, result.order);
  }
  return result;
}

BandResult sched::improveInBands(const SegmentGraph &seg,
                                 const std::vector<LocalId> &order,
                                 uint64_t stateBudget, uint64_t floor,
                                 const NodeBounds *bounds, bool &exact) {
  BandResult best;
  best.order = order;
  best.peak = segmentPeak(seg, order);
  best.complete = true;
  exact = false;
  uint64_t used = 0;
  unsigned width = kFirstBandWidth;
  unsigned covering = coveringBandWidth(seg, best.order);
  while (used < stateBudget && best.peak > floor) {
    BandResult r =
        bandSearch(seg, best.order, width, stateBudget - used, floor, bounds);
    used += r.states;
    if (!r.complete) {
      best.complete = false;
      break;
    }
    if (covering <= width) {
      // The band held every order: r is optimal (or within the floor).
      exact = true;
      best.order = std::move(r.order);
      best.peak = r.peak;
      break;
    }
    if (r.peak < best.peak) {
      // The band moves with the order: search around the new one.
      best.order = std::move(r.order);
      best.peak = r.peak;
      covering = coveringBandWidth(seg, best.order);
      continue;
    }
    if (width == kMaxBandWidth)
      break;
    width = std::min(kMaxBandWidth, width + kBandWidthStep);
  }
  best.states = used;
  return best;
}
