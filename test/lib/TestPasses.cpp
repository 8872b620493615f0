//===- TestPasses.cpp - registration of memsched test passes ----*- C++ -*-===//

namespace memsched {
void registerTestPrintLifetimesPass();

void registerTestPasses() { registerTestPrintLifetimesPass(); }
} // namespace memsched
