//===- SchedHeuristic.cpp - list scheduling and local search ----*- C++ -*-===//
//
// Memory-aware list scheduling of a segment (several priorities, forwards and
// on the time-reversed segment) and a local search around the peak: single
// node moves, and exact reordering of small windows.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"
#include "ReadyTracker.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace memsched_core;
using namespace memsched_core::sched;

//===----------------------------------------------------------------------===//
// List scheduling
//===----------------------------------------------------------------------===//

namespace {
struct ReadyEntry {
  int64_t key1, key2;
  LocalId node;
  uint32_t version;
  /// Inverted so std::priority_queue pops the smallest key first.
  bool operator<(const ReadyEntry &o) const {
    if (key1 != o.key1)
      return key1 > o.key1;
    if (key2 != o.key2)
      return key2 > o.key2;
    return node > o.node;
  }
};
} // namespace

// The memory figures of the nodes left (ReadyTracker.h) decide the priority;
// a node whose figures change is queued again with a new version, and stale
// entries are skipped.
std::vector<LocalId> sched::listSchedule(const SegmentGraph &seg,
                                         Priority priority) {
  size_t n = seg.numNodes();
  ReadyTracker t(seg);
  std::vector<uint32_t> version(n, 0), changedStamp(n, 0);
  std::vector<int64_t> enabledAt(n, -1);

  auto entryFor = [&](LocalId u) {
    int64_t net = t.net(u);
    int64_t run = t.runBytes(u);
    ReadyEntry e{0, 0, u, version[u]};
    switch (priority) {
    case Priority::MinNetAlloc:
      e.key1 = net;
      e.key2 = run;
      break;
    case Priority::MinRunMemory:
      e.key1 = run;
      e.key2 = net;
      break;
    case Priority::Depth:
      e.key1 = -enabledAt[u];
      e.key2 = net;
      break;
    }
    return e;
  };

  std::priority_queue<ReadyEntry> heap;
  t.initialReady([&](LocalId v) { heap.push(entryFor(v)); });

  std::vector<LocalId> order, changed;
  order.reserve(n);
  while (!heap.empty()) {
    ReadyEntry top = heap.top();
    heap.pop();
    LocalId v = top.node;
    if (t.isDone(v) || top.version != version[v])
      continue;
    uint32_t step = static_cast<uint32_t>(order.size());
    order.push_back(v);
    changed.clear();
    t.run(
        v,
        [&](LocalId u) {
          if (changedStamp[u] != step + 1) {
            changedStamp[u] = step + 1;
            changed.push_back(u);
          }
        },
        [&](LocalId s) {
          enabledAt[s] = step;
          heap.push(entryFor(s));
        });
    for (LocalId u : changed) {
      if (!t.isReady(u))
        continue;
      ++version[u];
      heap.push(entryFor(u));
    }
  }
  assert(order.size() == n && "segment graph has a cycle");
  return order;
}

//===----------------------------------------------------------------------===//
// Local search
//===----------------------------------------------------------------------===//

namespace {
/// Moves single nodes to other valid positions while that lowers the pair
/// (peak, number of positions at the peak). Moving a node from position i to
/// j only changes the memory at positions between i and j (elsewhere the node
/// and the executed set are the same), so a move is evaluated by simulating
/// that window from the bytes live before it.
class LocalSearch {
public:
  LocalSearch(const SegmentGraph &seg, std::vector<LocalId> &order)
      : seg(seg), order(order), n(order.size()), pos(n),
        firstPos(seg.numBuffers()), lastPos(seg.numBuffers()),
        mark(seg.numBuffers(), 0), count(seg.numBuffers()),
        started(seg.numBuffers()), windowBuf(seg.numBuffers()) {
    refresh();
  }

  uint64_t peak() const { return curPeak; }
  /// Caps the positions simulated by move evaluations and the states of all
  /// window searches (deterministic).
  void setCaps(uint64_t work, uint64_t windowStates) {
    workCap = work;
    windowStateCap = windowStates;
  }

  /// One descent with windows of `radius` positions around the peak; at most
  /// `maxMoves` moves. Returns true when some move was made.
  bool descend(size_t radius, unsigned maxMoves);

