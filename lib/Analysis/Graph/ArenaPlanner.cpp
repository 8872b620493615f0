//===- ArenaPlanner.cpp - offsets of buffers in one static arena -*- C++ -*-===//
//
// Invariants: every placement returned passes isValidPlacement; the arena
// returned is the smallest among the heuristics and the exact search; the
// lower bound never exceeds the arena of any valid placement.
//
// The exact search relies on compaction: in an optimal placement let every
// buffer fall (to an aligned offset) as far as it can; the arena does not
// grow. Repeating until nothing moves, and sorting by (offset, rank), each
// buffer rests exactly at its floor: the aligned top of the buffers before it
// that live with it (0 if none). So a search that places buffers in
// nondecreasing (offset, rank) order, each at its floor, meets an optimal
// placement; among the optimal ones, the one of least total offset is cut
// neither by the order nor by the dominance rule (see CanonicalSearch).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/ArenaPlanner.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <unordered_map>

using namespace memsched_core;

static uint64_t alignUp(uint64_t x, uint64_t alignment) {
  if (alignment <= 1)
    return x;
  return (x + alignment - 1) / alignment * alignment;
}

const char *memsched_core::getHeuristicName(ArenaHeuristic h) {
  switch (h) {
  case ArenaHeuristic::GreedyBySize:
    return "greedy-by-size";
  case ArenaHeuristic::BestFitBySize:
    return "best-fit-by-size";
  case ArenaHeuristic::FirstFitByStart:
    return "first-fit-by-start";
  case ArenaHeuristic::FirstFitByConflicts:
    return "first-fit-by-conflicts";
  }
  return "unknown";
}

uint64_t memsched_core::getIdealArena(const std::vector<ArenaBuffer> &buffers) {
  // Sweep: +size at first, -size after last.
  std::vector<std::pair<uint64_t, int64_t>> events;
  for (const ArenaBuffer &b : buffers) {
    if (!b.size)
      continue;
    events.push_back({b.first * 2, static_cast<int64_t>(b.size)});
    events.push_back({b.last * 2 + 1, -static_cast<int64_t>(b.size)});
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0, best = 0;
  for (auto [t, d] : events) {
    live += d;
    best = std::max(best, live);
  }
  return static_cast<uint64_t>(best);
}

uint64_t memsched_core::getArenaSize(const std::vector<ArenaBuffer> &buffers,
                                const std::vector<uint64_t> &offsets) {
  uint64_t arena = 0;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size)
      arena = std::max(arena, offsets[i] + buffers[i].size);
  return arena;
}

bool memsched_core::isValidPlacement(const std::vector<ArenaBuffer> &buffers,
                                const std::vector<uint64_t> &offsets,
                                uint64_t arenaSize, std::string *why) {
  auto fail = [&](const std::string &msg) {
    if (why)
      *why = msg;
    return false;
  };
  if (offsets.size() != buffers.size())
    return fail("one offset per buffer expected");
  std::vector<size_t> byStart(buffers.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
    return buffers[a].first < buffers[b].first;
  });
  for (size_t i = 0; i < buffers.size(); ++i) {
    const ArenaBuffer &b = buffers[i];
    if (b.alignment > 1 && offsets[i] % b.alignment != 0)
      return fail("buffer " + std::to_string(i) + " is not aligned");
    if (b.size && offsets[i] + b.size > arenaSize)
      return fail("buffer " + std::to_string(i) + " ends past the arena");
  }
  // Pairs live together: each buffer against the later-starting buffers
  // that start before it ends.
  for (size_t x = 0; x < byStart.size(); ++x) {
    size_t i = byStart[x];
    if (!buffers[i].size)
      continue;
    for (size_t y = x + 1; y < byStart.size(); ++y) {
      size_t j = byStart[y];
      if (buffers[j].first > buffers[i].last)
        break;
      if (!buffers[j].size)
        continue;
      if (offsets[i] < offsets[j] + buffers[j].size &&
          offsets[j] < offsets[i] + buffers[i].size)
        return fail("buffers " + std::to_string(i) + " and " +
                    std::to_string(j) + " are live together and overlap");
    }
  }
  return true;
}

namespace {
/// The buffers of nonzero size, by first position (then index).
std::vector<uint32_t> getNonEmptyByStart(const std::vector<ArenaBuffer> &buffers) {
  std::vector<uint32_t> byStart;
  for (uint32_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size)
      byStart.push_back(i);
  std::sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) {
    return std::make_pair(buffers[a].first, a) <
           std::make_pair(buffers[b].first, b);
  });
  return byStart;
}

/// Buffers live together with each buffer (sizes > 0 only).
std::vector<std::vector<uint32_t>>
getConflicts(const std::vector<ArenaBuffer> &buffers) {
  std::vector<std::vector<uint32_t>> conflicts(buffers.size());
  std::vector<uint32_t> byStart = getNonEmptyByStart(buffers);
  for (size_t x = 0; x < byStart.size(); ++x)
    for (size_t y = x + 1; y < byStart.size(); ++y) {
      uint32_t i = byStart[x], j = byStart[y];
      if (buffers[j].first > buffers[i].last)
        break;
      conflicts[i].push_back(j);
      conflicts[j].push_back(i);
    }
  return conflicts;
}

