// RUN: memsched-opt %s --split-input-file "--memsched-schedule=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify 2>/dev/null | FileCheck %s

// Tests the schedule pass on dynamic sizes over their ranges
// (docs/dynamic.md): one order for every size, taken only when its peak is
// proved never above the order as written for any size in the range.

// Two temporaries of 256 x n floats (1024*n bytes), both live as written:
// 2048*n. One after the other: 1024*n, lower at every n, so the reorder is
// proved (coefficient by coefficient). At n = 64: 131072 -> 65536; at n = 1:
// 2048 -> 1024. The certificate is at the range's upper end, n = 64: the
// fill of the first temporary alone holds 1024*64 = 65536 bytes, so it is
// optimal there. Over the range, the fills alone need 1024*n at every n:
// the order is optimal at every size.
// REMARK: remark: memsched-schedule: over arg0 in [1, 64]: peak 2048*arg0 -> 1024*arg0 bytes, never above the order as written (proved); at arg0 = 64: 131072 -> 65536 bytes; at arg0 = 1: 2048 -> 1024 bytes; certificate at arg0 = 64: lower bound 65536 bytes (optimal); over the ranges: lower bound 1024*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @two_temporaries
// CHECK-SAME: memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, {{.*}}sizes_at = {arg0 = 64 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0">
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%arg0) : memref<?x256xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[A]]
// CHECK-NEXT: linalg.reduce ins(%[[A]]
// CHECK: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%arg0) : memref<?x256xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[B]]
// CHECK-NEXT: linalg.reduce ins(%[[B]]
// CHECK: memref.dealloc %[[B]]
// CHECK-NEXT: return
func.func @two_temporaries(%n: index {memsched.range = array<i64: 1, 64>},
                           %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  %b = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?x256xf32>)
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

// -----

// The same without a declared range: n in [0, inf). The proof holds for
// every n; the candidates are scheduled at n = 0 and at n = 1024 (1024
// times the lower end, at least 1024), where the certificate's numbers
// are.
// REMARK: remark: memsched-schedule: over arg0 in [0, inf): peak 2048*arg0 -> 1024*arg0 bytes, never above the order as written (proved); at arg0 = 1024: 2097152 -> 1048576 bytes; at arg0 = 0: 0 -> 0 bytes; certificate at arg0 = 1024: lower bound 1048576 bytes (optimal); over the ranges: lower bound 1024*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @unbounded
// CHECK-SAME: sizes_at = {arg0 = 1024 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0"
// CHECK-NEXT: memref.alloc(%arg0)
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.reduce
func.func @unbounded(%n: index, %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  %b = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?x256xf32>)
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

// -----

