//===- ArenaPlanner.cpp - offsets of buffers in one static arena -*- C++ -*-===//
//
// Invariants: every placement returned passes isValidPlacement; the arena
// returned is the smallest among the heuristics and the exact search; the
// lower bound never exceeds the arena of any valid placement.
//
// The exact search relies on compaction: in an optimal placement let every
// buffer fall (to an aligned offset) until it rests on 0 or on the end of a
// buffer live with it; the arena does not grow. Sorted by (offset, index),
// each buffer of such a placement rests on 0 or on one placed before it. So a
// search that places buffers in nondecreasing (offset, index) order, each at
// 0 or at the aligned end of a placed buffer live with it, meets every
// compacted placement, and an optimal one among them.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/ArenaPlanner.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace memsched;

static uint64_t alignUp(uint64_t x, uint64_t alignment) {
  if (alignment <= 1)
    return x;
  return (x + alignment - 1) / alignment * alignment;
}

const char *memsched::getHeuristicName(ArenaHeuristic h) {
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

uint64_t memsched::getIdealArena(const std::vector<ArenaBuffer> &buffers) {
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

uint64_t memsched::getArenaSize(const std::vector<ArenaBuffer> &buffers,
                                const std::vector<uint64_t> &offsets) {
  uint64_t arena = 0;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size)
      arena = std::max(arena, offsets[i] + buffers[i].size);
  return arena;
}

bool memsched::isValidPlacement(const std::vector<ArenaBuffer> &buffers,
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

/// Branch and bound over compacted placements of one group of buffers
/// (indices into the instance), see the file comment.
class ExactSearch {
public:
  ExactSearch(const std::vector<ArenaBuffer> &buffers,
              const std::vector<std::vector<uint32_t>> &conflicts,
              std::vector<uint32_t> group, uint64_t floor, uint64_t &work,
              uint64_t budget)
      : buffers(buffers), conflicts(conflicts), group(std::move(group)),
        floor(floor), work(work), budget(budget) {
    // Larger buffers first: good placements early, tight bounds.
    std::sort(this->group.begin(), this->group.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(buffers[b].size, a) < std::make_pair(buffers[a].size, b);
    });
    for (uint32_t i : this->group) {
      times.push_back(buffers[i].first);
      times.push_back(buffers[i].last);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    load.assign(times.size(), 0);
    for (uint32_t i : this->group)
      addLoad(i, static_cast<int64_t>(buffers[i].size));
  }

  /// Improves `offsets` (valid for the group, arena `arena`) if it can.
  /// Returns true when the search completed (the result is optimal).
  bool run(std::vector<uint64_t> &offsets, uint64_t &arena) {
    best = arena;
    bestOffsets = offsets;
    current = offsets;
    placed.assign(buffers.size(), false);
    bool complete = best <= floor || dfs(0, 0, 0, 0);
    if (best < arena) {
      arena = best;
      for (uint32_t i : group)
        offsets[i] = bestOffsets[i];
    }
    return complete;
  }

private:
  size_t timeIndex(uint64_t t) const {
    return std::lower_bound(times.begin(), times.end(), t) - times.begin();
  }
  void addLoad(uint32_t i, int64_t delta) {
    size_t lo = timeIndex(buffers[i].first), hi = timeIndex(buffers[i].last);
    for (size_t t = lo; t <= hi; ++t)
      load[t] += delta;
  }
  /// Lower bound on the arena once `i` is placed at `o`: every buffer still
  /// unplaced goes at `o` or above, and those live with `i` above its end.
  uint64_t boundAfter(uint32_t i, uint64_t o) const {
    // The unplaced buffers live at one time (i included, its load not yet
    // removed) stack at `o` or above.
    uint64_t bound = o + buffers[i].size;
    for (int64_t l : load)
      bound = std::max(bound, o + static_cast<uint64_t>(l));
    return bound;
  }

  /// Returns false when the budget ran out.
  bool dfs(unsigned depth, uint64_t lastOffset, uint32_t lastIndex,
           uint64_t top) {
    if (depth == group.size()) {
      if (top < best) {
        best = top;
        for (uint32_t i : group)
          bestOffsets[i] = current[i];
      }
      return true;
    }
    for (uint32_t i : group) {
      if (placed[i])
        continue;
      const ArenaBuffer &b = buffers[i];
      // Candidate offsets: 0 and the aligned ends of placed buffers live
      // with i, at or above the last offset.
      cands.clear();
      cands.push_back(alignUp(0, b.alignment));
      for (uint32_t j : conflicts[i])
        if (placed[j])
          cands.push_back(alignUp(current[j] + buffers[j].size, b.alignment));
      std::vector<uint64_t> mine(cands);
      std::sort(mine.begin(), mine.end());
      mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      for (uint64_t o : mine) {
        if (++work > budget)
          return false;
        if (o < lastOffset || (o == lastOffset && depth > 0 && i < lastIndex))
          continue;
        if (o + b.size >= best)
          break; // candidates ascend
        bool fits = true;
        for (uint32_t j : conflicts[i])
          if (placed[j] && o < current[j] + buffers[j].size &&
              current[j] < o + b.size) {
            fits = false;
            break;
          }
        if (!fits)
          continue;
        if (boundAfter(i, o) >= best)
          continue;
        placed[i] = true;
        current[i] = o;
        addLoad(i, -static_cast<int64_t>(b.size));
        bool ok = dfs(depth + 1, o, i, std::max(top, o + b.size));
        addLoad(i, static_cast<int64_t>(b.size));
        placed[i] = false;
        if (!ok)
          return false;
        if (best <= floor)
          return true;
      }
    }
    return true;
  }

  const std::vector<ArenaBuffer> &buffers;
  const std::vector<std::vector<uint32_t>> &conflicts;
  std::vector<uint32_t> group;
  uint64_t floor;
  uint64_t &work;
  uint64_t budget;
  std::vector<uint64_t> times;
  std::vector<int64_t> load;
  std::vector<bool> placed;
  std::vector<uint64_t> current, bestOffsets;
  std::vector<uint64_t> cands;
  uint64_t best = 0;
};
} // namespace

std::vector<uint64_t> memsched::placeHeuristic(const std::vector<ArenaBuffer> &buffers,
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

ArenaPlan memsched::planArena(const std::vector<ArenaBuffer> &buffers,
                              const ArenaOptions &options) {
  ArenaPlan plan;
  plan.ideal = getIdealArena(buffers);
  plan.lowerBound = plan.ideal;
  for (const ArenaBuffer &b : buffers)
    plan.lowerBound = std::max(plan.lowerBound, b.size);
  plan.offsets.assign(buffers.size(), 0);
  if (buffers.empty()) {
    plan.optimal = true;
    plan.method = "empty";
    return plan;
  }
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
  if (plan.arenaSize <= plan.lowerBound || options.heuristicOnly) {
    plan.optimal = plan.arenaSize <= plan.lowerBound;
    return plan;
  }

  // Groups of buffers no time point separates; each is placed on its own.
  auto conflicts = getConflicts(buffers);
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
  // Search the groups that set the arena, the highest first.
  auto groupArena = [&](const std::vector<uint32_t> &g) {
    uint64_t a = 0;
    for (uint32_t i : g)
      a = std::max(a, plan.offsets[i] + buffers[i].size);
    return a;
  };
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groupArena(groups[a]) > groupArena(groups[b]);
  });
  bool improved = false;
  uint64_t provedFloor = plan.lowerBound;
  for (size_t gi : order) {
    std::vector<uint32_t> &g = groups[gi];
    uint64_t arena = groupArena(g);
    if (arena <= plan.lowerBound)
      continue;
    std::vector<ArenaBuffer> part;
    for (uint32_t i : g)
      part.push_back(buffers[i]);
    uint64_t floor = std::max(getIdealArena(part), plan.lowerBound);
    uint64_t before = arena;
    ExactSearch search(buffers, conflicts, g, floor, plan.work,
                       options.workBudget);
    bool complete = search.run(plan.offsets, arena);
    improved |= arena < before;
    if (complete)
      provedFloor = std::max(provedFloor, arena);
    else
      plan.complete = false;
    if (!plan.complete)
      break;
  }
  plan.arenaSize = getArenaSize(buffers, plan.offsets);
  if (improved)
    plan.method = "exact";
  // A group searched to the end is optimal on its own: nothing does better
  // than its arena, nor than the others' ideal.
  plan.lowerBound = plan.complete ? std::max(plan.lowerBound, plan.arenaSize)
                                  : provedFloor;
  plan.optimal = plan.arenaSize <= plan.lowerBound;
  assert(isValidPlacement(buffers, plan.offsets, plan.arenaSize));
  return plan;
}
