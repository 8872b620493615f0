//===- TestHarness.h - Runnable main() for measured-peak tests --*- C++ -*-===//
//
// `--memsched-test-harness{func=<name> seed=<n>}` adds a `func.func @main()`
// that allocates and fills the arguments of `@<name>`, calls it between
// `memsched_counter_reset` and `memsched_counter_print` (libmemsched_runtime),
// and prints bit-exact hashes of its results and arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TEST_LIB_HARNESS_TESTHARNESS_H
#define MEMSCHED_TEST_LIB_HARNESS_TESTHARNESS_H

namespace mlir::memsched {
/// Registers `--memsched-test-harness` and the pipeline
/// `--memsched-test-lower-to-llvm{use-aligned-alloc=false}` (the lowering to
/// the LLVM dialect that routes allocation through the counted functions).
void registerTestHarnessPass();
} // namespace mlir::memsched

#endif // MEMSCHED_TEST_LIB_HARNESS_TESTHARNESS_H
