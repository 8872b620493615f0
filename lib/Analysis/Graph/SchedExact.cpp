//===- SchedExact.cpp - best-first search over executed sets ----*- C++ -*-===//
//
// Exact minimum-peak ordering of a segment: best-first search on the
// bottleneck cost (cost of a partial order = max memory along it) over
// executed sets (down-sets), memoised by a Zobrist hash plus an exact bitset
// comparison.
//
// Definitions, for a down-set S and a node v ready at S:
//   live(S)    bytes of buffers started (live-in or touched in S) and pending
//              (live-out or touched outside S): the memory between steps;
//   mem(S,v)   memory while v runs = live(S) + transient(v) + bytes of the
//              buffers v starts;
//   delta(S,v) = live(S + v) - live(S);
//   g(S)       max of LB and the memory along the path that reached S, where
//              LB = NodeBounds::peakBound() (the optimum is >= LB, so the max
//              with LB changes no comparison between complete orders);
//   h(S)       a lower bound on the memory of every remaining step:
//              out(S) + max over u not in S of s(u), where out(S) = bytes of
//              live-out buffers started in S (live until the end) and s(u)
//              = NodeBounds::withoutLiveOut (bytes of buffers that are not
//              live-out and live at u in every order, plus transient bytes).
//              The two sets are disjoint, so any step u after S uses at
//              least s(u) + out(S);
//   f(S)       max(g(S), h(S)), the queue key. f never decreases along a
//              path: running v costs mem(S,v) >= s(v) + out(S), and out only
//              grows, so f(S + v) >= f(S). Hence the first time a state is
//              popped its f is minimal, and so is the first goal popped.
// Tracking f alone suffices: max(f(S), mem(S,v), h(S + v)) = f(S + v).
//
// Pruning, all sound:
// (a) Upper bound: only orders strictly below `upperBound` (the heuristic
//     peak) are searched; a successor with f >= upperBound is dropped. An
//     exhausted queue proves that none exists.
// (b) Lower bound: the search is skipped when LB >= upperBound.
// (c) Free-first: if a ready v has mem(S,v) <= f(S) and delta(S,v) <= 0, some
//     best completion of S starts with v, so S's only successor is S + v (at
//     the same f). Proof: take any completion u1..uk, v, rest and move v to
//     the front. v's own step costs mem(S,v) <= f(S). Steps after v's old
//     position see the same executed sets. For a step u_j before it, the
//     executed set gains v; per buffer b of v this can only
//       - free b early, if v was b's only remaining toucher at S (then no u_i
//         touches b; b was live at u_j and no longer is): -size(b),
//       - start b early, if no toucher of b ran (then at u_j b is live at most
//         when it is still pending after v, i.e. it counts in the allocation
//         part of delta): at most +size(b),
//       - otherwise make b pending no longer: never more memory.
//     So u_j's memory grows by at most delta(S,v) <= 0. Every completion of
//     S costs at least f(S) overall, so the new one costs no more than the
//     old. Applied to popped states; the states passed through are closed at
//     f(S), the current minimum of the queue. Nodes with a deferral target
//     are never picked: moving a node to the front keeps every deferred
//     pair of a completion adjacent only if it is neither deferred nor a
//     target (a target is never ready alone, see (d)).
// (d) Deferral (deferralTargets, docs/lower-bounds.md section 8b): some
//     optimal order runs every deferred node u right before its target v,
//     so a ready u is expanded only as the pair S + u + v (when v is ready
//     after u), at max(mem(S,u), mem(S+u,v)); S + u is never a state. A
//     state reached by a pair records v with kPairFlag.
// (e) Partial expansion (as in Yoshizumi, Miura and Ishida's partial
//     expansion A*): an expanded state queues only its children whose key
//     is its own; one entry (kRestOfParent) at the least key of the others
//     stands for them, and when popped queues the children at that key and
//     again one entry for the rest. Every child still enters the queue at its
//     own key, at the latest when the search reaches that key and before it
//     leaves it, so keys are popped in nondecreasing order as before and all
//     of the above holds; the queue no longer holds the many children of
//     wide states at keys the search never reaches.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"
#include "SearchLimits.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <map>
#include <memory>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

