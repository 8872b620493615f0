// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=remarks ranges=@upper:arg0=1:64:1" --mlir-print-op-on-diagnostic=false --memsched-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// Tests arenas over ranges with a typical value (docs/dynamic.md): the
// placement is chosen at the typical sizes, proved at every size.
//
// A chain of six buffers, each live with the next only: 32 floats (128
// bytes), n x 32 floats (128*n), 8, 32, 256 and 1 float (32, 128, 1024, 4
// bytes). The memory without an arena is the largest pair:
// max(128*n + 128, 1152). Placed for n = 1, the arena is exactly that at
// every n in [1, 64]. The placements chosen at the upper end (n = 64) and
// at the lower end without a typical value need 1312 bytes at n = 1: that
// function keeps its allocations.

// REMARK: remark: memsched-plan-arena: 'upper' left without an arena: planned, it would need 1312 bytes at arg0 = 1, above the 1152 bytes it needs without one (placed in 8 orders, none proved)
// OPTION: remark: memsched-plan-arena: 'upper': {{.*}}over the ranges arg0 in [1, 64]: arena max(128*arg0 + 128, 1152) bytes, given by @upper_arena_size; memory max(128*arg0 + 128, 1152) bytes, never more than without it, proved at every size; {{.*}}; at the typical sizes arg0 = 1: arena 1152 bytes, memory 1152 bytes
func.func @upper(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<1xf32>) {
  %cst = arith.constant 1.0 : f32
  %t0 = memref.alloc() : memref<32xf32>
  linalg.fill ins(%cst : f32) outs(%t0 : memref<32xf32>)
  %t1 = memref.alloc(%n) : memref<?x32xf32>
  %c0_1 = arith.constant 0 : index
  %v1 = memref.load %t0[%c0_1] : memref<32xf32>
  linalg.fill ins(%v1 : f32) outs(%t1 : memref<?x32xf32>)
  memref.dealloc %t0 : memref<32xf32>
  %t2 = memref.alloc() : memref<8xf32>
  %c0_2 = arith.constant 0 : index
  %v2 = memref.load %t1[%c0_2, %c0_2] : memref<?x32xf32>
  linalg.fill ins(%v2 : f32) outs(%t2 : memref<8xf32>)
  memref.dealloc %t1 : memref<?x32xf32>
  %t3 = memref.alloc() : memref<32xf32>
  %c0_3 = arith.constant 0 : index
  %v3 = memref.load %t2[%c0_3] : memref<8xf32>
  linalg.fill ins(%v3 : f32) outs(%t3 : memref<32xf32>)
  memref.dealloc %t2 : memref<8xf32>
  %t4 = memref.alloc() : memref<256xf32>
  %c0_4 = arith.constant 0 : index
  %v4 = memref.load %t3[%c0_4] : memref<32xf32>
  linalg.fill ins(%v4 : f32) outs(%t4 : memref<256xf32>)
  memref.dealloc %t3 : memref<32xf32>
  %t5 = memref.alloc() : memref<1xf32>
  %c0_5 = arith.constant 0 : index
  %v5 = memref.load %t4[%c0_5] : memref<256xf32>
  linalg.fill ins(%v5 : f32) outs(%t5 : memref<1xf32>)
  memref.dealloc %t4 : memref<256xf32>
  %cz = arith.constant 0 : index
  %last = memref.load %t5[%cz] : memref<1xf32>
  memref.store %last, %o[%cz] : memref<1xf32>
  memref.dealloc %t5 : memref<1xf32>
  return
}

// -----

// REMARK: remark: memsched-plan-arena: 'typical': {{.*}}over the ranges arg0 in [1, 64]: arena max(128*arg0 + 128, 1152) bytes, given by @typical_arena_size; memory max(128*arg0 + 128, 1152) bytes, never more than without it, proved at every size; {{.*}}; at the typical sizes arg0 = 1: arena 1152 bytes, memory 1152 bytes
func.func @typical(%n: index {memsched.range = array<i64: 1, 64>, memsched.typical = array<i64: 1>}, %o: memref<1xf32>) {
  %cst = arith.constant 1.0 : f32
  %t0 = memref.alloc() : memref<32xf32>
  linalg.fill ins(%cst : f32) outs(%t0 : memref<32xf32>)
  %t1 = memref.alloc(%n) : memref<?x32xf32>
  %c0_1 = arith.constant 0 : index
  %v1 = memref.load %t0[%c0_1] : memref<32xf32>
  linalg.fill ins(%v1 : f32) outs(%t1 : memref<?x32xf32>)
  memref.dealloc %t0 : memref<32xf32>
  %t2 = memref.alloc() : memref<8xf32>
  %c0_2 = arith.constant 0 : index
  %v2 = memref.load %t1[%c0_2, %c0_2] : memref<?x32xf32>
  linalg.fill ins(%v2 : f32) outs(%t2 : memref<8xf32>)
  memref.dealloc %t1 : memref<?x32xf32>
  %t3 = memref.alloc() : memref<32xf32>
  %c0_3 = arith.constant 0 : index
  %v3 = memref.load %t2[%c0_3] : memref<8xf32>
  linalg.fill ins(%v3 : f32) outs(%t3 : memref<32xf32>)
  memref.dealloc %t2 : memref<8xf32>
  %t4 = memref.alloc() : memref<256xf32>
  %c0_4 = arith.constant 0 : index
  %v4 = memref.load %t3[%c0_4] : memref<32xf32>
  linalg.fill ins(%v4 : f32) outs(%t4 : memref<256xf32>)
  memref.dealloc %t3 : memref<32xf32>
  %t5 = memref.alloc() : memref<1xf32>
  %c0_5 = arith.constant 0 : index
  %v5 = memref.load %t4[%c0_5] : memref<256xf32>
  linalg.fill ins(%v5 : f32) outs(%t5 : memref<1xf32>)
  memref.dealloc %t4 : memref<256xf32>
  %cz = arith.constant 0 : index
  %last = memref.load %t5[%cz] : memref<1xf32>
  memref.store %last, %o[%cz] : memref<1xf32>
  memref.dealloc %t5 : memref<1xf32>
  return
}