/// Places buffers in `order`, each at the lowest aligned offset that fits
/// (first fit) or in the tightest gap that fits (best fit).
std::vector<uint64_t> placeInOrder(const std::vector<ArenaBuffer> &buffers,
                                   const std::vector<std::vector<uint32_t>> &conflicts,
                                   const std::vector<uint32_t> &order,
                                   bool bestFit) {
  std::vector<uint64_t> offsets(buffers.size(), 0);
  std::vector<bool> placed(buffers.size(), false);
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  for (uint32_t i : order) {
    const ArenaBuffer &b = buffers[i];
    placed[i] = true;
    if (!b.size)
      continue;
    taken.clear();
    for (uint32_t j : conflicts[i])
      if (placed[j])
        taken.push_back({offsets[j], offsets[j] + buffers[j].size});
    std::sort(taken.begin(), taken.end());
    uint64_t cursor = 0, choice = UINT64_MAX, slack = UINT64_MAX;
    for (auto [lo, hi] : taken) {
      uint64_t o = alignUp(cursor, b.alignment);
      if (o + b.size <= lo) {
        uint64_t s = lo - (o + b.size);
        if (!bestFit) {
          choice = o;
          break;
        }
        if (s < slack) {
          slack = s;
          choice = o;
        }
      }
      cursor = std::max(cursor, hi);
    }
    if (choice == UINT64_MAX)
      choice = alignUp(cursor, b.alignment);
    offsets[i] = choice;
  }
  return offsets;
}

/// A segment tree over a fixed number of slots keeping the largest value
/// (`Max`) or the smallest (`!Max`), with point updates.
template <bool Max> class ExtremumTree {
public:
  void init(size_t count, uint64_t fill) {
    width = 1;
    while (width < std::max<size_t>(count, 1))
      width *= 2;
    empty = Max ? 0 : UINT64_MAX;
    tree.assign(2 * width, empty);
    for (size_t i = 0; i < count; ++i)
      tree[width + i] = fill;
    for (size_t i = width - 1; i >= 1; --i)
      tree[i] = pick(tree[2 * i], tree[2 * i + 1]);
  }
  void set(size_t i, uint64_t value) {
    i += width;
    tree[i] = value;
    for (i /= 2; i >= 1; i /= 2) {
      uint64_t v = pick(tree[2 * i], tree[2 * i + 1]);
      if (tree[i] == v)
        break;
      tree[i] = v;
    }
  }
  uint64_t top() const { return tree[1]; }
  /// Appends the slots holding a value below `bound` (a min tree only).
  void collectBelow(uint64_t bound, std::vector<uint32_t> &out) const {
    collect(1, bound, out);
  }

private:
  void collect(size_t node, uint64_t bound, std::vector<uint32_t> &out) const {
    if (tree[node] >= bound)
      return;
    if (node >= width) {
      out.push_back(static_cast<uint32_t>(node - width));
      return;
    }
    collect(2 * node, bound, out);
    collect(2 * node + 1, bound, out);
  }

  static uint64_t pick(uint64_t a, uint64_t b) {
    return Max ? std::max(a, b) : std::min(a, b);
  }
  size_t width = 1;
  uint64_t empty = 0;
  std::vector<uint64_t> tree;
};

/// One group of buffers (no time point separates them) in local numbering:
/// local index = rank in a preorder. Sections are the maximal time ranges in
/// which the set of live buffers does not change.
struct GroupProblem {
  struct Item {
    uint64_t size, alignment;
    uint32_t lo, hi; // sections [lo, hi)
    uint32_t global;
    uint64_t length; // time steps
  };
  std::vector<Item> items;
  std::vector<std::vector<uint32_t>> overlaps;
  uint32_t sections = 0;
  uint64_t ideal = 0, maxSize = 0;
  /// The preorder the items are ranked by (kPreorders).
  const char *preorder = "";
  /// Whether sections whose stack may reach the capacity sort their floors.
  bool fullStacks = true;
  /// Where a part of a group starts (empty: all 0): the floor of each
  /// buffer.
  std::vector<uint64_t> floors;
};

/// The preorders tried in turn; they differ in which buffers go first among
/// those that could rest at the same offset (and so in where the search
/// looks first).
/// A preorder: up to three keys, each largest first, then the index: 'T'
/// the largest total of the sections the buffer lives in, 'A' its area
/// (size times length), 'Z' its size, 'W' its length; and how its searches
/// bound a section whose stack may pass the capacity: by its lowest floor
/// plus its load (cheap nodes: what finds placements of tight instances
/// fastest) or by sorting its floors (full stacks: nodes several times
/// dearer that cut more: what proves the bound on random lifetimes).
struct Preorder {
  const char *keys;
  bool fullStacks;
};
/// The portfolio, tried in turn: MiniMalloc's three preorders (longest,
/// most loaded, largest area first) with cheap nodes, then four with full
/// stacks.
constexpr Preorder kPreorders[] = {{"WAT", false}, {"TAW", false},
                                   {"TWA", false}, {"TAZ", true},
                                   {"ATZ", true},  {"ZTA", true},
                                   {"WTZ", true}};

/// A buffer's rank in a preorder: its keys (those missing are 0), each
/// largest first, then its global index; `index` is whatever the caller
/// numbers it by.
struct RankKey {
  uint64_t key[3];
  uint32_t global, index;
};

RankKey getRankKey(const char *preorder, uint64_t heaviest, uint64_t size,
                   uint64_t length, uint32_t global, uint32_t index) {
  // Area saturates: only the order matters.
  uint64_t area = length > UINT64_MAX / size ? UINT64_MAX : length * size;
  RankKey r{{0, 0, 0}, global, index};
  for (int c = 0; c < 3 && preorder[c]; ++c) {
    switch (preorder[c]) {
    case 'T':
      r.key[c] = heaviest;
      break;
    case 'A':
      r.key[c] = area;
      break;
    case 'Z':
      r.key[c] = size;
      break;
    case 'W':
      r.key[c] = length;
      break;
    default:
      assert(false && "unknown preorder key");
    }
  }
  return r;
}

