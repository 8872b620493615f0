//===- MemSchedDialect.cpp - memsched dialect -------------------*- C++ -*-===//

#include "Dialect/MemSched/MemSchedDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::memsched;

//===----------------------------------------------------------------------===//
// Parameter parsers and printers
//===----------------------------------------------------------------------===//

static FailureOr<uint64_t> parseByteCount(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "expected a non-negative byte count");
  uint64_t value = 0;
  if (parser.parseInteger(value))
    return failure();
  return value;
}

static FailureOr<std::optional<uint64_t>>
parseOptionalByteCount(AsmParser &parser) {
  FailureOr<uint64_t> value = parseByteCount(parser);
  if (failed(value))
    return failure();
  return std::optional<uint64_t>(*value);
}

static FailureOr<SmallVector<uint64_t>> parsePositionList(AsmParser &parser) {
  SmallVector<uint64_t> positions;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        FailureOr<uint64_t> v = parseByteCount(parser);
        if (failed(v))
          return failure();
        positions.push_back(*v);
        return success();
      }))
    return failure();
  return positions;
}

static void printPositionList(AsmPrinter &printer, ArrayRef<uint64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

static void printMemorySpace(AsmPrinter &printer, Attribute space) {
  if (auto integer = dyn_cast<IntegerAttr>(space);
      integer && integer.getType().isSignlessInteger(64))
    printer << integer.getValue();
  else
    printer << space;
}

#include "Dialect/MemSched/MemSchedDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/MemSched/MemSchedAttrs.cpp.inc"

void MemSchedDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dialect/MemSched/MemSchedAttrs.cpp.inc"
      >();
}

LogicalResult CertificateAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, uint64_t peak,
    uint64_t lowerBound, StringAttr boundKind, StringAttr boundOp,
    ArrayRef<uint64_t> cut, StringAttr sizeModel, std::optional<uint64_t> arena,
    std::optional<uint64_t> arenaSize, std::optional<uint64_t> block,
    ArrayAttr spaces, std::optional<uint64_t> rematOps,
    std::optional<uint64_t> extraComputePpm,
    std::optional<uint64_t> searchBudget, DictionaryAttr sizesAt,
    StringAttr peakExpr, StringAttr lowerBoundExpr,
    std::optional<uint64_t> lowerBoundLow) {
  if (lowerBoundExpr && !peakExpr)
    return emitError() << "lower_bound_expr goes with peak_expr";
  if (lowerBoundLow && !lowerBoundExpr)
    return emitError() << "lower_bound_low goes with lower_bound_expr";
  if (sizesAt)
    for (NamedAttribute entry : sizesAt) {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value || value.getValue().isNegative())
        return emitError() << "sizes_at entry '" << entry.getName().getValue()
                           << "' must be a nonnegative integer";
    }
  if (rematOps && !extraComputePpm)
    return emitError() << "remat_ops goes with extra_compute_ppm";
  if (searchBudget &&
      (!boundKind || boundKind.getValue() != "exhaustive"))
    return emitError() << "search_budget goes with bound_kind = "
                          "\"exhaustive\" only: a cut bound needs no search";
  if (arena.has_value() != arenaSize.has_value())
    return emitError() << "arena and arena_size go together";
  if (arena && *arenaSize > *arena)
    return emitError() << "arena_size (" << *arenaSize
                       << " bytes) exceeds arena (" << *arena
                       << " bytes): the arena counts the arena itself";
  // Counting the allocator's padding, one arena can need less than the
  // allocations it replaces.
  if (arena && !sizeModel && *arena < lowerBound)
    return emitError() << "arena (" << *arena << " bytes) is below lower_bound ("
                       << lowerBound
                       << " bytes): no placement needs less than the bound";
  if (lowerBound > peak)
    return emitError() << "lower_bound (" << lowerBound
                       << " bytes) exceeds peak (" << peak
                       << " bytes): no order can be below its own lower bound";
  if (boundKind &&
      !llvm::is_contained(ArrayRef<StringRef>{"trivial", "forward",
                                              "backward", "window",
                                              "exhaustive"},
                          boundKind.getValue()))
    return emitError() << "bound_kind must be \"trivial\", \"forward\", "
                          "\"backward\", \"window\" or \"exhaustive\", "
                          "got \""
                       << boundKind.getValue() << "\"";
  if (sizeModel && sizeModel.getValue() != "allocator")
    return emitError() << "size_model must be \"allocator\" when present, got \""
                       << sizeModel.getValue() << "\"";
  if (spaces) {
    llvm::SmallPtrSet<Attribute, 4> seen;
    bool seenDefault = false;
    for (Attribute entry : spaces) {
      auto space = dyn_cast<SpaceAttr>(entry);
      if (!space)
        return emitError() << "spaces must hold #memsched.space entries, got "
                           << entry;
      Attribute which = space.getMemorySpace();
      if (which ? !seen.insert(which).second : seenDefault)
        return emitError() << "spaces lists a memory space twice";
      seenDefault |= !which;
      if (space.getPeak() > peak)
        return emitError() << "the peak of a memory space (" << space.getPeak()
                           << " bytes) exceeds peak (" << peak
                           << " bytes), which counts every space";
    }
  }
  if (!llvm::is_sorted(cut) ||
      std::adjacent_find(cut.begin(), cut.end()) != cut.end())
    return emitError() << "cut must list allocation positions in increasing "
                          "order without repeats";
  return success();
}

