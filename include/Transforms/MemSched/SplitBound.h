//===- SplitBound.h - the bound over every split of a body -------*- C++ -*-===//
//
// A lower bound on the peak of every order of every split of a function's
// body without recomputation: its channel chains (ChannelGroups.h), each in
// any group sizes (or whole), are fragment sets of the body's memory graph
// (Analysis/Graph/FragmentBound.h) with one fragment per channel, their
// intermediates internal; its segments that run by bands of rows or
// columns computing no row twice (RowBands.h) count their intermediates at
// the fewest rows a band holds, each op's cut the least of the alternatives
// that cover whether a segment holding it runs by bands (docs/split.md,
// "The bound over all splits").
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_SPLITBOUND_H
#define MEMSCHED_TRANSFORMS_SPLITBOUND_H

#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace mlir {
namespace memsched {

struct SplitBound {
  /// Bytes: no order of any split without recomputation peaks lower.
  uint64_t value = 0;
  /// Where the op whose cut proves it stands.
  std::optional<Location> at;
  /// Chains of the body (fragment sets).
  unsigned chains = 0;
};

/// The bound for `func`'s body as it is, or nullopt with `why` when it
/// cannot be computed (several blocks, a body the analysis refuses).
/// Without `splits`, the bound of the body alone (no split); without
/// `bands`, of its splits into channel groups alone.
std::optional<SplitBound> computeSplitBound(Operation *func, SizeModel sizes,
                                            std::string &why,
                                            bool splits = true,
                                            bool bands = true);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_SPLITBOUND_H