void sortByRank(std::vector<RankKey> &ranks) {
  std::sort(ranks.begin(), ranks.end(), [](const RankKey &x, const RankKey &y) {
    for (int c = 0; c < 3; ++c)
      if (x.key[c] != y.key[c])
        return x.key[c] > y.key[c];
    return x.global < y.global;
  });
}

GroupProblem buildGroup(const std::vector<ArenaBuffer> &buffers,
                        const std::vector<uint32_t> &group,
                        const Preorder &preorder) {
  GroupProblem p;
  p.preorder = preorder.keys;
  p.fullStacks = preorder.fullStacks;
  std::vector<uint64_t> points;
  for (uint32_t i : group) {
    points.push_back(buffers[i].first);
    points.push_back(buffers[i].last + 1);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  p.sections = points.empty() ? 0 : points.size() - 1;
  auto at = [&](uint64_t t) {
    return static_cast<uint32_t>(
        std::lower_bound(points.begin(), points.end(), t) - points.begin());
  };
  // The bytes live in each section.
  std::vector<uint64_t> total(p.sections + 1, 0);
  {
    std::vector<int64_t> delta(p.sections + 1, 0);
    for (uint32_t i : group) {
      delta[at(buffers[i].first)] += static_cast<int64_t>(buffers[i].size);
      delta[at(buffers[i].last + 1)] -= static_cast<int64_t>(buffers[i].size);
    }
    int64_t live = 0;
    for (uint32_t s = 0; s < p.sections; ++s) {
      live += delta[s];
      total[s] = static_cast<uint64_t>(live);
      p.ideal = std::max(p.ideal, total[s]);
    }
  }
  std::vector<RankKey> keys;
  for (uint32_t i : group) {
    const ArenaBuffer &b = buffers[i];
    uint32_t lo = at(b.first), hi = at(b.last + 1);
    uint64_t heaviest = 0;
    for (uint32_t s = lo; s < hi; ++s)
      heaviest = std::max(heaviest, total[s]);
    keys.push_back(getRankKey(preorder.keys, heaviest, b.size,
                              b.last - b.first + 1, i, i));
    p.maxSize = std::max(p.maxSize, b.size);
  }
  sortByRank(keys);
  std::vector<uint32_t> local(buffers.size(), 0);
  for (uint32_t r = 0; r < keys.size(); ++r) {
    const ArenaBuffer &b = buffers[keys[r].index];
    local[keys[r].index] = r;
    p.items.push_back({b.size, std::max<uint64_t>(b.alignment, 1),
                       at(b.first), at(b.last + 1), keys[r].index,
                       b.last - b.first + 1});
  }
  // Overlaps: a sweep by start, each buffer against the buffers starting
  // while it is live.
  std::vector<uint32_t> byStart(p.items.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](uint32_t x, uint32_t y) {
    return std::make_pair(p.items[x].lo, x) < std::make_pair(p.items[y].lo, y);
  });
  p.overlaps.assign(p.items.size(), {});
  for (size_t x = 0; x < byStart.size(); ++x)
    for (size_t y = x + 1; y < byStart.size(); ++y) {
      uint32_t i = byStart[x], j = byStart[y];
      if (p.items[j].lo >= p.items[i].hi)
        break;
      p.overlaps[i].push_back(j);
      p.overlaps[j].push_back(i);
    }
  return p;
}

/// Parts proved not to fit: the buffers (global index) with their floors
/// and a lower bound on the top of any placement of them above those floors.
class FailedParts {
public:
  /// The bound recorded for `key`, 0 if none.
  uint64_t lookup(const std::vector<uint64_t> &key) const {
    auto it = parts.find(key);
    return it == parts.end() ? 0 : it->second;
  }
  void record(const std::vector<uint64_t> &key, uint64_t bound) {
    if (stored + key.size() > kMaxStored)
      return;
    auto [it, inserted] = parts.emplace(key, bound);
    if (inserted)
      stored += key.size();
    else
      it->second = std::max(it->second, bound);
  }

private:
  struct Hash {
    size_t operator()(const std::vector<uint64_t> &v) const {
      uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
      for (uint64_t x : v) {
        h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
      }
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  static constexpr size_t kMaxStored = 1 << 22;
  std::unordered_map<std::vector<uint64_t>, uint64_t, Hash> parts;
  size_t stored = 0;
};

/// The decision problem "can the group be placed within `capacity`", by a
/// depth-first search over canonical placements (see the file comment):
/// buffers are placed in nondecreasing (offset, local index) order, each at
/// its floor, the aligned top of the placed buffers it lives with. Pruning:
///  - dominance: a buffer is not placed at or above the top another unplaced
///    buffer would have at its own floor (that one could drop below it);
///  - sections: in each section the unplaced buffers stack above both the
///    section's top and the current offset; their total must fit.
/// When a placement leaves the unplaced buffers in parts that no time point
/// joins (no unplaced buffer crosses it), each part is searched on its own
/// above the floors it has (dropping the order constraint: a relaxation, so
/// a part that does not fit cuts the node, and parts that fit combine into a
/// valid placement); parts that do not fit are remembered.
/// When the search space is exhausted, the smallest bound of a pruned node
/// is a lower bound on every placement of the group (the canonical placement
/// of least total offset among the optimal ones is never cut otherwise).
class CanonicalSearch {
public:
  enum class Result { Found, Infeasible, Aborted };

