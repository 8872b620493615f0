// REQUIRES: mlir-runner
// Sizes read through views, against the counting allocator: the measured
// peak of the scheduled program equals the certificate's expression at
// each size, and each call sizes the buffer it gets by what it passes.
//
// @collapsed, x : d0 x d1 x 64 floats: two temporaries of d0*d1 rows of 64
// floats (256*d0*d1 bytes each), read through the collapse_shape of x.
// Scheduled one after the other: 256*d0*d1 (256, 3840, 32768 at (1, 1),
// (3, 5), (8, 16)); as written both live at once (twice that). Each
// temporary is filled with 1.0 and reduced by rows into o1 / o2: the sum of
// both outputs is 2 * 64 * d0 * d1 (128, 1920, 16384).
//
// @two_calls: 60 + 60 bytes, then 84 + 84 = 168 (derived in
// test/Transforms/memsched-schedule-dynamic-views.mlir); the outputs hold
// 15 and 21 ones: 36.

// RUN: memsched-opt %s --memsched-schedule --memsched-verify -o %t.sched.mlir
// RUN: FileCheck %s --check-prefix=CERT --input-file=%t.sched.mlir
// RUN: memsched-opt %t.sched.mlir --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=SCHEDULED
// RUN: memsched-opt %s --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=WRITTEN

// CERT: func.func @collapsed({{.*}}peak_expr = "256*arg0.d0*arg0.d1"
// CERT: func.func @two_calls({{.*}}#memsched.certificate<peak = 168, lower_bound = 168

// SCHEDULED: memsched-measured-peak=256 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 128
// SCHEDULED-NEXT: memsched-measured-peak=3840 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 1920
// SCHEDULED-NEXT: memsched-measured-peak=32768 live-at-end=0 allocs=2 frees=2
// SCHEDULED-NEXT: 16384
// SCHEDULED-NEXT: memsched-measured-peak=168 live-at-end=0 allocs=4 frees=4
// SCHEDULED-NEXT: 36

// WRITTEN: memsched-measured-peak=512 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 128
// WRITTEN-NEXT: memsched-measured-peak=7680 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 1920
// WRITTEN-NEXT: memsched-measured-peak=65536 live-at-end=0 allocs=2 frees=2
// WRITTEN-NEXT: 16384
// WRITTEN-NEXT: memsched-measured-peak=168 live-at-end=0 allocs=4 frees=4
// WRITTEN-NEXT: 36

func.func @collapsed(%x: memref<?x?x64xf32> {memsched.range = array<i64: 1, 8, 1, 16>},
                     %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %c = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x64xf32> into memref<?x64xf32>
  %d = memref.dim %c, %c0 : memref<?x64xf32>
  %a = memref.alloc(%d) : memref<?x64xf32>
  %b = memref.alloc(%d) : memref<?x64xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x64xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<?x64xf32>)
  linalg.reduce ins(%a : memref<?x64xf32>) outs(%o1 : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32 }
  linalg.reduce ins(%b : memref<?x64xf32>) outs(%o2 : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x64xf32>
  memref.dealloc %b : memref<?x64xf32>
  return
}

func.func @flatten(%x: memref<?x?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c = memref.collapse_shape %x [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %d = memref.dim %c, %c0 : memref<?xf32>
  %r = memref.alloc(%d) : memref<?xf32>
  memref.copy %c, %r : memref<?xf32> to memref<?xf32>
  return %r : memref<?xf32>
}

func.func @two_calls(%o1: memref<?xf32>, %o2: memref<?xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<3x5xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<3x5xf32>)
  %ca = memref.cast %a : memref<3x5xf32> to memref<?x?xf32>
  %ra = func.call @flatten(%ca) : (memref<?x?xf32>) -> memref<?xf32>
  memref.dealloc %a : memref<3x5xf32>
  memref.copy %ra, %o1 : memref<?xf32> to memref<?xf32>
  memref.dealloc %ra : memref<?xf32>
  %b = memref.alloc() : memref<7x3xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<7x3xf32>)
  %cb = memref.cast %b : memref<7x3xf32> to memref<?x?xf32>
  %rb = func.call @flatten(%cb) : (memref<?x?xf32>) -> memref<?xf32>
  memref.dealloc %b : memref<7x3xf32>
  memref.copy %rb, %o2 : memref<?xf32> to memref<?xf32>
  memref.dealloc %rb : memref<?xf32>
  return
}

func.func private @memsched_counter_reset()
func.func private @memsched_counter_print()
func.func private @printI64(i64)
func.func private @printNewline()

func.func @sum(%o: memref<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %o, %c0 : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %o[%i] : memref<?xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  return %s : f32
}

func.func @print(%v: f32) {
  %t = arith.fptosi %v : f32 to i64
  func.call @printI64(%t) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @run(%d0: index, %d1: index) {
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %d0, %d1 : index
  %x = memref.alloca(%d0, %d1) : memref<?x?x64xf32>
  %o1 = memref.alloca(%rows) : memref<?xf32>
  %o2 = memref.alloca(%rows) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<?xf32>)
  linalg.fill ins(%zero : f32) outs(%o2 : memref<?xf32>)
  func.call @memsched_counter_reset() : () -> ()
  func.call @collapsed(%x, %o1, %o2) : (memref<?x?x64xf32>, memref<?xf32>, memref<?xf32>) -> ()
  func.call @memsched_counter_print() : () -> ()
  %s1 = func.call @sum(%o1) : (memref<?xf32>) -> f32
  %s2 = func.call @sum(%o2) : (memref<?xf32>) -> f32
  %s = arith.addf %s1, %s2 : f32
  func.call @print(%s) : (f32) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  func.call @run(%c1, %c1) : (index, index) -> ()
  func.call @run(%c3, %c5) : (index, index) -> ()
  func.call @run(%c8, %c16) : (index, index) -> ()
  %zero = arith.constant 0.0 : f32
  %o1 = memref.alloca() : memref<15xf32>
  %o2 = memref.alloca() : memref<21xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<15xf32>)
  linalg.fill ins(%zero : f32) outs(%o2 : memref<21xf32>)
  %p1 = memref.cast %o1 : memref<15xf32> to memref<?xf32>
  %p2 = memref.cast %o2 : memref<21xf32> to memref<?xf32>
  func.call @memsched_counter_reset() : () -> ()
  func.call @two_calls(%p1, %p2) : (memref<?xf32>, memref<?xf32>) -> ()
  func.call @memsched_counter_print() : () -> ()
  %s1 = func.call @sum(%p1) : (memref<?xf32>) -> f32
  %s2 = func.call @sum(%p2) : (memref<?xf32>) -> f32
  %s = arith.addf %s1, %s2 : f32
  func.call @print(%s) : (f32) -> ()
  return
}
