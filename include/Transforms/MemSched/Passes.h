//===- Passes.h - memsched passes -------------------------------*- C++ -*-===//

#ifndef MEMSCHED_TRANSFORMS_PASSES_H
#define MEMSCHED_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace memsched {

#define GEN_PASS_DECL
#include "Transforms/MemSched/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Transforms/MemSched/Passes.h.inc"

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_PASSES_H
