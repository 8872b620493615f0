//===- AllocationSize.cpp - byte sizes of allocations -----------*- C++ -*-===//

#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/SizeSymbols.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::memsched;

uint64_t mlir::memsched::getElementTypeAlignment(MemRefType type,
                                                 const DataLayout &layout) {
  Type element = type.getElementType();
  if (element.isSignlessIntOrIndexOrFloat())
    return 1;
  uint64_t size = layout.getTypeSize(element);
  return size ? llvm::PowerOf2Ceil(size) : 1;
}

/// Bytes the generic allocation lowering adds on top of the memref size:
/// the `alignment` attribute, else the alignment it gives elements that
/// are not scalars (AllocOpLowering asks for size + alignment and rounds
/// the pointer up).
static uint64_t getAllocationPadding(Operation *allocOp,
                                     const DataLayout &layout,
                                     SizeModel sizes) {
  if (!sizes.countAlignmentPadding)
    return 0;
  // (memref.realloc is lowered to such an allocation, --expand-realloc.)
  std::optional<uint64_t> alignment;
  MemRefType type;
  if (auto alloc = dyn_cast<memref::AllocOp>(allocOp)) {
    alignment = alloc.getAlignment();
    type = alloc.getType();
  } else if (auto realloc = dyn_cast<memref::ReallocOp>(allocOp)) {
    alignment = realloc.getAlignment();
    type = realloc.getType();
  } else {
    return 0;
  }
  if (alignment)
    return *alignment;
  uint64_t natural = getElementTypeAlignment(type, layout);
  return natural > 1 ? natural : 0;
}

/// Whether `sizes` counts an allocation of `type`. The size is computed
/// (and checked) either way, so what is supported never depends on the space
/// counted.
static bool inCountedSpace(Operation *allocOp, SizeModel sizes) {
  return !sizes.memorySpace || getMemoryPool(allocOp) == *sizes.memorySpace;
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

LogicalResult mlir::memsched::getStridesAndOffset(
    MemRefType type, SmallVectorImpl<int64_t> &strides, int64_t &offset) {
  if (auto strided = dyn_cast<StridedLayoutAttr>(type.getLayout())) {
    strides.assign(strided.getStrides().begin(), strided.getStrides().end());
    offset = strided.getOffset();
    return success();
  }
  ArrayRef<int64_t> shape = type.getShape();
  if (type.getLayout().isIdentity() && type.hasStaticShape() &&
      !llvm::is_contained(shape, 0)) {
    strides.resize(shape.size());
    int64_t running = 1;
    bool overflow = false;
    for (int64_t dim = type.getRank() - 1; dim >= 0 && !overflow; --dim) {
      strides[dim] = running;
      std::optional<int64_t> next = llvm::checkedMul(running, shape[dim]);
      overflow = !next;
      running = next.value_or(0);
    }
    if (!overflow) {
      offset = 0;
      return success();
    }
    strides.clear();
  }
  return type.getStridesAndOffset(strides, offset);
}

bool mlir::memsched::isIdentityInDisguise(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(getStridesAndOffset(type, strides, offset)) || offset != 0)
    return false;
  // Row-major strides; a dimension of size 1 is never stepped over, so its
  // stride does not matter.
  int64_t expected = 1;
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    int64_t size = type.getDimSize(dim);
    if (size != 1 && strides[dim] != expected)
      return false;
    std::optional<int64_t> next = llvm::checkedMul(expected, size);
    if (!next)
      return false;
    expected = *next;
  }
  return true;
}

FailureOr<uint64_t> mlir::memsched::getStridedExtent(MemRefType type,
                                                    std::string &why) {
  SmallVector<int64_t> strides;
  int64_t offset;
  std::string layout;
  llvm::raw_string_ostream os(layout);
  os << type.getLayout();
  if (failed(getStridesAndOffset(type, strides, offset))) {
    why = "allocation with a layout that is not strided (" + layout +
          "); give it an identity or strided layout first "
          "(--normalize-memrefs does so when every user of the buffer can "
          "take the normalized type; linalg ops cannot)";
    return failure();
  }
  if (ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic) || !type.hasStaticShape()) {
    why = "allocation with layout " + layout +
          " and a dynamic size, stride or offset: its extent is not known; "
          "use static strides and sizes or the identity layout";
    return failure();
  }
  if (offset < 0 || llvm::any_of(strides, [](int64_t s) { return s < 0; })) {
    why = "allocation with layout " + layout +
          " has a negative stride or offset";
    return failure();
  }
  if (llvm::is_contained(type.getShape(), 0))
    return uint64_t(0);
  // Elements from the base pointer to the last one reached, inclusive.
  uint64_t last = static_cast<uint64_t>(offset);
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    std::optional<uint64_t> step = llvm::checkedMulUnsigned(
        static_cast<uint64_t>(size - 1), static_cast<uint64_t>(stride));
    if (!step || !addBytes(last, *step)) {
      why = "the allocation's byte size does not fit in 64 bits";
      return failure();
    }
  }
  if (last == UINT64_MAX) {
    why = "the allocation's byte size does not fit in 64 bits";
    return failure();
  }
  return last + 1;
}

