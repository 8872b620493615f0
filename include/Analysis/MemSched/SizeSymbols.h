//===- SizeSymbols.h - dynamic sizes as symbols with ranges -----*- C++ -*-===//
//
// A dynamic dimension of an allocation is a symbol: the SSA value that sizes
// it, with the values it may take. Two allocations sized by the same value
// (or by `memref.dim`/`tensor.dim` of the same value and dimension) share a
// symbol, so their sizes stay equal; distinct values are distinct symbols,
// whatever relation they may have (unknown relations stay unknown, which is
// sound: a claim proved for independent values holds for related ones).
//
// A symbol's range is the intersection of
//  - the range declared on the function argument it comes from: the
//    argument attribute `memsched.range = array<i64: lo, hi>` on an index
//    or integer argument, or one `lo, hi` pair per dynamic dimension, in
//    order, on a memref or tensor argument; `hi = -1` for no upper bound;
//  - the constant bounds ValueBoundsConstraintSet derives from the IR
//    (`affine.min` clamps, constants, ...);
//  - [0, unbounded).
// docs/dynamic.md describes how the schedule pass uses them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_SIZESYMBOLS_H
#define MEMSCHED_ANALYSIS_SIZESYMBOLS_H

#include "Analysis/Graph/SymbolicSize.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {

/// The argument attribute that declares ranges of dynamic sizes.
constexpr llvm::StringLiteral kRangeAttrName = "memsched.range";
/// The argument attribute that declares the typical value of dynamic
/// sizes, the one orders and arenas are chosen for among those proved for
/// the whole range: `array<i64: v>` on an index or integer argument, one
/// value per dynamic dimension on a shaped one.
constexpr llvm::StringLiteral kTypicalAttrName = "memsched.typical";

/// Ranges given outside the IR (a pass option, docs/dynamic.md), by
/// function name ("" for every function) and symbol name (argN, argN.dD).
struct DeclaredRanges {
  llvm::StringMap<llvm::StringMap<::memsched_core::SymbolRange>> byFunction;
  llvm::StringMap<llvm::StringMap<uint64_t>> typicalByFunction;
  bool empty() const { return byFunction.empty(); }
  /// Adds the entries `[@FUNC:]NAME=LO:HI[:TYPICAL]` (HI empty for no upper
  /// bound); fails with `why` naming a malformed entry.
  LogicalResult parse(llvm::ArrayRef<std::string> entries, std::string &why);
  /// The range given for `name` in function `func`, if any (one given for
  /// the function narrows one given for every function).
  std::optional<::memsched_core::SymbolRange>
  lookup(llvm::StringRef func, llvm::StringRef name) const;
  /// The typical value given for `name` in function `func`, if any (one
  /// given for the function wins).
  std::optional<uint64_t> lookupTypical(llvm::StringRef func,
                                        llvm::StringRef name) const;
};

/// The symbols of the dynamic sizes of a function's allocations.
class SizeSymbols {
public:
  /// A symbol is identified by a value and a dimension: (v, -1) for an
  /// index value v, (s, d) for dimension d of a shaped value s.
  using Key = std::pair<Value, int64_t>;

  /// The symbols of the dynamic sizes of the allocations of `func`'s body
  /// and of the regions nested in it, in body order, and of the arguments
  /// it passes to callees that size their allocations with them (such a
  /// size of the callee is then the caller's symbol). Fails, with `why`, on
  /// a malformed `memsched.range` attribute or a declared range the IR's
  /// bounds exclude.
  static FailureOr<SizeSymbols> collect(Operation *func, std::string &why,
                                        const DeclaredRanges *given = nullptr);

  size_t size() const { return keys.size(); }
  bool empty() const { return keys.empty(); }
  const std::vector<::memsched_core::SymbolRange> &getRanges() const {
    return ranges;
  }
  /// Names for expressions: `argN` (an index argument), `argN.dD` (the
  /// D-th dimension of a shaped argument), `sK` otherwise.
  const std::vector<std::string> &getNames() const { return names; }
  /// Where symbol `s` comes from, for remarks ("%arg0", "dimension 1 of
  /// %arg2", "the result of affine.min at LOC").
  const std::string &getOrigin(unsigned s) const { return origins[s]; }
  /// Whether symbol `s` is an argument of the function or a dimension of
  /// one (its name then stays the same whatever the order of the ops).
  bool isArgument(unsigned s) const { return fromArgument[s]; }
  /// The value (and dimension, or -1) symbol `s` stands for.
  Key getSymbolKey(unsigned s) const { return keys[s]; }
  /// A dynamic size operand as a polynomial in the symbols (getSizeFactors:
  /// a constant, a symbol, or a product of them, for a dimension of a
  /// view), if every factor is a constant or a symbol. `callSite`: a call
  /// of the function whose allocation the operand sizes; the callee's
  /// arguments are then the call's operands.
  std::optional<::memsched_core::SizePoly>
  getPoly(Value sizeOperand, Operation *callSite = nullptr) const;
  /// Whether some symbol has no upper bound.
  bool hasUnbounded() const;
  /// The typical value of symbol `s`, when declared (`memsched.typical`, or
  /// the third field of a `ranges` entry); within its range.
  std::optional<uint64_t> getTypical(unsigned s) const { return typical[s]; }
  /// Whether some symbol has a declared typical value.
  bool hasTypical() const;
  /// The point orders and placements are chosen for: each symbol at its
  /// typical value, or at its value in `high` (the upper ends) without one.
  std::vector<uint64_t>
  getTypicalPoint(const std::vector<uint64_t> &high) const;

