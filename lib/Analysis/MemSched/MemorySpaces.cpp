//===- MemorySpaces.cpp - the memory spaces a function allocates in -------===//

#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/OpClassification.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::memsched;

Attribute mlir::memsched::getMemoryPool(Operation *allocOp) {
  Attribute space =
      cast<BaseMemRefType>(allocOp->getResult(0).getType()).getMemorySpace();
  if (!space && isa<gpu::AllocOp>(allocOp))
    return gpu::AddressSpaceAttr::get(allocOp->getContext(),
                                      gpu::AddressSpace::Global);
  return space;
}

SmallVector<Attribute> mlir::memsched::collectMemorySpaces(Operation *func) {
  llvm::SetVector<Attribute> found;
  bool hasDefault = false;
  llvm::SmallPtrSet<Operation *, 8> visited;
  SmallVector<Operation *> work{func};
  visited.insert(func);
  while (!work.empty()) {
    Operation *f = work.pop_back_val();
    f->walk([&](Operation *op) {
      if (isAllocation(op) || isAsyncAllocation(op)) {
        Attribute space = getMemoryPool(op);
        if (space)
          found.insert(space);
        else
          hasDefault = true;
      }
      if (auto call = dyn_cast<CallOpInterface>(op))
        if (auto callee =
                dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable()))
          if (!callee.isExternal() && visited.insert(callee).second)
            work.push_back(callee);
    });
  }
  SmallVector<Attribute> spaces;
  if (hasDefault)
    spaces.push_back(Attribute());
  spaces.append(found.begin(), found.end());
  return spaces;
}

bool mlir::memsched::hasOnlyDefaultSpace(ArrayRef<Attribute> spaces) {
  return llvm::all_of(spaces, [](Attribute s) { return !s; });
}

std::string mlir::memsched::describeMemorySpace(Attribute space) {
  if (!space)
    return "default";
  std::string text;
  llvm::raw_string_ostream os(text);
  // Integer spaces print as a memref type shows them: `1`, not `1 : i64`.
  if (auto integer = dyn_cast<IntegerAttr>(space))
    os << integer.getValue();
  else
    os << space;
  return text;
}

FailureOr<Attribute> mlir::memsched::parseMemorySpace(StringRef text,
                                                      MLIRContext *context,
                                                      std::string &why) {
  text = text.trim();
  if (text == "default" || text == "0")
    return Attribute();
  Attribute space;
  // An integer is an i64 attribute in a memref type.
  int64_t number;
  if (!text.getAsInteger(10, number)) {
    if (number < 0) {
      why = "a numbered memory space is non-negative, got '" + text.str() + "'";
      return failure();
    }
    return Attribute(IntegerAttr::get(IntegerType::get(context, 64), number));
  }
  std::string parseError;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (parseError.empty())
        parseError = diag.str();
      return success();
    });
    space = parseAttribute(text, context);
  }
  if (!space) {
    why = "'" + text.str() +
          "' is not a memory space: give `default`, a number, or an "
          "attribute such as #gpu.address_space<workgroup>";
    if (!parseError.empty())
      why += " (" + parseError + ")";
    return failure();
  }
  return space;
}

LogicalResult mlir::memsched::parseMemorySpaceOption(
    StringRef text, Operation *at, StringRef pass,
    std::optional<Attribute> &space) {
  if (text.empty())
    return success();
  std::string why;
  FailureOr<Attribute> parsed = parseMemorySpace(text, at->getContext(), why);
  if (failed(parsed))
    return at->emitError() << pass << ": memory-space: " << why;
  space = *parsed;
  return success();
}