  CanonicalSearch(const GroupProblem &p, FailedParts &failed, unsigned depth = 0)
      : p(p), failed(failed), depth(depth) {}

  /// Searches within `capacity` while `work` is below `limit`.
  Result run(uint64_t capacity, uint64_t limit, uint64_t &work) {
    size_t n = p.items.size();
    this->capacity = capacity;
    this->limit = limit;
    this->work = &work;
    placed.assign(n, 0);
    floorOf = p.floors.empty() ? std::vector<uint64_t>(n, 0) : p.floors;
    currentOffset.assign(n, 0);
    floors.init(n, 0);
    heights.init(n, 0);
    for (uint32_t x = 0; x < n; ++x) {
      floors.set(x, floorOf[x]);
      heights.set(x, floorOf[x] + p.items[x].size);
    }
    sectionLoad.assign(p.sections, 0);
    cuts.assign(p.sections, 0);
    memberStart.assign(p.sections + 1, 0);
    for (const GroupProblem::Item &it : p.items) {
      for (uint32_t s = it.lo; s < it.hi; ++s) {
        sectionLoad[s] += it.size;
        ++memberStart[s + 1];
      }
      for (uint32_t s = it.lo; s + 1 < it.hi; ++s)
        ++cuts[s];
    }
    for (uint32_t s = 0; s < p.sections; ++s)
      memberStart[s + 1] += memberStart[s];
    members.resize(memberStart[p.sections]);
    {
      std::vector<uint32_t> fill(memberStart.begin(), memberStart.end() - 1);
      for (uint32_t x = 0; x < n; ++x)
        for (uint32_t s = p.items[x].lo; s < p.items[x].hi; ++s)
          members[fill[s]++] = x;
    }
    // Only sections whose buffers are not all live in another section are
    // kept: the stack of the others is no higher. Consecutive sections
    // between which no buffer starts or ends hold the same buffers (a part
    // keeps the sections of its group, cut where placed buffers began or
    // ended); such a run counts once, at its first section, and is kept
    // when a buffer starts at its first section and one ends at its last.
    maximal.assign(p.sections, 0);
    {
      std::vector<uint8_t> starts(p.sections, 0), ends(p.sections, 0);
      for (const GroupProblem::Item &it : p.items) {
        starts[it.lo] = 1;
        ends[it.hi - 1] = 1;
      }
      for (uint32_t first = 0; first < p.sections;) {
        uint32_t last = first;
        while (last + 1 < p.sections && !ends[last] && !starts[last + 1])
          ++last;
        maximal[first] = starts[first] && ends[last];
        first = last + 1;
      }
    }
    stackTop.assign(p.sections, 0);
    highFloor.assign(p.sections, 0);
    for (uint32_t x = 0; x < n; ++x)
      for (uint32_t t = p.items[x].lo; t < p.items[x].hi; ++t)
        highFloor[t] = std::max(highFloor[t], floorOf[x]);
    scanned = 0;
    stamp.assign(p.sections, 0);
    stampNow = 1;
    loads.init(p.sections, 0);
    stacks.init(p.sections, 0);
    for (uint32_t s = 0; s < p.sections; ++s)
      loads.set(s, sectionLoad[s]);
    refresh(0, p.sections);
    floorLog.clear();
    stackLog.clear();
    stack.clear();
    pool.clear();
    prunedBound = UINT64_MAX;
    if (n == 0) {
      offsets.clear();
      return Result::Found;
    }
    uint64_t bound = stacks.top();
    if (bound > capacity) {
      prunedBound = bound;
      return Result::Infeasible;
    }
    openCount = n;
    expand(0, 0);
    while (!stack.empty()) {
      Frame &f = stack.back();
      if (f.hasChild) {
        unplace(pool[f.next - 1], f.floorMark, f.stackMark);
        f.hasChild = false;
      }
      if (f.next == f.end && f.more)
        refill(f);
      if (f.next == f.end) {
        pool.resize(f.begin);
        stack.pop_back();
        continue;
      }
      if (work >= limit)
        return Result::Aborted;
      ++work;
      uint32_t x = pool[f.next++];
      uint64_t o = floorOf[x];
      f.hasChild = true;
      f.floorMark = floorLog.size();
      f.stackMark = stackLog.size();
      place(x, o);
      if (openCount == 0) {
        offsets = currentOffset;
        return Result::Found;
      }
      bound = std::max(o + loads.top(), stacks.top());
      if (bound > capacity) {
        prunedBound = std::min(prunedBound, bound);
        continue;
      }
      if (splits(x)) {
        Result r = solveParts();
        if (r == Result::Found) {
          offsets = currentOffset;
          return r;
        }
        if (r == Result::Aborted)
          return r;
        continue;
      }
      expand(o, x);
    }
    return Result::Infeasible;
  }

  /// Offsets by local index after Result::Found.
  std::vector<uint64_t> offsets;
  /// The smallest bound of a cut node (after Result::Infeasible).
  uint64_t prunedBound = UINT64_MAX;

private:
  struct Frame {
    size_t begin, next, end; // the listed children in `pool`
    size_t floorMark, stackMark;
    // Children are the unplaced buffers at or above (cursorOffset,
    // cursorIndex) in (floor, index) order whose floor is below minHeight.
    uint64_t cursorOffset;
    uint32_t cursorIndex;
    uint64_t minHeight;
    bool hasChild, more;
  };
  static constexpr size_t kBatch = 32;

