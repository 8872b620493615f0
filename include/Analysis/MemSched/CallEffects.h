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

/// A `gpu.launch_func` of a kernel defined in the module: the launch's
/// kernel operands and, for each, what the kernel does to it (for an
/// asynchronous launch, when the device runs it).
struct KernelLaunch {
  SmallVector<Value> operands;
  CalleeSummary summary;
};

/// True for a `gpu.launch_func`.
bool isKernelLaunch(Operation *op);

/// The summary of the kernel launch `op` (isKernelLaunch), or nullopt when
/// its effects are not known: a kernel not in the module, with unknown
/// effects, that frees memory it is given, or that allocates (per
/// thread or per block: memory memsched does not count). Workgroup and
/// private attributions are the kernel's own memory and are not counted
/// either.
std::optional<KernelLaunch> summarizeKernelLaunch(Operation *op);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_CALLEFFECTS_H