// Two chains whose best order depends on n. X: tx (1000 bytes) makes rx
// (4*n); Y: ty (32*n) makes ry (100); the last op reads rx and ry. As
// written (X then Y) the memory at each op is 1000, 1000 + 4n, 4n + 32n,
// 4n + 32n + 100, 4n + 100: peak max(4n + 1000, 36n + 100). Y then X: 32n,
// 32n + 100, 100 + 1000, 1100 + 4n, 4n + 100: peak max(32n + 100, 4n +
// 1100). At n = 64: 2404 against 2148, so the scheduler finds Y then X
// there; at n = 1: 1004 against 1104, so Y then X is worse there and the
// order as written stays. (At n = 64 no order is below 2148: ty and ry,
// 2148 bytes, are live together when Y's generic runs.) Over the range,
// each generic's operands give max(4n + 1000, 32n + 100) as a bound.
// REMARK: remark: memsched-schedule: over arg0 in [1, 64]: peak max(4*arg0 + 1000, 36*arg0 + 100) bytes, order as written kept; at arg0 = 64: 2404 -> 2404 bytes; at arg0 = 1: 1004 -> 1004 bytes; certificate at arg0 = 64: lower bound 2148 bytes; over the ranges: lower bound max(4*arg0 + 1000, 32*arg0 + 100) bytes; the order best at arg0 = 64 needs 1104 bytes at arg0 = 1, the order as written 1004
// CHECK-LABEL: func.func @tradeoff
// CHECK-SAME: #memsched.certificate<peak = 2404, lower_bound = 2148, {{.*}}peak_expr = "max(4*arg0 + 1000, 36*arg0 + 100)", lower_bound_expr = "max(4*arg0 + 1000, 32*arg0 + 100)">
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.alloc() : memref<250xf32>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#ty = affine_map<(d0, d1, d2) -> (d0, d1)>
#ry = affine_map<(d0, d1, d2) -> (d2)>
func.func @tradeoff(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) {
  %cst = arith.constant 0.0 : f32
  %tx = memref.alloc() : memref<250xf32>
  linalg.fill ins(%cst : f32) outs(%tx : memref<250xf32>)
  %rx = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%tx : memref<250xf32>) outs(%rx : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %tx : memref<250xf32>
  %ty = memref.alloc(%n) : memref<?x8xf32>
  linalg.fill ins(%cst : f32) outs(%ty : memref<?x8xf32>)
  %ry = memref.alloc() : memref<25xf32>
  linalg.generic {indexing_maps = [#ty, #ry], iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%ty : memref<?x8xf32>) outs(%ry : memref<25xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %ty : memref<?x8xf32>
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%rx, %ry : memref<?xf32>, memref<25xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  }
  memref.dealloc %rx : memref<?xf32>
  memref.dealloc %ry : memref<25xf32>
  return
}

// -----

// The same two chains for n in [32, 64]: Y then X is never above X then Y
// there (4n + 1100 <= 36n + 100 from n = 32 on, and 32n + 100 <= 36n +
// 100), so it is taken. At n = 32: 1252 -> 1228.
// REMARK: remark: memsched-schedule: over arg0 in [32, 64]: peak max(4*arg0 + 1000, 36*arg0 + 100) -> max(32*arg0 + 100, 4*arg0 + 1100) bytes, never above the order as written (proved); at arg0 = 64: 2404 -> 2148 bytes; at arg0 = 32: 1252 -> 1228 bytes; certificate at arg0 = 64: lower bound 2148 bytes (optimal); over the ranges: lower bound max(32*arg0 + 100, 4*arg0 + 1000) bytes
// CHECK-LABEL: func.func @tradeoff_high
// CHECK-NEXT: memref.alloc(%arg0) : memref<?x8xf32>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#ty = affine_map<(d0, d1, d2) -> (d0, d1)>
#ry = affine_map<(d0, d1, d2) -> (d2)>
func.func @tradeoff_high(%n: index {memsched.range = array<i64: 32, 64>}, %o: memref<?xf32>) {
  %cst = arith.constant 0.0 : f32
  %tx = memref.alloc() : memref<250xf32>
  linalg.fill ins(%cst : f32) outs(%tx : memref<250xf32>)
  %rx = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%tx : memref<250xf32>) outs(%rx : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %tx : memref<250xf32>
  %ty = memref.alloc(%n) : memref<?x8xf32>
  linalg.fill ins(%cst : f32) outs(%ty : memref<?x8xf32>)
  %ry = memref.alloc() : memref<25xf32>
  linalg.generic {indexing_maps = [#ty, #ry], iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%ty : memref<?x8xf32>) outs(%ry : memref<25xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %ty : memref<?x8xf32>
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%rx, %ry : memref<?xf32>, memref<25xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  }
  memref.dealloc %rx : memref<?xf32>
  memref.dealloc %ry : memref<25xf32>
  return
}

// -----

// A dimension of a memref argument: the symbol arg0.d0, sized 4 floats per
// row; two copies of 16*d0 bytes each are live together (each is read by
// the last two copies, which both write %o in that order): 32*d0.
// REMARK: remark: memsched-schedule: over arg0.d0 in [2, 8]: peak 32*arg0.d0 bytes, order as written kept; at arg0.d0 = 8: 256 -> 256 bytes; at arg0.d0 = 2: 64 -> 64 bytes; certificate at arg0.d0 = 8: lower bound 256 bytes (optimal); over the ranges: lower bound 16*arg0.d0 bytes
// CHECK-LABEL: func.func @dim_of_arg
// CHECK-SAME: sizes_at = {arg0.d0 = 8 : i64}
func.func @dim_of_arg(%x: memref<?x4xf32> {memsched.range = array<i64: 2, 8>}, %o: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %x, %a : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %x, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %a, %o : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %b, %o : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  return
}

// -----

// An allocation in a loop body sized by the symbol, freed there: the loop
// needs 4*n bytes inside (n floats), its body's peak as a polynomial;
// nothing else is allocated, so the peak and the bound are 4*n at every n
// (32 bytes at n = 8, 4 at n = 1).
// REMARK: remark: memsched-schedule: over arg0 in [1, 8]: peak 4*arg0 bytes, order as written kept; at arg0 = 8: 32 -> 32 bytes; at arg0 = 1: 4 -> 4 bytes; certificate at arg0 = 8: lower bound 32 bytes (optimal); over the ranges: lower bound 4*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @nested
// CHECK-SAME: sizes_at = {arg0 = 8 : i64}, peak_expr = "4*arg0", lower_bound_expr = "4*arg0"
func.func @nested(%n: index {memsched.range = array<i64: 1, 8>}, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc(%n) : memref<?xf32>
    memref.copy %o, %t : memref<?xf32> to memref<?xf32>
    memref.copy %t, %o : memref<?xf32> to memref<?xf32>
    memref.dealloc %t : memref<?xf32>
  }
  return
}

// -----

// The same without an upper end, with a buffer of n floats live around the
// loop: 4*n + 4*n = 8*n at every n.
// REMARK: remark: memsched-schedule: over arg0 in [0, inf): peak 8*arg0 bytes, order as written kept; at arg0 = 1024: 8192 -> 8192 bytes; at arg0 = 0: 0 -> 0 bytes; certificate at arg0 = 1024: lower bound 8192 bytes (optimal); over the ranges: lower bound 8*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @nested_unbounded
// CHECK-SAME: peak_expr = "8*arg0", lower_bound_expr = "8*arg0"
func.func @nested_unbounded(%n: index, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc(%n) : memref<?xf32>
    memref.copy %o, %t : memref<?xf32> to memref<?xf32>
    memref.copy %t, %u : memref<?xf32> to memref<?xf32>
    memref.dealloc %t : memref<?xf32>
  }
  memref.copy %u, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %u : memref<?xf32>
  return
}

