//===- SymbolicSize.h - buffer sizes as polynomials of symbols --*- C++ -*-===//
//
// Sizes of buffers whose shapes have dynamic dimensions: polynomials with
// nonnegative integer coefficients over symbols (the dimensions, each with a
// range of values), and the comparison of maxima of such polynomials over
// every value of the symbols.
//
// Every coefficient and every symbol is nonnegative, so every polynomial is
// nondecreasing in every symbol. The comparison relies on it: on a box of
// symbol values, lhs - rhs is at most its positive part at the box's upper
// corner minus its negative part at the lower corner; a box where that does
// not settle every lhs is split in two along its widest bounded symbol, down
// to single points, where the comparison is exact. Work is counted in pair
// tests and evaluated terms, never time: results are deterministic. Includes
// no MLIR or LLVM header.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_SYMBOLICSIZE_H
#define MEMSCHED_ANALYSIS_SYMBOLICSIZE_H

#include "Analysis/Graph/MemoryGraph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memsched_core {

using SymbolId = uint32_t;

/// The values a symbol takes: lo <= x <= *hi (hi absent: unbounded above).
struct SymbolRange {
  uint64_t lo = 0;
  std::optional<uint64_t> hi;
};

/// A polynomial with nonnegative integer coefficients over symbols that are
/// >= 0: a size in bytes. Canonical form: terms sorted by monomial, no zero
/// coefficient, no duplicate monomial; a monomial is a sorted vector of symbol
/// ids with repetition (N*N = {0,0}); the constant term has the empty
/// monomial. Coefficients saturate at UINT64_MAX (sums and products).
class SizePoly {
public:
  struct Term {
    uint64_t coef = 0;
    std::vector<SymbolId> monomial;
    bool operator==(const Term &o) const {
      return coef == o.coef && monomial == o.monomial;
    }
  };

  /// The zero polynomial.
  SizePoly() = default;
  static SizePoly constant(uint64_t c);
  static SizePoly symbol(SymbolId s, uint64_t coef = 1);
  /// The sum of `terms` in canonical form (monomials need not be sorted nor
  /// distinct; zero coefficients are dropped).
  static SizePoly fromTerms(std::vector<Term> terms);

  SizePoly &operator+=(const SizePoly &o);
  friend SizePoly operator+(SizePoly a, const SizePoly &b) {
    a += b;
    return a;
  }
  friend SizePoly operator*(const SizePoly &a, const SizePoly &b);
  SizePoly scaled(uint64_t c) const;

  bool isZero() const { return termList.empty(); }
  /// True for the zero polynomial too.
  bool isConstant() const;
  uint64_t constantTerm() const;
  const std::vector<Term> &terms() const { return termList; }
  /// Largest symbol id used + 1 (0 if none).
  size_t numSymbolsUsed() const;

  /// Value at a point (one value per symbol, at least numSymbolsUsed()),
  /// saturating at UINT64_MAX.
  uint64_t evaluate(const std::vector<uint64_t> &point) const;
  /// Every coefficient <= o's for the same monomial: then *this <= o at every
  /// point >= 0.
  bool isDominatedBy(const SizePoly &o) const;

  /// "2*N^2 + 4*N*M + 128" for names {"N", "M"}: terms of largest degree
  /// first, then by monomial; "0" for zero; a coefficient of 1 is not printed
  /// unless the term is constant. names[s] names symbol s (a symbol without a
  /// name prints as "$s", which parseSizePoly does not read back).
  std::string str(const std::vector<std::string> &names) const;

  bool operator==(const SizePoly &o) const { return termList == o.termList; }
  bool operator!=(const SizePoly &o) const { return !(*this == o); }

private:
  std::vector<Term> termList;
};

/// Parses what SizePoly::str prints. Also accepts whitespace between tokens,
/// '*' between factors, '^k' powers (of names and of numbers), factors in any
/// order and repeated terms, which are added. A name is a run of characters
/// other than whitespace and "+*^()-,", not starting with a digit, looked up
/// in `names` (the first equal entry gives the symbol id). Returns nullopt
/// and sets *why (when given) on an unknown name, a syntax error or a
/// coefficient above UINT64_MAX.
std::optional<SizePoly> parseSizePoly(const std::string &text,
                                      const std::vector<std::string> &names,
                                      std::string *why = nullptr);

