//===- SymbolicSizeTest.cpp - polynomial sizes, max comparison --*- C++ -*-===//

#include "Analysis/Graph/SymbolicSize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>

using namespace memsched_core;

namespace {
using U128 = unsigned __int128;

constexpr uint64_t kBaseSeed = 0x5171b0150ull;

const std::vector<std::string> kNames = {"N", "M", "K", "batch_size"};

/// A random polynomial built with the arithmetic (not fromTerms): up to
/// `maxTerms` terms of degree <= maxDegree over symbols < numSymbols,
/// coefficients in [0, maxCoef].
SizePoly randomPoly(std::mt19937_64 &rng, unsigned numSymbols,
                    unsigned maxDegree, uint64_t maxCoef, unsigned maxTerms) {
  SizePoly p;
  unsigned terms = rng() % (maxTerms + 1);
  for (unsigned t = 0; t < terms; ++t) {
    uint64_t coef = maxCoef == UINT64_MAX ? rng() : rng() % (maxCoef + 1);
    SizePoly term = SizePoly::constant(coef);
    unsigned degree = numSymbols ? rng() % (maxDegree + 1) : 0;
    for (unsigned d = 0; d < degree; ++d)
      term = term * SizePoly::symbol(rng() % numSymbols);
    p += term;
  }
  return p;
}

/// Each polynomial as a max of one.
std::vector<std::vector<SizePoly>> maxesOf(const std::vector<SizePoly> &v) {
  std::vector<std::vector<SizePoly>> out;
  for (const SizePoly &p : v)
    out.push_back({p});
  return out;
}

/// The exact value (the tests keep it below 2^128).
U128 exactValue(const SizePoly &p, const std::vector<uint64_t> &point) {
  U128 sum = 0;
  for (const SizePoly::Term &t : p.terms()) {
    U128 v = t.coef;
    for (SymbolId s : t.monomial)
      v *= point[s];
    sum += v;
  }
  return sum;
}

U128 exactMax(const std::vector<SizePoly> &polys,
              const std::vector<uint64_t> &point) {
  U128 m = 0;
  for (const SizePoly &p : polys)
    m = std::max(m, exactValue(p, point));
  return m;
}

bool violates(const std::vector<SizePoly> &lhs,
              const std::vector<SizePoly> &rhs,
              const std::vector<uint64_t> &point) {
  return exactMax(lhs, point) > exactMax(rhs, point);
}

/// Every point of the box [lo, hi] (hi inclusive), until `visit` returns
/// true; whether it did.
bool anyPoint(const std::vector<uint64_t> &lo, const std::vector<uint64_t> &hi,
              const std::function<bool(const std::vector<uint64_t> &)> &visit) {
  std::vector<uint64_t> x = lo;
  while (true) {
    if (visit(x))
      return true;
    size_t s = 0;
    for (; s < x.size(); ++s) {
      if (x[s] < hi[s]) {
        ++x[s];
        break;
      }
      x[s] = lo[s];
    }
    if (s == x.size())
      return false;
  }
}

bool inBox(const std::vector<uint64_t> &point,
           const std::vector<SymbolRange> &ranges) {
  if (point.size() != ranges.size())
    return false;
  for (size_t s = 0; s < ranges.size(); ++s)
    if (point[s] < ranges[s].lo || (ranges[s].hi && point[s] > *ranges[s].hi))
      return false;
  return true;
}

std::string describe(const std::vector<SizePoly> &lhs,
                     const std::vector<SizePoly> &rhs,
                     const std::vector<SymbolRange> &ranges) {
  auto side = [](const std::vector<SizePoly> &polys) {
    std::string out = "{";
    for (const SizePoly &p : polys)
      out += (out.size() > 1 ? ", " : "") + p.str(kNames);
    return out + "}";
  };
  std::string out = side(lhs) + " <= " + side(rhs) + " on";
  for (size_t s = 0; s < ranges.size(); ++s)
    out += " " + kNames[s] + " in [" + std::to_string(ranges[s].lo) + ", " +
           (ranges[s].hi ? std::to_string(*ranges[s].hi) : "inf") + "]";
  return out;
}

/// A random comparison where both answers are common: each lhs is random,
/// or an rhs with coefficients lowered and maybe a small term added.
void randomComparison(std::mt19937_64 &rng, unsigned numSymbols,
                      std::vector<SizePoly> &lhs, std::vector<SizePoly> &rhs) {
  rhs.clear();
  lhs.clear();
  unsigned nr = 1 + rng() % 5, nl = 1 + rng() % 5;
  for (unsigned j = 0; j < nr; ++j)
    rhs.push_back(randomPoly(rng, numSymbols, 2, 20, 4));
  for (unsigned i = 0; i < nl; ++i) {
    if (rng() % 2) {
      lhs.push_back(randomPoly(rng, numSymbols, 2, 20, 3));
      continue;
    }
    std::vector<SizePoly::Term> terms = rhs[rng() % nr].terms();
    for (SizePoly::Term &t : terms)
      t.coef -= rng() % (t.coef + 1);
    SizePoly p = SizePoly::fromTerms(terms);
    if (rng() % 2)
      p += randomPoly(rng, numSymbols, 2, 3, 1);
    lhs.push_back(p);
  }
}

std::vector<SymbolRange> randomBoundedRanges(std::mt19937_64 &rng,
                                             unsigned numSymbols) {
  std::vector<SymbolRange> ranges(numSymbols);
  for (SymbolRange &r : ranges) {
    r.lo = rng() % 4;
    r.hi = r.lo + rng() % 7;
  }
  return ranges;
}

std::vector<uint64_t> loCorner(const std::vector<SymbolRange> &ranges) {
  std::vector<uint64_t> lo;
  for (const SymbolRange &r : ranges)
    lo.push_back(r.lo);
  return lo;
}

std::vector<uint64_t> hiCorner(const std::vector<SymbolRange> &ranges,
                               uint64_t prefix) {
  std::vector<uint64_t> hi;
  for (const SymbolRange &r : ranges)
    hi.push_back(r.hi ? *r.hi : std::max(r.lo, prefix));
  return hi;
}

SizePoly parsed(const std::string &text) {
  std::string why;
  std::optional<SizePoly> p = parseSizePoly(text, kNames, &why);
  EXPECT_TRUE(p.has_value()) << text << ": " << why;
  return p ? *p : SizePoly();
}
} // namespace