  /// `name in [lo, hi]` for each symbol, joined by ", ".
  std::string describeRanges() const;
  /// `name = v` for each symbol of `point`, joined by ", ".
  std::string describePoint(const std::vector<uint64_t> &point) const;

private:
  /// The symbol of `key` (a size of `func`), added with its range if new.
  FailureOr<unsigned> addSymbol(FunctionOpInterface func, Key key,
                                const DeclaredRanges *given, std::string &why);


  std::vector<Key> keys;
  llvm::DenseMap<Key, unsigned> index;
  /// Sizes of callees' allocations that are the callee's arguments, mapped
  /// to the value (a polynomial in the symbols) every call of this body
  /// passes.
  llvm::DenseMap<Key, ::memsched_core::SizePoly> aliases;
  std::vector<::memsched_core::SymbolRange> ranges;
  std::vector<std::optional<uint64_t>> typical;
  std::vector<std::string> names, origins;
  std::vector<bool> fromArgument;
};

/// A dynamic size as `constant` times the product of `keys`, each a value
/// (and dimension) nothing more is known of: `memref.dim` / `tensor.dim`
/// with a constant index are looked through, a static dimension is a
/// constant, and a dimension of a view is made of the dimensions it views:
/// `memref.cast` / `tensor.cast` keep it, `collapse_shape` multiplies the
/// dimensions of its group, `expand_shape` gives its output size. With
/// `callSite` (a call of the function `v` belongs to), the callee's
/// arguments are the call's operands. None when the constant would reach
/// 2^62 or the chain is longer than 64 steps.
struct SizeFactors {
  uint64_t constant = 1;
  SmallVector<SizeSymbols::Key, 2> keys;
};
std::optional<SizeFactors> getSizeFactors(Value sizeOperand,
                                          Operation *callSite = nullptr);
std::optional<SizeFactors> getSizeFactors(SizeSymbols::Key key,
                                          Operation *callSite = nullptr);

/// Whether `v` is computed from other index values by arith.addi,
/// arith.muli or arith.maxui: a size expression, whose leaves (the values
/// it is computed from that are not constants nor such ops) are the
/// symbols rather than `v` itself.
bool isSizeExpression(Value v);

/// The leaves of the size expression `v` (see isSizeExpression), each once.
void getSizeExpressionLeaves(Value v, SmallVectorImpl<Value> &leaves);

/// The value of `v` (a constant, a symbol, or a size expression of those)
/// as the max of polynomials in `symbols` (one polynomial when no
/// arith.maxui is involved): the form memsched-plan-arena writes an arena's
/// size and offsets in. None for anything else, an expression of more than
/// 64 alternatives, or a coefficient of 2^62 or more (the polynomials would
/// saturate where the index arithmetic wraps). Sizes are assumed to fit in
/// 63 bits, as every allocation's does.
std::optional<std::vector<::memsched_core::SizePoly>>
getSizeExpression(Value v, const SizeSymbols &symbols,
                  Operation *callSite = nullptr);

/// The same, with the value of each leaf given by `leaf` (none: not an
/// expression of the symbols).
std::optional<std::vector<::memsched_core::SizePoly>> getSizeExpression(
    Value v,
    llvm::function_ref<std::optional<::memsched_core::SizePoly>(Value)> leaf);

/// A value of SizePoint::values that leaves the symbol at its constant
/// upper bound.
constexpr uint64_t kNotAtPoint = UINT64_MAX;

/// Values of the symbols at which the analysis sizes allocations (one per
/// symbol; kNotAtPoint for one left at its constant upper bound).
struct SizePoint {
  const SizeSymbols *symbols = nullptr;
  std::vector<uint64_t> values;
};

/// A point that owns its symbols.
struct SizePointHolder {
  SizeSymbols symbols;
  SizePoint point;
};

/// The dynamic size operand of dimension `dim` of the allocation `allocOp`
/// (memref.alloc, memref.alloca, memref.realloc), or null.
Value getDynamicSizeOperand(Operation *allocOp, unsigned dim);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_SIZESYMBOLS_H