// Memory (searchMemoryLimit: states, table, queue): a closed state takes
// about 50 bytes plus an eighth of a record of its sets (StateStore: 16
// bytes and 8 per word of their spans), a queued child 8.
/// Work cap per budgeted state (ready nodes evaluated, children queued, set
/// words copied): bails out early on wide or huge segments, deterministically.
constexpr uint64_t kWorkPerState = 256;
/// One state in recordEvery along a path records its sets (StateStore): the
/// others are rebuilt from it by replaying at most recordEvery - 1 steps.
/// recordEvery is half the words of a set, within these limits: a record of
/// wide spans then costs a state about 16 bytes, and the replay stays
/// within the work of copying the sets, which every expansion does anyway.
constexpr unsigned kMinRecordEvery = 8, kMaxRecordEvery = 64;

/// What is known about a state besides its sets.
struct StateInfo {
  uint64_t live;
  /// out(S): live-out bytes started.
  uint64_t liveOutBytes;
  /// Position in the static order of the first node not in S.
  uint32_t top;
  uint32_t depth;
};

/// An expanded (closed) state.
struct ClosedState {
  uint64_t hash;
  StateInfo info;
};

/// A queued child: the state reached from expanded state `parent` by running
/// `node`. States are materialised (and their StateInfo recomputed from the
/// parent's) when popped, so memory grows with the expanded states, not with
/// every child, and a child costs 8 bytes.
struct OpenEntry {
  uint32_t parent;
  uint32_t node;
};

/// The executed and ready sets of the closed states, each stored as the
/// span of words that differs from the default: for the executed set S the
/// words from the first that is not all ones to the last that is not zero
/// (below: all ones, above: zero), for the ready set R from its first to
/// its last nonzero word. A down-set of a segment numbered in program order
/// is mostly a prefix, so a state takes a few words where the full sets take
/// 2 * (n + 63) / 64: on 2,000-node segments, the difference between a
/// search that memory stops before its budget and one that the budget stops.
/// The encoding is canonical, so two sets are equal iff their spans are.
/// Records live in fixed-size chunks (no copying on growth). A state may
/// also have no record (addWithout): the search then rebuilds its sets from
/// the nearest ancestor with one.
class StateStore {
public:
  explicit StateStore(size_t words) : words(words) {}

  /// Appends a state without a record.
  void addWithout() { offsets.push_back(kNone); }
  /// Whether state k has a record.
  bool has(uint32_t k) const { return offsets[k] != kNone; }