  /// Reorders windows of `width` consecutive positions around the peak with
  /// the exact search (`budget` states each) while that lowers the window's
  /// peak; at most `maxWindows` windows. Returns true when some window moved.
  bool reoptimizeWindows(size_t width, uint64_t budget, unsigned maxWindows);

private:
  /// Positions node x may move to without breaking an edge.
  void validRange(LocalId x, size_t &earliest, size_t &latest) const;
  /// The nodes at positions [lo, hi] as a segment graph: buffers touched
  /// outside the window (or live-in/out) are live-in/out.
  SegmentGraph windowSegment(size_t lo, size_t hi);

  void refresh();
  /// refresh() after the nodes at positions [lo, hi] were permuted among
  /// themselves: only the positions in the window and the buffers its nodes
  /// touch change, then the prefix and suffix maxima are rebuilt.
  void refreshWindow(size_t lo, size_t hi);
  void rebuildPeakSummaries();
  /// firstPos[b] and lastPos[b] from the current positions.
  void computeSpan(uint32_t b);
  /// (peak, positions at peak) after moving the node at i to j.
  std::pair<uint64_t, size_t> evaluateMove(size_t i, size_t j);
  void applyMove(size_t i, size_t j);

  const SegmentGraph &seg;
  std::vector<LocalId> &order;
  size_t n;
  std::vector<size_t> pos, firstPos, lastPos;
  std::vector<uint64_t> memoryAt, liveBefore, prefixMax, suffixMax;
  std::vector<size_t> prefixAtPeak;
  uint64_t curPeak = 0;
  size_t atPeak = 0;
  // Window simulation scratch, valid where mark[b] == stamp.
  std::vector<uint32_t> mark, count;
  std::vector<uint8_t> started;
  uint32_t stamp = 0;
  uint64_t work = 0, workCap = UINT64_MAX;
  uint64_t windowStates = 0, windowStateCap = UINT64_MAX;
  std::vector<LocalId> window;
  std::vector<uint32_t> windowBuf;
};
} // namespace

void LocalSearch::refresh() {
  curPeak = segmentPeak(seg, order, &memoryAt, &liveBefore);
  for (size_t q = 0; q < n; ++q)
    pos[order[q]] = q;
  for (uint32_t b = 0; b < seg.numBuffers(); ++b)
    computeSpan(b);
  rebuildPeakSummaries();
}

void LocalSearch::computeSpan(uint32_t b) {
  size_t lo = SIZE_MAX, hi = 0;
  for (LocalId t : seg.touchers(b)) {
    lo = std::min(lo, pos[t]);
    hi = std::max(hi, pos[t]);
  }
  firstPos[b] = lo;
  lastPos[b] = hi;
}

void LocalSearch::refreshWindow(size_t lo, size_t hi) {
  for (size_t q = lo; q <= hi; ++q)
    pos[order[q]] = q;
  if (++stamp == 0) {
    std::fill(mark.begin(), mark.end(), 0);
    stamp = 1;
  }
  for (size_t q = lo; q <= hi; ++q)
    for (uint32_t b : seg.bufs(order[q])) {
      if (mark[b] == stamp)
        continue;
      mark[b] = stamp;
      computeSpan(b);
    }
  // The bytes live before lo and after hi are those of the same executed
  // sets as before; inside, the same rule as segmentPeak.
  uint64_t cur = liveBefore[lo];
  for (size_t q = lo; q <= hi; ++q) {
    LocalId v = order[q];
    liveBefore[q] = cur;
    uint64_t mem = cur + seg.transient[v];
    for (uint32_t b : seg.bufs(v)) {
      bool started = seg.liveIn[b] || firstPos[b] < q;
      bool pending = seg.liveOut[b] || lastPos[b] > q;
      touchBuffer(seg.size[b], started, pending, mem, cur);
    }
    memoryAt[q] = mem;
  }
  assert(cur == liveBefore[hi + 1] && "a permuted window keeps its boundary");
  curPeak = 0;
  for (size_t q = 0; q < n; ++q)
    curPeak = std::max(curPeak, memoryAt[q]);
  rebuildPeakSummaries();
}

void LocalSearch::rebuildPeakSummaries() {
  prefixMax.assign(n + 1, 0);
  suffixMax.assign(n + 1, 0);
  prefixAtPeak.assign(n + 1, 0);
  for (size_t q = 0; q < n; ++q) {
    prefixMax[q + 1] = std::max(prefixMax[q], memoryAt[q]);
    prefixAtPeak[q + 1] = prefixAtPeak[q] + (memoryAt[q] == curPeak);
  }
  for (size_t q = n; q-- > 0;)
    suffixMax[q] = std::max(suffixMax[q + 1], memoryAt[q]);
  atPeak = prefixAtPeak[n];
}

