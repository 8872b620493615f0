//===- SplitBound.h - the bound over every split of a body -------*- C++ -*-===//
//
// A lower bound on the peak of every order of every split of a function's
// body into channel groups (ChannelGroups.h): the channel chains of its
// block, each in any group sizes (or whole), are fragment sets of the
// body's memory graph (Analysis/Graph/FragmentBound.h) with one fragment
// per channel, their intermediates internal (docs/split.md, "The bound
// over all splits").
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
  /// Bytes: no order of any split into channel groups peaks lower.
  uint64_t value = 0;
  /// Where the op whose cut proves it stands.
  std::optional<Location> at;
  /// Chains of the body (fragment sets).
  unsigned chains = 0;
};

/// The bound for `func`'s body as it is, or nullopt with `why` when it
/// cannot be computed (several blocks, a body the analysis refuses).
/// Without `splits`, the bound of the body alone (no chain split).
std::optional<SplitBound> computeSplitBound(Operation *func, SizeModel sizes,
                                            std::string &why,
                                            bool splits = true);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_SPLITBOUND_H