  /// Appends a state with the record of (s, r).
  void add(const uint64_t *s, const uint64_t *r) {
    Span es = spanOfExecuted(s), rs = spanOfReady(r);
    size_t need = 2 + (es.hi - es.lo) + (rs.hi - rs.lo);
    if (chunks.empty() || used + need > chunkWords) {
      chunks.emplace_back(new uint64_t[std::max(chunkWords, need)]);
      allocated += std::max(chunkWords, need);
      used = 0;
    }
    uint64_t *dst = chunks.back().get() + used;
    offsets.push_back((uint64_t(chunks.size() - 1) << 32) | used);
    dst[0] = es.pack();
    dst[1] = rs.pack();
    dst = std::copy(s + es.lo, s + es.hi, dst + 2);
    std::copy(r + rs.lo, r + rs.hi, dst);
    used += need;
  }
  /// Whether state k's executed set is `s`.
  bool executedEquals(uint32_t k, const uint64_t *s) const {
    const uint64_t *rec = record(k);
    Span es = spanOfExecuted(s);
    return rec[0] == es.pack() && std::equal(s + es.lo, s + es.hi, rec + 2);
  }
  /// Expands state k into the full-width sets s and r.
  void load(uint32_t k, uint64_t *s, uint64_t *r) const {
    const uint64_t *rec = record(k);
    Span es = Span::unpack(rec[0]), rs = Span::unpack(rec[1]);
    const uint64_t *src = rec + 2;
    std::fill(s, s + es.lo, ~uint64_t(0));
    std::copy(src, src + (es.hi - es.lo), s + es.lo);
    std::fill(s + es.hi, s + words, 0);
    src += es.hi - es.lo;
    std::fill(r, r + words, 0);
    std::copy(src, src + (rs.hi - rs.lo), r + rs.lo);
  }
  /// Bytes held by the records.
  uint64_t bytes() const {
    return allocated * 8 + offsets.size() * 8;
  }

private:
  struct Span {
    uint32_t lo, hi;
    uint64_t pack() const { return uint64_t(lo) << 32 | hi; }
    static Span unpack(uint64_t x) {
      return {static_cast<uint32_t>(x >> 32), static_cast<uint32_t>(x)};
    }
  };
  Span spanOfExecuted(const uint64_t *s) const {
    uint32_t lo = 0, hi = static_cast<uint32_t>(words);
    while (lo < words && s[lo] == ~uint64_t(0))
      ++lo;
    while (hi > lo && s[hi - 1] == 0)
      --hi;
    return {lo, hi};
  }
  Span spanOfReady(const uint64_t *r) const {
    uint32_t lo = 0, hi = static_cast<uint32_t>(words);
    while (lo < words && r[lo] == 0)
      ++lo;
    while (hi > lo && r[hi - 1] == 0)
      --hi;
    return {lo, hi};
  }
  const uint64_t *record(uint32_t k) const {
    uint64_t o = offsets[k];
    return chunks[o >> 32].get() + (o & 0xFFFFFFFFu);
  }

  static constexpr size_t chunkWords = size_t(1) << 16;
  static constexpr uint64_t kNone = ~uint64_t(0);
  size_t words;
  std::vector<std::unique_ptr<uint64_t[]>> chunks;
  std::vector<uint64_t> offsets;
  size_t used = 0;
  uint64_t allocated = 0;
};

/// The open list: one LIFO stack per key, smallest key first. Pushes never
/// go below the key being expanded (f never decreases along a path) and most
/// go to that very key, so both ends are O(1) in the common case. LIFO at
/// equal key dives depth-first towards a goal at the current level.
class OpenList {
public:
  bool empty() const { return count == 0; }
  size_t size() const { return count; }
  void push(uint64_t key, const OpenEntry &e) {
    if (!current || key != currentKey) {
      current = &buckets[key];
      currentKey = key;
    }
    current->push_back(e);
    ++count;
  }
  /// Pops from the cheapest bucket.
  OpenEntry pop(uint64_t &key) {
    auto it = buckets.begin();
    key = it->first;
    OpenEntry e = it->second.back();
    it->second.pop_back();
    --count;
    if (it->second.empty()) {
      if (current == &it->second)
        current = nullptr;
      buckets.erase(it);
    }
    return e;
  }

private:
  std::map<uint64_t, std::deque<OpenEntry>> buckets;
  std::deque<OpenEntry> *current = nullptr;
  uint64_t currentKey = 0;
  size_t count = 0;
};

/// nodeOf / OpenEntry::node flag: the pair deferredFrom[v], v ran.
constexpr uint32_t kPairFlag = uint32_t(1) << 31;
/// OpenEntry::node of an entry that stands for the children of `parent`
/// not queued yet (partial expansion, rule (e)).
constexpr uint32_t kRestOfParent = uint32_t(1) << 30;

/// Evaluation of one ready node at a state.
struct ReadyNode {
  LocalId node;
  uint64_t mem;
  int64_t delta;
  /// Live-out bytes it starts.
  uint64_t liveOutBytes;
};