std::pair<uint64_t, size_t> LocalSearch::evaluateMove(size_t i, size_t j) {
  size_t lo = std::min(i, j), hi = std::max(i, j);
  work += hi - lo + 1;
  window.clear();
  if (i < j) {
    window.insert(window.end(), order.begin() + i + 1, order.begin() + j + 1);
    window.push_back(order[i]);
  } else {
    window.push_back(order[i]);
    window.insert(window.end(), order.begin() + j, order.begin() + i);
  }
  if (++stamp == 0) {
    std::fill(mark.begin(), mark.end(), 0);
    stamp = 1;
  }
  for (LocalId u : window) {
    for (uint32_t b : seg.bufs(u)) {
      if (mark[b] != stamp) {
        mark[b] = stamp;
        count[b] = 0;
        started[b] = seg.liveIn[b] || firstPos[b] < lo;
      }
      ++count[b];
    }
  }
  uint64_t cur = liveBefore[lo], windowPeak = 0;
  size_t windowAtPeak = 0;
  for (LocalId u : window) {
    uint64_t mem = cur + seg.transient[u];
    for (uint32_t b : seg.bufs(u)) {
      bool pending = seg.liveOut[b] || --count[b] != 0 || lastPos[b] > hi;
      touchBuffer(seg.size[b], started[b], pending, mem, cur);
      started[b] = 1;
    }
    if (mem > windowPeak) {
      windowPeak = mem;
      windowAtPeak = 0;
    }
    windowAtPeak += mem == windowPeak;
  }
  uint64_t outside = std::max(prefixMax[lo], suffixMax[hi + 1]);
  uint64_t newPeak = std::max(outside, windowPeak);
  if (newPeak < curPeak)
    return {newPeak, 0}; // the count only breaks ties at the same peak
  size_t outsideAtPeak = prefixAtPeak[lo] + (atPeak - prefixAtPeak[hi + 1]);
  return {newPeak, outsideAtPeak + (windowPeak == curPeak ? windowAtPeak : 0)};
}

void LocalSearch::applyMove(size_t i, size_t j) {
  LocalId x = order[i];
  if (i < j)
    std::rotate(order.begin() + i, order.begin() + i + 1,
                order.begin() + j + 1);
  else
    std::rotate(order.begin() + j, order.begin() + i, order.begin() + i + 1);
  assert(order[j] == x && "bad rotation");
  (void)x;
  refreshWindow(std::min(i, j), std::max(i, j));
}

void LocalSearch::validRange(LocalId x, size_t &earliest,
                             size_t &latest) const {
  earliest = 0;
  latest = n - 1;
  for (LocalId u : seg.preds(x))
    earliest = std::max(earliest, pos[u] + 1);
  for (LocalId u : seg.succs(x))
    latest = std::min(latest, pos[u] - 1);
}

