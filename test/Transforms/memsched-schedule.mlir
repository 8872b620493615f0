// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule | FileCheck %s
// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule=heuristic-only | FileCheck %s --check-prefix=HEUR
// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule --memsched-verify=require -o /dev/null
// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-schedule="certify=false" | FileCheck %s --check-prefix=NOCERT

// A second run skips the functions the first one certified optimal.
// AGAIN: remark: memsched-schedule: peak 4096 bytes, already certified optimal
// NOCERT-NOT: memsched.certificate

// Tests the branches of an inception block: each branch is finished (its big
// intermediate freed) before the next starts; the slices of the concatenated
// output are disjoint, so the branches commute.
// CHECK-LABEL: func.func @inception
// CHECK-SAME: memsched.certificate = #memsched.certificate<peak = 4096, lower_bound = 4096, bound_kind = "trivial", bound_op = "linalg.broadcast#0", cut = [0]>
// CHECK: %[[B0:.+]] = memref.alloc() : memref<64x16xf32>
// CHECK-NEXT: linalg.broadcast {{.*}} outs(%[[B0]]
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.reduce ins(%[[B0]]
// CHECK: memref.dealloc %[[B0]]
// CHECK-NEXT: %[[B1:.+]] = memref.alloc() : memref<64x16xf32>
// CHECK-NEXT: linalg.broadcast {{.*}} outs(%[[B1]]
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.reduce ins(%[[B1]]
// CHECK: memref.dealloc %[[B1]]
// CHECK-NEXT: %[[B2:.+]] = memref.alloc() : memref<64x16xf32>
// CHECK-NEXT: linalg.broadcast {{.*}} outs(%[[B2]]
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.reduce ins(%[[B2]]
// CHECK: memref.dealloc %[[B2]]
// CHECK-NEXT: return
// HEUR-LABEL: func.func @inception
// HEUR: memref.dealloc
// HEUR-NEXT: memref.alloc() : memref<64x16xf32>
// REMARK: remark: memsched-schedule: peak 12288 -> 4096 bytes
func.func @inception(%x: memref<64xf32> {llvm.noalias}, %out: memref<192xf32> {llvm.noalias}) {
  %b0 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b0 : memref<64x16xf32>) dimensions = [1]
  %b1 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b1 : memref<64x16xf32>) dimensions = [1]
  %b2 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b2 : memref<64x16xf32>) dimensions = [1]
  %s0 = memref.subview %out[0] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1]>>
  linalg.reduce ins(%b0 : memref<64x16xf32>) outs(%s0 : memref<64xf32, strided<[1]>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b0 : memref<64x16xf32>
  %s1 = memref.subview %out[64] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 64>>
  linalg.reduce ins(%b1 : memref<64x16xf32>) outs(%s1 : memref<64xf32, strided<[1], offset: 64>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b1 : memref<64x16xf32>
  %s2 = memref.subview %out[128] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 128>>
  linalg.reduce ins(%b2 : memref<64x16xf32>) outs(%s2 : memref<64xf32, strided<[1], offset: 128>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b2 : memref<64x16xf32>
  return
}

// -----

// Tests a U-Net skip connection: the skip tensor is produced after the deep
// branch has shrunk, so it never coexists with the deep branch's big buffer.
// The certificate names ops and buffers by their positions in the final
// body: the peak (8192 + 64 bytes) is at the copy out of the big buffer, the
// second node now (the third as written), and the cut is the big buffer and
// %d, the first two allocations now (the second and third as written).
// CHECK-LABEL: func.func @unet
// CHECK-SAME: peak = 8256, lower_bound = 8256, bound_kind = "trivial", bound_op = "linalg.copy#1", cut = [0, 1]>
// CHECK: %[[BIG:.+]] = memref.alloc() : memref<2048xf32>
// CHECK: linalg.fill {{.*}} outs(%[[BIG]]
// CHECK-NEXT: %[[D:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.subview %[[BIG]]
// CHECK-NEXT: linalg.copy {{.*}} outs(%[[D]]
// CHECK-NEXT: memref.dealloc %[[BIG]]
// CHECK-NEXT: %[[E1:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<256xf32>) outs(%[[E1]]
// REMARK: remark: memsched-schedule: peak 9280 -> 8256 bytes, lower bound 8256 bytes (optimal)
func.func @unet(%x: memref<256xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  %e1 = memref.alloc() : memref<256xf32>
  linalg.copy ins(%x : memref<256xf32>) outs(%e1 : memref<256xf32>)
  %big = memref.alloc() : memref<2048xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<2048xf32>)
  %d = memref.alloc() : memref<16xf32>
  %bigs = memref.subview %big[0] [16] [1] : memref<2048xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%bigs : memref<16xf32, strided<[1]>>) outs(%d : memref<16xf32>)
  memref.dealloc %big : memref<2048xf32>
  %dec = memref.alloc() : memref<16xf32>
  %e1s = memref.subview %e1[0] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1]>>
  linalg.add ins(%e1s, %d : memref<16xf32, strided<[1]>>, memref<16xf32>) outs(%dec : memref<16xf32>)
  memref.dealloc %e1 : memref<256xf32>
  memref.dealloc %d : memref<16xf32>
  linalg.copy ins(%dec : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %dec : memref<16xf32>
  return
}

// -----