/// The extent of dimension `dim` of `type`, the result of `allocOp`: the
/// static size, the value at `sizes.point` of a dynamic size that is one of
/// its symbols, else the constant upper bound of the dynamic size (setting
/// `isBound`).
static FailureOr<int64_t> getDimExtent(Operation *allocOp, MemRefType type,
                                       int64_t dim, const SizeModel &sizes,
                                       bool &isBound, std::string &why) {
  int64_t extent = type.getDimSize(dim);
  if (!ShapedType::isDynamic(extent))
    return extent;
  Value operand = getDynamicSizeOperand(allocOp, dim);
  if (operand && sizes.point && sizes.point->symbols) {
    // A symbol or an expression of the symbols, all of them at the point.
    const std::vector<uint64_t> &values = sizes.point->values;
    if (std::optional<std::vector<::memsched_core::SizePoly>> expr =
            getSizeExpression(operand, *sizes.point->symbols,
                              sizes.callSite)) {
      bool atPoint = true;
      for (const ::memsched_core::SizePoly &p : *expr)
        atPoint = atPoint && p.numSymbolsUsed() <= values.size() &&
                  llvm::all_of(p.terms(), [&](const auto &t) {
                    return llvm::all_of(t.monomial, [&](unsigned s) {
                      return values[s] != kNotAtPoint;
                    });
                  });
      uint64_t v = !atPoint ? UINT64_MAX
                   : sizes.maxChoice
                       ? (*expr)[std::min<size_t>(*sizes.maxChoice,
                                                  expr->size() - 1)]
                             .evaluate(values)
                       : ::memsched_core::evaluateMax(*expr, values);
      if (v <= uint64_t(INT64_MAX))
        return static_cast<int64_t>(v);
    }
  }
  // A product of static dimensions (a dimension of a view of a static
  // buffer, or of a callee's argument at the call).
  std::optional<SizeFactors> factors =
      operand ? getSizeFactors(operand, sizes.callSite) : std::nullopt;
  if (factors && factors->keys.empty())
    return static_cast<int64_t>(factors->constant);
  FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB,
      ValueBoundsConstraintSet::Variable(allocOp->getResult(0), dim),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  // Else the product of the bounds of its factors (those of a callee's
  // arguments are the caller's at the call).
  if ((failed(ub) || *ub < 0) && factors) {
    std::optional<uint64_t> product = factors->constant;
    for (const SizeSymbols::Key &key : factors->keys) {
      FailureOr<int64_t> keyUb =
          ValueBoundsConstraintSet::computeConstantBound(
              presburger::BoundType::UB,
              key.second < 0
                  ? ValueBoundsConstraintSet::Variable(key.first)
                  : ValueBoundsConstraintSet::Variable(key.first, key.second),
              /*stopCondition=*/nullptr, /*closedUB=*/true);
      product = succeeded(keyUb) && *keyUb >= 0 && product
                    ? llvm::checkedMulUnsigned(*product, uint64_t(*keyUb))
                    : std::nullopt;
    }
    if (product && *product <= uint64_t(INT64_MAX))
      ub = static_cast<int64_t>(*product);
  }
  if (failed(ub) || *ub < 0) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << type;
    why = "dynamic dimension " + std::to_string(dim) +
          " has no constant upper bound (" + name + "); ";
    // Sizes are bounded through the op's value-bounds model, which
    // memref.alloc and memref.alloca have.
    if (isa<memref::AllocOp, memref::AllocaOp>(allocOp))
      why += "declare its range (a `memsched.range` attribute on the "
             "function argument it comes from, docs/dynamic.md), clamp it "
             "with affine.min against a constant, or make it static";
    else
      why += (allocOp->getName().getStringRef() +
              " gives no bound of its sizes: make the size static, or "
              "allocate with memref.alloc, whose sizes clamped with "
              "affine.min are bounded")
                 .str();
    return failure();
  }
  isBound = true;
  return *ub;
}

