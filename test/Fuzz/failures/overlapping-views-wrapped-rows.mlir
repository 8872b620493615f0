// Found by test/Fuzz/run_fuzz.py (program seed 6, --seed 1 --count 100),
// minimised by hand.
//
// BUG (fixed): --memsched-schedule swapped two writes of OVERLAPPING slices of one
// buffer, so the program computed something else.
//
// %v covers elements 6..9 and 14..17 of %b, %w covers 8..11 and 16..19: both
// write %b[8], %b[9], %b[16], %b[17], so linalg.copy#4 (into %v) must stay
// before linalg.copy#5 (into %w) (write after write). The analysis added no
// edge between them (`deps linalg.copy#5 <- linalg.fill#0 linalg.copy#1`),
// and the schedule ran #5 first (peak 192 -> 160 bytes, "optimal"): %b[8, 9,
// 16, 17] ended up with %t1's values instead of %t2's, result#0 hashed
// differently (before bdd0e74).
//
// Cause: mayOverlap()/decompose() in lib/Analysis/MemSched/
// BufferLifetimeAnalysis.cpp. Both views have strides [8, 1]; decompose()
// splits the offsets into per-dimension coordinates (6 -> (0, 6), 8 -> (1, 0))
// and calls the boxes disjoint because their column intervals [6, 10) and
// [0, 4) do not meet. That is only valid when every box stays inside the row
// grid (coordinate + size <= stride[i-1] / stride[i] for each inner
// dimension); %v's rows start at column 6 of a row of 8 and run 4 columns,
// into the next row. decompose() checks that the strides are nested but not
// that the coordinates do not wrap. Views like %v come from any subview of an
// expand_shape of an offset subview (or a reinterpret_cast); the fuzzer found
// it with a 4x32 box, strides [61, 1], offsets 248 and 56 of a memref<512xf32>
// function argument.
//
// Fixed in bdd0e74 (decompose() now also requires every inner coordinate to
// stay within its row); kept as a regression test: the DEPS line must match
// and the two runs must hash alike.
//
// REQUIRES: mlir-runner
// RUN: memsched-opt %s --memsched-print-lifetimes=deps -o /dev/null | FileCheck %s --check-prefix=DEPS
// RUN: memsched-opt %s --memsched-schedule=count-alignment-padding -o %t.sched.mlir
// RUN: memsched-opt %s --memsched-test-harness=func=f --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | grep memsched-hash > %t.orig
// RUN: memsched-opt %t.sched.mlir --memsched-test-harness=func=f --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | grep memsched-hash > %t.sched
// RUN: diff %t.orig %t.sched

// DEPS: deps linalg.copy#5 <- {{.*}}linalg.copy#4

func.func @f(%in: memref<2x4xf32> {llvm.noalias}) -> memref<32xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %b = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<32xf32>)
  // %v: elements 6..9 and 14..17 of %b.
  %s = memref.subview %b[2] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 2>>
  %e = memref.expand_shape %s [[0, 1]] output_shape [2, 8] : memref<16xf32, strided<[1], offset: 2>> into memref<2x8xf32, strided<[8, 1], offset: 2>>
  %v = memref.subview %e[0, 4] [2, 4] [1, 1] : memref<2x8xf32, strided<[8, 1], offset: 2>> to memref<2x4xf32, strided<[8, 1], offset: 6>>
  // %w: elements 8..11 and 16..19 of %b (overlaps %v in 8, 9, 16, 17).
  %e2 = memref.expand_shape %b [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  %w = memref.subview %e2[1, 0] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  // %t2 is computed before %t1 (the fill of %in in between pins the order).
  %t2 = memref.alloc() : memref<2x4xf32>
  linalg.copy ins(%in : memref<2x4xf32>) outs(%t2 : memref<2x4xf32>)
  linalg.fill ins(%one : f32) outs(%in : memref<2x4xf32>)
  %t1 = memref.alloc() : memref<2x4xf32>
  linalg.copy ins(%in : memref<2x4xf32>) outs(%t1 : memref<2x4xf32>)
  // Two writes of overlapping slices of %b: their order decides %b[8, 9, 16, 17].
  linalg.copy ins(%t1 : memref<2x4xf32>) outs(%v : memref<2x4xf32, strided<[8, 1], offset: 6>>)
  memref.dealloc %t1 : memref<2x4xf32>
  linalg.copy ins(%t2 : memref<2x4xf32>) outs(%w : memref<2x4xf32, strided<[8, 1], offset: 8>>)
  memref.dealloc %t2 : memref<2x4xf32>
  return %b : memref<32xf32>
}
