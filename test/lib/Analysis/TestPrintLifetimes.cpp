//===- TestPrintLifetimes.cpp - print the lifetime analysis -----*- C++ -*-===//
//
// `--memsched-print-lifetimes`: for each function, a header line and the
// analysis (like upstream's test-print-liveness), or a remark when the
// function is not supported.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/MemorySpaces.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct TestPrintLifetimesPass
    : public PassWrapper<TestPrintLifetimesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintLifetimesPass)

  TestPrintLifetimesPass() = default;
  TestPrintLifetimesPass(const TestPrintLifetimesPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "memsched-print-lifetimes"; }
  StringRef getDescription() const final {
    return "Print the buffers, lifetimes, dependencies and peaks memsched "
           "computes for each function";
  }

  Option<bool> countAlignmentPadding{
      *this, "count-alignment-padding",
      llvm::cl::desc("Count size + alignment for aligned allocations"),
      llvm::cl::init(false)};
  Option<bool> printDeps{
      *this, "deps",
      llvm::cl::desc("Also print the dependencies of every node"),
      llvm::cl::init(false)};

  void runOnOperation() override {
    // One module walk in block order keeps the output deterministic.
    getOperation()->walk([&](func::FuncOp func) {
      if (!func.isExternal())
        printFunction(func);
    });
    markAllAnalysesPreserved();
  }

  void printFunction(func::FuncOp func) {
    SizeModel sizes;
    sizes.countAlignmentPadding = countAlignmentPadding;
    BodyLifetimes body(func, sizes);
    if (!body.isSupported()) {
      body.getUnsupportedOp()->emitRemark()
          << "memsched: '" << func.getSymName()
          << "' is not supported: " << body.getUnsupportedReason();
      return;
    }
    llvm::outs() << "// ---- memsched lifetimes: @" << func.getSymName()
                 << " ----\n";
    if (body.hasSeveralBlocks())
      llvm::outs() << "blocks=" << body.getNumBlocks()
                   << " body-peak-as-written=" << body.getPeakAsWritten()
                   << " at ^bb" << body.getPeakBlock() << "\n";
    printSpaces(func, sizes);
    for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
      if (body.hasSeveralBlocks())
        llvm::outs() << "// ^bb" << i << "\n";
      printBlock(body.getBlock(i));
    }
  }

  /// With buffers outside the default memory space: a line per space with
  /// its peak as written (and each block's, with several blocks).
  void printSpaces(func::FuncOp func, SizeModel sizes) {
    SmallVector<Attribute> spaces = collectMemorySpaces(func);
    if (hasOnlyDefaultSpace(spaces))
      return;
    for (Attribute space : spaces) {
      sizes.memorySpace = space;
      BodyLifetimes body(func, sizes);
      llvm::outs() << "space=" << describeMemorySpace(space);
      if (!body.isSupported()) {
        llvm::outs() << " unsupported: " << body.getUnsupportedReason() << "\n";
        continue;
      }
      llvm::outs() << " peak-as-written=" << body.getPeakAsWritten();
      if (body.hasSeveralBlocks())
        for (unsigned i = 0; i < body.getNumBlocks(); ++i)
          llvm::outs() << " ^bb" << i << "="
                       << body.getBlock(i).getPeakAsWritten();
      llvm::outs() << "\n";
    }
  }

  void printBlock(const BufferLifetimeAnalysis &analysis) {
    analysis.print(llvm::outs());
    if (printDeps) {
      const ::memsched_core::MemoryGraph &g = analysis.getGraph();
      for (unsigned n = 0; n < g.numNodes(); ++n) {
        llvm::outs() << "  deps " << analysis.describeNode(n) << " <-";
        if (g.preds(n).empty())
          llvm::outs() << " none";
        for (unsigned p : g.preds(n))
          llvm::outs() << " " << analysis.describeNode(p);
        llvm::outs() << "\n";
      }
    }
  }
};
} // namespace

namespace mlir::memsched {
void registerTestPrintLifetimesPass() {
  PassRegistration<TestPrintLifetimesPass>();
}
} // namespace mlir::memsched
