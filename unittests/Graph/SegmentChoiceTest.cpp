//===- SegmentChoiceTest.cpp - the choice of segments, by brute force -----===//

#include "Analysis/Graph/SegmentChoice.h"

#include "XorShift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace memsched_core;
using memsched_core::test::XorShift;

namespace {
/// The least (peak, cost) over every subset of disjoint options within the
/// budget, by enumeration.
std::pair<uint64_t, uint64_t>
bruteForce(const std::vector<uint64_t> &memory, uint64_t floor,
           const std::vector<SegmentOption> &options, uint64_t budget) {
  std::pair<uint64_t, uint64_t> best{UINT64_MAX, UINT64_MAX};
  for (uint32_t mask = 0; mask < (1u << options.size()); ++mask) {
    std::vector<int> cover(memory.size(), 0);
    uint64_t peak = floor, cost = 0;
    bool ok = true;
    for (uint32_t o = 0; o < options.size() && ok; ++o) {
      if (!(mask >> o & 1))
        continue;
      for (uint32_t p = options[o].first; p <= options[o].last; ++p)
        ok &= !cover[p]++;
      peak = std::max(peak, options[o].peak);
      cost += options[o].cost;
    }
    if (!ok || cost > budget)
      continue;
    for (size_t p = 0; p < memory.size(); ++p)
      if (!cover[p])
        peak = std::max(peak, memory[p]);
    best = std::min(best, std::make_pair(peak, cost));
  }
  return best;
}

/// The peak and cost of `result`'s choice, recomputed from its options.
std::pair<uint64_t, uint64_t>
recount(const std::vector<uint64_t> &memory, uint64_t floor,
        const std::vector<SegmentOption> &options,
        const SegmentChoiceResult &result) {
  std::vector<int> cover(memory.size(), 0);
  uint64_t peak = floor, cost = 0;
  for (uint32_t o : result.chosen) {
    for (uint32_t p = options[o].first; p <= options[o].last; ++p)
      EXPECT_EQ(cover[p]++, 0) << "options overlap at " << p;
    peak = std::max(peak, options[o].peak);
    cost += options[o].cost;
  }
  for (size_t p = 0; p < memory.size(); ++p)
    if (!cover[p])
      peak = std::max(peak, memory[p]);
  return {peak, cost};
}
} // namespace

TEST(SegmentChoice, MatchesBruteForce) {
  const uint64_t firstSeed = 7300000;
  std::printf("seeds %llu..%llu\n", (unsigned long long)firstSeed,
              (unsigned long long)firstSeed + 4999);
  unsigned lowered = 0, limitedByBudget = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + 5000; ++seed) {
    XorShift rng{seed * 2654435761u + 5};
    size_t n = 1 + rng.below(14);
    std::vector<uint64_t> memory(n);
    for (uint64_t &m : memory)
      m = rng.below(100);
    uint64_t floor = rng.below(4) ? 0 : rng.below(80);
    std::vector<SegmentOption> options(rng.below(12));
    for (SegmentOption &option : options) {
      option.first = rng.below(n);
      option.last = option.first + rng.below(std::min<size_t>(4, n - option.first));
      option.peak = rng.below(100);
      option.at = option.first + rng.below(option.last - option.first + 1);
      option.cost = rng.below(3) ? rng.below(10) : 0;
    }
    uint64_t budget = rng.below(3) ? rng.below(25) : UINT64_MAX;
    SegmentChoiceResult result = chooseSegments(memory, floor, options, budget);
    std::pair<uint64_t, uint64_t> expected =
        bruteForce(memory, floor, options, budget);
    ASSERT_EQ(result.peak, expected.first) << "seed " << seed;
    ASSERT_EQ(result.cost, expected.second) << "seed " << seed;
    ASSERT_EQ(recount(memory, floor, options, result), expected)
        << "seed " << seed;
    // Where the peak is reached.
    if (result.atFloor) {
      ASSERT_EQ(result.peak, floor) << "seed " << seed;
    } else if (result.covered) {
      bool found = false;
      for (uint32_t o : result.chosen)
        found |= options[o].at == result.bottleneck &&
                 options[o].peak == result.peak;
      ASSERT_TRUE(found) << "seed " << seed;
    } else {
      ASSERT_EQ(memory[result.bottleneck], result.peak) << "seed " << seed;
    }
    uint64_t unsplit = floor;
    for (uint64_t m : memory)
      unsplit = std::max(unsplit, m);
    lowered += result.peak < unsplit;
    limitedByBudget +=
        budget != UINT64_MAX &&
        chooseSegments(memory, floor, options, UINT64_MAX).peak < result.peak;
  }
  std::printf("a choice lowers the peak on %u cases, the budget holds it "
              "back on %u\n",
              lowered, limitedByBudget);
  // The random cases exercise both.
  EXPECT_GT(lowered, 1000u);
  EXPECT_GT(limitedByBudget, 200u);
}

