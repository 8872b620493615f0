//===- SegmentChoice.cpp - which segments to run in fragments -------------===//

#include "Analysis/Graph/SegmentChoice.h"

#include <algorithm>
#include <limits>

using namespace memsched_core;

namespace {
constexpr uint64_t kInfinite = std::numeric_limits<uint64_t>::max();

/// The cheapest set of disjoint options of peak at most `threshold` that
/// covers every position whose memory is above it (kInfinite: none), and
/// the options it takes when `chosen` is given.
uint64_t cheapestCover(const std::vector<uint64_t> &memory,
                       const std::vector<SegmentOption> &options,
                       const std::vector<std::vector<uint32_t>> &endingAt,
                       uint64_t threshold, std::vector<uint32_t> *chosen) {
  size_t n = memory.size();
  std::vector<uint64_t> cost(n + 1, kInfinite);
  // How the cheapest cover of the positions before p + 1 ends: -1 skips p,
  // otherwise the option that covers it.
  std::vector<int64_t> from(n + 1, -1);
  cost[0] = 0;
  for (size_t p = 0; p < n; ++p) {
    if (memory[p] <= threshold && cost[p] != kInfinite)
      cost[p + 1] = cost[p];
    for (uint32_t o : endingAt[p]) {
      const SegmentOption &option = options[o];
      if (option.peak > threshold || cost[option.first] == kInfinite)
        continue;
      uint64_t total = cost[option.first] + option.cost;
      if (total < cost[option.first]) // wrapped
        continue;
      if (total < cost[p + 1]) {
        cost[p + 1] = total;
        from[p + 1] = o;
      }
    }
  }
  if (chosen && cost[n] != kInfinite) {
    chosen->clear();
    for (size_t p = n; p > 0;) {
      if (from[p] < 0) {
        --p;
        continue;
      }
      chosen->push_back(static_cast<uint32_t>(from[p]));
      p = options[from[p]].first;
    }
    std::reverse(chosen->begin(), chosen->end());
  }
  return cost[n];
}
} // namespace

SegmentChoiceResult
memsched_core::chooseSegments(const std::vector<uint64_t> &memory, uint64_t floor,
                         const std::vector<SegmentOption> &options,
                         uint64_t budget) {
  size_t n = memory.size();
  std::vector<std::vector<uint32_t>> endingAt(n);
  std::vector<uint64_t> values{floor};
  for (uint64_t m : memory)
    values.push_back(m);
  for (uint32_t o = 0; o < options.size(); ++o) {
    const SegmentOption &option = options[o];
    if (option.first > option.last || option.last >= n)
      continue;
    endingAt[option.last].push_back(o);
    values.push_back(option.peak);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  values.erase(values.begin(),
               std::lower_bound(values.begin(), values.end(), floor));
  auto feasible = [&](uint64_t threshold) {
    uint64_t cost =
        cheapestCover(memory, options, endingAt, threshold, nullptr);
    return cost != kInfinite && cost <= budget;
  };
  // The largest value is feasible with no option at all.
  size_t low = 0, high = values.size() - 1;
  while (low < high) {
    size_t mid = (low + high) / 2;
    if (feasible(values[mid]))
      high = mid;
    else
      low = mid + 1;
  }
  SegmentChoiceResult result;
  result.peak = values[low];
  result.cost = cheapestCover(memory, options, endingAt, result.peak,
                              &result.chosen);
  // Where the peak is reached: an uncovered position first, then a chosen
  // option, else the floor.
  std::vector<char> covered(n, 0);
  for (uint32_t o : result.chosen)
    std::fill(covered.begin() + options[o].first,
              covered.begin() + options[o].last + 1, 1);
  for (size_t p = 0; p < n; ++p)
    if (!covered[p] && memory[p] == result.peak) {
      result.bottleneck = static_cast<uint32_t>(p);
      return result;
    }
  for (uint32_t o : result.chosen)
    if (options[o].peak == result.peak) {
      result.bottleneck = options[o].at;
      result.covered = true;
      return result;
    }
  result.atFloor = true;
  return result;
}

std::vector<uint32_t>
memsched_core::chooseDisjointSpans(const std::vector<WeightedSpan> &spans) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < spans.size(); ++i)
    if (spans[i].first <= spans[i].last)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return spans[a].last < spans[b].last;
  });
  // best[k]: the most weight among the first k spans (by last position);
  // take[k]: whether the k-th is in that set, before[k]: how many spans
  // end before the k-th starts (a prefix, the order being by end).
  size_t k = order.size();
  std::vector<uint64_t> best(k + 1, 0);
  std::vector<char> take(k + 1, 0);
  std::vector<size_t> before(k + 1, 0);
  for (size_t j = 1; j <= k; ++j) {
    const WeightedSpan &span = spans[order[j - 1]];
    before[j] = std::partition_point(order.begin(), order.begin() + (j - 1),
                                     [&](uint32_t i) {
                                       return spans[i].last < span.first;
                                     }) -
                order.begin();
    uint64_t with = best[before[j]] + span.weight;
    take[j] = with > best[j - 1];
    best[j] = take[j] ? with : best[j - 1];
  }
  std::vector<uint32_t> chosen;
  for (size_t j = k; j > 0;) {
    if (take[j]) {
      chosen.push_back(order[j - 1]);
      j = before[j];
    } else {
      --j;
    }
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}
