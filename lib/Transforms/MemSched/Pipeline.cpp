//===- Pipeline.cpp - the memsched-pipeline -------------------*- C++ -*-===//

#include "Transforms/MemSched/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<bool> countAlignmentPadding{
      *this, "count-alignment-padding",
      llvm::cl::desc("Count size + alignment for aligned allocations, as "
                     "the generic allocation lowering requests"),
      llvm::cl::init(false)};
  Option<uint64_t> stateBudget{
      *this, "state-budget",
      llvm::cl::desc("Exact search states per graph segment"),
      llvm::cl::init(1000000)};
  Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("An unsupported function is an error"),
      llvm::cl::init(false)};
};
} // namespace

void mlir::memsched::buildMemSchedPipeline(
    OpPassManager &pm, const MemSchedPipelineConfig &config) {
  ScheduleOptions schedule;
  schedule.countAlignmentPadding = config.countAlignmentPadding;
  schedule.stateBudget = config.stateBudget;
  schedule.strict = config.strict;
  pm.addPass(createSchedule(schedule));
  pm.addPass(createVerify());
}

void mlir::memsched::registerMemSchedPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "memsched-pipeline",
      "Schedule every function for minimum peak memory, attach certificates "
      "and verify them (after buffer deallocation, before "
      "finalize-memref-to-llvm)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        MemSchedPipelineConfig config;
        config.countAlignmentPadding = options.countAlignmentPadding;
        config.stateBudget = options.stateBudget;
        config.strict = options.strict;
        buildMemSchedPipeline(pm, config);
      });
}
