// RUN: memsched-opt %s --split-input-file --memsched-certify=remarks --mlir-print-op-on-diagnostic=false --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-certify="count-alignment-padding" 2>/dev/null | FileCheck %s --check-prefix=PAD

// Tests a body whose order is already optimal: the bound equals the peak,
// proved by the op where both buffers must be live.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "linalg.copy#1", cut = [0, 1]>
// PAD-LABEL: func.func @chain
// PAD-SAME: #memsched.certificate<peak = 192, lower_bound = 192, {{.*}}size_model = "allocator">
// expected-remark @+1 {{memsched-certify: peak 128 bytes, lower bound 128 bytes: the order is optimal}}
func.func @chain(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests a body in a poor order: certification does not reorder, it reports
// the gap any reordering could still close.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: #memsched.certificate<peak = 8192, lower_bound = 4096
// CHECK: linalg.broadcast
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: linalg.broadcast
// expected-remark @+1 {{memsched-certify: peak 8192 bytes, lower bound 4096 bytes: any reordering gains at most 4096 bytes}}
func.func @branches(%x: memref<64xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}) {
  %b0 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b0 : memref<64x16xf32>) dimensions = [1]
  %b1 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b1 : memref<64x16xf32>) dimensions = [1]
  %s0 = memref.subview %out[0] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1]>>
  linalg.reduce ins(%b0 : memref<64x16xf32>) outs(%s0 : memref<64xf32, strided<[1]>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b0 : memref<64x16xf32>
  %s1 = memref.subview %out[64] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  linalg.reduce ins(%b1 : memref<64x16xf32>) outs(%s1 : memref<64xf32, strided<[1], offset: 64>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b1 : memref<64x16xf32>
  return
}

// -----

// Tests that an unsupported function gets no certificate and a remark: a
// size computed in the body (not an argument, whose value a certificate
// could record) without an upper bound.
// CHECK-LABEL: func.func @unbounded
// CHECK-NOT: memsched.certificate
// expected-remark @+1 {{memsched-certify: 'unbounded' left unchanged: the size s0 (the result of arith.divui at}}
func.func @unbounded(%n: index) {
  %c3 = arith.constant 3 : index
  %m = arith.divui %n, %c3 : index
  %a = memref.alloc(%m) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Tests that a size computed from arguments by additions and products is
// an expression of them, certified over their ranges: n * n + 16 floats,
// 4*n^2 + 64 bytes, 4*1024^2 + 64 = 4194368 at n = 1024.
// CHECK-LABEL: func.func @product_of_arguments
// CHECK-SAME: #memsched.certificate<peak = 4194368, lower_bound = 4194368, {{.*}}sizes_at = {arg0 = 1024 : i64}, peak_expr = "4*arg0^2 + 64", lower_bound_expr = "4*arg0^2 + 64">
// expected-remark @+1 {{over the ranges of the dynamic sizes: lower bound 4*arg0^2 + 64 bytes (optimal at every size)}}
func.func @product_of_arguments(%n: index) {
  %c16 = arith.constant 16 : index
  %sq = arith.muli %n, %n : index
  %m = arith.addi %sq, %c16 : index
  %a = memref.alloc(%m) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Tests that a size from an argument is certified at the upper end of its
// range (without one: 1,024 times its lower end, at least 1,024), with its
// peak and bound over the range: one buffer of 4*n bytes.
// CHECK-LABEL: func.func @from_argument
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096, {{.*}}sizes_at = {arg0 = 1024 : i64}, peak_expr = "4*arg0", lower_bound_expr = "4*arg0">
// expected-remark @+1 {{memsched-certify: peak 4096 bytes, lower bound 4096 bytes: the order is optimal (sizes at {arg0 = 1024 : i64}); over the ranges of the dynamic sizes: lower bound 4*arg0 bytes (optimal at every size)}}
func.func @from_argument(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
