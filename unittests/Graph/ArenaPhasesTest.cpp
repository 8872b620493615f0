//===- ArenaPhasesTest.cpp - arenas by phase, against every set of cuts ---===//

#include "Analysis/Graph/ArenaPhases.h"

#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace memsched_core;
using memsched_core::test::XorShift;

namespace {
/// The phases a set of cuts makes (a phase per window holding a buffer
/// whole, when `withArena` has its bit) and their arenas with the
/// heuristics.
std::pair<std::vector<std::vector<uint32_t>>, std::vector<uint64_t>>
phasesOf(const std::vector<ArenaBuffer> &buffers,
         const std::vector<uint64_t> &boundaries, uint32_t withArena) {
  std::vector<std::vector<uint32_t>> phases;
  std::vector<uint64_t> sizes;
  for (size_t p = 0; p + 1 < boundaries.size(); ++p) {
    if (!(withArena >> p & 1))
      continue;
    std::vector<uint32_t> inside;
    std::vector<ArenaBuffer> mine;
    for (uint32_t b = 0; b < buffers.size(); ++b)
      if (buffers[b].first >= boundaries[p] &&
          buffers[b].last < boundaries[p + 1]) {
        inside.push_back(b);
        mine.push_back(buffers[b]);
      }
    if (inside.empty())
      continue;
    ArenaOptions options;
    options.heuristicOnly = true;
    sizes.push_back(planArena(mine, options).arenaSize);
    phases.push_back(std::move(inside));
  }
  return {phases, sizes};
}

/// The memory at each position, counted one position at a time.
uint64_t recount(const std::vector<ArenaBuffer> &buffers,
                 const std::vector<OutsideSpan> &fixed,
                 const std::vector<std::vector<uint32_t>> &phases,
                 const std::vector<uint64_t> &sizes, uint64_t end) {
  std::vector<char> inArena(buffers.size(), 0);
  for (const auto &phase : phases)
    for (uint32_t b : phase)
      inArena[b] = 1;
  uint64_t peak = 0;
  for (uint64_t t = 0; t < end; ++t) {
    uint64_t live = 0;
    for (size_t p = 0; p < phases.size(); ++p) {
      uint64_t first = UINT64_MAX, last = 0;
      for (uint32_t b : phases[p]) {
        first = std::min(first, buffers[b].first);
        last = std::max(last, buffers[b].last);
      }
      if (first <= t && t <= last)
        live += sizes[p];
    }
    for (uint32_t b = 0; b < buffers.size(); ++b)
      if (!inArena[b] && buffers[b].first <= t && t <= buffers[b].last)
        live += buffers[b].size;
    for (const OutsideSpan &s : fixed)
      if (s.first <= t && t <= s.last)
        live += s.size;
    peak = std::max(peak, live);
  }
  return peak;
}
} // namespace

