//===- ArenaRangeTest.cpp - placements over ranges of sizes ------*- C++
//-*-===//

#include "Analysis/Graph/ArenaRange.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace memsched_core;

namespace {

constexpr uint64_t kBaseSeed = 0xa7e4a2a0ull;

SizePoly randomSize(std::mt19937_64 &rng, unsigned numSymbols) {
  switch (rng() % 5) {
  case 0:
    return SizePoly::constant(rng() % 200);
  case 1:
    return SizePoly::symbol(rng() % numSymbols, 1 + rng() % 40);
  case 2:
    return SizePoly::symbol(rng() % numSymbols, 1 + rng() % 40) +
           SizePoly::constant(rng() % 100);
  case 3:
    return SizePoly::symbol(rng() % numSymbols, 1 + rng() % 8) *
           SizePoly::symbol(rng() % numSymbols);
  default:
    return SizePoly::constant(16 * (rng() % 12));
  }
}

/// Every point of the box (bounded ranges), or of [lo, lo + span] for an
/// unbounded one.
void forEachPoint(const std::vector<SymbolRange> &ranges, uint64_t span,
                  const std::function<void(const std::vector<uint64_t> &)> &f) {
  std::vector<uint64_t> p(ranges.size());
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == ranges.size())
      return f(p);
    uint64_t hi = ranges[i].hi ? *ranges[i].hi : ranges[i].lo + span;
    for (uint64_t v = ranges[i].lo; v <= hi; ++v) {
      p[i] = v;
      rec(i + 1);
    }
  };
  rec(0);
}