enum class ProofResult { Proved, Refuted, Unknown };

/// What proveMaxAtMost found.
struct MaxComparison {
  ProofResult result = ProofResult::Unknown;
  /// When Refuted: a point of the box (one value per symbol) where
  /// max lhs > max rhs.
  std::vector<uint64_t> counterexample;
  /// Pair tests, dominance tests and evaluated terms spent.
  uint64_t work = 0;
};

/// Decides "for every point x of the box `ranges` (one range per symbol;
/// every symbol used must have a range): max_i lhs[i](x) <= max_j rhs[j](x)"
/// (an empty side is 0). Sound: Proved and Refuted are always right. On a box
/// whose used symbols are all bounded the answer is exact given the budget
/// (and values below 2^128). With unbounded symbols, Proved needs a single
/// rhs bounding each lhs over the whole unbounded part, and Refuted a
/// violation at one of a few probed points; otherwise Unknown. An empty box
/// (some hi < lo) is Proved. The dominance tests of the first step are always
/// done; the search after them stops with Unknown once `work` exceeds
/// `workBudget`.
MaxComparison proveMaxAtMost(const std::vector<SizePoly> &lhs,
                             const std::vector<SizePoly> &rhs,
                             const std::vector<SymbolRange> &ranges,
                             uint64_t workBudget);

/// The largest value of the polynomials at `point` (0 when there are
/// none), saturating at UINT64_MAX.
uint64_t evaluateMax(const std::vector<SizePoly> &polys,
                     const std::vector<uint64_t> &point);

/// The polynomials none of the others dominates (of equal ones, the first
/// kept), in input order. Each is tested against those kept so far, by
/// decreasing coefficient sum: O(n * kept * terms).
std::vector<SizePoly> pruneDominated(const std::vector<SizePoly> &polys);

/// Memory at each position of `order` (a valid order of `graph`) as
/// polynomials: the sum of bufferSizes[b] over the buffers live at that
/// position (the liveness model of evaluatePeak) plus the node's transient
/// bytes, the max of transients[node] (one polynomial per alternative: a
/// loop whose body's peak is the max of several); then pruneDominated.
/// bufferSizes has one per buffer, transients one entry per node (or is
/// empty: none; an empty entry is 0). The graph's numeric sizes and transient
/// bytes are ignored. The max of the result at a point is the peak at that
/// point.
std::vector<SizePoly>
getMemoryProfile(const MemoryGraph &graph, const std::vector<NodeId> &order,
                 const std::vector<SizePoly> &bufferSizes,
                 const std::vector<std::vector<SizePoly>> &transients);

/// A lower bound on the memory of every order of `graph`, as polynomials:
/// for each node, the buffers it touches (live while it runs in any order),
/// the buffers live throughout (liveIn and liveOut) and its transient bytes;
/// then pruneDominated. The max of the result at a point is at most the
/// peak of every order at that point.
std::vector<SizePoly>
getNodeFloors(const MemoryGraph &graph,
              const std::vector<SizePoly> &bufferSizes,
              const std::vector<std::vector<SizePoly>> &transients);

/// Takes the stretches of `candidate` that keep `best` proved never above
/// `inputProfile` over `ranges`. A stretch lies between two positions where
/// `candidate` and `best` have run the same nodes (so either order of it
/// makes a valid order with the rest). Each stretch of the candidate that
/// differs is spliced into `best` in turn and kept when the whole order's
/// peak is lower at `high` and proved never above `inputProfile`
/// (`bestProfile` is kept the profile of `best`). Nothing is tried when
/// there is one stretch or more than `maxStretches`. Returns the number
/// of stretches taken.
unsigned spliceProvedStretches(
    const MemoryGraph &graph, const std::vector<SizePoly> &bufferSizes,
    const std::vector<std::vector<SizePoly>> &transients,
    const std::vector<SizePoly> &inputProfile,
    const std::vector<SymbolRange> &ranges, const std::vector<uint64_t> &high,
    const std::vector<NodeId> &candidate, std::vector<NodeId> &best,
    std::vector<SizePoly> &bestProfile, size_t maxStretches,
    uint64_t proofBudget);

} // namespace memsched_core

#endif // MEMSCHED_ANALYSIS_SYMBOLICSIZE_H