bool LocalSearch::descend(size_t radius, unsigned maxMoves) {
  bool moved = false;
  std::vector<uint32_t> liveAtPeak;
  for (unsigned step = 0; step < maxMoves && n > 1 && work < workCap; ++step) {
    size_t p = 0;
    while (memoryAt[p] != curPeak)
      ++p;
    std::pair<uint64_t, size_t> best{curPeak, atPeak};
    size_t bestI = 0, bestJ = 0;
    bool found = false;
    auto tryMove = [&](size_t i, size_t j) {
      if (i == j || work >= workCap)
        return;
      std::pair<uint64_t, size_t> score = evaluateMove(i, j);
      if (score < best) {
        best = score;
        bestI = i;
        bestJ = j;
        found = true;
      }
    };
    size_t from = p > radius ? p - radius : 0;
    size_t to = std::min(n - 1, p + radius);
    for (size_t i = from; i <= to; ++i) {
      size_t earliest, latest;
      validRange(order[i], earliest, latest);
      if (i < p) {
        // Past the peak: right after it, or as late as allowed.
        size_t far = std::min(latest, i + 2 * radius);
        if (latest >= p)
          tryMove(i, p);
        if (far > p)
          tryMove(i, far);
      } else if (i > p) {
        size_t far = std::max(earliest, i > 2 * radius ? i - 2 * radius : 0);
        if (earliest <= p)
          tryMove(i, p);
        if (far < p)
          tryMove(i, far);
      } else {
        size_t lo = std::max(earliest, from), hi = std::min(latest, to);
        for (size_t j = lo; j <= hi; ++j)
          tryMove(i, j);
      }
    }
    // Long moves for the biggest buffers live across the peak: start one
    // as late as possible or end it as early as possible.
    liveAtPeak.clear();
    for (uint32_t b = 0; b < seg.numBuffers(); ++b)
      if ((seg.liveIn[b] || firstPos[b] < p) &&
          (seg.liveOut[b] || lastPos[b] > p))
        liveAtPeak.push_back(b);
    std::stable_sort(
        liveAtPeak.begin(), liveAtPeak.end(),
        [&](uint32_t a, uint32_t b) { return seg.size[a] > seg.size[b]; });
    if (liveAtPeak.size() > 16)
      liveAtPeak.resize(16);
    for (uint32_t b : liveAtPeak) {
      size_t earliest, latest;
      if (!seg.liveIn[b] && firstPos[b] < p) {
        validRange(order[firstPos[b]], earliest, latest);
        if (latest >= p)
          tryMove(firstPos[b], latest);
      }
      if (!seg.liveOut[b] && lastPos[b] > p) {
        validRange(order[lastPos[b]], earliest, latest);
        if (earliest <= p)
          tryMove(lastPos[b], earliest);
      }
    }
    if (!found)
      break;
    applyMove(bestI, bestJ);
    moved = true;
  }
  return moved;
}

SegmentGraph LocalSearch::windowSegment(size_t lo, size_t hi) {
  size_t m = hi - lo + 1;
  SegmentGraph w;
  w.transient.resize(m);
  w.predStart.assign(m + 1, 0);
  w.succStart.assign(m + 1, 0);
  w.bufStart.assign(m + 1, 0);
  if (++stamp == 0) {
    std::fill(mark.begin(), mark.end(), 0);
    stamp = 1;
  }
  std::vector<uint32_t> touchCount;
  for (size_t i = 0; i < m; ++i) {
    LocalId v = order[lo + i];
    w.transient[i] = seg.transient[v];
    size_t at = w.predList.size();
    for (LocalId p : seg.preds(v))
      if (pos[p] >= lo)
        w.predList.push_back(static_cast<uint32_t>(pos[p] - lo));
    std::sort(w.predList.begin() + at, w.predList.end());
    w.predStart[i + 1] = static_cast<uint32_t>(w.predList.size());
    at = w.succList.size();
    for (LocalId s : seg.succs(v))
      if (pos[s] <= hi)
        w.succList.push_back(static_cast<uint32_t>(pos[s] - lo));
    std::sort(w.succList.begin() + at, w.succList.end());
    w.succStart[i + 1] = static_cast<uint32_t>(w.succList.size());
    for (uint32_t b : seg.bufs(v)) {
      if (mark[b] != stamp) {
        mark[b] = stamp;
        windowBuf[b] = static_cast<uint32_t>(w.size.size());
        w.size.push_back(seg.size[b]);
        w.liveIn.push_back(seg.liveIn[b] || firstPos[b] < lo);
        w.liveOut.push_back(seg.liveOut[b] || lastPos[b] > hi);
        touchCount.push_back(0);
      }
      w.bufList.push_back(windowBuf[b]);
      ++touchCount[windowBuf[b]];
    }
    w.bufStart[i + 1] = static_cast<uint32_t>(w.bufList.size());
  }
  size_t numBufs = w.size.size();
  w.touchStart.assign(numBufs + 1, 0);
  for (size_t b = 0; b < numBufs; ++b)
    w.touchStart[b + 1] = w.touchStart[b] + touchCount[b];
  w.touchList.resize(w.touchStart[numBufs]);
  std::vector<uint32_t> fill(w.touchStart.begin(), w.touchStart.end() - 1);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t b : w.bufs(i))
      w.touchList[fill[b]++] = i;
  return w;
}

