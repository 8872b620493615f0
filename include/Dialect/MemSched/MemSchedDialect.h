//===- MemSchedDialect.h - memsched dialect ---------------------*- C++ -*-===//

#ifndef MEMSCHED_DIALECT_MEMSCHEDDIALECT_H
#define MEMSCHED_DIALECT_MEMSCHEDDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "Dialect/MemSched/MemSchedDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/MemSched/MemSchedAttrs.h.inc"

#endif // MEMSCHED_DIALECT_MEMSCHEDDIALECT_H