  /// Pushes the node after placing `lastIndex` at `lastOffset`. Its
  /// children are the unplaced buffers whose floor is at or above the last
  /// (offset, index) and below the lowest top an unplaced buffer would have
  /// at its floor, in (floor, index) order; those that cannot fit are cut.
  void expand(uint64_t lastOffset, uint32_t lastIndex) {
    stack.push_back({pool.size(), pool.size(), pool.size(), 0, 0, lastOffset,
                     lastIndex, heights.top(), false, true});
    refill(stack.back());
  }

  /// Lists the next children of `f` (at most kBatch), those at or above the
  /// cursor, and moves the cursor past them. Counts one unit of work per 64
  /// buffers looked at, so that time stays proportional to work.
  void refill(Frame &f) {
    pool.resize(f.begin);
    scratch.clear();
    if (f.more)
      floors.collectBelow(f.minHeight, scratch);
    *work += scratch.size() / 64;
    for (uint32_t y : scratch) {
      uint64_t fl = floorOf[y];
      if (fl < f.cursorOffset || (fl == f.cursorOffset && y < f.cursorIndex))
        continue;
      uint64_t end = fl + p.items[y].size;
      if (end > capacity) {
        prunedBound = std::min(prunedBound, end);
        continue;
      }
      pool.push_back(y);
    }
    auto byKey = [&](uint32_t a, uint32_t b) {
      return std::make_pair(floorOf[a], a) < std::make_pair(floorOf[b], b);
    };
    auto first = pool.begin() + f.begin;
    f.more = pool.size() - f.begin > kBatch;
    if (f.more) {
      std::nth_element(first, first + kBatch, pool.end(), byKey);
      pool.resize(f.begin + kBatch);
    }
    std::sort(first, pool.end(), byKey);
    f.next = f.begin;
    f.end = pool.size();
    if (f.more) {
      f.cursorOffset = floorOf[pool.back()];
      f.cursorIndex = pool.back() + 1;
    }
  }

  void place(uint32_t x, uint64_t o) {
    const GroupProblem::Item &it = p.items[x];
    placed[x] = 1;
    currentOffset[x] = o;
    --openCount;
    floors.set(x, UINT64_MAX);
    heights.set(x, UINT64_MAX);
    uint64_t end = o + it.size;
    for (uint32_t s = it.lo; s < it.hi; ++s) {
      sectionLoad[s] -= it.size;
      loads.set(s, sectionLoad[s]);
    }
    for (uint32_t s = it.lo; s + 1 < it.hi; ++s)
      --cuts[s];
    size_t mark = floorLog.size();
    for (uint32_t y : p.overlaps[x]) {
      if (placed[y])
        continue;
      uint64_t a = alignUp(end, p.items[y].alignment);
      if (a <= floorOf[y])
        continue;
      floorLog.push_back({y, floorOf[y]});
      setFloor(y, a);
      for (uint32_t t = p.items[y].lo; t < p.items[y].hi; ++t)
        if (a > highFloor[t]) {
          stackLog.push_back({p.sections + t, highFloor[t]});
          highFloor[t] = a;
        }
    }

    // The stacks of the sections whose unplaced buffers changed.
    ++stampNow;
    refresh(it.lo, it.hi);
    for (size_t k = mark; k < floorLog.size(); ++k)
      refresh(p.items[floorLog[k].first].lo, p.items[floorLog[k].first].hi);
    // Dense sections make a node costly: one unit of work more per 256
    // steps of sorting (m log m for m buffers), so that time stays
    // proportional to work.
    *work += scanned / 256;
    scanned %= 256;
  }

  /// Recomputes what the unplaced buffers of sections [lo, hi) reach at
  /// least. Those of one section are live together, so they stack, each at
  /// or above its floor: for every floor f, the buffers with a floor >= f
  /// end at or above f plus their total size.
  void refresh(uint32_t lo, uint32_t hi) {
    for (uint32_t s = lo; s < hi; ++s) {
      if (stamp[s] == stampNow || !maximal[s])
        continue;
      stamp[s] = stampNow;
      // The stack reaches at most the highest floor plus the load. When
      // that fits, the section cuts nothing at this capacity and 0 is kept
      // (so every bound that decides a cut is exact); `highFloor` holds an
      // upper bound on the highest floor, raised with the floors, so that
      // such sections cost no scan.
      uint64_t reach = 0;
      if (highFloor[s] + sectionLoad[s] > capacity) {
        uint64_t low = UINT64_MAX, high = 0;
        uint32_t m = 0;
        for (uint32_t k = memberStart[s]; k < memberStart[s + 1]; ++k) {
          uint32_t y = members[k];
          if (placed[y])
            continue;
          ++m;
          low = std::min(low, floorOf[y]);
          high = std::max(high, floorOf[y]);
        }
        scanned += memberStart[s + 1] - memberStart[s];
        if (high < highFloor[s]) {
          stackLog.push_back({p.sections + s, highFloor[s]});
          highFloor[s] = high;
        }
        if (m && (high + sectionLoad[s] <= capacity ||
                  low + sectionLoad[s] > capacity || !p.fullStacks)) {
          // Fits for sure, or cuts for sure: no sort needed.
          reach = low + sectionLoad[s];
        } else if (m) {
          byFloor.clear();
          for (uint32_t k = memberStart[s]; k < memberStart[s + 1]; ++k)
            if (!placed[members[k]])
              byFloor.push_back(
                  {floorOf[members[k]], p.items[members[k]].size});
          std::sort(byFloor.begin(), byFloor.end());
          scanned += uint64_t(m) * (64 - __builtin_clzll(uint64_t(m) | 1));
          uint64_t above = 0;
          for (size_t k = byFloor.size(); k-- > 0;) {
            above += byFloor[k].second;
            reach = std::max(reach, byFloor[k].first + above);
          }
        }
      }
      if (reach == stackTop[s])
        continue;
      stackLog.push_back({s, stackTop[s]});
      stackTop[s] = reach;
      stacks.set(s, reach);
    }
  }

