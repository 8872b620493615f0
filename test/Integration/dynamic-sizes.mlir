// REQUIRES: mlir-runner
// The peak the counting allocator measures when a function scheduled over
// the range of its dynamic size runs at several sizes, against the peak
// expression derived by hand (test/Transforms/memsched-schedule-dynamic.mlir
// derives the same): as written 2048*n bytes (two temporaries of 256 x n
// floats live together), scheduled 1024*n, at n = 1, 37 and 64.

// RUN: memsched-opt %s --memsched-schedule --memsched-verify -o %t.sched.mlir
// RUN: memsched-opt %s --memsched-schedule=certify=0 \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=SCHEDULED

// RUN: memsched-opt %s --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=WRITTEN

// SCHEDULED: memsched-measured-peak=1024 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 384
// SCHEDULED-NEXT: memsched-measured-peak=37888 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 14208
// SCHEDULED-NEXT: memsched-measured-peak=65536 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 24576

// WRITTEN: memsched-measured-peak=2048 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 384
// WRITTEN-NEXT: memsched-measured-peak=75776 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 14208
// WRITTEN-NEXT: memsched-measured-peak=131072 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 24576

// The outputs: row sums of temporaries filled with 1.0 and 0.5, 256 and
// 128 per row; @run prints their total, 384 * n, after the peak.
func.func @two_temporaries(%n: index {memsched.range = array<i64: 1, 64>},
                           %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  %b = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x256xf32>)
  linalg.fill ins(%half : f32) outs(%b : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o1 : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  linalg.reduce ins(%b : memref<?x256xf32>) outs(%o2 : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  memref.dealloc %b : memref<?x256xf32>
  return
}

func.func private @memsched_counter_reset()
func.func private @memsched_counter_print()
func.func private @printI64(i64)
func.func private @printNewline()

// Runs @two_temporaries at size %n with outputs allocated outside the
// count; prints the measured peak, then the total of both outputs.
func.func @run(%n: index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o1 = memref.alloca(%n) : memref<?xf32>
  %o2 = memref.alloca(%n) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<?xf32>)
  linalg.fill ins(%zero : f32) outs(%o2 : memref<?xf32>)
  func.call @memsched_counter_reset() : () -> ()
  func.call @two_temporaries(%n, %o1, %o2) : (index, memref<?xf32>, memref<?xf32>) -> ()
  func.call @memsched_counter_print() : () -> ()
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %o2[%i] : memref<?xf32>
    %w = memref.load %o1[%i] : memref<?xf32>
    %vw = arith.addf %v, %w : f32
    %next = arith.addf %acc, %vw : f32
    scf.yield %next : f32
  }
  %t = arith.fptosi %sum : f32 to i64
  func.call @printI64(%t) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c64 = arith.constant 64 : index
  func.call @run(%c1) : (index) -> ()
  func.call @run(%c37) : (index) -> ()
  func.call @run(%c64) : (index) -> ()
  return
}