// Two segments: one alone lowers the peak most, but spends the budget the
// other needs; the choice takes the cheaper version of the first.
TEST(SegmentChoice, SavesBudgetForTheNextPeak) {
  std::vector<uint64_t> memory{10, 100, 10, 90, 10};
  std::vector<SegmentOption> options{
      {1, 1, 20, 1, 8}, // many bands: lowest, costly
      {1, 1, 50, 1, 3}, // few bands
      {3, 3, 50, 3, 5},
  };
  SegmentChoiceResult result = chooseSegments(memory, 0, options, 8);
  EXPECT_EQ(result.peak, 50u);
  EXPECT_EQ(result.cost, 8u);
  EXPECT_EQ(result.chosen, (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(result.covered);
  // Without the budget for both, the one at 100 only.
  result = chooseSegments(memory, 0, options, 7);
  EXPECT_EQ(result.peak, 90u);
  EXPECT_EQ(result.cost, 3u); // the cheapest that reaches 90
  EXPECT_FALSE(result.covered);
  EXPECT_EQ(result.bottleneck, 3u);
}

TEST(SegmentChoice, OverlappingOptionsDoNotCombine) {
  std::vector<uint64_t> memory{100, 100, 100};
  std::vector<SegmentOption> options{{0, 1, 10, 0, 0}, {1, 2, 10, 2, 0}};
  SegmentChoiceResult result = chooseSegments(memory, 0, options, 0);
  EXPECT_EQ(result.peak, 100u);
  EXPECT_TRUE(result.chosen.empty() || result.chosen.size() == 1);
}

TEST(SegmentChoice, FloorAndMalformedOptions) {
  std::vector<uint64_t> memory{5, 60};
  std::vector<SegmentOption> options{{1, 1, 10, 1, 0}, {1, 0, 0, 0, 0},
                                     {0, 7, 0, 0, 0}};
  SegmentChoiceResult result = chooseSegments(memory, 40, options, 0);
  EXPECT_EQ(result.peak, 40u);
  EXPECT_TRUE(result.atFloor);
  EXPECT_EQ(result.chosen, (std::vector<uint32_t>{0}));
  result = chooseSegments({}, 3, {}, 0);
  EXPECT_EQ(result.peak, 3u);
}

// Disjoint spans of the most weight, against every subset.
TEST(SegmentChoice, DisjointSpansMatchBruteForce) {
  const uint64_t firstSeed = 7310000;
  std::printf("seeds %llu..%llu\n", (unsigned long long)firstSeed,
              (unsigned long long)firstSeed + 2999);
  unsigned beatsGreedy = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + 3000; ++seed) {
    XorShift rng{seed * 2654435761u + 11};
    std::vector<WeightedSpan> spans(rng.below(13));
    uint32_t n = 1 + rng.below(20);
    for (WeightedSpan &span : spans) {
      span.first = rng.below(n);
      span.last = span.first + rng.below(6);
      if (!rng.below(15))
        std::swap(span.first, span.last); // malformed: never chosen
      span.weight = rng.below(4) ? rng.below(50) : 0;
    }
    auto disjoint = [&](const std::vector<uint32_t> &set) {
      for (uint32_t a : set) {
        if (spans[a].first > spans[a].last)
          return false;
        for (uint32_t b : set)
          if (a != b && !(spans[a].last < spans[b].first ||
                          spans[b].last < spans[a].first))
            return false;
      }
      return true;
    };
    auto weightOf = [&](const std::vector<uint32_t> &set) {
      uint64_t w = 0;
      for (uint32_t i : set)
        w += spans[i].weight;
      return w;
    };
    uint64_t best = 0;
    for (uint32_t mask = 0; mask < (1u << spans.size()); ++mask) {
      std::vector<uint32_t> set;
      for (uint32_t i = 0; i < spans.size(); ++i)
        if (mask >> i & 1)
          set.push_back(i);
      if (disjoint(set))
        best = std::max(best, weightOf(set));
    }
    std::vector<uint32_t> chosen = chooseDisjointSpans(spans);
    ASSERT_TRUE(disjoint(chosen)) << "seed " << seed;
    ASSERT_TRUE(std::is_sorted(chosen.begin(), chosen.end())) << "seed " << seed;
    ASSERT_EQ(weightOf(chosen), best) << "seed " << seed;
    // The heaviest first, each kept when it meets none kept: what the
    // exact choice improves on.
    std::vector<uint32_t> order(spans.size());
    for (uint32_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return spans[a].weight > spans[b].weight;
    });
    std::vector<uint32_t> greedy;
    for (uint32_t i : order) {
      greedy.push_back(i);
      if (!disjoint(greedy))
        greedy.pop_back();
    }
    beatsGreedy += weightOf(greedy) < best;
  }
  std::printf("the heaviest-first choice holds less on %u cases\n",
              beatsGreedy);
  EXPECT_GT(beatsGreedy, 150u);
}

// One span through three that hold more together.
TEST(SegmentChoice, SeveralSpansOutweighOneThroughThem) {
  std::vector<WeightedSpan> spans = {
      {0, 2, 768}, {3, 5, 768}, {6, 8, 768}, {1, 7, 1024}};
  EXPECT_EQ(chooseDisjointSpans(spans), (std::vector<uint32_t>{0, 1, 2}));
  spans[3].weight = 3000;
  EXPECT_EQ(chooseDisjointSpans(spans), (std::vector<uint32_t>{3}));
}
