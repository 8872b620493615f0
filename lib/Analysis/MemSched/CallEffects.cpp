//===- CallEffects.cpp - what a call does to its memref operands -*- C++ -*-===//

#include "Analysis/MemSched/CallEffects.h"
#include "Analysis/MemSched/AliasRoots.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/RegionYields.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::memsched;

std::optional<CalleeSummary>
mlir::memsched::summarizeCallee(FunctionOpInterface callee) {
  if (!callee || callee.isExternal() || callee->getNumRegions() != 1 ||
      callee->getRegion(0).empty())
    return std::nullopt;
  DenseMap<Value, unsigned> none;
  AliasRoots roots(callee, none, /*distinctArgs=*/true);
  Block &entry = callee->getRegion(0).front();
  DenseMap<unsigned, unsigned> rootToArg;
  for (BlockArgument arg : entry.getArguments())
    if (isa<BaseMemRefType>(arg.getType()))
      for (unsigned r : roots.rootsOf(arg))
        if (!rootToArg.try_emplace(r, arg.getArgNumber()).second)
          return std::nullopt; // arguments sharing a root
  // Memref results must be views of arguments or fresh buffers: the
  // caller's AliasRoots then makes each result an alias of those operands
  // or a buffer of its own (returnedValuesOf), so what the callee does
  // through them is attributed to them. A global or unknown memory handed
  // out is not summarised.
  Operation *term = entry.getTerminator();
  if (!roots.returnedValuesOf(entry))
    return std::nullopt;
  CalleeSummary summary;
  summary.args.assign(entry.getNumArguments(), ArgAccess::None);
  auto reachesArgument = [&](Value v) {
    return llvm::any_of(roots.rootsOf(v), [&](unsigned r) {
      return roots.root(r).kind != RootKind::Local;
    });
  };
  WalkResult walk = callee->walk([&](Operation *op) -> WalkResult {
    if (op == callee.getOperation())
      return WalkResult::advance();
    if (isa<CallOpInterface>(op))
      return WalkResult::interrupt();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    SmallVector<MemoryEffects::EffectInstance> effects;
    if (iface)
      iface.getEffects(effects);
    else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::interrupt();
    SmallVector<Value> accessed = getEffectValues(effects);
    // An argument's address leaving the memref world (a pointer, an integer,
    // memory, the return) may be used by anyone.
    // The return hands views of arguments back (checked above): aliases the
    // caller tracks, not a capture.
    // A loop's free of the buffer an iteration got, and a free under the
    // flag a loop or branch returns next to its result, free the buffers
    // that op made (the callee's), never what else the value may be.
    if (getCarriedFreeLoop(op) || isFreeUnderOwnershipFlag(op))
      return WalkResult::advance();
    bool isReturn = op == term;
    for (Value operand : op->getOperands())
      if (!isReturn && isa<BaseMemRefType>(operand.getType()) &&
          reachesArgument(operand) && mayCapture(op, operand, accessed))
        return WalkResult::interrupt();
    for (auto &e : effects) {
      Value v = e.getValue();
      if (!v) {
        if (isa<MemoryEffects::Allocate>(e.getEffect()))
          continue;
        return WalkResult::interrupt();
      }
      for (unsigned r : roots.effectRoots(v)) {
        if (roots.root(r).kind == RootKind::Local)
          continue;
        auto argIt = rootToArg.find(r);
        if (argIt == rootToArg.end())
          return WalkResult::interrupt(); // globals, unknown memory
        if (isa<MemoryEffects::Free>(e.getEffect()))
          summary.freesArgument = true;
        ArgAccess acc = isa<MemoryEffects::Read>(e.getEffect())
                            ? ArgAccess::Read
                            : ArgAccess::Write;
        ArgAccess &slot = summary.args[argIt->second];
        slot = std::max(slot, acc);
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return summary;
}

bool mlir::memsched::isKernelLaunch(Operation *op) {
  return isa<gpu::LaunchFuncOp>(op);
}

std::optional<KernelLaunch>
mlir::memsched::summarizeKernelLaunch(Operation *op) {
  auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
  if (!launch)
    return std::nullopt;
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernel());
  if (!kernel || kernel.isExternal())
    return std::nullopt;
  ValueRange operands = launch.getKernelOperands();
  if (operands.size() != kernel.getNumArguments())
    return std::nullopt;
  WalkResult allocates = kernel->walk([](Operation *nested) {
    return isAllocation(nested) || isUnrecognisedAllocation(nested)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (allocates.wasInterrupted())
    return std::nullopt;
  std::optional<CalleeSummary> summary =
      summarizeCallee(cast<FunctionOpInterface>(kernel.getOperation()));
  // A kernel that frees memory it is given is not summarised: a barrier.
  if (!summary || summary->freesArgument)
    return std::nullopt;
  // The entry block's arguments after the kernel's parameters are its
  // attributions.
  summary->args.resize(operands.size());
  return KernelLaunch{llvm::to_vector(operands), *summary};
}
