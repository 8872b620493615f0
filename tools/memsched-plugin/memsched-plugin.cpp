//===- memsched-plugin.cpp - memsched for the stock mlir-opt ----*- C++ -*-===//
//
// One shared library that is both a dialect plugin and a pass plugin:
//   mlir-opt --load-dialect-plugin=libMemSchedPlugin.so \
//            --load-pass-plugin=libMemSchedPlugin.so --memsched-schedule
// It links libMLIR.so like the packaged mlir-opt, so both share one registry.
//
//===----------------------------------------------------------------------===//

#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MemSched", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::memsched::MemSchedDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MemSched", LLVM_VERSION_STRING, []() {
            mlir::memsched::registerMemSchedPasses();
            mlir::memsched::registerMemSchedPipeline();
          }};
}
