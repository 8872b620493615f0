//===- AllocationSize.cpp - byte sizes of allocations -----------*- C++ -*-===//

#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::memsched;

/// Bytes the generic allocation lowering adds on top of the memref size.
static uint64_t getAllocationPadding(Operation *allocOp, SizeModel sizes) {
  if (!sizes.countAlignmentPadding)
    return 0;
  if (auto alloc = dyn_cast<memref::AllocOp>(allocOp))
    if (std::optional<uint64_t> alignment = alloc.getAlignment())
      return *alignment;
  return 0;
}

/// Element types the data layout can size. Others (memrefs of memrefs,
/// opaque dialect types) have no byte size a lowering would agree on, and
/// asking the data layout for one aborts.
static bool hasLayoutSize(Type type) {
  if (isa<IntegerType, FloatType, IndexType>(type))
    return true;
  if (auto complex = dyn_cast<ComplexType>(type))
    return hasLayoutSize(complex.getElementType());
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() && hasLayoutSize(vector.getElementType());
  return isa<DataLayoutTypeInterface>(type);
}

FailureOr<uint64_t> mlir::memsched::getAllocationSize(Operation *allocOp,
                                                      const DataLayout &layout,
                                                      SizeModel sizes,
                                                      bool &isBound,
                                                      std::string &why) {
  isBound = false;
  auto type = dyn_cast<MemRefType>(allocOp->getResult(0).getType());
  if (!type) {
    why = "allocation of a non-memref type";
    return failure();
  }
  if (!type.getLayout().isIdentity()) {
    why = "allocation with a non-identity layout";
    return failure();
  }
  Type elementType = type.getElementType();
  if (!hasLayoutSize(elementType)) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << elementType;
    why = "element type " + name +
          " has no byte size in the data layout; allocate a buffer of "
          "integers or floats instead";
    return failure();
  }
  llvm::TypeSize bits = layout.getTypeSizeInBits(elementType);
  if (bits.isScalable()) {
    why = "element type without a fixed size";
    return failure();
  }
  uint64_t count = llvm::divideCeil(bits.getFixedValue(), 8);
  for (int64_t dim = 0, e = type.getRank(); dim < e; ++dim) {
    int64_t extent = type.getDimSize(dim);
    if (ShapedType::isDynamic(extent)) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(allocOp->getResult(0), dim),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(ub) || *ub < 0) {
        why = "dynamic dimension " + std::to_string(dim) +
              " has no constant upper bound";
        return failure();
      }
      extent = *ub;
      isBound = true;
    }
    std::optional<uint64_t> product =
        llvm::checkedMulUnsigned(count, static_cast<uint64_t>(extent));
    if (!product) {
      why = "the allocation's byte size does not fit in 64 bits";
      return failure();
    }
    count = *product;
  }
  if (!addBytes(count, getAllocationPadding(allocOp, sizes))) {
    why = "the allocation's byte size does not fit in 64 bits";
    return failure();
  }
  return count;
}
