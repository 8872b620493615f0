//===- ReorderTest.cpp - planBlockOrder refuses what it cannot do -*- C++ -*-===//
//
// planBlockOrder is the last guard before a block is rewritten: for a node
// order the scheduler got wrong it must fail (and nothing moves) rather than
// produce a sequence that uses a value before its definition or a buffer
// after its deallocation. The scheduler never hands it such an order, so only
// a direct call can check the guard.
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/Reorder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::memsched;

namespace {

// Nodes: 0 copy into %a, 1 load of %a, 2 store of the loaded value (an SSA
// use of node 1), 3 copy of %b (independent).
constexpr const char *kSource = R"mlir(
func.func @f(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %v = memref.load %a[%c0] : memref<16xf32>
  memref.store %v, %out[%c0] : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %b, %out2 : memref<16xf32> to memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
)mlir";

class ReorderTest : public ::testing::Test {
protected:
  ReorderTest() {
    ctx.loadDialect<func::FuncDialect, memref::MemRefDialect,
                    arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(kSource, &ctx);
  }
  func::FuncOp func() { return cast<func::FuncOp>(&module->getBody()->front()); }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ReorderTest, ProgramOrderPlans) {
  ASSERT_TRUE(module);
  BufferLifetimeAnalysis analysis(func());
  ASSERT_TRUE(analysis.isSupported());
  ASSERT_EQ(analysis.getNodes().size(), 4u);
  FailureOr<SmallVector<Operation *>> seq =
      planBlockOrder(analysis, {0, 1, 2, 3});
  ASSERT_TRUE(succeeded(seq));
  // Every op of the block but the terminator, once.
  EXPECT_EQ(seq->size(), func().getBody().front().getOperations().size() - 1);
}

TEST_F(ReorderTest, UseBeforeDefinitionIsRefused) {
  ASSERT_TRUE(module);
  BufferLifetimeAnalysis analysis(func());
  ASSERT_TRUE(analysis.isSupported());
  // The store before the load that defines its value.
  EXPECT_TRUE(failed(planBlockOrder(analysis, {0, 2, 1, 3})));
  EXPECT_TRUE(failed(planBlockOrder(analysis, {2, 0, 1, 3})));
}

TEST_F(ReorderTest, NotAPermutationIsRefused) {
  ASSERT_TRUE(module);
  BufferLifetimeAnalysis analysis(func());
  ASSERT_TRUE(analysis.isSupported());
  EXPECT_TRUE(failed(planBlockOrder(analysis, {0, 1, 2})));
  EXPECT_TRUE(failed(planBlockOrder(analysis, {0, 1, 1, 3})));
  EXPECT_TRUE(failed(planBlockOrder(analysis, {0, 1, 2, 4})));
}

TEST_F(ReorderTest, IndependentNodesMayMove) {
  ASSERT_TRUE(module);
  BufferLifetimeAnalysis analysis(func());
  ASSERT_TRUE(analysis.isSupported());
  EXPECT_TRUE(succeeded(planBlockOrder(analysis, {3, 0, 1, 2})));
}

} // namespace