// -----

// What a loop needs inside through a call (the callee allocates n floats)
// varies with n in a form not modelled over the range: with an upper end,
// scheduled at it (32 bytes at n = 8) and the remark says why; without one,
// left unchanged.
// REMARK: remark: memsched-schedule: peak 32 -> 32 bytes, lower bound 32 bytes (optimal); dynamic sizes at their upper bounds (arg0 in [1, 8]): the memory scf.for allocates inside depends on the dynamic sizes (32 bytes at arg0 = 8, 4 at arg0 = 1): ranges cover the allocations of the function's body, not those nested in its ops
// CHECK-LABEL: func.func private @helper
// CHECK-LABEL: func.func @nested_call
// CHECK-SAME: sizes_at = {arg0 = 8 : i64}
func.func private @helper(%n: index, %o: memref<?xf32>) {
  %t = memref.alloc(%n) : memref<?xf32>
  memref.copy %o, %t : memref<?xf32> to memref<?xf32>
  memref.copy %t, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return
}
func.func @nested_call(%n: index {memsched.range = array<i64: 1, 8>}, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @helper(%n, %o) : (index, memref<?xf32>) -> ()
  }
  return
}

// -----

// A branch hands out a buffer allocated on either side with dynamic
// sizes: its size is the largest of the two, 4*n or 4*m, which changes
// with the sizes, so the body is scheduled at the upper ends (n = m = 8:
// 32 bytes).
// REMARK: remark: memsched-schedule: peak 32 -> 32 bytes, lower bound 32 bytes (optimal); dynamic sizes at their upper bounds (arg0 in [1, 8], arg1 in [1, 8]): a buffer this loop or branch hands out has allocations of different dynamic sizes (the largest may change with the sizes)
// CHECK-LABEL: func.func @handed_out
// CHECK-SAME: sizes_at = {arg0 = 8 : i64, arg1 = 8 : i64}
func.func @handed_out(%n: index {memsched.range = array<i64: 1, 8>}, %m: index {memsched.range = array<i64: 1, 8>}, %c: i1, %o: memref<?xf32>) {
  %r = scf.if %c -> memref<?xf32> {
    %a = memref.alloc(%n) : memref<?xf32>
    memref.copy %o, %a : memref<?xf32> to memref<?xf32>
    scf.yield %a : memref<?xf32>
  } else {
    %b = memref.alloc(%m) : memref<?xf32>
    memref.copy %o, %b : memref<?xf32> to memref<?xf32>
    scf.yield %b : memref<?xf32>
  }
  memref.copy %r, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %r : memref<?xf32>
  return
}

