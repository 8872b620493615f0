//===- consumer.cpp - uses memsched from an installed package ---*- C++ -*-===//
//
// Parses a function, schedules it with the C++ API, prints the certificate;
// then schedules a plain graph without MLIR.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/Scheduler.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/MemSched.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                      mlir::linalg::LinalgDialect, mlir::arith::ArithDialect,
                      mlir::memsched::MemSchedDialect>();
  const char *source = R"mlir(
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
    })mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  auto result = mlir::memsched::scheduleFunction(func);
  if (mlir::failed(result))
    return 1;
  llvm::outs() << "function peak " << result->peakBefore << " -> "
               << result->peakAfter << ", certificate "
               << result->certificate << "\n";

  // A plain graph: two independent producer/consumer pairs.
  memsched_core::MemoryGraph g;
  for (int i = 0; i < 4; ++i)
    g.addNode();
  memsched_core::BufferId b0 = g.addBuffer(100), b1 = g.addBuffer(100);
  g.addTouch(b0, 0);
  g.addTouch(b0, 2);
  g.addTouch(b1, 1);
  g.addTouch(b1, 3);
  g.addEdge(0, 2);
  g.addEdge(1, 3);
  g.finalize();
  memsched_core::ScheduleResult s = memsched_core::schedule(g);
  memsched_core::LowerBound lb = memsched_core::computeLowerBound(g);
  llvm::outs() << "graph peak " << s.inputPeak << " -> " << s.peak
               << ", lower bound " << lb.value << "\n";
  return 0;
}
