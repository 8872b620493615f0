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

bool hasAlignedCoefficients(const SizePoly &p, uint64_t alignment) {
  if (alignment <= 1)
    return true;
  for (const SizePoly::Term &t : p.terms())
    if (t.coef % alignment)
      return false;
  return true;
}

SizePoly getSlot(const SizePoly &size, uint64_t alignment, bool roundUp) {
  return roundUp && alignment > 1 ? size + SizePoly::constant(alignment - 1)
                                  : size;
}

/// A candidate offset for a buffer of `alignment`: its constant term
/// rounded up when that makes it aligned at every point (the other
/// coefficients are multiples of the alignment); otherwise as it is, to be
/// rounded up at run time.
static std::pair<SizePoly, bool> alignCandidate(const SizePoly &p,
                                                uint64_t alignment) {
  if (alignment <= 1)
    return {p, false};
  bool others = true;
  for (const SizePoly::Term &t : p.terms())
    if (!t.monomial.empty() && t.coef % alignment)
      others = false;
  if (!others)
    return {p, true};
  SizePoly c = SizePoly::constant(p.constantTerm());
  std::vector<SizePoly::Term> terms;
  for (const SizePoly::Term &t : p.terms())
    if (!t.monomial.empty())
      terms.push_back(t);
  uint64_t k = p.constantTerm(), r = k % alignment;
  if (r)
    k = k > UINT64_MAX - (alignment - r) ? UINT64_MAX : k + (alignment - r);
  terms.push_back({k, {}});
  return {SizePoly::fromTerms(std::move(terms)), false};
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
  plan.roundUp.assign(buffers.size(), false);
  std::vector<SizePoly> ends(buffers.size());
  std::vector<uint32_t> placed;
  for (uint32_t b : order) {
    const RangeArenaBuffer &buffer = buffers[b];
    std::vector<uint32_t> conflicts;
    for (uint32_t c : placed)
      if (liveTogether(buffer, buffers[c]) && !buffers[c].size.isZero())
        conflicts.push_back(c);
    // Candidates: 0, the end of each buffer it lives with, and the
    // coefficient-wise max of those ends (above all of them at every
    // point), each aligned where it can be.
    std::vector<std::pair<SizePoly, bool>> candidates{{SizePoly(), false}};
    SizePoly above;
    for (uint32_t c : conflicts) {
      above = maxCoefficients(above, ends[c]);
      candidates.push_back(alignCandidate(ends[c], buffer.alignment));
    }
    candidates.push_back(alignCandidate(above, buffer.alignment));
    std::vector<std::tuple<uint64_t, uint64_t, size_t>> byValue;
    for (size_t i = 0; i < candidates.size(); ++i)
      byValue.emplace_back(candidates[i].first.evaluate(point),
                           candidates[i].first.evaluate(low), i);
    std::sort(byValue.begin(), byValue.end());
    std::optional<size_t> chosen;
    for (auto &[atPoint, atLow, i] : byValue) {
      (void)atPoint;
      (void)atLow;
      const SizePoly &offset = candidates[i].first;
      if (buffer.size.isZero()) {
        chosen = i;
        break;
      }
      SizePoly top =
          offset + getSlot(buffer.size, buffer.alignment, candidates[i].second);
      // Apart from `c` at a point: above its end or below its offset.
      auto apartAt = [&](uint32_t c, const std::vector<uint64_t> &at) {
        return offset.evaluate(at) >= ends[c].evaluate(at) ||
               plan.offsets[c].evaluate(at) >= top.evaluate(at);
      };
      bool fits =
          std::all_of(conflicts.begin(), conflicts.end(), [&](uint32_t c) {
            return apartAt(c, point) && apartAt(c, low);
          });
      if (!fits)
        continue;
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
    // The last candidate always fits; the loop found it or a lower one.
    size_t pick = chosen ? *chosen : candidates.size() - 1;
    plan.offsets[b] = candidates[pick].first;
    plan.roundUp[b] = candidates[pick].second;
    ends[b] = plan.offsets[b] +
              getSlot(buffer.size, buffer.alignment, plan.roundUp[b]);
    placed.push_back(b);
  }
  std::vector<SizePoly> tops;
  for (size_t b = 0; b < buffers.size(); ++b)
    if (!buffers[b].size.isZero())
      tops.push_back(ends[b]);
  plan.size = pruneDominated(tops);
  return plan;
}

std::vector<uint32_t>
getRangeOrder(const std::vector<RangeArenaBuffer> &buffers, RangeOrder kind,
              const std::vector<uint64_t> &hintOffsets,
              const std::vector<uint64_t> &point,
              const std::vector<uint64_t> &low) {
  std::vector<uint32_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  auto at = [&](uint32_t b, const std::vector<uint64_t> &x) {
    return buffers[b].size.evaluate(x);
  };
  switch (kind) {
  case RangeOrder::Hint:
    if (hintOffsets.size() == buffers.size())
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return hintOffsets[a] < hintOffsets[b];
      });
    break;
  case RangeOrder::SizeAtPoint:
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(at(a, point), at(a, low)) >
             std::make_pair(at(b, point), at(b, low));
    });
    break;
  case RangeOrder::SizeAtLow:
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(at(a, low), at(a, point)) >
             std::make_pair(at(b, low), at(b, point));
    });
    break;
  case RangeOrder::Start:
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return buffers[a].first < buffers[b].first;
    });
    break;
  case RangeOrder::Lifetime:
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(buffers[a].last - buffers[a].first, at(a, point)) >
             std::make_pair(buffers[b].last - buffers[b].first, at(b, point));
    });
    break;
  }
  return order;
}

RangeArenaPlan planOverRange(const std::vector<RangeArenaBuffer> &buffers,
                             const std::vector<SymbolRange> &ranges,
                             const std::vector<uint64_t> &hintOffsets,
                             const std::vector<uint64_t> &point,
                             const std::vector<uint64_t> &low,
                             uint64_t proofBudget) {
  std::vector<uint32_t> byHint =
      getRangeOrder(buffers, RangeOrder::Hint, hintOffsets, point, low);
  std::vector<uint32_t> bySize =
      getRangeOrder(buffers, RangeOrder::SizeAtPoint, hintOffsets, point, low);
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
  if (plan.offsets.size() != buffers.size() ||
      plan.roundUp.size() != buffers.size())
    return false;
  uint64_t work = 0;
  auto end = [&](size_t i) {
    return plan.offsets[i] +
           getSlot(buffers[i].size, buffers[i].alignment, plan.roundUp[i]);
  };
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!plan.roundUp[i] &&
        !hasAlignedCoefficients(plan.offsets[i], buffers[i].alignment))
      return false;
    if (buffers[i].size.isZero())
      continue;
    if (proveMaxAtMost({end(i)}, plan.size, ranges, proofBudget).result !=
        ProofResult::Proved)
      return false;
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!liveTogether(buffers[i], buffers[j]) || buffers[j].size.isZero())
        continue;
      if (!provedAtLeast(plan.offsets[j], end(i), ranges, proofBudget, work) &&
          !provedAtLeast(plan.offsets[i], end(j), ranges, proofBudget, work))
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