//===----------------------------------------------------------------------===//
// SizePoly
//===----------------------------------------------------------------------===//

TEST(SymbolicSize, CanonicalForm) {
  SizePoly n = SizePoly::symbol(0), m = SizePoly::symbol(1);
  SizePoly one = SizePoly::constant(1);
  EXPECT_TRUE(SizePoly().isZero());
  EXPECT_TRUE(SizePoly::constant(0).isZero());
  EXPECT_TRUE(SizePoly::symbol(3, 0).isZero());
  EXPECT_TRUE(n.scaled(0).isZero());

  SizePoly sq = (n + one) * (n + one);
  std::vector<SizePoly::Term> expected = {{1, {}}, {2, {0}}, {1, {0, 0}}};
  EXPECT_EQ(sq.terms(), expected);
  EXPECT_EQ((m * n).terms(), (std::vector<SizePoly::Term>{{1, {0, 1}}}));
  EXPECT_EQ(m * n, n * m);
  EXPECT_EQ(sq.constantTerm(), 1u);
  EXPECT_EQ((n * m).constantTerm(), 0u);
  EXPECT_FALSE(sq.isConstant());
  EXPECT_TRUE(SizePoly::constant(7).isConstant());
  EXPECT_TRUE(SizePoly().isConstant());
  EXPECT_EQ(SizePoly::constant(7).constantTerm(), 7u);
  EXPECT_EQ(SizePoly().numSymbolsUsed(), 0u);
  EXPECT_EQ(SizePoly::constant(3).numSymbolsUsed(), 0u);
  EXPECT_EQ((n * SizePoly::symbol(3)).numSymbolsUsed(), 4u);

  SizePoly acc = n;
  acc += n.scaled(3);
  acc += SizePoly::constant(5);
  EXPECT_EQ(acc.terms(), (std::vector<SizePoly::Term>{{5, {}}, {4, {0}}}));
  EXPECT_EQ(acc, SizePoly::constant(5) + SizePoly::symbol(0, 4));
  EXPECT_NE(acc, SizePoly::constant(5) + SizePoly::symbol(1, 4));

  SizePoly built = SizePoly::fromTerms(
      {{2, {1, 0}}, {0, {2}}, {3, {}}, {1, {0, 1}}, {4, {0, 0}}});
  EXPECT_EQ(built.terms(),
            (std::vector<SizePoly::Term>{{3, {}}, {4, {0, 0}}, {3, {0, 1}}}));

  // Laws, on random polynomials small enough not to saturate.
  for (uint64_t k = 0; k < 500; ++k) {
    uint64_t seed = kBaseSeed + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    SizePoly a = randomPoly(rng, 3, 3, 50, 4), b = randomPoly(rng, 3, 3, 50, 4),
             c = randomPoly(rng, 3, 3, 50, 4);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ((a + b) * c, a * c + b * c);
    EXPECT_EQ(a.scaled(3), a * SizePoly::constant(3));
    EXPECT_EQ(a * SizePoly::constant(1), a);
    EXPECT_TRUE((a * SizePoly()).isZero());
    EXPECT_EQ(SizePoly::fromTerms(a.terms()), a);
    for (size_t i = 1; i < a.terms().size(); ++i)
      EXPECT_LT(a.terms()[i - 1].monomial, a.terms()[i].monomial);
    for (const SizePoly::Term &t : a.terms()) {
      EXPECT_NE(t.coef, 0u);
      EXPECT_TRUE(std::is_sorted(t.monomial.begin(), t.monomial.end()));
    }
    std::vector<uint64_t> x = {rng() % 30, rng() % 30, rng() % 30};
    EXPECT_EQ((a * b).evaluate(x), a.evaluate(x) * b.evaluate(x));
    EXPECT_EQ((a + b).evaluate(x), a.evaluate(x) + b.evaluate(x));
  }
}

TEST(SymbolicSize, EvaluateAndSaturation) {
  SizePoly p = parsed("4*N*M + 2*N^2 + 128");
  EXPECT_EQ(p.evaluate({3, 5}), 4u * 3 * 5 + 2u * 3 * 3 + 128);
  EXPECT_EQ(p.evaluate({0, 0}), 128u);
  EXPECT_EQ(p.evaluate({0, 1000}), 128u);
  EXPECT_EQ(SizePoly().evaluate({}), 0u);
  SizePoly k3 = parsed("K^3 + 1");
  EXPECT_EQ(k3.evaluate({9, 9, 10}), 1001u);

  const uint64_t max = UINT64_MAX;
  EXPECT_EQ(SizePoly::constant(max) + SizePoly::constant(1),
            SizePoly::constant(max));
  EXPECT_EQ(SizePoly::constant(max).scaled(2), SizePoly::constant(max));
  SizePoly big = SizePoly::symbol(0, uint64_t{1} << 40);
  EXPECT_EQ((big * big).terms(), (std::vector<SizePoly::Term>{{max, {0, 0}}}));
  SizePoly sq = parsed("N^2");
  EXPECT_EQ(sq.evaluate({(uint64_t{1} << 32) - 1}),
            ((uint64_t{1} << 32) - 1) * ((uint64_t{1} << 32) - 1));
  EXPECT_EQ(sq.evaluate({uint64_t{1} << 32}), max);
  EXPECT_EQ(SizePoly::symbol(0, uint64_t{1} << 63).evaluate({2}), max);
  EXPECT_EQ(parsed("18446744073709551615 + N").evaluate({1}), max);
  // A saturated product times a zero symbol is zero.
  EXPECT_EQ(parsed("18446744073709551615*N^4*M").evaluate({1u << 20, 0}), 0u);
}

TEST(SymbolicSize, Str) {
  EXPECT_EQ(parsed("4*N*M + 2*N^2 + 128").str(kNames), "2*N^2 + 4*N*M + 128");
  EXPECT_EQ(SizePoly().str(kNames), "0");
  EXPECT_EQ(SizePoly::constant(1).str(kNames), "1");
  EXPECT_EQ(SizePoly::symbol(0).str(kNames), "N");
  EXPECT_EQ(SizePoly::symbol(3, 8).str(kNames), "8*batch_size");
  EXPECT_EQ((parsed("N^3") * SizePoly::symbol(1)).str(kNames), "N^3*M");
  EXPECT_EQ(parsed("M + N + K^2 + 1 + N*K").str(kNames),
            "N*K + K^2 + N + M + 1");
  EXPECT_EQ(SizePoly::symbol(5, 2).str(kNames), "2*$5");
}

