//===- SymbolicSize.cpp - sizes as polynomials of symbols -------*- C++ -*-===//
//
// Invariants: a SizePoly is always canonical; every Proved and Refuted of
// proveMaxAtMost is right.
//
// The prover computes in 128 bits, saturating: a value below kSat is exact, a
// value of kSat stands for "kSat or more" (a lower bound). Upper bounds (the
// positive part of a difference) at kSat are unknown, so a test needing one
// fails; lower bounds at kSat are not used to pass a test either.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SymbolicSize.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <map>
#include <numeric>

using namespace memsched_core;

namespace {
using U128 = unsigned __int128;
constexpr U128 kSat = ~U128(0);

uint64_t addSat64(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t mulSat64(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

U128 addSat(U128 a, U128 b) {
  U128 r;
  return __builtin_add_overflow(a, b, &r) ? kSat : r;
}

/// Exact when both are exact and the product is below kSat; a zero factor
/// gives 0 even against a saturated one (its true value times 0).
U128 mulSat(U128 a, U128 b) {
  if (!a || !b)
    return 0;
  U128 r;
  return __builtin_mul_overflow(a, b, &r) ? kSat : r;
}

U128 powSat(U128 base, uint64_t e) {
  U128 result = 1;
  for (; e; e >>= 1) {
    if (e & 1)
      result = mulSat(result, base);
    if (e > 1)
      base = mulSat(base, base);
  }
  return result;
}

uint64_t clamp64(U128 v) {
  return v > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(v);
}

/// A monomial as runs of (symbol, exponent), symbols increasing.
using Runs = std::vector<std::pair<SymbolId, uint64_t>>;

Runs toRuns(const std::vector<SymbolId> &m) {
  Runs runs;
  for (SymbolId s : m) {
    if (!runs.empty() && runs.back().first == s)
      ++runs.back().second;
    else
      runs.push_back({s, 1});
  }
  return runs;
}

/// The value of `p` at `point`, saturating at kSat.
U128 evaluateSat(const SizePoly &p, const std::vector<uint64_t> &point) {
  U128 sum = 0;
  for (const SizePoly::Term &t : p.terms()) {
    U128 v = t.coef;
    for (SymbolId s : t.monomial)
      v = mulSat(v, s < point.size() ? point[s] : 0);
    sum = addSat(sum, v);
  }
  return sum;
}
} // namespace

//===----------------------------------------------------------------------===//
// SizePoly
//===----------------------------------------------------------------------===//

SizePoly SizePoly::constant(uint64_t c) {
  SizePoly p;
  if (c)
    p.termList.push_back({c, {}});
  return p;
}

SizePoly SizePoly::symbol(SymbolId s, uint64_t coef) {
  SizePoly p;
  if (coef)
    p.termList.push_back({coef, {s}});
  return p;
}

SizePoly SizePoly::fromTerms(std::vector<Term> terms) {
  for (Term &t : terms)
    std::sort(t.monomial.begin(), t.monomial.end());
  std::sort(terms.begin(), terms.end(), [](const Term &a, const Term &b) {
    return a.monomial < b.monomial;
  });
  SizePoly p;
  for (Term &t : terms) {
    if (!t.coef)
      continue;
    if (!p.termList.empty() && p.termList.back().monomial == t.monomial)
      p.termList.back().coef = addSat64(p.termList.back().coef, t.coef);
    else
      p.termList.push_back(std::move(t));
  }
  return p;
}

SizePoly &SizePoly::operator+=(const SizePoly &o) {
  std::vector<Term> merged;
  merged.reserve(termList.size() + o.termList.size());
  size_t i = 0, j = 0;
  while (i < termList.size() || j < o.termList.size()) {
    if (j == o.termList.size() ||
        (i < termList.size() &&
         termList[i].monomial < o.termList[j].monomial)) {
      merged.push_back(std::move(termList[i++]));
    } else if (i == termList.size() ||
               o.termList[j].monomial < termList[i].monomial) {
      merged.push_back(o.termList[j++]);
    } else {
      merged.push_back(std::move(termList[i]));
      merged.back().coef = addSat64(merged.back().coef, o.termList[j].coef);
      ++i;
      ++j;
    }
  }
  termList = std::move(merged);
  return *this;
}

namespace memsched_core {
SizePoly operator*(const SizePoly &a, const SizePoly &b) {
  std::map<std::vector<SymbolId>, uint64_t> acc;
  for (const SizePoly::Term &x : a.termList) {
    for (const SizePoly::Term &y : b.termList) {
      std::vector<SymbolId> m(x.monomial.size() + y.monomial.size());
      std::merge(x.monomial.begin(), x.monomial.end(), y.monomial.begin(),
                 y.monomial.end(), m.begin());
      uint64_t &c = acc[std::move(m)];
      c = addSat64(c, mulSat64(x.coef, y.coef));
    }
  }
  SizePoly p;
  for (auto &[m, c] : acc)
    p.termList.push_back({c, m});
  return p;
}
} // namespace memsched_core

SizePoly SizePoly::scaled(uint64_t c) const {
  SizePoly p;
  if (!c)
    return p;
  p.termList = termList;
  for (Term &t : p.termList)
    t.coef = mulSat64(t.coef, c);
  return p;
}

bool SizePoly::isConstant() const {
  return termList.empty() ||
         (termList.size() == 1 && termList[0].monomial.empty());
}

uint64_t SizePoly::constantTerm() const {
  // The empty monomial sorts first.
  return !termList.empty() && termList[0].monomial.empty() ? termList[0].coef
                                                           : 0;
}

size_t SizePoly::numSymbolsUsed() const {
  size_t n = 0;
  for (const Term &t : termList)
    if (!t.monomial.empty())
      n = std::max<size_t>(n, size_t(t.monomial.back()) + 1);
  return n;
}

uint64_t SizePoly::evaluate(const std::vector<uint64_t> &point) const {
  assert(point.size() >= numSymbolsUsed() && "a value for every symbol");
  return clamp64(evaluateSat(*this, point));
}

bool SizePoly::isDominatedBy(const SizePoly &o) const {
  size_t j = 0;
  for (const Term &t : termList) {
    while (j < o.termList.size() && o.termList[j].monomial < t.monomial)
      ++j;
    if (j == o.termList.size() || o.termList[j].monomial != t.monomial ||
        o.termList[j].coef < t.coef)
      return false;
  }
  return true;
}

std::string SizePoly::str(const std::vector<std::string> &names) const {
  if (termList.empty())
    return "0";
  std::vector<const Term *> order;
  for (const Term &t : termList)
    order.push_back(&t);
  // Stable: within a degree, the canonical (monomial) order.
  std::stable_sort(order.begin(), order.end(),
                   [](const Term *a, const Term *b) {
                     return a->monomial.size() > b->monomial.size();
                   });
  std::string out;
  for (const Term *t : order) {
    if (!out.empty())
      out += " + ";
    std::string factors;
    if (t->coef != 1 || t->monomial.empty())
      factors = std::to_string(t->coef);
    for (auto [s, e] : toRuns(t->monomial)) {
      if (!factors.empty())
        factors += "*";
      factors += s < names.size() ? names[s] : "$" + std::to_string(s);
      if (e > 1)
        factors += "^" + std::to_string(e);
    }
    out += factors;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// parseSizePoly
//===----------------------------------------------------------------------===//

namespace {
/// Exponents above this are refused (no size has such a degree; it bounds
/// the monomials built).
constexpr uint64_t kMaxExponent = 256;

class PolyParser {
public:
  PolyParser(const std::string &text, const std::vector<std::string> &names)
      : text(text) {
    for (size_t s = 0; s < names.size(); ++s)
      ids.insert({names[s], static_cast<SymbolId>(s)});
  }

  std::optional<SizePoly> parse() {
    std::map<std::vector<SymbolId>, uint64_t> acc;
    skipSpace();
    if (atEnd())
      return fail("empty expression");
    while (true) {
      uint64_t coef = 1;
      std::vector<SymbolId> monomial;
      if (!parseTerm(coef, monomial))
        return std::nullopt;
      std::sort(monomial.begin(), monomial.end());
      if (coef) {
        uint64_t &c = acc[monomial];
        if (__builtin_add_overflow(c, coef, &c))
          return fail("coefficient overflow at column " + column());
      }
      skipSpace();
      if (atEnd())
        break;
      if (text[pos] != '+')
        return fail("expected '+' or '*' at column " + column());
      ++pos;
    }
    std::vector<SizePoly::Term> terms;
    for (auto &[m, c] : acc)
      terms.push_back({c, m});
    return SizePoly::fromTerms(std::move(terms));
  }

  std::string why;

private:
  bool atEnd() const { return pos == text.size(); }
  void skipSpace() {
    while (!atEnd() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  std::string column() const { return std::to_string(pos + 1); }
  std::nullopt_t fail(std::string message) {
    why = std::move(message);
    return std::nullopt;
  }
  static bool isNameChar(char c) {
    return c && !std::isspace(static_cast<unsigned char>(c)) &&
           std::string("+*^()-,").find(c) == std::string::npos;
  }
  bool isDigit() const {
    return !atEnd() && std::isdigit(static_cast<unsigned char>(text[pos]));
  }

  bool parseNumber(uint64_t &value) {
    value = 0;
    if (!isDigit()) {
      fail("expected a number at column " + column());
      return false;
    }
    size_t start = pos;
    for (; isDigit(); ++pos) {
      if (__builtin_mul_overflow(value, uint64_t{10}, &value) ||
          __builtin_add_overflow(value, uint64_t(text[pos] - '0'), &value)) {
        pos = start;
        fail("number too large at column " + column());
        return false;
      }
    }
    return true;
  }

  /// An optional "^k" after a factor: k, or 1 without one.
  bool parsePower(uint64_t &exponent) {
    exponent = 1;
    skipSpace();
    if (atEnd() || text[pos] != '^')
      return true;
    ++pos;
    skipSpace();
    size_t start = pos;
    if (!parseNumber(exponent))
      return false;
    if (exponent > kMaxExponent) {
      pos = start;
      fail("exponent above " + std::to_string(kMaxExponent) + " at column " +
           column());
      return false;
    }
    return true;
  }

  bool parseTerm(uint64_t &coef, std::vector<SymbolId> &monomial) {
    while (true) {
      skipSpace();
      size_t start = pos;
      uint64_t exponent;
      if (isDigit()) {
        uint64_t base;
        if (!parseNumber(base) || !parsePower(exponent))
          return false;
        U128 value = powSat(base, exponent);
        if (value > UINT64_MAX ||
            __builtin_mul_overflow(coef, static_cast<uint64_t>(value), &coef)) {
          pos = start;
          fail("coefficient overflow at column " + column());
          return false;
        }
      } else if (!atEnd() && isNameChar(text[pos])) {
        while (!atEnd() && isNameChar(text[pos]))
          ++pos;
        std::string name = text.substr(start, pos - start);
        auto it = ids.find(name);
        if (it == ids.end()) {
          pos = start;
          fail("unknown name '" + name + "' at column " + column());
          return false;
        }
        if (!parsePower(exponent))
          return false;
        monomial.insert(monomial.end(), exponent, it->second);
      } else {
        fail("expected a number or a name at column " + column());
        return false;
      }
      skipSpace();
      if (atEnd() || text[pos] != '*')
        return true;
      ++pos;
    }
  }

  const std::string &text;
  std::map<std::string, SymbolId> ids;
  size_t pos = 0;
};
} // namespace

std::optional<SizePoly>
memsched_core::parseSizePoly(const std::string &text,
                             const std::vector<std::string> &names,
                             std::string *why) {
  PolyParser parser(text, names);
  std::optional<SizePoly> result = parser.parse();
  if (!result && why)
    *why = parser.why;
  return result;
}

//===----------------------------------------------------------------------===//
// proveMaxAtMost
//===----------------------------------------------------------------------===//

namespace {
/// One term of lhs[i] - rhs[j]: its monomial and the excess of one side.
struct DiffTerm {
  Runs runs;
  uint64_t magnitude = 0;
  /// lhs's coefficient exceeds rhs's (a term of P+), else of P-.
  bool positive = false;
};

struct PairDiff {
  bool computed = false;
  /// Some term has a symbol without an upper bound.
  bool hasUnbounded = false;
  std::vector<DiffTerm> terms;
};

/// A box still to decide: per symbol [lo, hi] (hi unused for unbounded
/// symbols) and the lhs not settled on the box it was split from.
struct Box {
  std::vector<uint64_t> lo, hi;
  std::vector<uint32_t> open;
};

enum class PointVerdict { Holds, Violated, Unknown };

class MaxProver {
public:
  MaxProver(const std::vector<SizePoly> &lhs, const std::vector<SizePoly> &rhs,
            const std::vector<SymbolRange> &ranges, uint64_t budget,
            uint64_t work)
      : lhs(lhs), rhs(rhs), budget(budget), work(work),
        diffs(lhs.size() * rhs.size()) {
    for (const SymbolRange &r : ranges) {
      bounded.push_back(r.hi.has_value());
      lowest.push_back(r.lo);
    }
    auto symbolsOf = [&](const SizePoly &p) {
      std::vector<SymbolId> syms;
      for (const SizePoly::Term &t : p.terms())
        syms.insert(syms.end(), t.monomial.begin(), t.monomial.end());
      std::sort(syms.begin(), syms.end());
      syms.erase(std::unique(syms.begin(), syms.end()), syms.end());
      return syms;
    };
    for (const SizePoly &p : lhs)
      lhsSymbols.push_back(symbolsOf(p));
    rhsUsed.assign(ranges.size(), false);
    for (const SizePoly &p : rhs)
      for (SymbolId s : symbolsOf(p))
        rhsUsed[s] = true;
  }

  MaxComparison run(const std::vector<SymbolRange> &ranges,
                    std::vector<uint32_t> open);

private:
  bool spend(uint64_t units) {
    work += units;
    return work <= budget;
  }
  const PairDiff &diff(uint32_t i, uint32_t j);
  bool pairHolds(const PairDiff &d, const Box &box);
  void expand(const Runs &open, size_t k, U128 value,
              std::vector<SymbolId> &monomial, bool positive,
              std::map<std::vector<SymbolId>, std::pair<U128, U128>> &acc);
  /// Compares max lhs (over `open`) with max rhs at `point`; nullopt when
  /// the budget ran out.
  std::optional<PointVerdict> comparePoint(const std::vector<uint64_t> &point,
                                           const std::vector<uint32_t> &open);

  const std::vector<SizePoly> &lhs, &rhs;
  uint64_t budget, work;
  std::vector<bool> bounded;
  std::vector<uint64_t> lowest;
  std::vector<std::vector<SymbolId>> lhsSymbols;
  std::vector<bool> rhsUsed;
  std::vector<PairDiff> diffs;
  /// Rows of Pascal's triangle, saturating.
  std::vector<std::vector<U128>> binomials;
};
} // namespace

const PairDiff &MaxProver::diff(uint32_t i, uint32_t j) {
  PairDiff &d = diffs[size_t(i) * rhs.size() + j];
  if (d.computed)
    return d;
  d.computed = true;
  const auto &a = lhs[i].terms(), &b = rhs[j].terms();
  auto add = [&](const std::vector<SymbolId> &m, uint64_t ca, uint64_t cb) {
    if (ca == cb)
      return;
    DiffTerm t;
    t.runs = toRuns(m);
    t.positive = ca > cb;
    t.magnitude = ca > cb ? ca - cb : cb - ca;
    for (auto [s, e] : t.runs)
      if (!bounded[s])
        d.hasUnbounded = true;
    d.terms.push_back(std::move(t));
  };
  size_t x = 0, y = 0;
  while (x < a.size() || y < b.size()) {
    if (y == b.size() || (x < a.size() && a[x].monomial < b[y].monomial)) {
      add(a[x].monomial, a[x].coef, 0);
      ++x;
    } else if (x == a.size() || b[y].monomial < a[x].monomial) {
      add(b[y].monomial, 0, b[y].coef);
      ++y;
    } else {
      add(a[x].monomial, a[x].coef, b[y].coef);
      ++x;
      ++y;
    }
  }
  return d;
}

/// P+ <= P- for one monomial of the unbounded symbols (after substitution).
static bool partHolds(U128 plus, U128 minus) {
  if (!plus)
    return true;
  if (plus == kSat || minus == kSat)
    return false;
  return plus <= minus;
}

void MaxProver::expand(
    const Runs &open, size_t k, U128 value, std::vector<SymbolId> &monomial,
    bool positive,
    std::map<std::vector<SymbolId>, std::pair<U128, U128>> &acc) {
  if (!value)
    return;
  if (k == open.size()) {
    auto &entry = acc[monomial];
    U128 &side = positive ? entry.first : entry.second;
    side = addSat(side, value);
    return;
  }
  auto [u, e] = open[k];
  size_t size = monomial.size();
  if (!lowest[u]) {
    monomial.insert(monomial.end(), e, u);
    expand(open, k + 1, value, monomial, positive, acc);
    monomial.resize(size);
    return;
  }
  // (lo + t)^e = sum_a C(e, a) lo^(e - a) t^a, with t = u - lo >= 0.
  while (binomials.size() <= e) {
    std::vector<U128> row(binomials.size() + 1, 1);
    for (size_t a = 1; a + 1 < row.size(); ++a)
      row[a] = addSat(binomials.back()[a - 1], binomials.back()[a]);
    binomials.push_back(std::move(row));
  }
  for (uint64_t a = 0; a <= e; ++a) {
    U128 c = mulSat(binomials[e][a], powSat(lowest[u], e - a));
    monomial.insert(monomial.end(), a, u);
    expand(open, k + 1, mulSat(value, c), monomial, positive, acc);
    monomial.resize(size);
  }
}

// lhs[i] - rhs[j] = P+ - P- <= 0 on the box when P+ with every bounded symbol
// at its hi is at most P- with every bounded symbol at its lo, coefficient by
// coefficient over the unbounded symbols u, written lo_u + t_u (t_u >= 0).
bool MaxProver::pairHolds(const PairDiff &d, const Box &box) {
  if (!d.hasUnbounded) {
    U128 plus = 0, minus = 0;
    for (const DiffTerm &t : d.terms) {
      U128 v = t.magnitude;
      for (auto [s, e] : t.runs)
        v = mulSat(v, powSat(t.positive ? box.hi[s] : box.lo[s], e));
      U128 &side = t.positive ? plus : minus;
      side = addSat(side, v);
    }
    return partHolds(plus, minus);
  }
  std::map<std::vector<SymbolId>, std::pair<U128, U128>> acc;
  std::vector<SymbolId> monomial;
  for (const DiffTerm &t : d.terms) {
    U128 v = t.magnitude;
    Runs open;
    for (auto [s, e] : t.runs) {
      if (bounded[s])
        v = mulSat(v, powSat(t.positive ? box.hi[s] : box.lo[s], e));
      else
        open.push_back({s, e});
    }
    expand(open, 0, v, monomial, t.positive, acc);
  }
  for (const auto &[m, part] : acc)
    if (!partHolds(part.first, part.second))
      return false;
  return true;
}

std::optional<PointVerdict>
MaxProver::comparePoint(const std::vector<uint64_t> &point,
                        const std::vector<uint32_t> &open) {
  U128 maxLhs = 0, maxRhs = 0;
  uint64_t cost = 1;
  for (uint32_t i : open) {
    maxLhs = std::max(maxLhs, evaluateSat(lhs[i], point));
    cost += lhs[i].terms().size();
  }
  for (const SizePoly &p : rhs) {
    maxRhs = std::max(maxRhs, evaluateSat(p, point));
    cost += p.terms().size();
  }
  if (!spend(cost))
    return std::nullopt;
  // maxLhs is a lower bound of the true max (exact below kSat), so is maxRhs.
  if (maxRhs != kSat && maxLhs > maxRhs)
    return PointVerdict::Violated;
  if (maxLhs != kSat && maxLhs <= maxRhs)
    return PointVerdict::Holds;
  return PointVerdict::Unknown;
}

MaxComparison MaxProver::run(const std::vector<SymbolRange> &ranges,
                             std::vector<uint32_t> open) {
  MaxComparison result;
  size_t numSymbols = ranges.size();
  auto finish = [&](ProofResult r) {
    result.result = r;
    result.work = work;
    return result;
  };
  auto refute = [&](std::vector<uint64_t> point) {
    result.counterexample = std::move(point);
    return finish(ProofResult::Refuted);
  };

  std::vector<Box> stack(1);
  for (const SymbolRange &r : ranges) {
    stack[0].lo.push_back(r.lo);
    stack[0].hi.push_back(r.hi ? *r.hi : r.lo);
  }
  stack[0].open = std::move(open);
  bool unknown = false;
  std::vector<bool> used(numSymbols);
  while (!stack.empty()) {
    Box box = std::move(stack.back());
    stack.pop_back();
    std::vector<uint32_t> still;
    for (uint32_t i : box.open) {
      bool settled = false;
      for (uint32_t j = 0; j < rhs.size() && !settled; ++j) {
        if (!spend(1))
          return finish(ProofResult::Unknown);
        settled = pairHolds(diff(i, j), box);
      }
      if (!settled)
        still.push_back(i);
    }
    if (still.empty())
      continue;

    // The symbols that matter on this box.
    used = rhsUsed;
    for (uint32_t i : still)
      for (SymbolId s : lhsSymbols[i])
        used[s] = true;
    bool unboundedUsed = false;
    std::optional<SymbolId> widest;
    for (SymbolId s = 0; s < numSymbols; ++s) {
      if (!used[s])
        continue;
      if (!bounded[s]) {
        unboundedUsed = true;
        continue;
      }
      if (box.hi[s] > box.lo[s] &&
          (!widest ||
           box.hi[s] - box.lo[s] > box.hi[*widest] - box.lo[*widest]))
        widest = s;
    }

    // A violation at the lower corner refutes at once.
    std::optional<PointVerdict> atLo = comparePoint(box.lo, still);
    if (!atLo)
      return finish(ProofResult::Unknown);
    if (*atLo == PointVerdict::Violated)
      return refute(box.lo);

    if (!widest) {
      if (!unboundedUsed) {
        // A single point: the comparison there is exact unless saturated.
        if (*atLo != PointVerdict::Holds)
          unknown = true;
        continue;
      }
      // A point in the bounded symbols: probe a few values of the unbounded
      // ones; no probe can prove the box.
      for (unsigned shift : {4u, 16u, 32u}) {
        std::vector<uint64_t> point = box.lo;
        for (SymbolId s = 0; s < numSymbols; ++s)
          if (!bounded[s])
            point[s] = addSat64(point[s], uint64_t{1} << shift);
        std::optional<PointVerdict> v = comparePoint(point, still);
        if (!v)
          return finish(ProofResult::Unknown);
        if (*v == PointVerdict::Violated)
          return refute(std::move(point));
      }
      unknown = true;
      continue;
    }

    if (!unboundedUsed) {
      std::optional<PointVerdict> atHi = comparePoint(box.hi, still);
      if (!atHi)
        return finish(ProofResult::Unknown);
      if (*atHi == PointVerdict::Violated)
        return refute(box.hi);
    }

    SymbolId s = *widest;
    uint64_t mid = box.lo[s] + (box.hi[s] - box.lo[s]) / 2;
    Box upper{box.lo, box.hi, still};
    upper.lo[s] = mid + 1;
    box.hi[s] = mid;
    box.open = std::move(still);
    stack.push_back(std::move(upper));
    stack.push_back(std::move(box));
  }
  return finish(unknown ? ProofResult::Unknown : ProofResult::Proved);
}

MaxComparison memsched_core::proveMaxAtMost(
    const std::vector<SizePoly> &lhs, const std::vector<SizePoly> &rhs,
    const std::vector<SymbolRange> &ranges, uint64_t workBudget) {
  size_t numSymbols = ranges.size();
  for (const SizePoly &p : lhs)
    numSymbols = std::max(numSymbols, p.numSymbolsUsed());
  for (const SizePoly &p : rhs)
    numSymbols = std::max(numSymbols, p.numSymbolsUsed());
  assert(numSymbols == ranges.size() && "every symbol used needs a range");
  // Missing ranges (a broken precondition) are taken as [0, inf): sound.
  std::vector<SymbolRange> box = ranges;
  box.resize(numSymbols);

  MaxComparison result;
  for (const SymbolRange &r : box) {
    if (r.hi && *r.hi < r.lo) {
      result.result = ProofResult::Proved;
      return result;
    }
  }

  // An empty rhs is the zero polynomial.
  std::vector<SizePoly> zero(1);
  const std::vector<SizePoly> &right = rhs.empty() ? zero : rhs;

  // Drop every lhs a single rhs dominates (<= it everywhere).
  std::vector<uint32_t> open;
  uint64_t work = 0;
  for (uint32_t i = 0; i < lhs.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < right.size() && !dominated; ++j) {
      ++work;
      dominated = lhs[i].isDominatedBy(right[j]);
    }
    if (!dominated)
      open.push_back(i);
  }
  if (open.empty()) {
    result.result = ProofResult::Proved;
    result.work = work;
    return result;
  }
  if (work > workBudget) {
    result.work = work;
    return result;
  }
  MaxProver prover(lhs, right, box, workBudget, work);
  return prover.run(box, std::move(open));
}

//===----------------------------------------------------------------------===//
// pruneDominated and getMemoryProfile
//===----------------------------------------------------------------------===//

// A dominated polynomial has a smaller coefficient sum than its dominator, or
// is equal to it. Visiting by decreasing sum (the first of equal sums first),
// every dominator of a polynomial, or one that dominates that dominator, is
// kept before it: testing against the kept ones is enough.
std::vector<SizePoly>
memsched_core::pruneDominated(const std::vector<SizePoly> &polys) {
  std::vector<U128> sum(polys.size(), 0);
  for (size_t i = 0; i < polys.size(); ++i)
    for (const SizePoly::Term &t : polys[i].terms())
      sum[i] += t.coef;
  std::vector<size_t> byWeight(polys.size());
  std::iota(byWeight.begin(), byWeight.end(), 0);
  std::stable_sort(byWeight.begin(), byWeight.end(),
                   [&](size_t a, size_t b) { return sum[a] > sum[b]; });
  std::vector<size_t> kept;
  for (size_t i : byWeight) {
    bool dominated = false;
    for (size_t k : kept) {
      if (polys[i].isDominatedBy(polys[k])) {
        dominated = true;
        break;
      }
    }
    if (!dominated)
      kept.push_back(i);
  }
  std::sort(kept.begin(), kept.end());
  std::vector<SizePoly> result;
  result.reserve(kept.size());
  for (size_t i : kept)
    result.push_back(polys[i]);
  return result;
}

std::vector<SizePoly> memsched_core::getMemoryProfile(
    const MemoryGraph &graph, const std::vector<NodeId> &order,
    const std::vector<SizePoly> &bufferSizes,
    const std::vector<std::vector<SizePoly>> &transients) {
  size_t n = order.size();
  assert(n == graph.numNodes() && "order must cover every node");
  assert(bufferSizes.size() == graph.numBuffers() && "one size per buffer");
  assert((transients.empty() || transients.size() == graph.numNodes()) &&
         "one transient per node, or none");
  std::vector<size_t> pos(graph.numNodes());
  for (size_t i = 0; i < n; ++i)
    pos[order[i]] = i;

  // The buffers whose interval starts at, and ends after, each position.
  std::vector<std::vector<BufferId>> starts(n), ends(n);
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    size_t first, last;
    if (bufferSizes[b].isZero() ||
        !getLiveInterval(graph, b, pos, n, first, last))
      continue;
    starts[first].push_back(b);
    ends[last].push_back(b);
  }

  // The running sum, exact in 128 bits so that removing a buffer undoes its
  // addition.
  std::map<std::vector<SymbolId>, U128> running;
  std::vector<SizePoly> profile;
  profile.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    for (BufferId b : starts[i])
      for (const SizePoly::Term &t : bufferSizes[b].terms())
        running[t.monomial] += t.coef;
    std::vector<SizePoly::Term> terms;
    terms.reserve(running.size());
    for (const auto &[m, c] : running)
      terms.push_back({clamp64(c), m});
    SizePoly memory = SizePoly::fromTerms(std::move(terms));
    // The max of sums: one per alternative of the node's transient.
    if (!transients.empty() && !transients[order[i]].empty()) {
      for (const SizePoly &t : transients[order[i]])
        profile.push_back(memory + t);
    } else {
      profile.push_back(std::move(memory));
    }
    for (BufferId b : ends[i]) {
      for (const SizePoly::Term &t : bufferSizes[b].terms()) {
        auto it = running.find(t.monomial);
        it->second -= t.coef;
        if (!it->second)
          running.erase(it);
      }
    }
  }
  return pruneDominated(profile);
}

std::vector<SizePoly> memsched_core::getNodeFloors(
    const MemoryGraph &graph, const std::vector<SizePoly> &bufferSizes,
    const std::vector<std::vector<SizePoly>> &transients) {
  assert(bufferSizes.size() == graph.numBuffers() && "one size per buffer");
  SizePoly throughout;
  for (BufferId b = 0; b < graph.numBuffers(); ++b)
    if (graph.buffer(b).liveIn && graph.buffer(b).liveOut)
      throughout += bufferSizes[b];
  std::vector<SizePoly> floors;
  floors.reserve(graph.numNodes());
  for (NodeId v = 0; v < graph.numNodes(); ++v) {
    SizePoly floor = throughout;
    for (BufferId b : graph.buffersOf(v))
      if (!(graph.buffer(b).liveIn && graph.buffer(b).liveOut))
        floor += bufferSizes[b];
    if (!transients.empty() && !transients[v].empty()) {
      for (const SizePoly &t : transients[v])
        floors.push_back(floor + t);
    } else {
      floors.push_back(std::move(floor));
    }
  }
  if (floors.empty())
    floors.push_back(throughout);
  return pruneDominated(floors);
}

uint64_t memsched_core::evaluateMax(const std::vector<SizePoly> &polys,
                                    const std::vector<uint64_t> &point) {
  uint64_t m = 0;
  for (const SizePoly &p : polys)
    m = std::max(m, p.evaluate(point));
  return m;
}

unsigned memsched_core::spliceProvedStretches(
    const MemoryGraph &graph, const std::vector<SizePoly> &bufferSizes,
    const std::vector<std::vector<SizePoly>> &transients,
    const std::vector<SizePoly> &inputProfile,
    const std::vector<SymbolRange> &ranges, const std::vector<uint64_t> &high,
    const std::vector<NodeId> &candidate, std::vector<NodeId> &best,
    std::vector<SizePoly> &bestProfile, size_t maxStretches,
    uint64_t proofBudget) {
  assert(candidate.size() == best.size() && "orders of the same nodes");
  // A cut after position i when both orders have run the same nodes: no
  // node is then in one prefix alone.
  std::vector<size_t> cuts{0};
  std::vector<char> seen(graph.numNodes(), 0);
  int64_t inOne = 0;
  for (size_t i = 0; i < candidate.size(); ++i) {
    inOne += ++seen[candidate[i]] == 1 ? 1 : -1;
    inOne += ++seen[best[i]] == 1 ? 1 : -1;
    if (inOne == 0)
      cuts.push_back(i + 1);
  }
  if (cuts.size() <= 2 || cuts.size() > maxStretches + 1)
    return 0;
  unsigned taken = 0;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    if (std::equal(best.begin() + cuts[k], best.begin() + cuts[k + 1],
                   candidate.begin() + cuts[k]))
      continue;
    std::vector<NodeId> trial = best;
    std::copy(candidate.begin() + cuts[k], candidate.begin() + cuts[k + 1],
              trial.begin() + cuts[k]);
    std::vector<SizePoly> profile =
        getMemoryProfile(graph, trial, bufferSizes, transients);
    if (evaluateMax(profile, high) >= evaluateMax(bestProfile, high) ||
        proveMaxAtMost(profile, inputProfile, ranges, proofBudget).result !=
            ProofResult::Proved)
      continue;
    best = std::move(trial);
    bestProfile = std::move(profile);
    ++taken;
  }
  return taken;
}