TEST(ArenaPhases, MatchesEverySetOfCuts) {
  const uint64_t firstSeed = 7500000;
  std::printf("seeds %llu..%llu\n", (unsigned long long)firstSeed,
              (unsigned long long)firstSeed + 1999);
  unsigned belowOneArena = 0, severalPhases = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + 2000; ++seed) {
    XorShift rng{seed * 2654435761u + 17};
    uint64_t end = 3 + rng.below(12);
    std::vector<ArenaBuffer> buffers(1 + rng.below(9));
    for (ArenaBuffer &b : buffers) {
      b.first = rng.below(end);
      b.last = b.first + rng.below(std::min<uint64_t>(5, end - b.first));
      b.size = 8 * (1 + rng.below(16));
      b.alignment = rng.below(3) ? 1 : 16;
    }
    std::vector<OutsideSpan> fixed(rng.below(4));
    for (OutsideSpan &s : fixed) {
      s.first = rng.below(end);
      s.last = rng.below(2) ? end - 1 : s.first + rng.below(end - s.first);
      s.size = 8 * (1 + rng.below(24));
    }
    std::vector<uint64_t> cuts;
    for (uint64_t p = 1; p < end && cuts.size() < 6; ++p)
      if (rng.below(2))
        cuts.push_back(p);
    ArenaPhases result = choosePhases(buffers, fixed, cuts);
    // Every subset of the candidates, each phase with an arena or not.
    uint64_t best = recount(buffers, fixed, {}, {}, end);
    uint64_t oneArena = 0;
    for (uint32_t mask = 0; mask < (1u << cuts.size()); ++mask) {
      std::vector<uint64_t> boundaries{0};
      for (size_t c = 0; c < cuts.size(); ++c)
        if (mask >> c & 1)
          boundaries.push_back(cuts[c]);
      boundaries.push_back(end);
      size_t numPhases = boundaries.size() - 1;
      for (uint32_t arenas = 0; arenas < (1u << numPhases); ++arenas) {
        auto [phases, sizes] = phasesOf(buffers, boundaries, arenas);
        uint64_t memory = recount(buffers, fixed, phases, sizes, end);
        best = std::min(best, memory);
        if (mask == 0 && arenas == 1)
          oneArena = memory;
      }
    }
    ASSERT_EQ(result.memory, best) << "seed " << seed;
    // What it returns: the phases partition the buffers it places, each
    // phase's buffers within its window, the memory as counted.
    std::vector<uint64_t> sizes;
    std::vector<char> seen(buffers.size(), 0);
    for (const auto &phase : result.phases) {
      ASSERT_FALSE(phase.empty()) << "seed " << seed;
      std::vector<ArenaBuffer> mine;
      for (uint32_t b : phase) {
        ASSERT_EQ(seen[b]++, 0) << "seed " << seed;
        mine.push_back(buffers[b]);
      }
      ArenaOptions options;
      options.heuristicOnly = true;
      sizes.push_back(planArena(mine, options).arenaSize);
    }
    for (uint32_t b : result.outside)
      ASSERT_EQ(seen[b]++, 0) << "seed " << seed;
    ASSERT_TRUE(std::all_of(seen.begin(), seen.end(),
                            [](char c) { return c == 1; }))
        << "seed " << seed;
    ASSERT_EQ(recount(buffers, fixed, result.phases, sizes, end),
              result.memory)
        << "seed " << seed;
    ASSERT_EQ(phaseMemory(buffers, fixed, result.phases, sizes),
              result.memory)
        << "seed " << seed;
    // Never above no arena at all.
    ASSERT_LE(result.memory, recount(buffers, fixed, {}, {}, end))
        << "seed " << seed;
    belowOneArena += result.memory < oneArena;
    severalPhases += result.phases.size() > 1;
  }
  std::printf("below one arena on %u cases, several phases on %u\n",
              belowOneArena, severalPhases);
  EXPECT_GT(belowOneArena, 300u);
  EXPECT_GT(severalPhases, 300u);
}

// A result allocated while the arena's buffers are few: one arena stacks
// it on the arena's full size; two phases do not.
TEST(ArenaPhases, ResultAllocatedMidway) {
  // Positions 0..5: a and b (100 bytes each) live together at 0..1; the
  // result r (50) from 2 on; c (30) at 3..5.
  std::vector<ArenaBuffer> buffers = {
      {100, 0, 1, 1}, {100, 0, 1, 1}, {30, 3, 5, 1}};
  std::vector<OutsideSpan> fixed = {{2, 5, 50}};
  // Unplanned: 200 at 0..1, 80 at 3..5. One arena of 200 over 0..5, with
  // r on top from 2 on: 250.
  EXPECT_EQ(phaseMemory(buffers, fixed, {{0, 1, 2}}, {200}), 250u);
  ArenaPhases result = choosePhases(buffers, fixed, {2});
  EXPECT_EQ(result.memory, 200u);
  ASSERT_EQ(result.phases.size(), 2u);
  EXPECT_EQ(result.phases[0], (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(result.phases[1], (std::vector<uint32_t>{2}));
  EXPECT_TRUE(result.outside.empty());
}

// Candidate cuts: around the hottest run first, then where a result that
// lives to the end starts, then the other spans' ends, then where buffers
// start; never position 0, each once, at most 48.
TEST(ArenaPhases, CandidateCutsInOrder) {
  // Live bytes: 100 at 0-1, 300 at 2-3 (the peak), 100 at 4-5; a result
  // of 10 bytes from 4 to the end (5).
  std::vector<ArenaBuffer> buffers = {
      {100, 0, 1, 1}, {100, 2, 3, 1}, {200, 2, 3, 1}, {90, 4, 5, 1}};
  std::vector<OutsideSpan> fixed = {{4, 5, 10}};
  // With a gap of 50: only positions 2-3 come within it of the peak.
  std::vector<uint64_t> cuts = candidatePhaseCuts(buffers, fixed, 50);
  EXPECT_EQ(cuts, (std::vector<uint64_t>{2, 4}));
  // Without a gap: the result's start first, then the buffers' starts by
  // size (200 and 100 at 2, 90 at 4, 100 at 0: position 0 never).
  EXPECT_EQ(candidatePhaseCuts(buffers, fixed, 0),
            (std::vector<uint64_t>{4, 2}));
  // Many buffers: at most 48 cuts.
  std::vector<ArenaBuffer> many;
  for (uint64_t i = 0; i < 200; ++i)
    many.push_back({8, i, i + 1, 1});
  EXPECT_EQ(candidatePhaseCuts(many, {}, 0).size(), 48u);
}
