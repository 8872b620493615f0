//===- ArenaPhases.cpp - arenas by phase, never above the peak ------------===//

#include "Analysis/Graph/ArenaPhases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>
#include <utility>

using namespace memsched_core;

namespace {
/// The most bytes live at one position, given (position, delta) events
/// (each delta takes effect at its position).
uint64_t sweepPeak(std::vector<std::pair<uint64_t, int64_t>> &events) {
  std::sort(events.begin(), events.end());
  int64_t current = 0, peak = 0;
  for (size_t i = 0; i < events.size();) {
    uint64_t at = events[i].first;
    for (; i < events.size() && events[i].first == at; ++i)
      current += events[i].second;
    peak = std::max(peak, current);
  }
  return static_cast<uint64_t>(peak);
}

void addSpan(std::vector<std::pair<uint64_t, int64_t>> &events, uint64_t first,
             uint64_t last, uint64_t size, uint64_t from, uint64_t to) {
  // [first, last] clipped to [from, to).
  uint64_t lo = std::max(first, from), hi = std::min(last + 1, to);
  if (lo >= hi || size == 0)
    return;
  events.push_back({lo, static_cast<int64_t>(size)});
  events.push_back({hi, -static_cast<int64_t>(size)});
}
} // namespace

uint64_t memsched_core::phaseMemory(
    const std::vector<ArenaBuffer> &buffers,
    const std::vector<OutsideSpan> &fixed,
    const std::vector<std::vector<uint32_t>> &phases,
    const std::vector<uint64_t> &arenaSizes) {
  std::vector<char> inArena(buffers.size(), 0);
  std::vector<std::pair<uint64_t, int64_t>> events;
  const uint64_t all = std::numeric_limits<uint64_t>::max();
  for (size_t p = 0; p < phases.size(); ++p) {
    if (phases[p].empty())
      continue;
    uint64_t first = all, last = 0;
    for (uint32_t b : phases[p]) {
      inArena[b] = 1;
      first = std::min(first, buffers[b].first);
      last = std::max(last, buffers[b].last);
    }
    addSpan(events, first, last, arenaSizes[p], 0, all);
  }
  for (size_t b = 0; b < buffers.size(); ++b)
    if (!inArena[b])
      addSpan(events, buffers[b].first, buffers[b].last, buffers[b].size, 0,
              all);
  for (const OutsideSpan &span : fixed)
    addSpan(events, span.first, span.last, span.size, 0, all);
  return sweepPeak(events);
}

std::vector<uint64_t>
memsched_core::candidatePhaseCuts(const std::vector<ArenaBuffer> &buffers,
                                  const std::vector<OutsideSpan> &fixed,
                                  uint64_t gap) {
  constexpr size_t kMaxCuts = 48;
  constexpr double kWork = 2000000;
  uint64_t end = 0;
  for (const ArenaBuffer &b : buffers)
    end = std::max(end, b.last + 1);
  for (const OutsideSpan &s : fixed)
    end = std::max(end, s.last + 1);
  // Live bytes at each position, and the peak.
  std::vector<int64_t> delta(end + 1, 0);
  auto addLive = [&](uint64_t first, uint64_t last, uint64_t size) {
    delta[first] += static_cast<int64_t>(size);
    delta[last + 1] -= static_cast<int64_t>(size);
  };
  for (const ArenaBuffer &b : buffers)
    addLive(b.first, b.last, b.size);
  for (const OutsideSpan &s : fixed)
    addLive(s.first, s.last, s.size);
  std::vector<int64_t> live(end, 0);
  int64_t running = 0, peak = 0;
  for (uint64_t p = 0; p < end; ++p) {
    running += delta[p];
    live[p] = running;
    peak = std::max(peak, running);
  }
  // (-hottest live bytes, start, end) of each run of hot positions.
  std::vector<std::tuple<int64_t, uint64_t, uint64_t>> runs;
  for (uint64_t p = 0; gap > 0 && p < end; ++p) {
    if (static_cast<uint64_t>(live[p]) + gap <= static_cast<uint64_t>(peak))
      continue;
    if (!runs.empty() && std::get<2>(runs.back()) == p) {
      std::get<0>(runs.back()) = std::min(std::get<0>(runs.back()), -live[p]);
      std::get<2>(runs.back()) = p + 1;
    } else {
      runs.push_back({-live[p], p, p + 1});
    }
  }
  std::sort(runs.begin(), runs.end());
  // (kind, -bytes or rank, position), in the order above.
  std::vector<std::tuple<unsigned, int64_t, uint64_t>> weighted;
  for (size_t i = 0; i < runs.size(); ++i) {
    weighted.push_back({0u, static_cast<int64_t>(i), std::get<1>(runs[i])});
    weighted.push_back({0u, static_cast<int64_t>(i), std::get<2>(runs[i])});
  }
  for (const OutsideSpan &span : fixed) {
    bool toTheEnd = span.last + 1 >= end;
    weighted.push_back(
        {toTheEnd ? 1u : 2u, -static_cast<int64_t>(span.size), span.first});
    if (!toTheEnd)
      weighted.push_back({2u, -static_cast<int64_t>(span.size), span.last + 1});
  }
  for (const ArenaBuffer &buffer : buffers)
    weighted.push_back({3u, -static_cast<int64_t>(buffer.size), buffer.first});
  std::sort(weighted.begin(), weighted.end());
  size_t maxCuts = std::min<size_t>(
      kMaxCuts, static_cast<size_t>(std::sqrt(
                    2.0 * kWork /
                    static_cast<double>(std::max<size_t>(1, buffers.size())))));
  std::vector<uint64_t> cuts;
  std::set<uint64_t> seen;
  for (const auto &[kind, bytes, position] : weighted)
    if (cuts.size() < maxCuts && position > 0 && seen.insert(position).second)
      cuts.push_back(position);
  return cuts;
}