SizeModel mlir::memsched::atCallSite(SizeModel sizes, Operation *op) {
  if (isa_and_nonnull<CallOpInterface>(op))
    sizes.callSite = op;
  return sizes;
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
  // A strided layout: the buffer spans the elements from its base pointer to
  // the last one the layout reaches.
  std::optional<uint64_t> extent;
  if (!type.getLayout().isIdentity()) {
    FailureOr<uint64_t> elements = getStridedExtent(type, why);
    if (failed(elements))
      return failure();
    extent = *elements;
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
  if (extent) {
    std::optional<uint64_t> product = llvm::checkedMulUnsigned(count, *extent);
    if (!product ||
        !addBytes(*product, getAllocationPadding(allocOp, layout, sizes))) {
      why = "the allocation's byte size does not fit in 64 bits";
      return failure();
    }
    return inCountedSpace(allocOp, sizes) ? *product : 0;
  }
  for (int64_t dim = 0, e = type.getRank(); dim < e; ++dim) {
    FailureOr<int64_t> extent =
        getDimExtent(allocOp, type, dim, sizes, isBound, why);
    if (failed(extent))
      return failure();
    std::optional<uint64_t> product =
        llvm::checkedMulUnsigned(count, static_cast<uint64_t>(*extent));
    if (!product) {
      why = "the allocation's byte size does not fit in 64 bits";
      return failure();
    }
    count = *product;
  }
  if (!addBytes(count, getAllocationPadding(allocOp, layout, sizes))) {
    why = "the allocation's byte size does not fit in 64 bits";
    return failure();
  }
  return inCountedSpace(allocOp, sizes) ? count : 0;
}

FailureOr<::memsched_core::SizePoly> mlir::memsched::getSymbolicAllocationSize(
    Operation *allocOp, const DataLayout &layout, SizeModel sizes,
    const SizeSymbols &symbols, uint64_t times, std::string &why) {
  using ::memsched_core::SizePoly;
  bool isBound = false;
  sizes.point.reset();
  auto type = dyn_cast<MemRefType>(allocOp->getResult(0).getType());
  if (!type) {
    why = "allocation of a non-memref type";
    return failure();
  }
  // The dynamic sizes that are symbols or expressions of them.
  SmallVector<SizePoly> dimPolys;
  llvm::SmallDenseSet<Value> symbolic;
  for (int64_t dim = 0, e = type.getRank(); dim < e; ++dim) {
    Value operand = getDynamicSizeOperand(allocOp, dim);
    if (!operand)
      continue;
    std::optional<std::vector<SizePoly>> expr =
        getSizeExpression(operand, symbols, sizes.callSite);
    if (!expr)
      continue;
    if (expr->size() > 1 && !sizes.maxChoice) {
      why = "its size is the max of several expressions of the dynamic "
            "sizes (an arena planned for a range of sizes)";
      return failure();
    }
    dimPolys.push_back((*expr)[std::min<size_t>(sizes.maxChoice.value_or(0),
                                                expr->size() - 1)]);
    symbolic.insert(operand);
  }
  if (dimPolys.empty() || !inCountedSpace(allocOp, sizes)) {
    FailureOr<uint64_t> size =
        getAllocationSize(allocOp, layout, sizes, isBound, why);
    if (failed(size))
      return failure();
    std::optional<uint64_t> all = llvm::checkedMulUnsigned(*size, times);
    if (!all) {
      why = "the allocation's byte size does not fit in 64 bits";
      return failure();
    }
    return SizePoly::constant(*all);
  }
  if (!type.getLayout().isIdentity()) {
    why = "allocation with a layout that is not the identity and a dynamic "
          "size: its extent is not a product of its sizes";
    return failure();
  }
  if (!hasLayoutSize(type.getElementType()) ||
      layout.getTypeSizeInBits(type.getElementType()).isScalable()) {
    why = "element type without a fixed byte size in the data layout";
    return failure();
  }
  // The constant factor: bytes per element, the static sizes and the upper
  // bounds of dynamic sizes that are not symbols.
  uint64_t factor = llvm::divideCeil(
      layout.getTypeSizeInBits(type.getElementType()).getFixedValue(), 8);
  std::optional<uint64_t> scaled = llvm::checkedMulUnsigned(factor, times);
  for (int64_t dim = 0, e = type.getRank(); scaled && dim < e; ++dim) {
    Value operand = getDynamicSizeOperand(allocOp, dim);
    if (operand && symbolic.contains(operand))
      continue;
    FailureOr<int64_t> extent =
        getDimExtent(allocOp, type, dim, sizes, isBound, why);
    if (failed(extent))
      return failure();
    scaled = llvm::checkedMulUnsigned(*scaled, static_cast<uint64_t>(*extent));
  }
  std::optional<uint64_t> padding = llvm::checkedMulUnsigned(
      getAllocationPadding(allocOp, layout, sizes), times);
  if (!scaled || !padding) {
    why = "the allocation's byte size does not fit in 64 bits";
    return failure();
  }
  SizePoly poly = SizePoly::constant(*scaled);
  for (const SizePoly &p : dimPolys)
    poly = poly * p;
  return poly + SizePoly::constant(*padding);
}