/// At every point: offsets aligned, buffers live together disjoint, each
/// within the arena's size.
::testing::AssertionResult
validEverywhere(const std::vector<RangeArenaBuffer> &buffers,
                const std::vector<SymbolRange> &ranges,
                const RangeArenaPlan &plan, uint64_t span) {
  std::string failure;
  forEachPoint(ranges, span, [&](const std::vector<uint64_t> &x) {
    if (!failure.empty())
      return;
    uint64_t arena = evaluateMax(plan.size, x);
    // Where each buffer is at run time: its offset, rounded up to its
    // alignment when the plan says so.
    auto at = [&](size_t i) {
      uint64_t o = plan.offsets[i].evaluate(x), a = buffers[i].alignment;
      return plan.roundUp[i] ? (o + a - 1) / a * a : o;
    };
    for (size_t i = 0; i < buffers.size(); ++i) {
      uint64_t oi = at(i), si = buffers[i].size.evaluate(x);
      if (oi % buffers[i].alignment)
        failure = "unaligned offset of buffer " + std::to_string(i);
      if (oi + si > arena)
        failure = "buffer " + std::to_string(i) + " beyond the arena";
      for (size_t j = i + 1; j < buffers.size(); ++j) {
        const RangeArenaBuffer &a = buffers[i], &b = buffers[j];
        if (!(a.first <= b.last && b.first <= a.last))
          continue;
        uint64_t oj = at(j), sj = b.size.evaluate(x);
        if (si && sj && oi < oj + sj && oj < oi + si)
          failure = "buffers " + std::to_string(i) + " and " +
                    std::to_string(j) + " overlap";
      }
    }
  });
  if (failure.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failure;
}

TEST(ArenaRange, AlignCoefficients) {
  SizePoly p = SizePoly::symbol(0, 4) + SizePoly::constant(17);
  EXPECT_EQ(alignCoefficients(p, 16),
            SizePoly::symbol(0, 16) + SizePoly::constant(32));
  EXPECT_EQ(alignCoefficients(SizePoly::symbol(0, 512), 16),
            SizePoly::symbol(0, 512));
}

// A static buffer and two dynamic ones live after it: the dynamic ones
// share its bytes, max(208, a + b), where stacking gives 208 + a + b.
TEST(ArenaRange, SharesWithStaticBuffers) {
  std::vector<RangeArenaBuffer> buffers = {{SizePoly::constant(208), 0, 1, 16},
                                           {SizePoly::symbol(0, 16), 2, 3, 16},
                                           {SizePoly::symbol(1, 16), 2, 3, 16}};
  std::vector<SymbolRange> ranges = {{1, 64}, {1, std::nullopt}};
  RangeArenaPlan plan =
      planOverRange(buffers, ranges, {}, {64, 1024}, {1, 1}, 100000);
  EXPECT_TRUE(checkPlanOverRange(buffers, ranges, plan, 100000));
  EXPECT_TRUE(validEverywhere(buffers, ranges, plan, 40));
  std::vector<SizePoly> expected = {SizePoly::constant(208),
                                    SizePoly::symbol(0, 16) +
                                        SizePoly::symbol(1, 16)};
  std::vector<SizePoly> got = plan.size;
  std::sort(got.begin(), got.end(), [](const SizePoly &a, const SizePoly &b) {
    return a.evaluate({1, 1}) > b.evaluate({1, 1});
  });
  EXPECT_EQ(got, expected);
  EXPECT_EQ(getStackedArena(buffers), SizePoly::constant(208) +
                                          SizePoly::symbol(0, 16) +
                                          SizePoly::symbol(1, 16));
}

// A bounded symbol lets a buffer sit at a constant offset above a dynamic
// one: X (16n bytes, n <= 8) and Y (128 bytes) at 0 at different times, Z
// living with both goes at 128 (>= 16n needs n <= 8); unbounded, above
// both at 16n + 128.
TEST(ArenaRange, UsesUpperBounds) {
  std::vector<RangeArenaBuffer> buffers = {{SizePoly::symbol(0, 16), 0, 0, 16},
                                           {SizePoly::constant(128), 1, 1, 16},
                                           {SizePoly::constant(16), 0, 1, 16}};
  std::vector<uint32_t> order = {0, 1, 2};
  std::vector<SymbolRange> ranges = {{0, 8}};
  RangeArenaPlan plan =
      placeOverRange(buffers, ranges, order, {8}, {0}, 100000);
  EXPECT_EQ(plan.offsets[2], SizePoly::constant(128));
  EXPECT_TRUE(validEverywhere(buffers, ranges, plan, 0));
  ranges = {{0, std::nullopt}};
  plan = placeOverRange(buffers, ranges, order, {1024}, {0}, 100000);
  EXPECT_EQ(plan.offsets[2], SizePoly::symbol(0, 16) + SizePoly::constant(128));
  EXPECT_TRUE(validEverywhere(buffers, ranges, plan, 30));
}

// Two buffers of 4*n bytes live together in an arena aligned to 16: the
// second's offset 4*n is rounded up at run time, its slot 4*n + 15 bytes:
// 8*n + 15 in all (not 20*n, as rounding the coefficient would give).
TEST(ArenaRange, RoundsUpAtRunTime) {
  std::vector<RangeArenaBuffer> buffers = {{SizePoly::symbol(0, 4), 0, 1, 16},
                                           {SizePoly::symbol(0, 4), 1, 2, 16}};
  std::vector<SymbolRange> ranges = {{1, 64}};
  RangeArenaPlan plan =
      placeOverRange(buffers, ranges, {0, 1}, {64}, {1}, 100000);
  EXPECT_EQ(plan.offsets[0], SizePoly());
  EXPECT_FALSE(plan.roundUp[0]);
  EXPECT_EQ(plan.offsets[1], SizePoly::symbol(0, 4));
  EXPECT_TRUE(plan.roundUp[1]);
  ASSERT_EQ(plan.size.size(), 1u);
  EXPECT_EQ(plan.size[0], SizePoly::symbol(0, 8) + SizePoly::constant(15));
  EXPECT_TRUE(validEverywhere(buffers, ranges, plan, 0));
  EXPECT_TRUE(checkPlanOverRange(buffers, ranges, plan, 100000));
  // A rounded offset taken as aligned is refused by the check.
  plan.roundUp[1] = false;
  EXPECT_FALSE(checkPlanOverRange(buffers, ranges, plan, 100000));
}

// Random instances: valid at every point of the box (brute force), the
// independent check agrees, and the arena is at least the live bytes.
TEST(ArenaRange, RandomPlansValidEverywhere) {
  uint64_t seed = kBaseSeed;
  std::printf("ArenaRange.RandomPlansValidEverywhere seed %llu\n",
              static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  unsigned shared = 0, belowStacked = 0;
  for (int round = 0; round < 1500; ++round) {
    unsigned numSymbols = 1 + rng() % 2;
    std::vector<SymbolRange> ranges;
    for (unsigned s = 0; s < numSymbols; ++s) {
      uint64_t lo = rng() % 4;
      if (rng() % 4 == 0)
        ranges.push_back({lo, std::nullopt});
      else
        ranges.push_back({lo, lo + rng() % 9});
    }
    unsigned n = 1 + rng() % 9;
    std::vector<RangeArenaBuffer> buffers;
    for (unsigned i = 0; i < n; ++i) {
      RangeArenaBuffer b;
      b.size = randomSize(rng, numSymbols);
      b.first = rng() % 8;
      b.last = b.first + rng() % 4;
      b.alignment = std::vector<uint64_t>{1, 4, 16}[rng() % 3];
      buffers.push_back(b);
    }
    std::vector<uint64_t> point, low;
    for (const SymbolRange &r : ranges) {
      low.push_back(r.lo);
      point.push_back(r.hi ? *r.hi : std::max<uint64_t>(1024 * r.lo, 1024));
    }
    std::vector<uint64_t> hint(n);
    for (uint64_t &h : hint)
      h = rng() % 100;
    RangeArenaPlan plan =
        planOverRange(buffers, ranges, hint, point, low, 200000);
    ASSERT_TRUE(validEverywhere(buffers, ranges, plan, 12))
        << "round " << round;
    ASSERT_TRUE(checkPlanOverRange(buffers, ranges, plan, 2000000))
        << "round " << round;
    // Every order first fit can take gives a valid plan too.
    for (RangeOrder kind :
         {RangeOrder::SizeAtLow, RangeOrder::Start, RangeOrder::Lifetime}) {
      RangeArenaPlan other = placeOverRange(
          buffers, ranges, getRangeOrder(buffers, kind, hint, point, low),
          point, low, 200000);
      ASSERT_TRUE(validEverywhere(buffers, ranges, other, 12))
          << "round " << round << " order " << static_cast<int>(kind);
    }
    SizePoly stacked = getStackedArena(buffers);
    if (evaluateMax(plan.size, point) < stacked.evaluate(point))
      ++belowStacked;
    for (size_t i = 0; i < n; ++i)
      if (!buffers[i].size.isConstant() && !plan.offsets[i].isZero())
        ++shared;
  }
  std::printf("below stacking at the upper ends in %u of 1500\n", belowStacked);
  EXPECT_GT(belowStacked, 0u);
}

// A plan that places two buffers live together at the same offset is
// refused by the check.
TEST(ArenaRange, CheckRefusesOverlap) {
  std::vector<RangeArenaBuffer> buffers = {{SizePoly::symbol(0, 4), 0, 1, 4},
                                           {SizePoly::constant(8), 1, 2, 4}};
  std::vector<SymbolRange> ranges = {{0, 3}};
  RangeArenaPlan plan;
  plan.offsets = {SizePoly(), SizePoly::constant(8)};
  plan.roundUp = {false, false};
  plan.size = {SizePoly::constant(16), SizePoly::symbol(0, 4)};
  // At n = 3 the first buffer is 12 bytes and reaches the second's offset.
  EXPECT_FALSE(checkPlanOverRange(buffers, ranges, plan, 100000));
  ranges = {{0, 2}};
  EXPECT_TRUE(checkPlanOverRange(buffers, ranges, plan, 100000));
}

} // namespace
