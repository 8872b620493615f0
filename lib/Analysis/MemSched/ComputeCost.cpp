//===- ComputeCost.cpp - what running an op costs -------------------------===//

#include "Analysis/MemSched/ComputeCost.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::memsched;

static constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

static uint64_t mulSat(uint64_t a, uint64_t b) {
  std::optional<uint64_t> r = llvm::checkedMulUnsigned(a, b);
  return r ? *r : kSaturated;
}

static uint64_t addSat(uint64_t a, uint64_t b) {
  return a > kSaturated - b ? kSaturated : a + b;
}

/// Elements of a memref type (dynamic dimensions count 1).
static uint64_t elementsOf(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return 0;
  uint64_t n = 1;
  for (int64_t d : memref.getShape())
    n = mulSat(n, ShapedType::isDynamic(d) ? 1 : uint64_t(std::max<int64_t>(d, 0)));
  return n;
}

static uint64_t ownCost(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    uint64_t points = 1;
    for (int64_t r : linalgOp.getStaticLoopRanges())
      points = mulSat(points, ShapedType::isDynamic(r) ? 1 : uint64_t(std::max<int64_t>(r, 0)));
    // The body's ops but its yield.
    uint64_t body = linalgOp.getBlock()->getOperations().size() - 1;
    return mulSat(points, std::max<uint64_t>(body, 1));
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    Type type = copy.getSource().getType();
    uint64_t bytes = elementsOf(type);
    if (auto memref = dyn_cast<MemRefType>(type))
      if (memref.getElementType().isIntOrFloat())
        bytes = mulSat(bytes, std::max<uint64_t>(
                                  memref.getElementTypeBitWidth() / 8, 1));
    return std::max<uint64_t>(bytes, 1);
  }
  uint64_t n = 0;
  for (Value v : op->getOperands())
    n = addSat(n, elementsOf(v.getType()));
  return std::max<uint64_t>(n, 1);
}

uint64_t mlir::memsched::estimateComputeCost(Operation *op) {
  uint64_t total = 0;
  op->walk([&](Operation *nested) {
    // A linalg op's body is its own cost.
    if (nested != op && isa<linalg::LinalgOp>(nested->getParentOp()))
      return;
    total = addSat(total, ownCost(nested));
  });
  return total;
}
