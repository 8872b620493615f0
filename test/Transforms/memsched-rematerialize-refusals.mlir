// RUN: memsched-opt %s --split-input-file --memsched-rematerialize="bytes=1024 max-extra-compute=0.2 remarks" --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-rematerialize="bytes=1024 max-extra-compute=0.2" --memsched-verify=require -o /dev/null

// What --memsched-rematerialize recomputes and what it refuses to (budget
// 1024 bytes, below any order: each function does what it can).

// Tests a recomputation that has no equal: a0 = exp(x) is read by the next
// exp and, last, by the mul. Live at the exps of c and d: a0 b c, then a0 c
// d: 3072 bytes. Recomputing a0 before the mul: b c, c d, d a0': 2048.
// (b and c have one reader each: nothing to recompute.)
// CHECK-LABEL: func.func @recompute_input
// CHECK-SAME: #memsched.certificate<peak = 2048, lower_bound = 2048
// CHECK-SAME: remat_ops = 1
// expected-remark @+1 {{memsched-rematerialize: 'recompute_input' peak 3072 -> 2048 bytes, above the budget of 1024 bytes, 1 op(s) computed again: extra compute 256 of 1280 (20.00%); the lowest peak reached is 2048 bytes}}
func.func @recompute_input(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests that an input overwritten before the late use blocks the
// recomputation: the same program with %x zeroed after the second exp, so
// exp(x) computed again before the mul would not give a0.
// CHECK-LABEL: func.func @input_overwritten
// CHECK-NOT: remat_ops
// CHECK: return
// expected-remark @+1 {{memsched-rematerialize: 'input_overwritten' peaks at 3072 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (20.00% of its compute) lowers its peak}}
func.func @input_overwritten(%x: memref<256xf32>, %out: memref<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  linalg.fill ins(%zero : f32) outs(%x : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests that a producer with another effect is not cloned: the op that
// writes a0 also writes %side (a second output), which a clone would write
// again.
// CHECK-LABEL: func.func @side_effect
// CHECK-NOT: remat_ops
// CHECK: return
// expected-remark @+1 {{memsched-rematerialize: 'side_effect' peaks at 3072 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (20.00% of its compute) lowers its peak}}
func.func @side_effect(%x: memref<256xf32>, %out: memref<256xf32>, %side: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<256xf32>) outs(%a0, %side : memref<256xf32>, memref<256xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %e = math.exp %in : f32
    linalg.yield %e, %in : f32, f32
  }
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}