LogicalResult SpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                Attribute memorySpace, uint64_t peak,
                                uint64_t lowerBound) {
  if (lowerBound > peak)
    return emitError() << "lower_bound (" << lowerBound
                       << " bytes) exceeds peak (" << peak
                       << " bytes) of the memory space";
  return success();
}

SpaceAttr CertificateAttr::getSpaceEntry(Attribute space) const {
  if (!getSpaces())
    return {};
  for (Attribute entry : getSpaces())
    if (auto s = dyn_cast<SpaceAttr>(entry); s && s.getMemorySpace() == space)
      return s;
  return {};
}

/// A 1-D memref of i8 with the identity layout; static unless `dynamicOk`
/// (an allocated arena sized for a range of dynamic sizes).
static bool isByteArena(Type type, bool dynamicOk) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getRank() == 1 &&
         (memref.hasStaticShape() || dynamicOk) &&
         memref.getElementType().isInteger(8) &&
         memref.getLayout().isIdentity();
}

LogicalResult MemSchedDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
  if (attr.getName() == getArenaAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << getArenaAttrName()
                             << "' must be a unit attribute";
    Type type;
    bool isAlloc = op->getName().getStringRef() == "memref.alloc";
    if (isAlloc && op->getNumResults() == 1)
      type = op->getResult(0).getType();
    else if (op->getName().getStringRef() == "memref.global")
      if (auto typeAttr = op->getAttrOfType<TypeAttr>("type"))
        type = typeAttr.getValue();
    if (!type || !isByteArena(type, isAlloc))
      return op->emitError() << "'" << getArenaAttrName()
                             << "' marks a memref.alloc of a 1-D memref of i8 "
                                "or a memref.global of a static one";
    return success();
  }
  if (attr.getName() == getExtraComputeAttrName()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !isa<FunctionOpInterface>(op) || value.getValue().isNegative())
      return op->emitError() << "'" << getExtraComputeAttrName()
                             << "' is a non-negative integer on a function";
    return success();
  }
  if (attr.getName() != getCertificateAttrName())
    return op->emitError() << "unknown memsched attribute '"
                           << attr.getName().getValue() << "'";
  if (!isa<CertificateAttr>(attr.getValue()))
    return op->emitError() << "'" << getCertificateAttrName()
                           << "' must be a #memsched.certificate attribute";
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << getCertificateAttrName()
                           << "' is only valid on function-like ops";
  return success();
}

