// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.2 remarks" --mlir-print-op-on-diagnostic=false 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.2" --memsched-verify=require -o /dev/null
// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.1 remarks" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: memsched-opt %s --memsched-rematerialize="bytes=2048 remarks" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR
// RUN: memsched-opt %s --memsched-rematerialize="bytes=5120 remarks" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=WITHIN
// RUN: not memsched-opt %s --memsched-rematerialize="bytes=3072 max-extra-compute=0.2 strict" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not memsched-opt %s --memsched-rematerialize -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBUDGET
// The recomputation fields survive certifying again (the clones stay).
// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.2" --memsched-certify --memsched-verify | FileCheck %s --check-prefix=KEEP
// KEEP: #memsched.certificate<peak = 4096, lower_bound = 4096, {{.*}}remat_ops = 1, extra_compute_ppm = 125000>
// NOBUDGET: memsched-rematerialize needs a budget: --memsched-rematerialize="bytes=N"

// Tests recomputation on a training-like step: a forward chain of four exps
// (a0..a3, 1 KiB each) whose results the backward chain of muls (g3, g2,
// g1, out) reads again in reverse. The dependencies order the ops
// completely; at the first mul a0 a1 a2 a3 g3 are live: 5120 bytes, the
// optimum of every order (the certificate of --memsched-schedule).
// Recomputing a0 = exp(x) right before the last mul frees a0 after the
// second exp: at the first mul a1 a2 a3 g3 are live, 4096 bytes, and no
// more later. Recomputing a1 = exp(a0) before the third mul gains as much
// (a0, live to the end, is its input); a0 comes first. a2 is read by the
// exp of a3 and a3 by the first mul: recomputing them gains nothing. One
// exp of 256 points out of 8 ops of 256 points each: 12.5% more compute,
// extra_compute_ppm = 125000.
// CHECK-LABEL: func.func @train
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK-SAME: remat_ops = 1, extra_compute_ppm = 125000>
// CHECK-NEXT: %[[A0:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[A0]] : memref<256xf32>)
// CHECK-NEXT: %[[A1:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%[[A0]] : memref<256xf32>) outs(%[[A1]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A0]]
// CHECK-NEXT: %[[A2:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%[[A1]] : memref<256xf32>) outs(%[[A2]] : memref<256xf32>)
// CHECK-NEXT: %[[A3:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%[[A2]] : memref<256xf32>) outs(%[[A3]] : memref<256xf32>)
// CHECK-NEXT: %[[G3:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.mul ins(%[[A3]], %[[A3]] : memref<256xf32>, memref<256xf32>) outs(%[[G3]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A3]]
// CHECK-NEXT: %[[G2:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.mul ins(%[[G3]], %[[A2]] : memref<256xf32>, memref<256xf32>) outs(%[[G2]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A2]]
// CHECK-NEXT: memref.dealloc %[[G3]]
// CHECK-NEXT: %[[G1:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.mul ins(%[[G2]], %[[A1]] : memref<256xf32>, memref<256xf32>) outs(%[[G1]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A1]]
// CHECK-NEXT: memref.dealloc %[[G2]]
// CHECK-NEXT: %[[COPY:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[COPY]] : memref<256xf32>)
// CHECK-NEXT: linalg.mul ins(%[[G1]], %[[COPY]] : memref<256xf32>, memref<256xf32>) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[G1]]
// CHECK-NEXT: memref.dealloc %[[COPY]]
// CHECK-NEXT: return
// REMARK: remark: memsched-rematerialize: 'train' peak 5120 -> 4096 bytes, within the budget of 4096 bytes, 1 op(s) computed again: extra compute 256 of 2048 (12.50%)
// LIMIT: warning: memsched-rematerialize: 'train' peaks at 5120 bytes, above the budget of 4096 bytes, and no recomputation within max-extra-compute (10.00% of its compute) lowers its peak; no recomputation memsched can make within max-extra-compute (10.00% of its compute) meets the budget: each peaks at 5120 bytes or more
// Within 10% of the compute (204) no op can be computed again (each costs
// 256): every plan is the body itself, 5120 bytes at best (LIMIT).
// A budget below what one op needs cannot be met by any recomputation: the
// mul that writes g2 reads g3 and a2 and writes g2, three 1024-byte buffers
// (node 5: the four exps and the mul of a3 by itself come first; the
// allocations are not nodes): 3072 bytes (FLOOR).
// FLOOR: warning: memsched-rematerialize: 'train' {{.*}}above the budget of 2048 bytes{{.*}}; no recomputation of its ops can meet the budget: 'linalg.mul#5' alone needs 3072 bytes (its operands, results and scratch, with the buffers live throughout)
// LIMIT-NOT: remat_ops
// WITHIN: remark: memsched-rematerialize: 'train' peaks at 5120 bytes, within the budget of 5120 bytes: nothing recomputed
// STRICT: error: memsched-rematerialize: 'train' peak 5120 -> 4096 bytes, above the budget of 3072 bytes, 1 op(s) computed again: extra compute 256 of 2048 (12.50%); the lowest peak reached is 4096 bytes
func.func @train(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %a1 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%a1 : memref<256xf32>)
  %a2 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a1 : memref<256xf32>) outs(%a2 : memref<256xf32>)
  %a3 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a2 : memref<256xf32>) outs(%a3 : memref<256xf32>)
  %g3 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%a3, %a3 : memref<256xf32>, memref<256xf32>) outs(%g3 : memref<256xf32>)
  %g2 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%g3, %a2 : memref<256xf32>, memref<256xf32>) outs(%g2 : memref<256xf32>)
  %g1 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%g2, %a1 : memref<256xf32>, memref<256xf32>) outs(%g1 : memref<256xf32>)
  linalg.mul ins(%g1, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %a1 : memref<256xf32>
  memref.dealloc %a2 : memref<256xf32>
  memref.dealloc %a3 : memref<256xf32>
  memref.dealloc %g3 : memref<256xf32>
  memref.dealloc %g2 : memref<256xf32>
  memref.dealloc %g1 : memref<256xf32>
  return
}
