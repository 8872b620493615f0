//===- TestPasses.cpp - registration of memsched test passes ----*- C++ -*-===//

namespace mlir::memsched {
void registerTestPrintLifetimesPass();

void registerTestPasses() { registerTestPrintLifetimesPass(); }
} // namespace mlir::memsched
