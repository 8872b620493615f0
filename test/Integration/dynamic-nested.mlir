// REQUIRES: mlir-runner
// A loop whose body allocates by the dynamic size, modelled over the range
// (its body's peak as a polynomial): the certificate's expression against
// the counting allocator at several sizes, scheduled and planned.
//
// @loop_temp, n in [1, 64]: %a, n x 256 floats (1024*n bytes), lives around
// a loop of three iterations, each allocating %t of the same size, filling
// it from %a and freeing it: the peak is 1024*n + 1024*n = 2048*n at every
// n (2048, 10240, 131072 at n = 1, 5, 64). Planned, %a is in the arena
// (1024*n bytes, aligned to 16: the allocator is asked 16 bytes more) and
// %t stays outside (inside a loop): 2048*n + 16.

// RUN: memsched-opt %s --memsched-schedule --memsched-verify -o %t.sched.mlir
// RUN: FileCheck %s --check-prefix=CERT --input-file=%t.sched.mlir
// RUN: memsched-opt %t.sched.mlir --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=SCHEDULED
// RUN: memsched-opt %t.sched.mlir --memsched-plan-arena --memsched-verify \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=PLANNED

// CERT: func.func @loop_temp({{.*}}#memsched.certificate<peak = 131072, lower_bound = 131072, {{.*}}sizes_at = {arg0 = 64 : i64}, peak_expr = "2048*arg0", lower_bound_expr = "2048*arg0">

// SCHEDULED: memsched-measured-peak=2048 live-at-end=0 allocs=4 frees=4
// SCHEDULED-NEXT: 1536
// SCHEDULED-NEXT: memsched-measured-peak=10240 live-at-end=0 allocs=4 frees=4
// SCHEDULED-NEXT: 7680
// SCHEDULED-NEXT: memsched-measured-peak=131072 live-at-end=0 allocs=4 frees=4
// SCHEDULED-NEXT: 98304

// PLANNED: memsched-measured-peak=2064 live-at-end=0 allocs=4 frees=4
// PLANNED-NEXT: 1536
// PLANNED-NEXT: memsched-measured-peak=10256 live-at-end=0 allocs=4 frees=4
// PLANNED-NEXT: 7680
// PLANNED-NEXT: memsched-measured-peak=131088 live-at-end=0 allocs=4 frees=4
// PLANNED-NEXT: 98304

// The output: each iteration adds the row sums of %t (256 x 2.0 = 512) to
// %o: 1536 per row after three, 1536 * n in all.
func.func @loop_temp(%n: index {memsched.range = array<i64: 1, 64>},
                     %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x256xf32>)
  scf.for %i = %c0 to %c3 step %c1 {
    %t = memref.alloc(%n) : memref<?x256xf32>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x256xf32>) outs(%t : memref<?x256xf32>) {
    ^bb0(%x: f32, %y: f32):
      %d = arith.addf %x, %x : f32
      linalg.yield %d : f32
    }
    linalg.reduce ins(%t : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
      (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32 }
    memref.dealloc %t : memref<?x256xf32>
  }
  memref.dealloc %a : memref<?x256xf32>
  return
}

func.func private @memsched_counter_reset()
func.func private @memsched_counter_print()
func.func private @printI64(i64)
func.func private @printNewline()

func.func @run(%n: index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o = memref.alloca(%n) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<?xf32>)
  func.call @memsched_counter_reset() : () -> ()
  func.call @loop_temp(%n, %o) : (index, memref<?xf32>) -> ()
  func.call @memsched_counter_print() : () -> ()
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> f32 {
    %v = memref.load %o[%i] : memref<?xf32>
    %next = arith.addf %s, %v : f32
    scf.yield %next : f32
  }
  %t = arith.fptosi %sum : f32 to i64
  func.call @printI64(%t) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  func.call @run(%c1) : (index) -> ()
  func.call @run(%c5) : (index) -> ()
  func.call @run(%c64) : (index) -> ()
  return
}