class ExactSearch {
public:
  ExactSearch(const SegmentGraph &seg, uint64_t upperBound, uint64_t budget,
              const NodeBounds *bounds, uint64_t floor)
      : seg(seg), n(seg.numNodes()), words((n + 63) / 64),
        upperBound(upperBound), budget(budget), floor(floor),
        givenBounds(bounds) {}

  ExactResult run();

private:
  void prepare(const NodeBounds &bounds);
  bool inS(const uint64_t *s, uint32_t v) const {
    return (s[v >> 6] >> (v & 63)) & 1;
  }
  /// Index of the closed state with executed set `s` and hash `h`, or
  /// UINT32_MAX.
  uint32_t find(const uint64_t *s, uint64_t h);
  /// The sets of state k into s and r: its record, or the nearest
  /// ancestor's with the nodes run since replayed.
  void rebuild(uint32_t k, std::vector<uint64_t> &s,
               std::vector<uint64_t> &r);
  void insertIndex(uint32_t k);
  /// Stores childS/childR as a closed state reached from `parent` by `node`.
  uint32_t addState(uint64_t hash, const StateInfo &info, uint32_t parent,
                    uint32_t node);
  /// Loads state k into curS/curR.
  void load(uint32_t k);
  /// Child of the state in curS/curR after running v, into childS/childR.
  void makeChild(uint32_t v);
  /// Runs v at the state in s/r, in place.
  void advance(std::vector<uint64_t> &s, std::vector<uint64_t> &r,
               LocalId v) const;
  /// Evaluates v, ready at the state with executed set `s` and `live` bytes
  /// live.
  ReadyNode evaluate(LocalId v, uint64_t live, const uint64_t *s) const;
  void evaluateReady(uint64_t live);
  /// Queues the children of state k (in curS/curR, `info`, ready nodes
  /// evaluated; expanded at key `own`) whose key is `at`; returns the least
  /// key above `at` of the others, or UINT64_MAX. Adds to `work`.
  uint64_t queueChildren(uint32_t k, const StateInfo &info, uint64_t own,
                         uint64_t at, OpenList &open, uint64_t &work);
  /// Info of the child by `r` of the state with executed set `s` and `info`.
  StateInfo childInfo(const StateInfo &info, const ReadyNode &r,
                      const uint64_t *s) const;
  uint64_t bound(const StateInfo &info) const {
    return info.liveOutBytes +
           (info.top < n ? staticCost[byStatic[info.top]] : 0);
  }
  bool overMemory(size_t queued) const;
  std::vector<LocalId> pathTo(uint32_t k) const;

  const SegmentGraph &seg;
  size_t n, words;
  uint64_t upperBound, budget, floor;
  const NodeBounds *givenBounds;

  std::vector<uint64_t> zobrist;
  /// Per buffer: touchers without a direct predecessor (resp. successor)
  /// touching it. Some toucher is in a down-set S iff one of the first is
  /// (walk back along touching predecessors); some toucher is outside S iff
  /// one of the last is (walk forward: descendants of a node outside S are
  /// outside S).
  std::vector<uint32_t> firstStart, firstList, lastStart, lastList;
  /// s(u) per node, and nodes by decreasing s(u).
  std::vector<uint64_t> staticCost;
  std::vector<LocalId> byStatic;

  /// Per closed state: its executed and ready sets, recorded for one state
  /// in recordEvery along each path (sinceRecord: steps from the nearest
  /// ancestor with a record), so that a state costs a few dozen bytes
  /// whatever the span of its sets.
  StateStore sets{0};
  std::vector<uint8_t> sinceRecord;
  unsigned recordEvery = kMinRecordEvery;
  std::vector<uint64_t> scratchS, scratchR;
  std::vector<uint32_t> replay;
  std::vector<ClosedState> closed;
  std::vector<uint32_t> parentOf, nodeOf;
  /// The key each state was expanded at (rule (e) needs it again).
  std::vector<uint64_t> keyOf;
  std::vector<uint32_t> table;
  uint64_t tableMask = 0;