/// The number of dynamic sizes of argument `argIndex` of `op` (1 for an
/// integer or index argument) that `name` describes; fails with an error
/// for an argument without any.
static FailureOr<int64_t> getNumDynamicSizes(Operation *op,
                                             unsigned regionIndex,
                                             unsigned argIndex,
                                             StringRef name) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0 || argIndex >= func.getNumArguments())
    return op->emitError() << "'" << name << "' marks a function argument";
  Type type = func.getArgumentTypes()[argIndex];
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasRank() || shaped.getNumDynamicDims() == 0)
      return op->emitError()
             << "'" << name << "' on argument " << argIndex << " of type "
             << type << ": a shaped argument needs dynamic dimensions";
    return shaped.getNumDynamicDims();
  }
  if (!type.isIntOrIndex())
    return op->emitError() << "'" << name << "' on argument " << argIndex
                           << " of type " << type
                           << ": it describes an integer, index or shaped "
                              "argument";
  return 1;
}

/// `memsched.typical` on argument `argIndex` of a function: one value >= 0
/// per dynamic size.
static LogicalResult verifyTypicalAttribute(Operation *op, unsigned regionIndex,
                                            unsigned argIndex,
                                            Attribute value) {
  StringRef name = MemSchedDialect::getTypicalAttrName();
  FailureOr<int64_t> count =
      getNumDynamicSizes(op, regionIndex, argIndex, name);
  if (failed(count))
    return failure();
  auto values = dyn_cast<DenseI64ArrayAttr>(value);
  if (!values || values.size() != *count ||
      llvm::any_of(values.asArrayRef(), [](int64_t v) { return v < 0; }))
    return op->emitError() << "'" << name << "' on argument " << argIndex
                           << " must be array<i64> with " << *count
                           << " value(s) >= 0 (one per dynamic size)";
  return success();
}

/// `memsched.range` on argument `argIndex` of a function: lo, hi pairs,
/// one for an integer or index argument, one per dynamic dimension of a
/// ranked shaped one, each 0 <= lo <= hi or hi = -1.
static LogicalResult verifyRangeAttribute(Operation *op, unsigned regionIndex,
                                          unsigned argIndex, Attribute value) {
  StringRef name = MemSchedDialect::getRangeAttrName();
  FailureOr<int64_t> count =
      getNumDynamicSizes(op, regionIndex, argIndex, name);
  if (failed(count))
    return failure();
  int64_t pairs = *count;
  auto values = dyn_cast<DenseI64ArrayAttr>(value);
  if (!values || values.size() != 2 * pairs)
    return op->emitError()
           << "'" << name << "' on argument " << argIndex
           << " must be array<i64: lo, hi> with " << pairs
           << " pair(s) (one per dynamic size; hi = -1 for no upper bound)";
  for (int64_t k = 0; k < pairs; ++k) {
    int64_t lo = values[2 * k], hi = values[2 * k + 1];
    if (lo < 0 || hi < -1 || (hi >= 0 && hi < lo))
      return op->emitError()
             << "'" << name << "' on argument " << argIndex << ": [" << lo
             << ", " << hi
             << "] is not a range (0 <= lo <= hi, or hi = -1 for none)";
  }
  return success();
}

LogicalResult MemSchedDialect::verifyRegionArgAttribute(Operation *op,
                                                        unsigned regionIndex,
                                                        unsigned argIndex,
                                                        NamedAttribute attr) {
  if (attr.getName() == getRangeAttrName())
    return verifyRangeAttribute(op, regionIndex, argIndex, attr.getValue());
  if (attr.getName() == getTypicalAttrName())
    return verifyTypicalAttribute(op, regionIndex, argIndex, attr.getValue());
  if (attr.getName() != getArenaAttrName())
    return op->emitError() << "unknown memsched argument attribute '"
                           << attr.getName().getValue() << "'";
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << getArenaAttrName()
                           << "' must be a unit attribute";
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0 || argIndex >= func.getNumArguments() ||
      !isByteArena(func.getArgumentTypes()[argIndex], /*dynamicOk=*/false))
    return op->emitError() << "'" << getArenaAttrName()
                           << "' marks a function argument of a static 1-D "
                              "memref of i8";
  return success();
}