TEST(SymbolicSize, StrParseRoundTrip) {
  for (uint64_t k = 0; k < 5000; ++k) {
    uint64_t seed = kBaseSeed + k;
    std::mt19937_64 rng(seed);
    SizePoly p = randomPoly(rng, 4, 4, k % 3 ? 1000 : UINT64_MAX, 6);
    std::string text = p.str(kNames);
    SCOPED_TRACE("seed=" + std::to_string(seed) + " text=" + text);
    std::string why;
    std::optional<SizePoly> back = parseSizePoly(text, kNames, &why);
    ASSERT_TRUE(back.has_value()) << why;
    EXPECT_EQ(*back, p);
  }
}

// Other spellings of the same polynomial: factors shuffled, powers written
// as products, coefficients split in two terms, whitespace anywhere between
// tokens, terms in any order.
TEST(SymbolicSize, ParseVariants) {
  const char *spaces[] = {"", "", " ", "  ", "\t"};
  for (uint64_t k = 0; k < 3000; ++k) {
    uint64_t seed = kBaseSeed + k;
    std::mt19937_64 rng(seed);
    SizePoly p = randomPoly(rng, 4, 4, 1000, 6);
    std::vector<std::vector<std::string>> terms;
    for (const SizePoly::Term &t : p.terms()) {
      uint64_t part = t.coef > 1 && rng() % 3 == 0 ? rng() % t.coef : 0;
      for (uint64_t coef : {t.coef - part, part}) {
        if (!coef)
          continue;
        std::vector<std::string> factors;
        if (coef % 2 == 0 && rng() % 2) {
          factors.push_back("2");
          factors.push_back(std::to_string(coef / 2));
        } else if (coef != 1 || t.monomial.empty() || rng() % 2) {
          factors.push_back(std::to_string(coef));
        }
        for (SymbolId s : t.monomial) {
          // Each occurrence alone, or merged into a power with the next
          // equal ones.
          if (!factors.empty() && rng() % 2 &&
              factors.back().rfind(kNames[s], 0) == 0 &&
              factors.back().size() > kNames[s].size() &&
              factors.back()[kNames[s].size()] == '^') {
            std::string &f = factors.back();
            uint64_t e = std::stoull(f.substr(kNames[s].size() + 1));
            f = kNames[s] + "^" + std::to_string(e + 1);
          } else if (!factors.empty() && rng() % 2 &&
                     factors.back() == kNames[s]) {
            factors.back() = kNames[s] + "^2";
          } else {
            factors.push_back(kNames[s]);
          }
        }
        std::shuffle(factors.begin(), factors.end(), rng);
        terms.push_back(std::move(factors));
      }
    }
    std::shuffle(terms.begin(), terms.end(), rng);
    auto space = [&] { return std::string(spaces[rng() % 5]); };
    std::string text = space();
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i)
        text += space() + "+" + space();
      for (size_t f = 0; f < terms[i].size(); ++f) {
        if (f)
          text += space() + "*" + space();
        std::string factor = terms[i][f];
        size_t caret = factor.find('^');
        if (caret != std::string::npos)
          factor = factor.substr(0, caret) + space() + "^" + space() +
                   factor.substr(caret + 1);
        text += factor;
      }
    }
    if (terms.empty())
      text += "0";
    text += space();
    SCOPED_TRACE("seed=" + std::to_string(seed) + " text=" + text);
    std::string why;
    std::optional<SizePoly> back = parseSizePoly(text, kNames, &why);
    ASSERT_TRUE(back.has_value()) << why;
    EXPECT_EQ(*back, p) << back->str(kNames) << " vs " << p.str(kNames);
  }
}

TEST(SymbolicSize, ParseSpecialForms) {
  EXPECT_EQ(parsed(" 4 * N * M+2*N ^ 2+128 "), parsed("4*N*M + 2*N^2 + 128"));
  EXPECT_EQ(parsed("M*N"), SizePoly::symbol(0) * SizePoly::symbol(1));
  EXPECT_EQ(parsed("N*2*M + N*M"),
            (SizePoly::symbol(0) * SizePoly::symbol(1)).scaled(3));
  EXPECT_EQ(parsed("N*N*N"), parsed("N^3"));
  EXPECT_EQ(parsed("N^0"), SizePoly::constant(1));
  EXPECT_EQ(parsed("2^10*N"), SizePoly::symbol(0, 1024));
  EXPECT_EQ(parsed("0"), SizePoly());
  EXPECT_EQ(parsed("0*N + 3"), SizePoly::constant(3));
  EXPECT_EQ(parsed("18446744073709551615"), SizePoly::constant(UINT64_MAX));
  EXPECT_EQ(parsed("2^63*N"), SizePoly::symbol(0, uint64_t{1} << 63));
  EXPECT_EQ(parsed("batch_size*8"), SizePoly::symbol(3, 8));
  std::vector<std::string> odd = {"%arg0", "d.1"};
  std::optional<SizePoly> p = parseSizePoly("2*%arg0*d.1 + %arg0", odd);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->str(odd), "2*%arg0*d.1 + %arg0");
}

TEST(SymbolicSize, ParseErrors) {
  struct Case {
    const char *text;
    const char *inMessage;
  };
  const Case cases[] = {
      {"", "empty"},
      {"   ", "empty"},
      {"N +", "expected a number or a name"},
      {"+ N", "expected a number or a name"},
      {"N + Q", "unknown name 'Q'"},
      {"N*Mx", "unknown name 'Mx'"},
      {"N M", "expected '+'"},
      {"2N", "expected '+'"},
      {"N^", "expected a number"},
      {"N^x", "expected a number"},
      {"N**2", "expected a number or a name"},
      {"N*", "expected a number or a name"},
      {"(N)", "expected a number or a name"},
      {"N - 1", "expected '+'"},
      {"N^1000", "exponent"},
      {"18446744073709551616", "too large"},
      {"18446744073709551615 + 1", "overflow"},
      {"4294967296*4294967296", "overflow"},
      {"2^64", "overflow"},
      {"9223372036854775808*N + 9223372036854775808*N", "overflow"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string("text=") + c.text);
    std::string why;
    EXPECT_FALSE(parseSizePoly(c.text, kNames, &why).has_value());
    EXPECT_NE(why.find(c.inMessage), std::string::npos) << why;
    EXPECT_FALSE(parseSizePoly(c.text, kNames).has_value());
  }
}

