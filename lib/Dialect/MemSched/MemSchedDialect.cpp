//===- MemSchedDialect.cpp - memsched dialect -------------------*- C++ -*-===//

#include "Dialect/MemSched/MemSchedDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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
  uint64_t value;
  if (parser.parseInteger(value))
    return failure();
  return value;
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

#include "Dialect/MemSched/MemSchedDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/MemSched/MemSchedAttrs.cpp.inc"

void MemSchedDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dialect/MemSched/MemSchedAttrs.cpp.inc"
      >();
}

LogicalResult
CertificateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        uint64_t peak, uint64_t lowerBound, StringAttr boundKind,
                        StringAttr boundOp, ArrayRef<uint64_t> cut,
                        StringAttr sizeModel) {
  if (lowerBound > peak)
    return emitError() << "lower_bound (" << lowerBound
                       << " bytes) exceeds peak (" << peak
                       << " bytes): no order can be below its own lower bound";
  if (boundKind &&
      !llvm::is_contained(ArrayRef<StringRef>{"trivial", "forward",
                                              "backward", "window"},
                          boundKind.getValue()))
    return emitError() << "bound_kind must be \"trivial\", \"forward\", "
                          "\"backward\" or \"window\", got \""
                       << boundKind.getValue() << "\"";
  if (sizeModel && sizeModel.getValue() != "allocator")
    return emitError() << "size_model must be \"allocator\" when present, got \""
                       << sizeModel.getValue() << "\"";
  if (!llvm::is_sorted(cut) ||
      std::adjacent_find(cut.begin(), cut.end()) != cut.end())
    return emitError() << "cut must list allocation positions in increasing "
                          "order without repeats";
  return success();
}

LogicalResult MemSchedDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
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