  void unplace(uint32_t x, size_t floorMark, size_t stackMark) {
    const GroupProblem::Item &it = p.items[x];
    uint64_t o = currentOffset[x];
    while (floorLog.size() > floorMark) {
      auto [y, old] = floorLog.back();
      floorLog.pop_back();
      setFloor(y, old);
    }
    for (uint32_t s = it.lo; s + 1 < it.hi; ++s)
      ++cuts[s];
    for (uint32_t s = it.lo; s < it.hi; ++s) {
      sectionLoad[s] += it.size;
      loads.set(s, sectionLoad[s]);
    }
    while (stackLog.size() > stackMark) {
      auto [s, old] = stackLog.back();
      stackLog.pop_back();
      if (s >= p.sections) {
        highFloor[s - p.sections] = old;
        continue;
      }
      stackTop[s] = old;
      stacks.set(s, old);
    }
    placed[x] = 0;
    ++openCount;
    floors.set(x, o);
    heights.set(x, o + it.size);
  }

  void setFloor(uint32_t y, uint64_t value) {
    floorOf[y] = value;
    floors.set(y, value);
    heights.set(y, value + p.items[y].size);
  }

  /// Whether placing `x` left unplaced buffers on both sides of a time
  /// point in its lifetime that no unplaced buffer crosses; `parts` then
  /// holds the section ranges with unplaced buffers.
  bool splits(uint32_t x) {
    const GroupProblem::Item &it = p.items[x];
    if (depth >= kMaxDepth)
      return false;
    bool any = false;
    for (uint32_t s = it.lo; s + 1 < it.hi && !any; ++s)
      any = cuts[s] == 0;
    if (!any)
      return false;
    parts.clear();
    uint32_t from = 0;
    auto close = [&](uint32_t to) {
      for (uint32_t s = from; s < to; ++s)
        if (sectionLoad[s]) {
          parts.push_back({from, to});
          break;
        }
      from = to;
    };
    for (uint32_t s = it.lo; s + 1 < it.hi; ++s)
      if (cuts[s] == 0)
        close(s + 1);
    close(p.sections);
    return parts.size() >= 2;
  }

  /// Searches each part on its own, the most loaded first.
  Result solveParts() {
    size_t n = p.items.size();
    std::vector<std::pair<uint64_t, size_t>> byPressure;
    for (size_t k = 0; k < parts.size(); ++k) {
      uint64_t pressure = 0;
      for (uint32_t s = parts[k].first; s < parts[k].second; ++s)
        pressure = std::max(pressure, stackTop[s]);
      byPressure.push_back({UINT64_MAX - pressure, k});
    }
    std::sort(byPressure.begin(), byPressure.end());
    std::vector<std::pair<uint32_t, uint32_t>> ranges = parts;
    std::vector<uint32_t> local(n, 0);
    for (auto [unused, k] : byPressure) {
      (void)unused;
      auto [lo, hi] = ranges[k];
      GroupProblem sub;
      sub.preorder = p.preorder;
      sub.fullStacks = p.fullStacks;
      // The part's buffers ranked again by the preorder, with the totals of
      // the buffers left unplaced (as a group of its own would be).
      std::vector<RankKey> ranked;
      for (uint32_t y = 0; y < n; ++y)
        if (!placed[y] && p.items[y].lo >= lo && p.items[y].lo < hi) {
          const GroupProblem::Item &it = p.items[y];
          uint64_t heaviest = 0;
          for (uint32_t t = it.lo; t < it.hi; ++t)
            heaviest = std::max(heaviest, sectionLoad[t]);
          ranked.push_back(getRankKey(p.preorder, heaviest, it.size,
                                      it.length, it.global, y));
        }
      sortByRank(ranked);
      std::vector<uint32_t> members;
      for (const RankKey &r : ranked) {
        local[r.index] = members.size();
        members.push_back(r.index);
      }
      *work += n / 64 + ranked.size() / 16;
      sub.sections = hi - lo;
      std::vector<uint64_t> key;
      for (uint32_t y : members) {
        GroupProblem::Item item = p.items[y];
        item.lo -= lo;
        item.hi -= lo;
        sub.items.push_back(item);
        sub.floors.push_back(floorOf[y]);
        std::vector<uint32_t> adj;
        for (uint32_t z : p.overlaps[y])
          if (!placed[z])
            adj.push_back(local[z]);
        sub.overlaps.push_back(std::move(adj));
        key.push_back(item.global);
        key.push_back(floorOf[y]);
      }
      // The key: (buffer, floor) pairs by buffer.
      std::vector<std::pair<uint64_t, uint64_t>> pairs;
      for (size_t k2 = 0; k2 < key.size(); k2 += 2)
        pairs.push_back({key[k2], key[k2 + 1]});
      std::sort(pairs.begin(), pairs.end());
      key.clear();
      for (auto [g, f] : pairs) {
        key.push_back(g);
        key.push_back(f);
      }
      uint64_t known = failed.lookup(key);
      if (known > capacity) {
        prunedBound = std::min(prunedBound, known);
        return Result::Infeasible;
      }
      CanonicalSearch search(sub, failed, depth + 1);
      Result r = search.run(capacity, limit, *work);
      if (r == Result::Aborted)
        return r;
      if (r == Result::Infeasible) {
        failed.record(key, search.prunedBound);
        prunedBound = std::min(prunedBound, search.prunedBound);
        return r;
      }
      for (size_t m = 0; m < members.size(); ++m)
        currentOffset[members[m]] = search.offsets[m];
    }
    return Result::Found;
  }

