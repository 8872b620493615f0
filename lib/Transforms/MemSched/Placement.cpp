//===- Placement.cpp - is a memsched pass where it can do its work --------===//

#include "Transforms/MemSched/Placement.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::memsched;

Misplacement mlir::memsched::findMisplacement(func::FuncOp func) {
  if (func.isExternal())
    return Misplacement::None;
  bool tensors = false, buffers = false, frees = false, kept = false;
  func.walk([&](Operation *op) {
    if (op == func.getOperation())
      return;
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    tensors |= llvm::any_of(op->getResultTypes(), isTensor) ||
               llvm::any_of(op->getOperandTypes(), isTensor);
    if (isa<memref::AllocOp, memref::AllocaOp, memref::ReallocOp>(op))
      buffers = true;
    if (isa<memref::DeallocOp, bufferization::DeallocOp>(op))
      frees = true;
    // A buffer of the default memory space (others, GPU workgroup memory
    // say, are released with their kernel) allocated and neither freed
    // here nor handed on (returned, yielded, passed to a call): without
    // frees, it lives to the end.
    if (auto alloc = dyn_cast<memref::AllocOp>(op);
        alloc && !alloc.getType().getMemorySpace())
      kept |= llvm::all_of(alloc->getUsers(), [](Operation *user) {
        return !isa<func::ReturnOp, func::CallOp,
                    func::CallIndirectOp>(user) &&
               !user->hasTrait<OpTrait::IsTerminator>();
      });
  });
  if (tensors && !buffers)
    return Misplacement::NotBufferized;
  if (kept && !frees)
    return Misplacement::NoDeallocations;
  return Misplacement::None;
}

std::string mlir::memsched::describeMisplacement(StringRef passName,
                                                 func::FuncOp func,
                                                 Misplacement kind) {
  std::string name = "'" + func.getSymName().str() + "'";
  switch (kind) {
  case Misplacement::None:
    return "";
  case Misplacement::NotBufferized:
    return (passName + ": " + name +
            " is not bufferized (its ops work on tensors and it allocates "
            "no buffer): there is nothing to schedule or check; run "
            "memsched after bufferization (one-shot-bufferize, then the "
            "deallocation pipeline)")
        .str();
  case Misplacement::NoDeallocations:
    return (passName + ": " + name +
            " frees none of the buffers it allocates, so each lives to the "
            "end and the peak counts them all; run the deallocation "
            "pipeline (ownership-based-buffer-deallocation, "
            "buffer-deallocation-simplification, "
            "bufferization-lower-deallocations) before memsched")
        .str();
  }
  return "";
}