bool LocalSearch::reoptimizeWindows(size_t width, uint64_t budget,
                                    unsigned maxWindows) {
  width = std::min(width, n);
  if (width < 3)
    return false;
  bool moved = false;
  for (unsigned step = 0; step < maxWindows && windowStates < windowStateCap;
       ++step) {
    size_t p = 0;
    while (memoryAt[p] != curPeak)
      ++p;
    // The peak in the middle, then at either end of the window.
    size_t starts[3] = {p > width / 2 ? p - width / 2 : 0,
                        p + 1 > width ? p + 1 - width : 0, p};
    bool improved = false;
    for (size_t lo : starts) {
      lo = std::min(lo, n - width);
      size_t hi = lo + width - 1;
      SegmentGraph w = windowSegment(lo, hi);
      std::vector<LocalId> identity(width);
      for (LocalId i = 0; i < width; ++i)
        identity[i] = i;
      ExactResult r = exactSearch(w, segmentPeak(w, identity), budget);
      windowStates += r.expanded;
      if (r.status != ExactStatus::Improved)
        continue;
      std::vector<LocalId> old(order.begin() + lo, order.begin() + hi + 1);
      for (size_t i = 0; i < width; ++i)
        order[lo + i] = old[r.order[i]];
      refreshWindow(lo, hi);
      improved = moved = true;
      break;
    }
    if (!improved)
      break;
  }
  return moved;
}

uint64_t sched::improveOrder(const SegmentGraph &seg,
                             std::vector<LocalId> &order, unsigned rounds) {
  if (order.size() < 2 || rounds == 0)
    return segmentPeak(seg, order);
  LocalSearch search(seg, order);
  search.setCaps(uint64_t(rounds) * (64 * order.size() + 1000000),
                 uint64_t(rounds) * 50000);
  for (unsigned r = 0; r < rounds; ++r) {
    unsigned shift = std::min(r, 6u);
    bool moved = search.descend(size_t(16) << shift, 64);
    moved |=
        search.reoptimizeWindows(24 + 8 * shift, uint64_t(2000) << shift, 64);
    if (!moved)
      break;
  }
  return search.peak();
}

//===----------------------------------------------------------------------===//
// Best heuristic order
//===----------------------------------------------------------------------===//

/// Up to this many nodes local search starts from every candidate order.
static constexpr size_t kLocalSearchAllNodes = 4096;

std::vector<LocalId>
sched::heuristicSchedule(const SegmentGraph &seg, unsigned localSearchRounds,
                         uint64_t lowerBound, uint64_t &peak,
                         const std::vector<std::vector<LocalId>> &extra,
                         unsigned localSearchStarts) {
  size_t n = seg.numNodes();
  std::vector<LocalId> best(n);
  for (LocalId v = 0; v < n; ++v)
    best[v] = v;
  peak = segmentPeak(seg, best);
  if (n < 2)
    return best;
  const Priority priorities[] = {Priority::MinNetAlloc, Priority::MinRunMemory,
                                 Priority::Depth};
  std::vector<std::vector<LocalId>> candidates;
  candidates.push_back(best);
  for (Priority pr : priorities)
    candidates.push_back(listSchedule(seg, pr));
  SegmentGraph rev = reverseSegment(seg);
  for (Priority pr : priorities) {
    std::vector<LocalId> order = listSchedule(rev, pr);
    std::reverse(order.begin(), order.end());
    for (LocalId &v : order)
      v = static_cast<LocalId>(n - 1 - v);
    candidates.push_back(std::move(order));
  }
  candidates.insert(candidates.end(), extra.begin(), extra.end());
  // Local search from every candidate, best first (local optima differ);
  // from the best one only on big segments, where it is the slow part.
  std::vector<uint64_t> peaks;
  std::vector<size_t> rank;
  for (size_t i = 0; i < candidates.size(); ++i) {
    peaks.push_back(segmentPeak(seg, candidates[i]));
    rank.push_back(i);
  }
  std::stable_sort(rank.begin(), rank.end(),
                   [&](size_t a, size_t b) { return peaks[a] < peaks[b]; });
  size_t improve = n <= kLocalSearchAllNodes ? rank.size() : 1;
  if (localSearchStarts > 0)
    improve = localSearchStarts;
  // Strictly better only: on ties the program order (then the earlier
  // candidate) stays.
  for (size_t r = 0; r < rank.size(); ++r) {
    std::vector<LocalId> &order = candidates[rank[r]];
    uint64_t p = peaks[rank[r]];
    if (localSearchRounds > 0 && r < improve && p > lowerBound &&
        peak > lowerBound)
      p = improveOrder(seg, order, localSearchRounds);
    if (p < peak) {
      peak = p;
      best = order;
    }
  }
  return best;
}