// Tests in-place accumulation: both updates write %acc and keep their order;
// each addend is produced just before it is consumed, and the fill of %acc
// runs right before the first update (it only starts %acc).
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[T2:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.copy {{.*}} outs(%[[T2]]
// CHECK-NEXT: %[[ACC:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[ACC]]
// CHECK-NEXT: linalg.add ins(%[[ACC]], %[[T2]] : {{.*}}) outs(%[[ACC]]
// CHECK-NEXT: memref.dealloc %[[T2]]
// CHECK-NEXT: %[[T1:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.copy {{.*}} outs(%[[T1]]
// CHECK-NEXT: linalg.add ins(%[[ACC]], %[[T1]] : {{.*}}) outs(%[[ACC]]
// CHECK-NEXT: memref.dealloc %[[T1]]
// REMARK: remark: memsched-schedule: peak 192 -> 128 bytes
func.func @accumulate(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %cst = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%acc : memref<16xf32>)
  %t1 = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%t1 : memref<16xf32>)
  %t2 = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%t2 : memref<16xf32>)
  linalg.add ins(%acc, %t2 : memref<16xf32>, memref<16xf32>) outs(%acc : memref<16xf32>)
  linalg.add ins(%acc, %t1 : memref<16xf32>, memref<16xf32>) outs(%acc : memref<16xf32>)
  memref.dealloc %t1 : memref<16xf32>
  memref.dealloc %t2 : memref<16xf32>
  linalg.copy ins(%acc : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %acc : memref<16xf32>
  return
}

// -----

// Tests an op with unknown effects: ops with effects stay on their side of it;
// the big buffer is freed as soon as its last reader (after the barrier) runs.
// CHECK-LABEL: func.func @barrier
// CHECK: %[[A:.+]] = memref.alloc() : memref<1024xf32>
// CHECK: linalg.copy
// CHECK-NEXT: "test.barrier"()
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.copy {{.*}} outs(%[[B]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return
// REMARK: remark: memsched-schedule: peak 4160 -> 4096 bytes
func.func @barrier(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<1024xf32>
  %as = memref.subview %a[0] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%x : memref<16xf32>) outs(%as : memref<16xf32, strided<[1]>>)
  "test.barrier"() : () -> ()
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.copy ins(%as : memref<16xf32, strided<[1]>>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests a loop with a transient allocation: it runs before the big buffer is
// allocated, so its 4 KiB never add to the big buffer's 8 KiB.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
// CHECK: }
// CHECK-NEXT: %[[BIG:.+]] = memref.alloc() : memref<2048xf32>
// CHECK-NEXT: linalg.copy {{.*}} outs(%[[BIG]]
// CHECK-NEXT: linalg.copy ins(%[[BIG]]
// CHECK-NEXT: memref.dealloc %[[BIG]]
// REMARK: remark: memsched-schedule: peak 12288 -> 8192 bytes
func.func @loop(%x: memref<2048xf32> {llvm.noalias}, %o1: memref<2048xf32> {llvm.noalias}, %o2: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<2048xf32>
  linalg.copy ins(%x : memref<2048xf32>) outs(%big : memref<2048xf32>)
  scf.for %i = %c0 to %n step %c1 {
    %tmp = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%cst : f32) outs(%tmp : memref<1024xf32>)
    %v = memref.load %tmp[%i] : memref<1024xf32>
    memref.store %v, %o2[%c0] : memref<16xf32>
    memref.dealloc %tmp : memref<1024xf32>
  }
  linalg.copy ins(%big : memref<2048xf32>) outs(%o1 : memref<2048xf32>)
  memref.dealloc %big : memref<2048xf32>
  return
}

// -----

// Tests a view chain: the views follow the allocation to the first op that
// uses them.
// CHECK-LABEL: func.func @view_chain
// CHECK: memref.dealloc %{{.+}} : memref<1024xf32>
// CHECK-NEXT: %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: %[[E:.+]] = memref.expand_shape %[[A]]
// CHECK-NEXT: %[[S:.+]] = memref.subview %[[E]]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[S]]
// CHECK-NEXT: linalg.copy ins(%[[S]]
// CHECK-NEXT: memref.dealloc %[[A]]
// REMARK: remark: memsched-schedule: peak 4352 -> 4096 bytes
func.func @view_chain(%x: memref<16xf32> {llvm.noalias}, %out: memref<4x4xf32> {llvm.noalias}) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<1024xf32>)
  %e = memref.expand_shape %a [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  %s = memref.subview %e[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  %bs = memref.subview %b[0] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%bs : memref<16xf32, strided<[1]>>) outs(%x : memref<16xf32>)
  memref.dealloc %b : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<4x4xf32, strided<[8, 1]>>)
  linalg.copy ins(%s : memref<4x4xf32, strided<[8, 1]>>) outs(%out : memref<4x4xf32>)
  memref.dealloc %a : memref<64xf32>
  return
}

// -----

// Tests that arguments that may alias keep the order of their accesses: the
// branches cannot move across the writes to %out, which may alias %x.
// CHECK-LABEL: func.func @may_alias
// CHECK: linalg.broadcast
// CHECK-NOT: linalg.reduce
// CHECK: linalg.broadcast
// CHECK: linalg.reduce
// REMARK: remark: memsched-schedule: peak 8192 -> 8192 bytes, lower bound 8192 bytes (optimal)
func.func @may_alias(%x: memref<64xf32>, %out: memref<128xf32>) {
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
