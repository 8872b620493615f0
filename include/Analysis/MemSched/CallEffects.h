//===- CallEffects.h - what a call does to its memref operands --*- C++ -*-===//
//
// The summary of a function defined in the module, read from its body: per
// argument, whether the callee reads or writes the memory the argument
// points into. A callee whose effects cannot all be attributed to its
// arguments (effects on globals, on pointers or integers, on unknown memory,
// nested calls, an argument whose address is captured, memref results other
// than views of its arguments or fresh buffers) has
// no summary: its calls are barriers.
//
// A summary reads another function's body. Passes that use it run on the
// module and visit callees before callers, never concurrently with a change
// to the callee.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_CALLEFFECTS_H
#define MEMSCHED_ANALYSIS_CALLEFFECTS_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace memsched {

enum class ArgAccess : uint8_t { None = 0, Read = 1, Write = 2 };

struct CalleeSummary {
  /// Per callee argument.
  SmallVector<ArgAccess> args;
  /// The callee frees memory an argument points into.
  bool freesArgument = false;
};

/// The summary of `callee`, or nullopt when its effects are unknown.
std::optional<CalleeSummary> summarizeCallee(FunctionOpInterface callee);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_CALLEFFECTS_H
