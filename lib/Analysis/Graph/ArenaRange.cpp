//===- ArenaRange.cpp - one arena placement for a range of sizes ---------===//

#include "Analysis/Graph/ArenaRange.h"
#include "Analysis/Graph/ArenaPlanner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

namespace memsched_core {

SizePoly alignCoefficients(const SizePoly &p, uint64_t alignment) {
  if (alignment <= 1)
    return p;
  std::vector<SizePoly::Term> terms = p.terms();
  for (SizePoly::Term &t : terms) {
    uint64_t r = t.coef % alignment;
    if (r)
      t.coef = t.coef > UINT64_MAX - (alignment - r) ? UINT64_MAX
                                                     : t.coef + (alignment - r);
  }
  return SizePoly::fromTerms(std::move(terms));
}

/// The coefficient-by-coefficient max of `a` and `b`: at least each of them
/// at every point >= 0.
static SizePoly maxCoefficients(const SizePoly &a, const SizePoly &b) {
  std::map<std::vector<SymbolId>, uint64_t> coefs;
  for (const SizePoly *p : {&a, &b})
    for (const SizePoly::Term &t : p->terms()) {
      uint64_t &c = coefs[t.monomial];
      c = std::max(c, t.coef);
    }
  std::vector<SizePoly::Term> terms;
  for (auto &[monomial, coef] : coefs)
    terms.push_back({coef, monomial});
  return SizePoly::fromTerms(std::move(terms));
}

bool provedAtLeast(const SizePoly &a, const SizePoly &b,
                   const std::vector<SymbolRange> &ranges, uint64_t budget,
                   uint64_t &work) {
  if (b.isDominatedBy(a))
    return true;
  MaxComparison c = proveMaxAtMost({b}, {a}, ranges, budget);
  work += c.work;
  return c.result == ProofResult::Proved;
}

static bool liveTogether(const RangeArenaBuffer &a, const RangeArenaBuffer &b) {
  return a.first <= b.last && b.first <= a.last;
}

RangeArenaPlan placeOverRange(const std::vector<RangeArenaBuffer> &buffers,
                              const std::vector<SymbolRange> &ranges,
                              const std::vector<uint32_t> &order,
                              const std::vector<uint64_t> &point,
                              const std::vector<uint64_t> &low,
                              uint64_t proofBudget) {
  RangeArenaPlan plan;
  plan.offsets.assign(buffers.size(), SizePoly());
  std::vector<SizePoly> ends(buffers.size());
  std::vector<uint32_t> placed;
  for (uint32_t b : order) {
    const RangeArenaBuffer &buffer = buffers[b];
    std::vector<uint32_t> conflicts;
    for (uint32_t c : placed)
      if (liveTogether(buffer, buffers[c]) && !buffers[c].size.isZero())
        conflicts.push_back(c);
    // Candidates: 0, the end of each buffer it lives with, and the
    // coefficient-wise max of those ends (above all of them at every point).
    std::vector<SizePoly> candidates{SizePoly()};
    SizePoly above;
    for (uint32_t c : conflicts) {
      SizePoly end = alignCoefficients(ends[c], buffer.alignment);
      above = maxCoefficients(above, end);
      candidates.push_back(std::move(end));
    }
    candidates.push_back(above);
    std::vector<std::tuple<uint64_t, uint64_t, size_t>> byValue;
    for (size_t i = 0; i < candidates.size(); ++i)
      byValue.emplace_back(candidates[i].evaluate(point),
                           candidates[i].evaluate(low), i);
    std::sort(byValue.begin(), byValue.end());
    // Apart from `c` at a point: above its end or below its offset.
    auto apartAt = [&](const SizePoly &offset, uint32_t c,
                       const std::vector<uint64_t> &at) {
      uint64_t o = offset.evaluate(at);
      return o >= ends[c].evaluate(at) ||
             plan.offsets[c].evaluate(at) >=
                 (offset + buffer.size).evaluate(at);
    };
    std::optional<size_t> chosen;
    for (auto &[atPoint, atLow, i] : byValue) {
      (void)atPoint;
      (void)atLow;
      const SizePoly &offset = candidates[i];
      if (buffer.size.isZero()) {
        chosen = i;
        break;
      }
      bool fits =
          std::all_of(conflicts.begin(), conflicts.end(), [&](uint32_t c) {
            return apartAt(offset, c, point) && apartAt(offset, c, low);
          });
      if (!fits)
        continue;
      SizePoly top = offset + buffer.size;
      fits = std::all_of(conflicts.begin(), conflicts.end(), [&](uint32_t c) {
        return provedAtLeast(offset, ends[c], ranges, proofBudget, plan.work) ||
               provedAtLeast(plan.offsets[c], top, ranges, proofBudget,
                             plan.work);
      });
      if (fits) {
        chosen = i;
        break;
      }
    }
    // `above` always fits; the loop found it or a lower one.
    plan.offsets[b] = chosen ? candidates[*chosen] : above;
    ends[b] = plan.offsets[b] + buffer.size;
    placed.push_back(b);
  }
  std::vector<SizePoly> tops;
  for (size_t b = 0; b < buffers.size(); ++b)
    if (!buffers[b].size.isZero())
      tops.push_back(ends[b]);
  plan.size = pruneDominated(tops);
  return plan;
}

RangeArenaPlan planOverRange(const std::vector<RangeArenaBuffer> &buffers,
                             const std::vector<SymbolRange> &ranges,
                             const std::vector<uint64_t> &hintOffsets,
                             const std::vector<uint64_t> &point,
                             const std::vector<uint64_t> &low,
                             uint64_t proofBudget) {
  std::vector<uint32_t> byHint(buffers.size());
  std::iota(byHint.begin(), byHint.end(), 0);
  std::vector<uint32_t> bySize = byHint;
  if (hintOffsets.size() == buffers.size())
    std::stable_sort(byHint.begin(), byHint.end(), [&](uint32_t a, uint32_t b) {
      return hintOffsets[a] < hintOffsets[b];
    });
  std::stable_sort(bySize.begin(), bySize.end(), [&](uint32_t a, uint32_t b) {
    return std::make_pair(buffers[a].size.evaluate(point),
                          buffers[a].size.evaluate(low)) >
           std::make_pair(buffers[b].size.evaluate(point),
                          buffers[b].size.evaluate(low));
  });
  RangeArenaPlan best =
      placeOverRange(buffers, ranges, byHint, point, low, proofBudget);
  if (bySize == byHint)
    return best;
  RangeArenaPlan other =
      placeOverRange(buffers, ranges, bySize, point, low, proofBudget);
  uint64_t work = best.work + other.work;
  if (std::make_pair(evaluateMax(other.size, point),
                     evaluateMax(other.size, low)) <
      std::make_pair(evaluateMax(best.size, point),
                     evaluateMax(best.size, low)))
    best = std::move(other);
  best.work = work;
  return best;
}

bool checkPlanOverRange(const std::vector<RangeArenaBuffer> &buffers,
                        const std::vector<SymbolRange> &ranges,
                        const RangeArenaPlan &plan, uint64_t proofBudget) {
  if (plan.offsets.size() != buffers.size())
    return false;
  uint64_t work = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    for (const SizePoly::Term &t : plan.offsets[i].terms())
      if (buffers[i].alignment > 1 && t.coef % buffers[i].alignment)
        return false;
    if (buffers[i].size.isZero())
      continue;
    SizePoly end = plan.offsets[i] + buffers[i].size;
    if (proveMaxAtMost({end}, plan.size, ranges, proofBudget).result !=
        ProofResult::Proved)
      return false;
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!liveTogether(buffers[i], buffers[j]) || buffers[j].size.isZero())
        continue;
      if (!provedAtLeast(plan.offsets[j], end, ranges, proofBudget, work) &&
          !provedAtLeast(plan.offsets[i], plan.offsets[j] + buffers[j].size,
                         ranges, proofBudget, work))
        return false;
    }
  }
  return true;
}

SizePoly getStackedArena(const std::vector<RangeArenaBuffer> &buffers) {
  std::vector<ArenaBuffer> fixed;
  SizePoly stacked;
  for (const RangeArenaBuffer &b : buffers) {
    if (b.size.isConstant())
      fixed.push_back({b.size.constantTerm(), b.first, b.last, b.alignment});
    else
      stacked += b.size;
  }
  uint64_t region =
      fixed.empty()
          ? 0
          : getArenaSize(fixed,
                         placeHeuristic(fixed, ArenaHeuristic::GreedyBySize));
  return SizePoly::constant(region) + stacked;
}

} // namespace memsched_core
