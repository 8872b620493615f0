//===- CallOrder.h - functions of a module, callees first -------*- C++ -*-===//
//
// The memsched passes run on a module: the analysis of a function reads the
// bodies of the functions it calls (their effects on arguments and their
// peaks), so functions are visited one at a time with every callee before
// its callers. A caller then sees its callees' final bodies, and the result
// does not depend on threads or timing.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_CALLORDER_H
#define MEMSCHED_TRANSFORMS_CALLORDER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace memsched {

/// Every func.func in `module` (nested symbol tables included), callees
/// before callers; functions in a cycle of calls in module order. Iterative.
SmallVector<func::FuncOp> getFunctionsCalleesFirst(ModuleOp module);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_CALLORDER_H
