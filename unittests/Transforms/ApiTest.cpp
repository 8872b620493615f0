//===- ApiTest.cpp - the C++ API with a context made from a registry ------===//
//
// A compiler registers the dialects it uses and lets the context load them
// as it needs: the entry points must not assume the memsched dialect is
// loaded (they load it themselves).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/MemoryGraph.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Rematerialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
const char *kSource = R"mlir(
func.func @f(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.copy ins(%x : memref<64xf32>) outs(%b : memref<64xf32>)
  linalg.copy ins(%a : memref<64xf32>) outs(%y : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  linalg.add ins(%y, %b : memref<64xf32>, memref<64xf32>) outs(%y : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  return
}
)mlir";

class RegistryOnly : public ::testing::Test {
protected:
  RegistryOnly() : ctx(makeRegistry()) {
    module = parseSourceString<ModuleOp>(kSource, &ctx);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, memref::MemRefDialect,
                    linalg::LinalgDialect, arith::ArithDialect,
                    mlir::memsched::MemSchedDialect>();
    return registry;
  }
  func::FuncOp func() {
    return cast<func::FuncOp>(&module->getBody()->front());
  }
  bool memschedLoaded() {
    return ctx.getLoadedDialect<mlir::memsched::MemSchedDialect>() != nullptr;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(RegistryOnly, ScheduleFunction) {
  ASSERT_TRUE(module);
  ASSERT_FALSE(memschedLoaded()); // what the test is about
  FailureOr<mlir::memsched::ScheduleFunctionResult> result =
      mlir::memsched::scheduleFunction(func());
  ASSERT_TRUE(succeeded(result));
  EXPECT_TRUE(result->certificate);
  // a and b (256 bytes each) both live at the second copy as written;
  // reordered, b is made after a is freed.
  EXPECT_EQ(result->peakBefore, 512u);
  EXPECT_EQ(result->peakAfter, 256u);
  EXPECT_TRUE(mlir::memsched::getCertificate(func()));
}

TEST_F(RegistryOnly, CertifyFunction) {
  ASSERT_TRUE(module);
  ASSERT_FALSE(memschedLoaded());
  mlir::memsched::CertifyFunctionResult result =
      mlir::memsched::certifyFunction(func(), {}, /*attach=*/true);
  EXPECT_TRUE(result.certificate);
  EXPECT_TRUE(mlir::memsched::getCertificate(func()));
}

TEST_F(RegistryOnly, RematerializeFunction) {
  ASSERT_TRUE(module);
  ASSERT_FALSE(memschedLoaded());
  mlir::memsched::RematerializeFunctionOptions options;
  options.budget = 256; // what scheduling alone reaches
  FailureOr<mlir::memsched::RematerializeFunctionResult> result =
      mlir::memsched::rematerializeFunction(func(), options);
  ASSERT_TRUE(succeeded(result));
  EXPECT_EQ(result->status,
            mlir::memsched::RematerializeFunctionResult::Status::WithinBudget);
  EXPECT_EQ(result->peakAfter, 256u);
  EXPECT_TRUE(result->certificate);
}

// One default per option: the exact search's states are the same whether
// the search is configured through the C++ API, the pipeline or the pass.
TEST(Defaults, StateBudgetIsOneFigure) {
  uint64_t core = ::memsched_core::ScheduleOptions().exactStateBudget;
  EXPECT_EQ(mlir::memsched::MemSchedPipelineConfig().stateBudget, core);
  EXPECT_EQ(mlir::memsched::ScheduleOptions().stateBudget, core);
  EXPECT_EQ(mlir::memsched::ScheduleFunctionOptions().search.exactStateBudget,
            core);
}

// One public namespace for the MLIR-facing API and another for the core:
// with `using namespace mlir`, `memsched::` names the MLIR-facing API alone
// (this file would not compile if `::memsched` and `mlir::memsched` both
// existed), and the core's graph is `memsched_core::`.
TEST_F(RegistryOnly, NamespacesDoNotClash) {
  ASSERT_TRUE(module);
  FailureOr<memsched::ScheduleFunctionResult> result =
      memsched::scheduleFunction(func());
  ASSERT_TRUE(succeeded(result));
  memsched_core::MemoryGraph graph;
  memsched_core::NodeId a = graph.addNode();
  memsched_core::BufferId b = graph.addBuffer(64);
  graph.addTouch(b, a);
  graph.finalize();
  EXPECT_EQ(memsched_core::evaluatePeak(graph, {a}), 64u);
}
