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

/// Configuration of memsched-pipeline.
struct MemSchedPipelineConfig {
  bool countAlignmentPadding = false;
  /// As memsched-schedule's state-budget (one default everywhere).
  uint64_t stateBudget = 1000000;
  bool strict = false;
};

/// Adds memsched-pipeline to a module-level pass manager: memsched-schedule
/// (which certifies) then memsched-verify on every func.func.
void buildMemSchedPipeline(OpPassManager &pm,
                           const MemSchedPipelineConfig &config = {});

/// Registers `memsched-pipeline` for textual pipelines and mlir-opt flags.
void registerMemSchedPipeline();

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_PASSES_H