  uint64_t memoryLimit = 0;
  std::vector<uint64_t> curS, curR, childS, childR;
  /// Rule (D): per node its deferral target or kNoDeferral, and per target
  /// the node deferred to it. A state reached by such a pair stores the
  /// target's id with kPairFlag.
  std::vector<LocalId> deferTo, deferredFrom;
  std::vector<uint64_t> pairS, pairR;
  std::vector<ReadyNode> ready;
};

} // namespace

static uint64_t splitmix(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void ExactSearch::prepare(const NodeBounds &bounds) {
  staticCost = bounds.withoutLiveOut;
  uint64_t seed = 0x6D656D7363686564ULL; // fixed: deterministic
  zobrist.resize(n);
  for (uint64_t &z : zobrist)
    z = splitmix(seed);

  std::vector<uint32_t> touchMark(n, UINT32_MAX);
  firstStart.assign(seg.numBuffers() + 1, 0);
  lastStart.assign(seg.numBuffers() + 1, 0);
  for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
    for (LocalId t : seg.touchers(b))
      touchMark[t] = b;
    for (LocalId t : seg.touchers(b)) {
      bool hasPred = false, hasSucc = false;
      for (LocalId p : seg.preds(t))
        hasPred |= touchMark[p] == b;
      for (LocalId s : seg.succs(t))
        hasSucc |= touchMark[s] == b;
      if (!hasPred)
        firstList.push_back(t);
      if (!hasSucc)
        lastList.push_back(t);
    }
    firstStart[b + 1] = static_cast<uint32_t>(firstList.size());
    lastStart[b + 1] = static_cast<uint32_t>(lastList.size());
  }

  deferTo = deferralTargets(seg);
  deferredFrom.assign(n, kNoDeferral);
  for (LocalId u = 0; u < n; ++u)
    if (deferTo[u] != kNoDeferral)
      deferredFrom[deferTo[u]] = u;

  byStatic.resize(n);
  for (LocalId v = 0; v < n; ++v)
    byStatic[v] = v;
  std::stable_sort(byStatic.begin(), byStatic.end(), [&](LocalId a, LocalId b) {
    return staticCost[a] > staticCost[b];
  });

  curS.assign(words, 0);
  curR.assign(words, 0);
  scratchS.assign(words, 0);
  scratchR.assign(words, 0);
  childS.assign(words, 0);
  childR.assign(words, 0);
  table.assign(1024, 0);
  tableMask = table.size() - 1;
  sets = StateStore(words);
  recordEvery = static_cast<unsigned>(std::clamp<size_t>(
      words / 2, kMinRecordEvery, kMaxRecordEvery));
  memoryLimit = searchMemoryLimit(budget);
}

bool ExactSearch::overMemory(size_t queued) const {
  uint64_t bytes = sets.bytes() + closed.size() * (sizeof(ClosedState) + 17) +
                   table.size() * sizeof(uint32_t) + queued * sizeof(OpenEntry);
  return bytes > memoryLimit || closed.size() >= UINT32_MAX / 4;
}

uint32_t ExactSearch::find(const uint64_t *s, uint64_t h) {
  for (uint64_t slot = h & tableMask;; slot = (slot + 1) & tableMask) {
    uint32_t e = table[slot];
    if (e == 0)
      return UINT32_MAX;
    uint32_t k = e - 1;
    if (closed[k].hash != h)
      continue;
    if (sets.has(k) ? sets.executedEquals(k, s)
                    : (rebuild(k, scratchS, scratchR),
                       std::equal(s, s + words, scratchS.begin())))
      return k;
  }
}