ArenaPhases memsched_core::choosePhases(const std::vector<ArenaBuffer> &buffers,
                                        const std::vector<OutsideSpan> &fixed,
                                        std::vector<uint64_t> cuts) {
  ArenaPhases result;
  if (buffers.empty()) {
    result.memory = phaseMemory(buffers, fixed, {}, {});
    return result;
  }
  uint64_t end = 0;
  for (const ArenaBuffer &b : buffers)
    end = std::max(end, b.last + 1);
  for (const OutsideSpan &s : fixed)
    end = std::max(end, s.last + 1);
  // The phase boundaries: the start, the candidates within, the end.
  cuts.push_back(0);
  cuts.push_back(end);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  while (!cuts.empty() && cuts.back() > end)
    cuts.pop_back();
  size_t k = cuts.size();
  // A phase [cuts[i], cuts[j]) with its buffers in an arena, or without
  // an arena (they stay where they are): its peak and the bytes of the
  // buffers that start in it and no arena holds (crossing a cut, or every
  // one without an arena): summed over the phases, the bytes outside.
  struct Phase {
    uint64_t peak = 0, outside = 0;
  };
  auto evaluate = [&](size_t i, size_t j, bool withArena,
                      std::vector<uint32_t> *inside) {
    uint64_t from = cuts[i], to = cuts[j];
    std::vector<ArenaBuffer> mine;
    std::vector<uint32_t> ids;
    Phase phase;
    std::vector<std::pair<uint64_t, int64_t>> events;
    uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0;
    for (uint32_t b = 0; b < buffers.size(); ++b) {
      const ArenaBuffer &buffer = buffers[b];
      if (buffer.last < from || buffer.first >= to)
        continue;
      if (withArena && buffer.first >= from && buffer.last < to) {
        mine.push_back(buffer);
        ids.push_back(b);
        first = std::min(first, buffer.first);
        last = std::max(last, buffer.last);
      } else {
        // Counted once: in the phase it starts in.
        if (buffer.first >= from)
          phase.outside += buffer.size;
        addSpan(events, buffer.first, buffer.last, buffer.size, from, to);
      }
    }
    if (!mine.empty()) {
      ArenaOptions options;
      options.heuristicOnly = true;
      uint64_t arena = planArena(mine, options).arenaSize;
      addSpan(events, first, last, arena, from, to);
    }
    for (const OutsideSpan &span : fixed)
      addSpan(events, span.first, span.last, span.size, from, to);
    phase.peak = sweepPeak(events);
    if (inside)
      *inside = std::move(ids);
    return phase;
  };
  // best[j]: the least (peak, bytes outside) of phases covering
  // [0, cuts[j]), the boundary before cuts[j] it takes and whether that
  // last phase has an arena.
  const uint64_t none = std::numeric_limits<uint64_t>::max();
  std::vector<std::pair<uint64_t, uint64_t>> best(k, {none, none});
  std::vector<size_t> from(k, 0);
  std::vector<char> arenaOf(k, 0);
  best[0] = {0, 0};
  for (size_t j = 1; j < k; ++j)
    for (size_t i = 0; i < j; ++i) {
      if (best[i].first == none)
        continue;
      for (bool withArena : {true, false}) {
        Phase phase = evaluate(i, j, withArena, nullptr);
        std::pair<uint64_t, uint64_t> value{
            std::max(best[i].first, phase.peak),
            best[i].second + phase.outside};
        if (value < best[j]) {
          best[j] = value;
          from[j] = i;
          arenaOf[j] = withArena;
        }
      }
    }
  std::vector<size_t> boundaries{k - 1};
  while (boundaries.back() != 0)
    boundaries.push_back(from[boundaries.back()]);
  std::reverse(boundaries.begin(), boundaries.end());
  std::vector<char> placed(buffers.size(), 0);
  for (size_t p = 0; p + 1 < boundaries.size(); ++p) {
    if (!arenaOf[boundaries[p + 1]])
      continue;
    std::vector<uint32_t> inside;
    evaluate(boundaries[p], boundaries[p + 1], true, &inside);
    if (inside.empty())
      continue;
    for (uint32_t b : inside)
      placed[b] = 1;
    result.phases.push_back(std::move(inside));
  }
  for (uint32_t b = 0; b < buffers.size(); ++b)
    if (!placed[b])
      result.outside.push_back(b);
  result.memory = best[k - 1].first;
  // No arena at all: its memory is every buffer live where it is.
  uint64_t unplanned = phaseMemory(buffers, fixed, {}, {});
  if (unplanned < result.memory) {
    result.phases.clear();
    result.outside.clear();
    for (uint32_t b = 0; b < buffers.size(); ++b)
      result.outside.push_back(b);
    result.memory = unplanned;
  }
  return result;
}
