// REQUIRES: mlir-runner
// An arena planned for a range of sizes runs at several sizes: the
// counting allocator's peak against the arena expression derived by hand,
// the size function's answer, and the outputs against the unplanned run.
//
// @chain, n in [1, 64]: a static temporary of 4096 floats (16384 bytes),
// dead before three temporaries of n x 128 floats (512*n bytes each) of
// which two live at once: unplanned, the peak is max(16384, 1024*n). The
// arena: the static one at offset 0, the first and third at 512*n, the
// second at 0 (sharing the static one's bytes): max(16384, 1024*n) bytes,
// at n = 1, 16, 37, 64: 16384, 16384, 37888, 65536. Stacking the dynamic
// ones above the static region would take 16384 + 1536*n (17920 at n = 1,
// 114688 at n = 64). The one allocation of the planned function, aligned
// to 16 bytes, asks the generic allocation function for 16 bytes more: the
// measured peak is the arena + 16; unplanned, the peak itself.

// RUN: memsched-opt %s --memsched-schedule --memsched-plan-arena=remarks \
// RUN:   --memsched-verify -o %t.arena.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.arena.mlir
// RUN: memsched-opt %t.arena.mlir --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=PLANNED
// RUN: memsched-opt %s --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=UNPLANNED

// REMARK: remark: memsched-plan-arena: 'chain': {{.*}}arena max(16384, 1024*arg0) bytes, given by @chain_arena_size; memory max(16384, 1024*arg0) bytes, never more than without it, proved at every size; stacking the dynamic buffers above the static ones: 1536*arg0 + 16384 bytes)

// IR-LABEL: func.func @chain(
// IR: %[[C16384:.*]] = arith.constant 16384 : index
// IR: %[[C1024:.*]] = arith.constant 1024 : index
// IR: %[[MUL:.*]] = arith.muli %[[C1024]], %arg0 : index
// IR: %[[MAX:.*]] = arith.maxui %[[C16384]], %[[MUL]] : index
// IR: memref.alloc(%[[MAX]]) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
// IR-LABEL: func.func @chain_arena_size(%arg0: index) -> index
// IR: %[[C16384:.*]] = arith.constant 16384 : index
// IR: %[[C1024:.*]] = arith.constant 1024 : index
// IR: %[[MUL:.*]] = arith.muli %[[C1024]], %arg0 : index
// IR: %[[MAX:.*]] = arith.maxui %[[C16384]], %[[MUL]] : index
// IR: return %[[MAX]] : index

// PLANNED: memsched-measured-peak=16400 live-at-end=0 allocs=1 frees=1
// PLANNED-NEXT: 4352
// PLANNED-NEXT: memsched-measured-peak=16400 live-at-end=0 allocs=1 frees=1
// PLANNED-NEXT: 8192
// PLANNED-NEXT: memsched-measured-peak=37904 live-at-end=0 allocs=1 frees=1
// PLANNED-NEXT: 13568
// PLANNED-NEXT: memsched-measured-peak=65552 live-at-end=0 allocs=1 frees=1
// PLANNED-NEXT: 20480

// UNPLANNED: memsched-measured-peak=16384 live-at-end=0 allocs=4 frees=4
// UNPLANNED-NEXT: 4352
// UNPLANNED-NEXT: memsched-measured-peak=16384 live-at-end=0 allocs=4 frees=4
// UNPLANNED-NEXT: 8192
// UNPLANNED-NEXT: memsched-measured-peak=37888 live-at-end=0 allocs=4 frees=4
// UNPLANNED-NEXT: 13568
// UNPLANNED-NEXT: memsched-measured-peak=65536 live-at-end=0 allocs=4 frees=4
// UNPLANNED-NEXT: 20480

// The outputs: %acc gets the sum of the static temporary (4096) and %out
// the row sums of the last temporary, each 2 * 128 = 256 (the first filled
// with 1.0, doubled into the second, copied into the third): @run prints
// 4096 + 256 * n after the peak (4352, 8192, 13568, 20480).
func.func @chain(%n: index {memsched.range = array<i64: 1, 64>},
                 %acc: memref<f32>, %out: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4096xf32>
  linalg.fill ins(%one : f32) outs(%s : memref<4096xf32>)
  linalg.reduce ins(%s : memref<4096xf32>) outs(%acc : memref<f32>) dimensions = [0]
    (%x: f32, %y: f32) { %r = arith.addf %x, %y : f32
      linalg.yield %r : f32 }
  memref.dealloc %s : memref<4096xf32>
  %a = memref.alloc(%n) : memref<?x128xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x128xf32>)
  %b = memref.alloc(%n) : memref<?x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
    ins(%a : memref<?x128xf32>) outs(%b : memref<?x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d : f32
  }
  memref.dealloc %a : memref<?x128xf32>
  %c = memref.alloc(%n) : memref<?x128xf32>
  memref.copy %b, %c : memref<?x128xf32> to memref<?x128xf32>
  memref.dealloc %b : memref<?x128xf32>
  linalg.reduce ins(%c : memref<?x128xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%x: f32, %y: f32) { %r = arith.addf %x, %y : f32
      linalg.yield %r : f32 }
  memref.dealloc %c : memref<?x128xf32>
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
  %acc = memref.alloca() : memref<f32>
  %out = memref.alloca(%n) : memref<?xf32>
  memref.store %zero, %acc[] : memref<f32>
  linalg.fill ins(%zero : f32) outs(%out : memref<?xf32>)
  func.call @memsched_counter_reset() : () -> ()
  func.call @chain(%n, %acc, %out) : (index, memref<f32>, memref<?xf32>) -> ()
  func.call @memsched_counter_print() : () -> ()
  %a = memref.load %acc[] : memref<f32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %a) -> f32 {
    %v = memref.load %out[%i] : memref<?xf32>
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
  %c16 = arith.constant 16 : index
  %c37 = arith.constant 37 : index
  %c64 = arith.constant 64 : index
  func.call @run(%c1) : (index) -> ()
  func.call @run(%c16) : (index) -> ()
  func.call @run(%c37) : (index) -> ()
  func.call @run(%c64) : (index) -> ()
  return
}