void ExactSearch::rebuild(uint32_t k, std::vector<uint64_t> &s,
                          std::vector<uint64_t> &r) {
  replay.clear();
  for (; !sets.has(k); k = parentOf[k])
    replay.push_back(nodeOf[k]);
  sets.load(k, s.data(), r.data());
  for (size_t i = replay.size(); i-- > 0;) {
    LocalId v = replay[i] & ~kPairFlag;
    if (replay[i] & kPairFlag)
      advance(s, r, deferredFrom[v]);
    advance(s, r, v);
  }
}

void ExactSearch::insertIndex(uint32_t k) {
  uint64_t slot = closed[k].hash & tableMask;
  while (table[slot] != 0)
    slot = (slot + 1) & tableMask;
  table[slot] = k + 1;
}

uint32_t ExactSearch::addState(uint64_t hash, const StateInfo &info,
                               uint32_t parent, uint32_t node) {
  uint32_t k = static_cast<uint32_t>(closed.size());
  closed.push_back({hash, info});
  parentOf.push_back(parent);
  nodeOf.push_back(node);
  keyOf.push_back(0);
  unsigned since =
      parent == UINT32_MAX ? recordEvery : sinceRecord[parent] + 1u;
  if (since >= recordEvery) {
    sets.add(childS.data(), childR.data());
    since = 0;
  } else {
    sets.addWithout();
  }
  sinceRecord.push_back(static_cast<uint8_t>(since));
  if (closed.size() * 2 > table.size()) {
    table.assign(table.size() * 2, 0);
    tableMask = table.size() - 1;
    for (uint32_t i = 0; i < closed.size(); ++i)
      insertIndex(i);
  } else {
    insertIndex(k);
  }
  return k;
}

void ExactSearch::load(uint32_t k) { rebuild(k, curS, curR); }

void ExactSearch::advance(std::vector<uint64_t> &s, std::vector<uint64_t> &r,
                          LocalId v) const {
  s[v >> 6] |= uint64_t(1) << (v & 63);
  r[v >> 6] &= ~(uint64_t(1) << (v & 63));
  for (LocalId w : seg.succs(v)) {
    bool isReady = true;
    for (LocalId p : seg.preds(w))
      if (!inS(s.data(), p)) {
        isReady = false;
        break;
      }
    if (isReady)
      r[w >> 6] |= uint64_t(1) << (w & 63);
  }
}

void ExactSearch::makeChild(uint32_t v) {
  std::copy(curS.begin(), curS.end(), childS.begin());
  std::copy(curR.begin(), curR.end(), childR.begin());
  advance(childS, childR, v);
}

ReadyNode ExactSearch::evaluate(LocalId v, uint64_t live,
                                const uint64_t *s) const {
  ReadyNode r{v, live + seg.transient[v], 0, 0};
  for (uint32_t b : seg.bufs(v)) {
    bool started = seg.liveIn[b];
    for (uint32_t i = firstStart[b]; !started && i < firstStart[b + 1]; ++i)
      started = inS(s, firstList[i]);
    // Late touchers are the likeliest to be pending: scan backwards.
    bool pending = seg.liveOut[b];
    for (uint32_t i = lastStart[b + 1]; !pending && i > lastStart[b]; --i)
      pending = lastList[i - 1] != v && !inS(s, lastList[i - 1]);
    int64_t size = static_cast<int64_t>(seg.size[b]);
    if (!started) {
      r.mem += seg.size[b];
      if (pending)
        r.delta += size;
      if (seg.liveOut[b])
        r.liveOutBytes += seg.size[b];
    } else if (!pending) {
      r.delta -= size;
    }
  }
  return r;
}

void ExactSearch::evaluateReady(uint64_t live) {
  ready.clear();
  for (size_t w = 0; w < words; ++w)
    for (uint64_t m = curR[w]; m; m &= m - 1)
      ready.push_back(evaluate(
          static_cast<LocalId>(w * 64 + __builtin_ctzll(m)), live, curS.data()));
}