TEST(SymbolicSize, DominanceAndPruning) {
  EXPECT_TRUE(parsed("N + 5").isDominatedBy(parsed("2*N + 5")));
  EXPECT_FALSE(parsed("N + 6").isDominatedBy(parsed("2*N + 5")));
  EXPECT_FALSE(parsed("N*M").isDominatedBy(parsed("N^2 + M^2")));
  EXPECT_TRUE(SizePoly().isDominatedBy(SizePoly()));
  EXPECT_EQ(pruneDominated({}), std::vector<SizePoly>{});

  for (uint64_t k = 0; k < 3000; ++k) {
    uint64_t seed = kBaseSeed + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<SizePoly> polys;
    unsigned n = 1 + rng() % 8;
    for (unsigned i = 0; i < n; ++i) {
      if (i && rng() % 4 == 0)
        polys.push_back(polys[rng() % i]);
      else
        polys.push_back(randomPoly(rng, 2, 1, 3, 3));
    }
    // Dominance against its definition.
    for (const SizePoly &a : polys) {
      for (const SizePoly &b : polys) {
        std::map<std::vector<SymbolId>, uint64_t> coefOfB;
        for (const SizePoly::Term &t : b.terms())
          coefOfB[t.monomial] = t.coef;
        bool expected = true;
        for (const SizePoly::Term &t : a.terms())
          expected &=
              coefOfB.count(t.monomial) && coefOfB[t.monomial] >= t.coef;
        EXPECT_EQ(a.isDominatedBy(b), expected);
        if (expected) {
          std::vector<uint64_t> x = {rng() % 50, rng() % 50};
          EXPECT_LE(a.evaluate(x), b.evaluate(x));
        }
      }
    }
    std::vector<SizePoly> expected;
    for (size_t i = 0; i < n; ++i) {
      bool dominated = false;
      for (size_t j = 0; j < n; ++j)
        dominated |= j != i && polys[i].isDominatedBy(polys[j]) &&
                     (polys[i] != polys[j] || j < i);
      if (!dominated)
        expected.push_back(polys[i]);
    }
    EXPECT_EQ(pruneDominated(polys), expected);
  }
}

//===----------------------------------------------------------------------===//
// proveMaxAtMost
//===----------------------------------------------------------------------===//

TEST(SymbolicSizeProve, BoundedMatchesBruteForce) {
  unsigned proved = 0, refuted = 0;
  for (uint64_t k = 0; k < 4000; ++k) {
    uint64_t seed = kBaseSeed + k;
    std::mt19937_64 rng(seed);
    unsigned numSymbols = 1 + rng() % 3;
    std::vector<SizePoly> lhs, rhs;
    randomComparison(rng, numSymbols, lhs, rhs);
    std::vector<SymbolRange> ranges = randomBoundedRanges(rng, numSymbols);
    SCOPED_TRACE("seed=" + std::to_string(seed) + " " +
                 describe(lhs, rhs, ranges));
    bool violated = anyPoint(
        loCorner(ranges), hiCorner(ranges, 0),
        [&](const std::vector<uint64_t> &x) { return violates(lhs, rhs, x); });
    MaxComparison r = proveMaxAtMost(lhs, rhs, ranges, 10'000'000);
    ASSERT_NE(r.result, ProofResult::Unknown);
    if (violated) {
      ASSERT_EQ(r.result, ProofResult::Refuted);
      EXPECT_TRUE(inBox(r.counterexample, ranges));
      EXPECT_TRUE(violates(lhs, rhs, r.counterexample));
      ++refuted;
    } else {
      EXPECT_EQ(r.result, ProofResult::Proved);
      ++proved;
    }
  }
  // Both answers are well represented.
  EXPECT_GT(proved, 800u);
  EXPECT_GT(refuted, 800u);
}

TEST(SymbolicSizeProve, TinyBudgetNeverWrong) {
  unsigned unknown = 0, decided = 0;
  for (uint64_t k = 0; k < 4000; ++k) {
    uint64_t seed = kBaseSeed + k;
    std::mt19937_64 rng(seed);
    unsigned numSymbols = 1 + rng() % 3;
    std::vector<SizePoly> lhs, rhs;
    randomComparison(rng, numSymbols, lhs, rhs);
    std::vector<SymbolRange> ranges = randomBoundedRanges(rng, numSymbols);
    uint64_t budget = rng() % 40;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " budget=" +
                 std::to_string(budget) + " " + describe(lhs, rhs, ranges));
    MaxComparison r = proveMaxAtMost(lhs, rhs, ranges, budget);
    if (r.result == ProofResult::Unknown) {
      ++unknown;
      continue;
    }
    ++decided;
    if (r.result == ProofResult::Refuted) {
      EXPECT_TRUE(inBox(r.counterexample, ranges));
      EXPECT_TRUE(violates(lhs, rhs, r.counterexample));
    } else {
      EXPECT_FALSE(anyPoint(loCorner(ranges), hiCorner(ranges, 0),
                            [&](const std::vector<uint64_t> &x) {
                              return violates(lhs, rhs, x);
                            }));
    }
  }
  EXPECT_GT(unknown, 0u);
  EXPECT_GT(decided, 0u);
}

