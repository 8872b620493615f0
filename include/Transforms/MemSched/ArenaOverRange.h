//===- ArenaOverRange.h - arenas for a range of dynamic sizes ---*- C++ -*-===//
//
// What memsched-plan-arena needs to place buffers whose sizes are
// polynomials in a function's dynamic sizes (docs/dynamic.md): the index
// arithmetic that computes a polynomial (or the max of several) from the
// function's arguments where it is needed, the size function a runtime
// calls before it allocates, and the proof that the planned function never
// needs more memory than the unplanned one at any size of the ranges.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_ARENAOVERRANGE_H
#define MEMSCHED_TRANSFORMS_ARENAOVERRANGE_H

#include "Analysis/Graph/SymbolicSize.h"
#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/SizeSymbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>
#include <vector>

namespace mlir {
namespace memsched {

/// The value of symbol `s` of `symbols` (an argument of `func`, or a
/// dimension of one: every symbol isArgument) at the builder's insertion
/// point: the argument, or a `memref.dim` of it.
Value materializeSymbol(OpBuilder &b, Location loc, func::FuncOp func,
                        const SizeSymbols &symbols, unsigned s);

/// `max(polys)` (one polynomial alone: itself) as index arithmetic
/// (arith.constant, addi, muli, maxui) at the builder's insertion point,
/// symbol s given by `symbolValue(s)`.
Value materializeMaxOfPolys(OpBuilder &b, Location loc,
                            const std::vector<::memsched_core::SizePoly> &polys,
                            llvm::function_ref<Value(unsigned)> symbolValue);

/// The public function `@<func>_arena_size`: one index argument per symbol
/// (argN, then argN.dD, by argument and dimension), returning the bytes of
/// the largest of `arenas` (each the max of polynomials) at those sizes.
/// Replaces one that exists.
func::FuncOp createArenaSizeFunction(
    ModuleOp module, func::FuncOp func, const SizeSymbols &symbols,
    const std::vector<std::vector<::memsched_core::SizePoly>> &arenas);

/// The size function of `func`, if the module has one.
func::FuncOp getArenaSizeFunction(func::FuncOp func);

/// Checks the size function `sizeFunc` of `func`: one index argument per
/// symbol, in argument order, and a result proved equal, at every size of
/// the ranges, to the max of `arenas` (the arenas' sizes as the body
/// computes them). Fails with `why`.
LogicalResult
checkArenaSizeFunction(func::FuncOp sizeFunc, const SizeSymbols &symbols,
                       const std::vector<::memsched_core::SizePoly> &arenas,
                       std::string &why);

/// The memory `func` needs as it stands, over the ranges of `symbols`, as
/// the max of polynomials in the symbols of `names` (the allocations where
/// they are; an arena sized with maxima counted at each alternative in
/// turn). Fails with `why` where the body is outside what ranges model.
FailureOr<std::vector<::memsched_core::SizePoly>>
getMemoryOverRange(func::FuncOp func, const SizeModel &sizes,
                   const std::vector<std::string> &names, std::string &why,
                   const DeclaredRanges *given = nullptr);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_ARENAOVERRANGE_H