  static constexpr unsigned kMaxDepth = 48;
  const GroupProblem &p;
  FailedParts &failed;
  unsigned depth;
  uint64_t capacity = 0, limit = 0;
  uint64_t *work = nullptr;
  std::vector<uint8_t> placed;
  std::vector<uint64_t> floorOf, currentOffset;
  size_t openCount = 0;
  ExtremumTree<false> floors;  // floor of each unplaced buffer
  ExtremumTree<false> heights; // floor + size of each unplaced buffer
  std::vector<uint64_t> sectionLoad, stackTop;
  std::vector<uint64_t> highFloor; // >= the highest floor of each section
  std::vector<uint32_t> memberStart, members, stamp; // buffers by section
  std::vector<uint8_t> maximal;
  uint32_t stampNow = 0;
  uint64_t scanned = 0;
  std::vector<uint32_t> cuts; // unplaced buffers live in s and s + 1
  ExtremumTree<true> loads, stacks; // unplaced bytes; stackTop
  std::vector<std::pair<uint64_t, uint64_t>> byFloor;
  std::vector<std::pair<uint32_t, uint64_t>> floorLog;
  std::vector<std::pair<uint32_t, uint64_t>> stackLog;
  std::vector<Frame> stack;
  std::vector<uint32_t> pool, scratch;
  std::vector<std::pair<uint32_t, uint32_t>> parts;
};

uint64_t roundUpTo(uint64_t x, uint64_t g) {
  return g <= 1 ? x : (x + g - 1) / g * g;
}

/// Minimizes the arena of one group by decision searches: at the lower
/// bound first (a placement there is optimal; exhausting it raises the
/// bound), then between the bounds to improve the placement, with node
/// limits that double, each preorder in turn. `offsets` (global) holds a
/// valid placement of the group of arena `arena` and is improved in place;
/// `lowerBound` is raised to what is proved.
void minimizeGroup(const std::vector<ArenaBuffer> &buffers,
                   const std::vector<uint32_t> &group, uint64_t granule,
                   std::vector<uint64_t> &offsets, uint64_t &arena,
                   uint64_t &lowerBound, uint64_t budget, uint64_t &work,
                   uint64_t capacity) {
  std::vector<GroupProblem> problems;
  FailedParts failed;
  for (const Preorder &order : kPreorders)
    problems.push_back(buildGroup(buffers, group, order));
  lowerBound = roundUpTo(std::max({lowerBound, problems[0].ideal,
                                   problems[0].maxSize}),
                         granule);
  if (arena <= lowerBound)
    return;
  uint64_t stop = work + budget;
  uint64_t limit = std::max<uint64_t>(256, 4 * group.size());
  auto accept = [&](const GroupProblem &p, const CanonicalSearch &s) {
    uint64_t top = 0;
    for (size_t x = 0; x < p.items.size(); ++x) {
      offsets[p.items[x].global] = s.offsets[x];
      top = std::max(top, s.offsets[x] + p.items[x].size);
    }
    arena = top;
  };
  // One decision at `capacity` per preorder until one decides it.
  auto decide = [&](uint64_t capacity) {
    for (const GroupProblem &p : problems) {
      if (work >= stop)
        return CanonicalSearch::Result::Aborted;
      CanonicalSearch s(p, failed);
      uint64_t cap = std::min(stop, work + limit);
      CanonicalSearch::Result r = s.run(capacity, cap, work);
      if (r == CanonicalSearch::Result::Found) {
        accept(p, s);
        return r;
      }
      if (r == CanonicalSearch::Result::Infeasible) {
        lowerBound = std::max(
            lowerBound, roundUpTo(std::max(capacity + 1, s.prunedBound), granule));
        return r;
      }
    }
    return CanonicalSearch::Result::Aborted;
  };
  // With a capacity: decide there alone until the group fits in it or is
  // proved not to; only then minimize (above it).
  if (capacity) {
    while (arena > capacity && lowerBound <= capacity && work < stop)
      if (decide(capacity) == CanonicalSearch::Result::Aborted)
        limit *= 2;
    if (arena <= capacity)
      return;
  }
  bool boundTried = false; // the bound was tried at this limit
  while (arena > lowerBound && work < stop) {
    if (!boundTried) {
      if (decide(lowerBound) != CanonicalSearch::Result::Aborted)
        continue; // found (optimal) or the bound rose: try the new bound
      boundTried = true;
    }
    // Improve the placement: halfway, then one granule below.
    uint64_t before = lowerBound;
    uint64_t mid = lowerBound + (arena - lowerBound) / 2 / granule * granule;
    CanonicalSearch::Result r = CanonicalSearch::Result::Aborted;
    if (mid > lowerBound && mid + granule < arena)
      r = decide(mid);
    if (r == CanonicalSearch::Result::Aborted && arena - granule > lowerBound)
      r = decide(arena - granule);
    if (r == CanonicalSearch::Result::Aborted) {
      limit *= 2;
      boundTried = false;
    } else if (lowerBound != before) {
      boundTried = false;
    }
  }
}
} // namespace

std::vector<uint64_t> memsched_core::placeHeuristic(const std::vector<ArenaBuffer> &buffers,
                                               ArenaHeuristic heuristic) {
  auto conflicts = getConflicts(buffers);
  std::vector<uint32_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  auto bySize = [&](uint32_t a, uint32_t b) {
    const ArenaBuffer &x = buffers[a], &y = buffers[b];
    if (x.size != y.size)
      return x.size > y.size;
    if (x.last - x.first != y.last - y.first)
      return x.last - x.first > y.last - y.first;
    return a < b;
  };
  switch (heuristic) {
  case ArenaHeuristic::GreedyBySize:
  case ArenaHeuristic::BestFitBySize:
    std::sort(order.begin(), order.end(), bySize);
    break;
  case ArenaHeuristic::FirstFitByStart:
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(buffers[a].first, a) <
             std::make_pair(buffers[b].first, b);
    });
    break;
  case ArenaHeuristic::FirstFitByConflicts: {
    std::vector<uint64_t> weight(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      weight[i] = buffers[i].size;
      for (uint32_t j : conflicts[i])
        weight[i] += buffers[j].size;
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (weight[a] != weight[b])
        return weight[a] > weight[b];
      return bySize(a, b);
    });
    break;
  }
  }
  return placeInOrder(buffers, conflicts, order,
                      heuristic == ArenaHeuristic::BestFitBySize);
}

