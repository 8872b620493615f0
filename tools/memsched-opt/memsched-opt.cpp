//===- memsched-opt.cpp - mlir-opt with memsched --------------*- C++ -*-===//
//
// An mlir-opt compatible driver: every upstream dialect, extension and pass,
// plus the memsched dialect, passes and test passes.
//
//===----------------------------------------------------------------------===//

#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::memsched {
void registerTestPasses();
void registerTestHarnessPass();
} // namespace mlir::memsched

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::memsched::registerMemSchedPasses();
  mlir::memsched::registerMemSchedPipeline();
  mlir::memsched::registerTestPasses();
  mlir::memsched::registerTestHarnessPass();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::memsched::MemSchedDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "memsched optimizer driver\n", registry));
}
