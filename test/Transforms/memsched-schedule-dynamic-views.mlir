// RUN: memsched-opt %s --split-input-file "--memsched-schedule=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify 2>/dev/null | FileCheck %s

// Tests sizes read through views (docs/dynamic.md, "Symbols and ranges"):
// a dimension of a collapse_shape is the product of the dimensions of its
// group, one of an expand_shape its output size, one of a cast the
// source's (a constant when the source is static), and a callee's
// argument the operand of the call that sizes the buffer it returns.

// Two temporaries of d0*d1 rows of 64 floats (256*d0*d1 bytes each), both
// live as written: 512*d0*d1. One after the other: 256*d0*d1. At the upper
// ends (8, 16): 65536 -> 32768; at (1, 1): 512 -> 256.
// REMARK: remark: memsched-schedule: over arg0.d0 in [1, 8], arg0.d1 in [1, 16]: peak 512*arg0.d0*arg0.d1 -> 256*arg0.d0*arg0.d1 bytes, never above the order as written (proved); at arg0.d0 = 8, arg0.d1 = 16: 65536 -> 32768 bytes; at arg0.d0 = 1, arg0.d1 = 1: 512 -> 256 bytes
// CHECK-LABEL: func.func @collapsed
// CHECK-SAME: peak_expr = "256*arg0.d0*arg0.d1"
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x64xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[A]]
// CHECK-NEXT: linalg.reduce ins(%[[A]]
// CHECK: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?x64xf32>
func.func @collapsed(%x: memref<?x?x64xf32> {memsched.range = array<i64: 1, 8, 1, 16>},
                     %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %c = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x64xf32> into memref<?x64xf32>
  %d = memref.dim %c, %c0 : memref<?x64xf32>
  %a = memref.alloc(%d) : memref<?x64xf32>
  %b = memref.alloc(%d) : memref<?x64xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x64xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?x64xf32>)
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

// -----

// Dimension 0 of the expand_shape is its output size %n (arg1), dimension
// 1 the constant 4: a buffer of n x 4 floats, 16*n bytes, and a copy of it
// (32*n together). At n = 10: 320.
// REMARK: remark: memsched-schedule: over arg1 in [2, 10]: peak 32*arg1 bytes, order as written kept; at arg1 = 10: 320 -> 320 bytes; at arg1 = 2: 64 -> 64 bytes
// CHECK-LABEL: func.func @expanded
// CHECK-SAME: peak_expr = "32*arg1"
func.func @expanded(%x: memref<?xf32>, %n: index {memsched.range = array<i64: 2, 10>},
                    %o: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = memref.expand_shape %x [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  %d0 = memref.dim %e, %c0 : memref<?x4xf32>
  %a = memref.alloc(%d0) : memref<?x4xf32>
  memref.copy %e, %a : memref<?x4xf32> to memref<?x4xf32>
  %b = memref.alloc(%d0) : memref<?x4xf32>
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  memref.copy %b, %o : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  return
}

// -----

// A cast of a static buffer keeps its sizes: the temporary sized by its
// dimensions is 4 x 8 floats, 128 bytes, no dynamic size at all (the
// function is scheduled as a static one). Both buffers: 256.
// REMARK: remark: memsched-schedule: peak 256 -> 256 bytes, lower bound 256 bytes (optimal)
// CHECK-LABEL: func.func @cast_static
// CHECK-SAME: #memsched.certificate<peak = 256, lower_bound = 256
// CHECK-NOT: sizes_at
func.func @cast_static(%o: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<4x8xf32>)
  %c = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  %d0 = memref.dim %c, %c0 : memref<?x?xf32>
  %d1 = memref.dim %c, %c1 : memref<?x?xf32>
  %t = memref.alloc(%d0, %d1) : memref<?x?xf32>
  memref.copy %c, %t : memref<?x?xf32> to memref<?x?xf32>
  memref.copy %t, %o : memref<?x?xf32> to memref<?x?xf32>
  memref.dealloc %a : memref<4x8xf32>
  memref.dealloc %t : memref<?x?xf32>
  return
}

// -----

// @flatten returns a buffer of as many floats as its argument has, sized
// from the dimension of a collapse_shape of it. Each call sizes it by what
// it passes: 3 x 5 floats (60 bytes) at the first call, 7 x 3 (84 bytes)
// at the second. The caller holds a source and its copy at once: 60 + 60,
// then 84 + 84 = 168, its peak (sized at the first call, the second would
// count 84 + 60 = 144).
// REMARK-DAG: remark: memsched-schedule: over arg0.d0 in [0, inf), arg0.d1 in [0, inf): peak 4*arg0.d0*arg0.d1 bytes, order as written kept
// REMARK-DAG: remark: memsched-schedule: peak 168 -> 168 bytes, lower bound 168 bytes (optimal)
// CHECK-LABEL: func.func @flatten
// CHECK-LABEL: func.func @two_calls
// CHECK-SAME: #memsched.certificate<peak = 168, lower_bound = 168
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