// -----

// The same with one size on both sides, 4*n: the handed out buffer is
// 4*n at every n, modelled over the range.
// REMARK: remark: memsched-schedule: over arg0 in [1, 8]: peak 4*arg0 bytes, order as written kept; at arg0 = 8: 32 -> 32 bytes; at arg0 = 1: 4 -> 4 bytes; certificate at arg0 = 8: lower bound 32 bytes (optimal); over the ranges: lower bound 4*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @handed_out_one_size
func.func @handed_out_one_size(%n: index {memsched.range = array<i64: 1, 8>}, %c: i1, %o: memref<?xf32>) {
  %r = scf.if %c -> memref<?xf32> {
    %a = memref.alloc(%n) : memref<?xf32>
    memref.copy %o, %a : memref<?xf32> to memref<?xf32>
    scf.yield %a : memref<?xf32>
  } else {
    %b = memref.alloc(%n) : memref<?xf32>
    memref.copy %o, %b : memref<?xf32> to memref<?xf32>
    scf.yield %b : memref<?xf32>
  }
  memref.copy %r, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %r : memref<?xf32>
  return
}

// -----

// A callee sizes the buffer it returns with its argument: at each call the
// size is the caller's %n (4*n bytes). As written both results are live
// together (8*n); each copied and freed before the next call, 4*n.
// REMARK: remark: memsched-schedule: over arg0 in [1, 100]: peak 8*arg0 -> 4*arg0 bytes, never above the order as written (proved); at arg0 = 100: 800 -> 400 bytes; at arg0 = 1: 8 -> 4 bytes; certificate at arg0 = 100: lower bound 400 bytes (optimal); over the ranges: lower bound 4*arg0 bytes (optimal at every size)
// CHECK-LABEL: func.func @through_calls
// CHECK-NEXT: %[[A:.*]] = call @make(%arg0)
// CHECK-NEXT: memref.copy %[[A]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = call @make(%arg0)
func.func @through_calls(%n: index {memsched.range = array<i64: 1, 100>}, %o: memref<?xf32>) {
  %a = call @make(%n) : (index) -> memref<?xf32>
  %b = call @make(%n) : (index) -> memref<?xf32>
  memref.copy %a, %o : memref<?xf32> to memref<?xf32>
  memref.copy %b, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
func.func private @make(%n: index) -> memref<?xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  return %a : memref<?xf32>
}

// -----

// A branch whose two sides allocate differently, one by the symbol: what
// the scf.if needs inside is the larger side, max(8*n, 64) (n x 2 floats or
// 16 floats), on top of %u (n floats): max(12*n, 4*n + 64) at every n, 768
// bytes at n = 64 and 68 at n = 1.
// REMARK: remark: memsched-schedule: over arg1 in [1, 64]: peak max(12*arg1, 4*arg1 + 64) bytes, order as written kept; at arg1 = 64: 768 -> 768 bytes; at arg1 = 1: 68 -> 68 bytes; certificate at arg1 = 64: lower bound 768 bytes (optimal); over the ranges: lower bound max(12*arg1, 4*arg1 + 64) bytes (optimal at every size)
// CHECK-LABEL: func.func @branch_sides
// CHECK-SAME: peak_expr = "max(12*arg1, 4*arg1 + 64)"
func.func @branch_sides(%c: i1, %n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) {
  %f = arith.constant 0.0 : f32
  %u = memref.alloc(%n) : memref<?xf32>
  memref.copy %o, %u : memref<?xf32> to memref<?xf32>
  scf.if %c {
    %t = memref.alloc(%n) : memref<?x2xf32>
    memref.copy %u, %o : memref<?xf32> to memref<?xf32>
    linalg.fill ins(%f : f32) outs(%t : memref<?x2xf32>)
    memref.dealloc %t : memref<?x2xf32>
  } else {
    %s = memref.alloc() : memref<16xf32>
    linalg.fill ins(%f : f32) outs(%s : memref<16xf32>)
    memref.dealloc %s : memref<16xf32>
  }
  memref.copy %u, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %u : memref<?xf32>
  return
}
