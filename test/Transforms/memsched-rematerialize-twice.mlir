// RUN: memsched-opt %s --memsched-rematerialize="bytes=1024 max-extra-compute=0.5 remarks" --mlir-print-op-on-diagnostic=false 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: memsched-opt %s --memsched-rematerialize="bytes=1024 max-extra-compute=0.5" --memsched-verify=require -o /dev/null
// RUN: memsched-opt %s --memsched-rematerialize="bytes=1024 max-extra-compute=0.3 remarks" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE

// A buffer computed again twice. %X (1 KiB, filled and exponentiated in
// place) is read by three accumulations into %out, with a 1 KiB temporary
// (%T, then %U) between each two of them; every op reads and writes %out,
// so the order is fixed. As written %X is live throughout: 2048 bytes
// while %T or %U is, the optimum of every order. Recomputing %X once (for
// its second and third readers) frees it around %T, but its copy is live
// around %U: 2048 still. Recomputing that copy again for the third reader
// leaves one buffer live at a time: 1024 bytes. Each recomputation clones
// the fill and the exp (256 points each) out of 9 ops of 256 points:
// 1024 of 2304, 44.44% (extra_compute_ppm = 444444). Within 30% only one
// recomputation fits, which lowers no peak (ONCE).
// CHECK-LABEL: func.func @twice
// CHECK-SAME: #memsched.certificate<peak = 1024, lower_bound = 1024
// CHECK-SAME: remat_ops = 4, extra_compute_ppm = 444444>
// CHECK-NEXT: %[[X:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.fill ins(%arg0 : f32) outs(%[[X]] : memref<256xf32>)
// CHECK-NEXT: linalg.exp ins(%[[X]] : memref<256xf32>) outs(%[[X]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[X]], %arg1 : {{.*}}) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[X]]
// CHECK-NEXT: %[[T:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg1 : memref<256xf32>) outs(%[[T]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[T]], %arg1 : {{.*}}) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: %[[X1:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.fill ins(%arg0 : f32) outs(%[[X1]] : memref<256xf32>)
// CHECK-NEXT: linalg.exp ins(%[[X1]] : memref<256xf32>) outs(%[[X1]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[X1]], %arg1 : {{.*}}) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[X1]]
// CHECK-NEXT: %[[U:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg1 : memref<256xf32>) outs(%[[U]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[U]], %arg1 : {{.*}}) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[U]]
// CHECK-NEXT: %[[X2:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.fill ins(%arg0 : f32) outs(%[[X2]] : memref<256xf32>)
// CHECK-NEXT: linalg.exp ins(%[[X2]] : memref<256xf32>) outs(%[[X2]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[X2]], %arg1 : {{.*}}) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[X2]]
// CHECK-NEXT: return
// REMARK: remark: memsched-rematerialize: 'twice' peak 2048 -> 1024 bytes, within the budget of 1024 bytes, 4 op(s) computed again: extra compute 1024 of 2304 (44.44%)
// ONCE: warning: memsched-rematerialize: 'twice' peaks at 2048 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (30.00% of its compute) lowers its peak
func.func @twice(%c: f32, %out: memref<256xf32>) {
  %X = memref.alloc() : memref<256xf32>
  linalg.fill ins(%c : f32) outs(%X : memref<256xf32>)
  linalg.exp ins(%X : memref<256xf32>) outs(%X : memref<256xf32>)
  linalg.add ins(%X, %out : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  %T = memref.alloc() : memref<256xf32>
  linalg.exp ins(%out : memref<256xf32>) outs(%T : memref<256xf32>)
  linalg.add ins(%T, %out : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %T : memref<256xf32>
  linalg.add ins(%X, %out : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  %U = memref.alloc() : memref<256xf32>
  linalg.exp ins(%out : memref<256xf32>) outs(%U : memref<256xf32>)
  linalg.add ins(%U, %out : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %U : memref<256xf32>
  linalg.add ins(%X, %out : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %X : memref<256xf32>
  return
}
