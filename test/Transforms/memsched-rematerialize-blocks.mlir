// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.5 remarks" --mlir-print-op-on-diagnostic=false 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.5" --memsched-verify=require -o /dev/null
// RUN: memsched-opt %s --memsched-rematerialize="bytes=4096 max-extra-compute=0.1 remarks" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

// Recomputation in a body with several blocks. The block ^train is the
// training-like step of memsched-rematerialize.mlir (@train): four exps
// a0..a3 (1 KiB each) read again in reverse by a chain of muls; its
// optimum order peaks at 5120 bytes (a0 a1 a2 a3 g3 at the first mul), the
// function's peak (^copy needs 2048). Recomputing a0 = exp(%x) right before
// the last mul brings ^train to 4096, and so the function. Compute: 8 ops
// of 256 points in ^train and 2 in ^copy, 2560 in all; the clone is 256:
// 10.00% (extra_compute_ppm = 100000). A block may spend the fraction of
// its own compute: at 0.1, ^train may spend 204 (10% of 2048), less than
// the clone (LIMIT), even though 256 is 10% of the function's.
// CHECK-LABEL: func.func @train_or_copy
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK-SAME: remat_ops = 1, extra_compute_ppm = 100000>
// CHECK: ^bb1:
// CHECK-NEXT: %[[A0:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[A0]] : memref<256xf32>)
// CHECK-NEXT: %[[A1:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%[[A0]] : memref<256xf32>) outs(%[[A1]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A0]]
// CHECK: linalg.mul ins(%{{[^,]+}}, %[[A1]] : memref<256xf32>, memref<256xf32>) outs(%[[G1:[^ ]+]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A1]]
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: %[[COPY:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[COPY]] : memref<256xf32>)
// CHECK-NEXT: linalg.mul ins(%[[G1]], %[[COPY]] : memref<256xf32>, memref<256xf32>) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[G1]]
// CHECK-NEXT: memref.dealloc %[[COPY]]
// CHECK-NEXT: cf.br ^bb3
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: linalg.exp ins(%arg0
// CHECK-NEXT: linalg.exp ins
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: cf.br ^bb3
// REMARK: remark: memsched-rematerialize: 'train_or_copy' peak 5120 -> 4096 bytes, within the budget of 4096 bytes, 1 op(s) computed again: extra compute 256 of 2560 (10.00%)
// LIMIT: warning: memsched-rematerialize: 'train_or_copy' peaks at 5120 bytes, above the budget of 4096 bytes, and no recomputation within max-extra-compute (10.00% of its compute) lowers its peak
func.func @train_or_copy(%x: memref<256xf32>, %out: memref<256xf32>) {
  %c = arith.constant true
  cf.cond_br %c, ^train, ^copy
^train:
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
  cf.br ^done
^copy:
  %t = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%t : memref<256xf32>)
  linalg.exp ins(%t : memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %t : memref<256xf32>
  cf.br ^done
^done:
  return
}

// Two blocks above the budget, each handled on its own with half its own
// compute to spend. ^bb1 is @train_or_copy's step: 5120 -> 4096 bytes with
// a0 = exp(%x) computed again (256 of its 2048). ^bb2 is the same step on
// 2 KiB buffers: 10240 as written; with a1 computed again from %x (two
// exps) before the mul that reads it and a0 before the last mul (1536 of
// its 4096), at most three buffers are live at once: 6144, the floor (the
// mul that writes g2 reads g3 and a2: 3 x 2048). The function's peak is the
// larger block's, 6144, above the budget; 4 clones, 1792 of 6144 (29.17%,
// extra_compute_ppm = 291666). Judged by the function's peak, lowering ^bb1
// alone would look like no gain.
// CHECK-LABEL: func.func @two_steps
// CHECK-SAME: #memsched.certificate<peak = 6144, lower_bound = 6144
// CHECK-SAME: remat_ops = 4, extra_compute_ppm = 291666>
// CHECK: ^bb1:
// CHECK: linalg.exp ins(%arg1 : memref<256xf32>)
// CHECK: linalg.exp ins(%arg1 : memref<256xf32>) outs(%[[C1:[^ ]+]] : memref<256xf32>)
// CHECK-NEXT: linalg.mul ins(%{{[^,]+}}, %[[C1]] : {{.*}}) outs(%arg2 : memref<256xf32>)
// CHECK: ^bb2:
// CHECK: linalg.exp ins(%arg3 : memref<512xf32>)
// CHECK: linalg.exp ins(%arg3 : memref<512xf32>) outs(%[[A0:[^ ]+]] : memref<512xf32>)
// CHECK-NEXT: %[[A1:.+]] = memref.alloc() : memref<512xf32>
// CHECK-NEXT: linalg.exp ins(%[[A0]] : memref<512xf32>) outs(%[[A1]] : memref<512xf32>)
// CHECK-NEXT: memref.dealloc %[[A0]]
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: linalg.mul ins(%{{[^,]+}}, %[[A1]] : {{.*}}) outs(%[[G1:[^ ]+]] : memref<512xf32>)
// CHECK: linalg.exp ins(%arg3 : memref<512xf32>) outs(%[[C2:[^ ]+]] : memref<512xf32>)
// CHECK-NEXT: linalg.mul ins(%[[G1]], %[[C2]] : {{.*}}) outs(%arg4 : memref<512xf32>)
// REMARK: warning: memsched-rematerialize: 'two_steps' peak 10240 -> 6144 bytes, above the budget of 4096 bytes, 4 op(s) computed again: extra compute 1792 of 6144 (29.17%)
func.func @two_steps(%c: i1, %x: memref<256xf32>, %out: memref<256xf32>, %x2: memref<512xf32>, %out2: memref<512xf32>) {
  cf.cond_br %c, ^small, ^large
^small:
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
  cf.br ^done
^large:
  %a0b = memref.alloc() : memref<512xf32>
  linalg.exp ins(%x2 : memref<512xf32>) outs(%a0b : memref<512xf32>)
  %a1b = memref.alloc() : memref<512xf32>
  linalg.exp ins(%a0b : memref<512xf32>) outs(%a1b : memref<512xf32>)
  %a2b = memref.alloc() : memref<512xf32>
  linalg.exp ins(%a1b : memref<512xf32>) outs(%a2b : memref<512xf32>)
  %a3b = memref.alloc() : memref<512xf32>
  linalg.exp ins(%a2b : memref<512xf32>) outs(%a3b : memref<512xf32>)
  %g3b = memref.alloc() : memref<512xf32>
  linalg.mul ins(%a3b, %a3b : memref<512xf32>, memref<512xf32>) outs(%g3b : memref<512xf32>)
  %g2b = memref.alloc() : memref<512xf32>
  linalg.mul ins(%g3b, %a2b : memref<512xf32>, memref<512xf32>) outs(%g2b : memref<512xf32>)
  %g1b = memref.alloc() : memref<512xf32>
  linalg.mul ins(%g2b, %a1b : memref<512xf32>, memref<512xf32>) outs(%g1b : memref<512xf32>)
  linalg.mul ins(%g1b, %a0b : memref<512xf32>, memref<512xf32>) outs(%out2 : memref<512xf32>)
  memref.dealloc %a0b : memref<512xf32>
  memref.dealloc %a1b : memref<512xf32>
  memref.dealloc %a2b : memref<512xf32>
  memref.dealloc %a3b : memref<512xf32>
  memref.dealloc %g3b : memref<512xf32>
  memref.dealloc %g2b : memref<512xf32>
  memref.dealloc %g1b : memref<512xf32>
  cf.br ^done
^done:
  return
}