StateInfo ExactSearch::childInfo(const StateInfo &info, const ReadyNode &r,
                                 const uint64_t *s) const {
  StateInfo c;
  c.live = static_cast<uint64_t>(static_cast<int64_t>(info.live) + r.delta);
  c.liveOutBytes = info.liveOutBytes + r.liveOutBytes;
  c.depth = info.depth + 1;
  c.top = info.top;
  while (c.top < n &&
         (byStatic[c.top] == r.node || inS(s, byStatic[c.top])))
    ++c.top;
  return c;
}

std::vector<LocalId> ExactSearch::pathTo(uint32_t k) const {
  std::vector<LocalId> order;
  for (; parentOf[k] != UINT32_MAX; k = parentOf[k]) {
    LocalId v = nodeOf[k] & ~kPairFlag;
    order.push_back(v);
    if (nodeOf[k] & kPairFlag)
      order.push_back(deferredFrom[v]);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

uint64_t ExactSearch::queueChildren(uint32_t k, const StateInfo &info,
                                    uint64_t own, uint64_t at, OpenList &open,
                                    uint64_t &work) {
  uint64_t rest = UINT64_MAX;
  for (const ReadyNode &r : ready) {
    if (r.mem >= upperBound) // (a)
      continue;
    StateInfo c = childInfo(info, r, curS.data());
    uint64_t childKey = std::max({own, r.mem, bound(c)});
    uint32_t node = r.node;
    if (LocalId v = deferTo[r.node]; v != kNoDeferral) {
      // (d): the pair r.node, v as one child, or none when v is not ready
      // once r.node ran.
      pairS = curS;
      pairR = curR;
      advance(pairS, pairR, r.node);
      if (!inS(pairR.data(), v))
        continue;
      ReadyNode second = evaluate(v, c.live, pairS.data());
      c = childInfo(c, second, pairS.data());
      childKey = std::max({childKey, second.mem, bound(c)});
      node = v | kPairFlag;
      work += words;
    }
    if (childKey >= upperBound) // (a)
      continue;
    ++work;
    if (childKey == at)
      open.push(childKey, {k, node});
    else if (childKey > at)
      rest = std::min(rest, childKey);
  }
  return rest;
}

ExactResult ExactSearch::run() {
  ExactResult result;
  NodeBounds computed;
  if (!givenBounds)
    computed = segmentNodeBounds(seg);
  const NodeBounds &bounds = givenBounds ? *givenBounds : computed;
  // Keys start at the floor: every order within it is as good as any.
  uint64_t lowerBound = std::max(bounds.peakBound(), floor);
  result.lowerBound = lowerBound;
  if (n == 0 || lowerBound >= upperBound) {
    result.status = ExactStatus::NoneBelowBound;
    return result;
  }
  // A complete order passes through n states; node ids must stay below the
  // flags of OpenEntry::node.
  if (n > budget || n >= kRestOfParent)
    return result;
  prepare(bounds);
  uint64_t workCap =
      budget > UINT64_MAX / kWorkPerState ? UINT64_MAX : budget * kWorkPerState;
  uint64_t work = 0;

  StateInfo rootInfo{0, 0, 0, 0};
  for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
    if (seg.liveIn[b])
      rootInfo.live += seg.size[b];
    if (seg.liveIn[b] && seg.liveOut[b])
      rootInfo.liveOutBytes += seg.size[b];
  }
  OpenList open;
  // The root (childS is empty, childR its sources) is the first state
  // expanded.
  for (LocalId v = 0; v < n; ++v)
    if (seg.preds(v).size() == 0)
      childR[v >> 6] |= uint64_t(1) << (v & 63);
  uint64_t key = std::max(lowerBound, bound(rootInfo));
  uint32_t root = addState(0, rootInfo, UINT32_MAX, 0);
  bool atRoot = true;
  while (atRoot || !open.empty()) {
    uint32_t k = root;
    if (!atRoot) {
      OpenEntry top = open.pop(key);
      if (top.node == kRestOfParent) {
        // (e): the parent's children at this key, and the rest later.
        result.lowerBound = std::max(result.lowerBound, key);
        work += words;
        if (work > workCap || overMemory(open.size())) {
          result.limit = work > workCap ? ExactResult::Limit::Work
                                        : ExactResult::Limit::Memory;
          return result;
        }
        StateInfo info = closed[top.parent].info;
        load(top.parent);
        evaluateReady(info.live);
        work += ready.size();
        uint64_t rest = queueChildren(top.parent, info, keyOf[top.parent],
                                      key, open, work);
        if (rest != UINT64_MAX)
          open.push(rest, {top.parent, kRestOfParent});
        continue;
      }
      load(top.parent);
      StateInfo c = closed[top.parent].info;
      uint64_t h = closed[top.parent].hash;
      LocalId v = top.node & ~kPairFlag;
      if (top.node & kPairFlag) {
        // The deferred node first, in place: the parent is not needed again.
        LocalId u = deferredFrom[v];
        c = childInfo(c, evaluate(u, c.live, curS.data()), curS.data());
        advance(curS, curR, u);
        h ^= zobrist[u];
      }
      makeChild(v);
      h ^= zobrist[v];
      if (find(childS.data(), h) != UINT32_MAX)
        continue; // expanded already, with a key <= this one
      c = childInfo(c, evaluate(v, c.live, curS.data()), curS.data());
      k = addState(h, c, top.parent, top.node);
    }
    atRoot = false;
    // Keys are popped in nondecreasing order and an order below the current
    // key would have been found at its own key: the optimum is >= key.
    result.lowerBound = std::max(result.lowerBound, key);
    for (;;) {
      work += words;
      if (++result.expanded > budget || work > workCap ||
          overMemory(open.size())) {
        result.limit = result.expanded > budget ? ExactResult::Limit::States
                       : work > workCap         ? ExactResult::Limit::Work
                                                : ExactResult::Limit::Memory;
        return result;
      }
      StateInfo info = closed[k].info;
      if (info.depth == n) {
        result.status = ExactStatus::Improved;
        result.peak = key;
        result.order = pathTo(k);
        return result;
      }
      load(k);
      uint64_t hash = closed[k].hash;
      evaluateReady(info.live);
      work += ready.size();

      // (c) free-first: follow the first qualifying node.
      const ReadyNode *pick = nullptr;
      for (const ReadyNode &r : ready)
        if (r.mem <= key && r.delta <= 0 && deferTo[r.node] == kNoDeferral) {
          pick = &r;
          break;
        }
      if (pick) {
        StateInfo c = childInfo(info, *pick, curS.data());
        uint64_t childKey = std::max(key, bound(c));
        if (childKey != key) {
          // Started live-out bytes raised the bound: S + v is still the only
          // successor, but it belongs to a later level.
          if (childKey < upperBound)
            open.push(childKey, {k, pick->node});
          break;
        }
        makeChild(pick->node);
        uint64_t h = hash ^ zobrist[pick->node];
        if (find(childS.data(), h) != UINT32_MAX)
          break; // expanded already, with a key <= this one
        k = addState(h, c, k, pick->node);
        continue;
      }

      keyOf[k] = key;
      uint64_t rest = queueChildren(k, info, key, key, open, work);
      if (rest != UINT64_MAX)
        open.push(rest, {k, kRestOfParent});
      break;
    }
  }
  result.status = ExactStatus::NoneBelowBound;
  result.lowerBound = upperBound;
  return result;
}

ExactResult sched::exactSearch(const SegmentGraph &seg, uint64_t upperBound,
                               uint64_t stateBudget, const NodeBounds *bounds,
                               uint64_t floor) {
  return ExactSearch(seg, upperBound, stateBudget, bounds, floor).run();
}