ArenaPlan memsched_core::planArena(const std::vector<ArenaBuffer> &buffers,
                              const ArenaOptions &options) {
  ArenaPlan plan;
  plan.ideal = getIdealArena(buffers);
  plan.offsets.assign(buffers.size(), 0);
  if (buffers.empty()) {
    plan.optimal = true;
    plan.method = "empty";
    return plan;
  }
  // Every offset of a compacted placement, and so the optimum, is a multiple
  // of the granule: the gcd of the sizes and of the alignments above 1.
  uint64_t granule = 0;
  for (const ArenaBuffer &b : buffers) {
    granule = std::gcd(granule, b.size);
    if (b.alignment > 1)
      granule = std::gcd(granule, b.alignment);
  }
  granule = std::max<uint64_t>(granule, 1);
  plan.lowerBound = plan.ideal;
  for (const ArenaBuffer &b : buffers)
    plan.lowerBound = std::max(plan.lowerBound, b.size);
  plan.lowerBound = roundUpTo(plan.lowerBound, granule);
  plan.arenaSize = UINT64_MAX;
  for (ArenaHeuristic h :
       {ArenaHeuristic::GreedyBySize, ArenaHeuristic::BestFitBySize,
        ArenaHeuristic::FirstFitByStart, ArenaHeuristic::FirstFitByConflicts}) {
    std::vector<uint64_t> offsets = placeHeuristic(buffers, h);
    uint64_t arena = getArenaSize(buffers, offsets);
    plan.heuristicArenas.push_back(arena);
    if (arena < plan.arenaSize) {
      plan.arenaSize = arena;
      plan.offsets = std::move(offsets);
      plan.method = getHeuristicName(h);
    }
  }
  if (plan.arenaSize <= plan.lowerBound || options.heuristicOnly ||
      (options.capacity && plan.arenaSize <= options.capacity)) {
    plan.optimal = plan.arenaSize <= plan.lowerBound;
    plan.complete = plan.optimal || options.heuristicOnly ||
                    plan.arenaSize <= options.capacity;
    return plan;
  }

  // Groups of buffers no time point separates; each is placed on its own.
  std::vector<uint32_t> byStart = getNonEmptyByStart(buffers);
  std::vector<std::vector<uint32_t>> groups;
  uint64_t reach = 0;
  for (uint32_t i : byStart) {
    if (groups.empty() || buffers[i].first > reach) {
      groups.emplace_back();
      reach = buffers[i].last;
    }
    groups.back().push_back(i);
    reach = std::max(reach, buffers[i].last);
  }
  auto groupArena = [&](const std::vector<uint32_t> &g) {
    uint64_t a = 0;
    for (uint32_t i : g)
      a = std::max(a, plan.offsets[i] + buffers[i].size);
    return a;
  };
  // Search the groups above the bound, the highest first; each gets an equal
  // share of what is left of the budget. The bound of the instance is the
  // largest bound proved for a group: a group at or below it is done.
  std::vector<size_t> order;
  uint64_t enough = std::max(plan.lowerBound, options.capacity);
  for (size_t gi = 0; gi < groups.size(); ++gi)
    if (groupArena(groups[gi]) > enough)
      order.push_back(gi);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groupArena(groups[a]) > groupArena(groups[b]);
  });
  uint64_t before = plan.arenaSize;
  for (size_t k = 0; k < order.size(); ++k) {
    const std::vector<uint32_t> &g = groups[order[k]];
    uint64_t arena = groupArena(g);
    if (arena <= std::max(plan.lowerBound, options.capacity))
      continue;
    uint64_t left = options.workBudget > plan.work ? options.workBudget - plan.work : 0;
    uint64_t share = left / (order.size() - k);
    uint64_t groupBound = plan.lowerBound;
    minimizeGroup(buffers, g, granule, plan.offsets, arena, groupBound, share,
                  plan.work, options.capacity);
    assert(groupBound <= std::max(arena, plan.lowerBound));
    plan.lowerBound = std::max(plan.lowerBound, groupBound);
  }
  plan.arenaSize = getArenaSize(buffers, plan.offsets);
  if (plan.arenaSize < before)
    plan.method = "exact";
  plan.optimal = plan.arenaSize <= plan.lowerBound;
  plan.complete = plan.optimal ||
                  (options.capacity && plan.arenaSize <= options.capacity);
  assert(isValidPlacement(buffers, plan.offsets, plan.arenaSize));
  return plan;
}