TEST(SymbolicSizeProve, UnboundedEasyCases) {
  std::vector<SymbolRange> n0 = {{0, std::nullopt}};
  auto prove = [](std::vector<const char *> l, std::vector<const char *> r,
                  const std::vector<SymbolRange> &ranges) {
    std::vector<SizePoly> lhs, rhs;
    for (const char *t : l)
      lhs.push_back(parsed(t));
    for (const char *t : r)
      rhs.push_back(parsed(t));
    return proveMaxAtMost(lhs, rhs, ranges, 100'000);
  };
  EXPECT_EQ(prove({"N + 5"}, {"2*N + 5"}, n0).result, ProofResult::Proved);
  EXPECT_EQ(prove({"3*N", "100"}, {"3*N + 100"}, n0).result,
            ProofResult::Proved);
  // Needs N >= 5: the lower bound of an unbounded symbol is used.
  EXPECT_EQ(prove({"N + 5"}, {"2*N"}, {{5, std::nullopt}}).result,
            ProofResult::Proved);
  EXPECT_NE(prove({"N + 6"}, {"2*N"}, {{5, std::nullopt}}).result,
            ProofResult::Proved);
  // A bounded symbol next to an unbounded one, split until each part holds
  // (M = 0 by the first rhs, M >= 1 by the second); and false with M in
  // place of 10*M (N = 1, M = 5).
  std::vector<SymbolRange> nm = {{0, std::nullopt}, {0, 20}};
  EXPECT_EQ(prove({"N*M + 10"}, {"4*N + 10", "N*M + 10*M"}, nm).result,
            ProofResult::Proved);
  MaxComparison mid = prove({"N*M + 10"}, {"4*N + 10", "N*M + M"}, nm);
  ASSERT_EQ(mid.result, ProofResult::Refuted);
  EXPECT_TRUE(violates({parsed("N*M + 10")},
                       {parsed("4*N + 10"), parsed("N*M + M")},
                       mid.counterexample));

  MaxComparison atLo = prove({"N + 10"}, {"2*N"}, n0);
  EXPECT_EQ(atLo.result, ProofResult::Refuted);
  EXPECT_EQ(atLo.counterexample, std::vector<uint64_t>{0});
  // False only beyond 100: found by a probe of larger values.
  MaxComparison far = prove({"N^2"}, {"100*N"}, n0);
  ASSERT_EQ(far.result, ProofResult::Refuted);
  EXPECT_GT(exactValue(parsed("N^2"), far.counterexample),
            exactValue(parsed("100*N"), far.counterexample));
  // True, but no single rhs bounds N*M on the whole quadrant: not provable
  // with unbounded symbols, proved when both are bounded.
  EXPECT_EQ(
      prove({"N*M"}, {"N^2", "M^2"}, {{0, std::nullopt}, {0, std::nullopt}})
          .result,
      ProofResult::Unknown);
  EXPECT_EQ(prove({"N*M"}, {"N^2", "M^2"}, {{0, 10}, {0, 10}}).result,
            ProofResult::Proved);
}

TEST(SymbolicSizeProve, UnboundedRandomSound) {
  unsigned proved = 0, refuted = 0;
  for (uint64_t k = 0; k < 1500; ++k) {
    uint64_t seed = kBaseSeed + k;
    std::mt19937_64 rng(seed);
    unsigned numSymbols = 1 + rng() % 3;
    std::vector<SizePoly> lhs, rhs;
    randomComparison(rng, numSymbols, lhs, rhs);
    std::vector<SymbolRange> ranges = randomBoundedRanges(rng, numSymbols);
    unsigned numUnbounded = 0;
    for (SymbolRange &r : ranges) {
      if (rng() % 2 && numUnbounded < 2) {
        r.hi.reset();
        ++numUnbounded;
      }
    }
    if (!numUnbounded) {
      ranges[0].hi.reset();
      numUnbounded = 1;
    }
    SCOPED_TRACE("seed=" + std::to_string(seed) + " " +
                 describe(lhs, rhs, ranges));
    MaxComparison r = proveMaxAtMost(lhs, rhs, ranges, 1'000'000);
    if (r.result == ProofResult::Refuted) {
      ++refuted;
      EXPECT_TRUE(inBox(r.counterexample, ranges));
      EXPECT_TRUE(violates(lhs, rhs, r.counterexample));
    } else if (r.result == ProofResult::Proved) {
      ++proved;
      // A necessary condition: no violation on a finite prefix.
      uint64_t prefix = numUnbounded == 1 ? 200 : 60;
      EXPECT_FALSE(anyPoint(loCorner(ranges), hiCorner(ranges, prefix),
                            [&](const std::vector<uint64_t> &x) {
                              return violates(lhs, rhs, x);
                            }));
    }
  }
  EXPECT_GT(proved, 150u);
  EXPECT_GT(refuted, 150u);
}

TEST(SymbolicSizeProve, EdgeCases) {
  std::vector<SymbolRange> n5 = {{0, 5}};
  SizePoly n = SizePoly::symbol(0);
  // Empty sides are 0.
  EXPECT_EQ(proveMaxAtMost({}, {n}, n5, 100).result, ProofResult::Proved);
  EXPECT_EQ(proveMaxAtMost({}, {}, {}, 100).result, ProofResult::Proved);
  EXPECT_EQ(proveMaxAtMost({SizePoly()}, {}, n5, 100).result,
            ProofResult::Proved);
  MaxComparison r = proveMaxAtMost({n}, {}, n5, 1000);
  ASSERT_EQ(r.result, ProofResult::Refuted);
  ASSERT_EQ(r.counterexample.size(), 1u);
  EXPECT_GE(r.counterexample[0], 1u);
  // No symbol at all.
  EXPECT_EQ(
      proveMaxAtMost({SizePoly::constant(3)}, {SizePoly::constant(2)}, {}, 100)
          .result,
      ProofResult::Refuted);
  // An empty box holds anything.
  EXPECT_EQ(proveMaxAtMost({n}, {}, {{5, 4}}, 100).result, ProofResult::Proved);
  // A symbol no polynomial uses is not split.
  MaxComparison unused = proveMaxAtMost({parsed("N + 1")}, {parsed("2*N")},
                                        {{1, 1u << 20}, {0, UINT64_MAX}}, 1000);
  EXPECT_EQ(unused.result, ProofResult::Proved);
  // The work spent is reported, and the budget stops the search.
  MaxComparison hard =
      proveMaxAtMost({parsed("N*M")}, {parsed("N^2"), parsed("M^2")},
                     {{0, 1000}, {0, 1000}}, 100);
  EXPECT_EQ(hard.result, ProofResult::Unknown);
  EXPECT_GT(hard.work, 100u);
  MaxComparison easy =
      proveMaxAtMost({parsed("N*M")}, {parsed("N^2"), parsed("M^2")},
                     {{0, 10}, {0, 10}}, 1'000'000);
  EXPECT_EQ(easy.result, ProofResult::Proved);
  EXPECT_GT(easy.work, 0u);
  EXPECT_LE(easy.work, 1'000'000u);
  // Deterministic.
  MaxComparison again =
      proveMaxAtMost({parsed("N*M")}, {parsed("N^2"), parsed("M^2")},
                     {{0, 10}, {0, 10}}, 1'000'000);
  EXPECT_EQ(again.work, easy.work);
}

// Values beyond 2^128 never decide wrongly.
TEST(SymbolicSizeProve, Saturation) {
  const uint64_t big = uint64_t{1} << 63, x = uint64_t{1} << 40;
  std::vector<SymbolRange> point = {{x, x}};
  SizePoly huge = SizePoly::constant(big) * parsed("N^2"); // 2^143 at x
  SizePoly five = SizePoly::constant(5);
  MaxComparison r = proveMaxAtMost({huge}, {five}, point, 1000);
  EXPECT_EQ(r.result, ProofResult::Refuted);
  EXPECT_EQ(r.counterexample, std::vector<uint64_t>{x});
  EXPECT_EQ(proveMaxAtMost({five}, {huge}, point, 1000).result,
            ProofResult::Proved);
  EXPECT_EQ(proveMaxAtMost({huge}, {huge + SizePoly::constant(1)}, point, 1000)
                .result,
            ProofResult::Proved);
  // Both sides beyond 2^128 and the difference in the low bits: false, but
  // not decidable in 128 bits.
  EXPECT_EQ(proveMaxAtMost({huge + SizePoly::constant(1)}, {huge}, point, 1000)
                .result,
            ProofResult::Unknown);
  // Over the whole range of 64-bit values.
  std::vector<SymbolRange> all = {{1, UINT64_MAX}};
  EXPECT_EQ(
      proveMaxAtMost({parsed("N + 1")}, {parsed("2*N")}, all, 1000).result,
      ProofResult::Proved);
  MaxComparison wide =
      proveMaxAtMost({parsed("2*N")}, {parsed("N + 1000")}, all, 100'000);
  ASSERT_EQ(wide.result, ProofResult::Refuted);
  EXPECT_GT(wide.counterexample[0], 1000u);
}

//===----------------------------------------------------------------------===//
// getMemoryProfile
//===----------------------------------------------------------------------===//

namespace {
/// The shape of a random graph; sizes and transients come separately.
struct GraphShape {
  unsigned numNodes = 0;
  std::vector<std::pair<NodeId, NodeId>> edges;
  struct Buf {
    std::vector<NodeId> touchers;
    bool liveIn = false, liveOut = false;
  };
  std::vector<Buf> buffers;
};

GraphShape randomShape(std::mt19937_64 &rng) {
  GraphShape g;
  g.numNodes = 1 + rng() % 10;
  for (NodeId a = 0; a < g.numNodes; ++a)
    for (NodeId b = a + 1; b < g.numNodes; ++b)
      if (rng() % 4 == 0)
        g.edges.push_back({a, b});
  unsigned numBuffers = rng() % 9;
  for (unsigned b = 0; b < numBuffers; ++b) {
    GraphShape::Buf buf;
    unsigned touches = rng() % 4;
    for (unsigned t = 0; t < touches; ++t)
      buf.touchers.push_back(rng() % g.numNodes);
    buf.liveIn = rng() % 4 == 0;
    buf.liveOut = rng() % 4 == 0;
    g.buffers.push_back(buf);
  }
  return g;
}

MemoryGraph buildGraph(const GraphShape &shape,
                       const std::vector<uint64_t> &sizes,
                       const std::vector<uint64_t> &transients) {
  MemoryGraph g;
  for (NodeId n = 0; n < shape.numNodes; ++n)
    g.addNode(transients.empty() ? 0 : transients[n]);
  for (size_t b = 0; b < shape.buffers.size(); ++b) {
    BufferId id = g.addBuffer(sizes[b], shape.buffers[b].liveIn,
                              shape.buffers[b].liveOut);
    for (NodeId t : shape.buffers[b].touchers)
      g.addTouch(id, t);
  }
  for (auto [a, b] : shape.edges)
    g.addEdge(a, b);
  g.finalize();
  return g;
}

/// A random topological order.
std::vector<NodeId> randomOrder(const MemoryGraph &g, std::mt19937_64 &rng) {
  std::vector<unsigned> preds(g.numNodes());
  std::vector<NodeId> ready, order;
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (!(preds[n] = g.preds(n).size()))
      ready.push_back(n);
  while (!ready.empty()) {
    size_t pick = rng() % ready.size();
    NodeId n = ready[pick];
    ready.erase(ready.begin() + pick);
    order.push_back(n);
    for (NodeId s : g.succs(n))
      if (!--preds[s])
        ready.push_back(s);
  }
  return order;
}

/// Memory at each position, unpruned, summed with the polynomial arithmetic.
std::vector<SizePoly> naiveProfile(const MemoryGraph &g,
                                   const std::vector<NodeId> &order,
                                   const std::vector<SizePoly> &sizes,
                                   const std::vector<SizePoly> &transients) {
  size_t n = order.size();
  std::vector<size_t> pos(n);
  for (size_t i = 0; i < n; ++i)
    pos[order[i]] = i;
  std::vector<SizePoly> profile(n);
  for (size_t i = 0; i < n; ++i) {
    if (!transients.empty())
      profile[i] += transients[order[i]];
    for (BufferId b = 0; b < g.numBuffers(); ++b) {
      const GraphBuffer &buf = g.buffer(b);
      bool liveBefore = buf.liveIn, liveAfter = buf.liveOut;
      bool here = false;
      for (NodeId t : buf.touchers) {
        liveBefore |= pos[t] <= i;
        liveAfter |= pos[t] >= i;
        here |= pos[t] == i;
      }
      if (here || (liveBefore && liveAfter))
        profile[i] += sizes[b];
    }
  }
  return profile;
}
} // namespace

TEST(SymbolicSizeProfile, ConstantMatchesEvaluatePeak) {
  for (uint64_t k = 0; k < 2000; ++k) {
    uint64_t seed = kBaseSeed + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    GraphShape shape = randomShape(rng);
    std::vector<uint64_t> sizes, transients;
    for (size_t b = 0; b < shape.buffers.size(); ++b)
      sizes.push_back(rng() % 3 ? rng() % 50 : 0);
    if (rng() % 2)
      for (NodeId n = 0; n < shape.numNodes; ++n)
        transients.push_back(rng() % 2 ? rng() % 20 : 0);
    MemoryGraph g = buildGraph(shape, sizes, transients);
    std::vector<NodeId> order = k % 2 ? g.programOrder() : randomOrder(g, rng);
    ASSERT_TRUE(g.isValidOrder(order));
    std::vector<SizePoly> sizePolys, transientPolys;
    for (uint64_t s : sizes)
      sizePolys.push_back(SizePoly::constant(s));
    for (uint64_t t : transients)
      transientPolys.push_back(SizePoly::constant(t));
    std::vector<SizePoly> profile =
        getMemoryProfile(g, order, sizePolys, maxesOf(transientPolys));
    ASSERT_EQ(profile.size(), 1u);
    EXPECT_TRUE(profile[0].isConstant());
    EXPECT_EQ(profile[0].constantTerm(), evaluatePeak(g, order));
  }
}

TEST(SymbolicSizeProfile, SymbolicMatchesEvaluatePeak) {
  for (uint64_t k = 0; k < 1500; ++k) {
    uint64_t seed = kBaseSeed + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    GraphShape shape = randomShape(rng);
    std::vector<SizePoly> sizes, transients;
    for (size_t b = 0; b < shape.buffers.size(); ++b)
      sizes.push_back(randomPoly(rng, 2, 2, 10, 3));
    if (rng() % 2)
      for (NodeId n = 0; n < shape.numNodes; ++n)
        transients.push_back(randomPoly(rng, 2, 1, 5, 2));
    MemoryGraph g = buildGraph(shape, std::vector<uint64_t>(sizes.size()), {});
    std::vector<NodeId> order = k % 2 ? g.programOrder() : randomOrder(g, rng);
    std::vector<SizePoly> profile =
        getMemoryProfile(g, order, sizes, maxesOf(transients));
    ASSERT_FALSE(profile.empty());

    // Pruned: no member dominates another; every position's memory is
    // dominated by a member, and every member is some position's memory.
    std::vector<SizePoly> naive = naiveProfile(g, order, sizes, transients);
    for (size_t a = 0; a < profile.size(); ++a)
      for (size_t b = 0; b < profile.size(); ++b)
        EXPECT_TRUE(a == b || !profile[a].isDominatedBy(profile[b]));
    for (const SizePoly &p : naive)
      EXPECT_TRUE(
          std::any_of(profile.begin(), profile.end(),
                      [&](const SizePoly &q) { return p.isDominatedBy(q); }))
          << p.str(kNames);
    for (const SizePoly &q : profile)
      EXPECT_NE(std::find(naive.begin(), naive.end(), q), naive.end());

    // At points, its max is the peak of the graph with the sizes there.
    for (unsigned t = 0; t < 8; ++t) {
      std::vector<uint64_t> x = {rng() % 20, rng() % 20};
      std::vector<uint64_t> numeric, transientBytes;
      for (const SizePoly &s : sizes)
        numeric.push_back(s.evaluate(x));
      for (const SizePoly &s : transients)
        transientBytes.push_back(s.evaluate(x));
      uint64_t expected =
          transients.empty()
              ? evaluatePeak(withBufferSizes(g, numeric), order)
              : evaluatePeak(buildGraph(shape, numeric, transientBytes), order);
      uint64_t got = 0;
      for (const SizePoly &p : profile)
        got = std::max(got, p.evaluate(x));
      EXPECT_EQ(got, expected);
    }
  }
}

// A node's transient bytes as the max of several polynomials (a loop whose
// body's peak is such a max): at points, the profile's max is the peak of
// the graph with each transient the largest alternative there, and the
// floors' max the largest floor.
TEST(SymbolicSizeProfile, TransientMaxesMatchEvaluatePeak) {
  for (uint64_t k = 0; k < 1500; ++k) {
    uint64_t seed = kBaseSeed + 30000 + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    GraphShape shape = randomShape(rng);
    std::vector<SizePoly> sizes;
    for (size_t b = 0; b < shape.buffers.size(); ++b)
      sizes.push_back(randomPoly(rng, 2, 2, 10, 3));
    std::vector<std::vector<SizePoly>> transients(shape.numNodes);
    for (auto &alternatives : transients)
      for (unsigned a = rng() % 4; a > 0; --a)
        alternatives.push_back(randomPoly(rng, 2, 2, 8, 2));
    MemoryGraph g = buildGraph(shape, std::vector<uint64_t>(sizes.size()), {});
    std::vector<NodeId> order = k % 2 ? g.programOrder() : randomOrder(g, rng);
    std::vector<SizePoly> profile =
        getMemoryProfile(g, order, sizes, transients);
    std::vector<SizePoly> floors = getNodeFloors(g, sizes, transients);
    for (unsigned t = 0; t < 8; ++t) {
      std::vector<uint64_t> x = {rng() % 20, rng() % 20};
      std::vector<uint64_t> numeric, transientBytes;
      for (const SizePoly &s : sizes)
        numeric.push_back(s.evaluate(x));
      for (const auto &alternatives : transients)
        transientBytes.push_back(evaluateMax(alternatives, x));
      MemoryGraph atX = buildGraph(shape, numeric, transientBytes);
      EXPECT_EQ(evaluateMax(profile, x), evaluatePeak(atX, order));
      // The largest floor: a node's buffers and its transient there.
      uint64_t floor = 0;
      for (NodeId v = 0; v < g.numNodes(); ++v) {
        uint64_t f = transientBytes[v];
        for (BufferId b : g.buffersOf(v))
          f += numeric[b];
        floor = std::max(floor, f);
      }
      bool throughout = false;
      for (BufferId b = 0; b < g.numBuffers(); ++b)
        throughout |= g.buffer(b).liveIn && g.buffer(b).liveOut;
      if (!throughout)
        EXPECT_EQ(evaluateMax(floors, x), floor);
    }
  }
}

// The floors are below the peak of every valid order at every point: at
// random points, the max of the floors against the least peak over all
// orders (every permutation of up to 7 nodes, the invalid ones skipped).
// They meet it on most of these small graphs.
TEST(SymbolicSizeProfile, NodeFloorsBelowEveryOrder) {
  unsigned tight = 0;
  for (uint64_t k = 0; k < 1500; ++k) {
    uint64_t seed = kBaseSeed + 7000 + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    GraphShape shape = randomShape(rng);
    if (shape.numNodes > 7)
      shape.numNodes = 7, shape.edges.clear();
    for (GraphShape::Buf &b : shape.buffers)
      for (NodeId &t : b.touchers)
        t %= shape.numNodes;
    std::vector<SizePoly> sizes, transients;
    for (size_t b = 0; b < shape.buffers.size(); ++b)
      sizes.push_back(randomPoly(rng, 2, 2, 10, 3));
    if (rng() % 2)
      for (NodeId n = 0; n < shape.numNodes; ++n)
        transients.push_back(randomPoly(rng, 2, 1, 5, 2));
    MemoryGraph g = buildGraph(shape, std::vector<uint64_t>(sizes.size()), {});
    std::vector<SizePoly> floors = getNodeFloors(g, sizes, maxesOf(transients));
    ASSERT_FALSE(floors.empty());
    for (unsigned t = 0; t < 4; ++t) {
      std::vector<uint64_t> x = {rng() % 20, rng() % 20};
      std::vector<uint64_t> numeric, transientBytes;
      for (const SizePoly &s : sizes)
        numeric.push_back(s.evaluate(x));
      for (const SizePoly &s : transients)
        transientBytes.push_back(s.evaluate(x));
      MemoryGraph atX = buildGraph(shape, numeric, transientBytes);
      std::vector<NodeId> order = atX.programOrder();
      uint64_t best = UINT64_MAX;
      do {
        if (atX.isValidOrder(order))
          best = std::min(best, evaluatePeak(atX, order));
      } while (std::next_permutation(order.begin(), order.end()));
      ASSERT_NE(best, UINT64_MAX);
      uint64_t floor = evaluateMax(floors, x);
      EXPECT_LE(floor, best);
      tight += floor == best;
    }
  }
  // The floors are a bound that is often met, not a trivial one.
  EXPECT_GT(tight, 1000u);
}

// Stretches: graphs of 2 to 4 blocks of 2 to 4 nodes, each block after a
// barrier node that follows every node of the block before, buffers within
// a block; sizes in one symbol in [1, 6]. The input is the program order,
// the candidate a random valid order. The spliced order must be valid,
// never above the input at any point of the range (every point checked),
// never above the best order it started from at the upper end; and when
// one stretch of the candidate alone, spliced into the input, is never
// above it and lower at the upper end, at least one stretch is taken.
TEST(SymbolicSizeProfile, SpliceProvedStretches) {
  std::vector<SymbolRange> ranges{{1, 6}};
  std::vector<uint64_t> high{6};
  unsigned cases = 0, withTaken = 0;
  for (uint64_t k = 0; k < 3000; ++k) {
    uint64_t seed = kBaseSeed + 9000 + k;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    GraphShape shape;
    unsigned blocks = 2 + rng() % 3;
    std::vector<std::pair<NodeId, NodeId>> blockNodes; // [first, last]
    NodeId next = 0;
    for (unsigned b = 0; b < blocks; ++b) {
      NodeId barrier = next++;
      if (b)
        for (NodeId v = blockNodes.back().first; v <= blockNodes.back().second;
             ++v)
          shape.edges.push_back({v, barrier});
      unsigned size = 2 + rng() % 3;
      NodeId first = next;
      next += size;
      shape.edges.push_back({barrier, first});
      for (NodeId v = first + 1; v < next; ++v)
        shape.edges.push_back({barrier, v});
      blockNodes.push_back({first, next - 1});
      unsigned bufs = 1 + rng() % 4;
      for (unsigned i = 0; i < bufs; ++i) {
        GraphShape::Buf buf;
        unsigned touches = 1 + rng() % 2;
        for (unsigned t = 0; t < touches; ++t)
          buf.touchers.push_back(first + rng() % size);
        shape.buffers.push_back(buf);
      }
    }
    shape.numNodes = next;
    std::vector<SizePoly> sizes;
    for (size_t b = 0; b < shape.buffers.size(); ++b)
      sizes.push_back(SizePoly::symbol(0, rng() % 5) +
                      SizePoly::constant(rng() % 12));
    MemoryGraph g = buildGraph(shape, std::vector<uint64_t>(sizes.size()), {});
    std::vector<NodeId> input = g.programOrder();
    std::vector<NodeId> candidate = randomOrder(g, rng);
    ASSERT_TRUE(g.isValidOrder(candidate));
    std::vector<SizePoly> inputProfile = getMemoryProfile(g, input, sizes, {});
    auto neverAbove = [&](const std::vector<SizePoly> &p) {
      for (uint64_t x = 1; x <= 6; ++x)
        if (evaluateMax(p, {x}) > evaluateMax(inputProfile, {x}))
          return false;
      return true;
    };
    // Does one stretch alone (between barriers) improve the input?
    bool single = false;
    for (auto [first, last] : blockNodes) {
      std::vector<NodeId> trial = input;
      std::copy(candidate.begin() + first, candidate.begin() + last + 1,
                trial.begin() + first);
      std::vector<SizePoly> p = getMemoryProfile(g, trial, sizes, {});
      single |= trial != input && neverAbove(p) &&
                evaluateMax(p, high) < evaluateMax(inputProfile, high);
    }
    std::vector<NodeId> best = input;
    std::vector<SizePoly> bestProfile = inputProfile;
    unsigned taken =
        spliceProvedStretches(g, sizes, {}, inputProfile, ranges, high,
                              candidate, best, bestProfile, 64, 1000000);
    ++cases;
    withTaken += taken > 0;
    EXPECT_TRUE(g.isValidOrder(best));
    EXPECT_EQ(bestProfile, getMemoryProfile(g, best, sizes, {}));
    EXPECT_TRUE(neverAbove(bestProfile));
    EXPECT_LE(evaluateMax(bestProfile, high), evaluateMax(inputProfile, high));
    EXPECT_EQ(taken > 0, best != input);
    if (single)
      EXPECT_GT(taken, 0u);
  }
  // The path is exercised, not only the checks.
  EXPECT_GT(withTaken, cases / 30);
}
