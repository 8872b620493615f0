// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify -o /dev/null

// GPU host code: gpu.alloc / gpu.dealloc.

// Tests that asynchronous allocations are refused: the work of
// independent token chains may run in any order the tokens allow (here
// %a's and %b's chains), so the order of the block says nothing about
// which device buffers are live together.
func.func @two_chains(%in: memref<1024xf32>, %o1: memref<1024xf32>, %o2: memref<1024xf32>) {
  %t0 = gpu.wait async
  // expected-remark @+1 {{memsched-schedule: 'two_chains' left unchanged: gpu.alloc allocates a buffer memsched cannot size or move (it also returns 1 other result(s), e.g. the token of asynchronous work, which runs in the order its tokens allow, not in the block's); allocate with an op that returns only the memref, e.g. memref.alloc or gpu.alloc without async}}
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  %b, %tb = gpu.alloc async [%t0] () : memref<1024xf32>
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  %t2 = gpu.memcpy async [%t1] %o1, %a : memref<1024xf32>, memref<1024xf32>
  %t3 = gpu.dealloc async [%t2] %a : memref<1024xf32>
  %t4 = gpu.memcpy async [%tb] %b, %in : memref<1024xf32>, memref<1024xf32>
  %t5 = gpu.memcpy async [%t4] %o2, %b : memref<1024xf32>, memref<1024xf32>
  %t6 = gpu.dealloc async [%t5] %b : memref<1024xf32>
  gpu.wait [%t3, %t6]
  return
}

// -----

// Tests synchronous device allocations: the second buffer's work moves
// after the first's free (8192 -> 4096 bytes).
// CHECK-LABEL: func.func @sync_branches
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK-NEXT: %[[A:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[A]], %arg0
// CHECK-NEXT: gpu.memcpy %arg1, %[[A]]
// CHECK-NEXT: gpu.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[B]], %arg0
// CHECK-NEXT: gpu.memcpy %arg2, %[[B]]
// CHECK-NEXT: gpu.dealloc %[[B]]
// CHECK-NEXT: return
func.func @sync_branches(%in: memref<1024xf32> {llvm.noalias}, %o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) {
  %a = gpu.alloc () : memref<1024xf32>
  %b = gpu.alloc () : memref<1024xf32>
  gpu.memcpy %a, %in : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %b, %in : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %o1, %a : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %o2, %b : memref<1024xf32>, memref<1024xf32>
  gpu.dealloc %a : memref<1024xf32>
  gpu.dealloc %b : memref<1024xf32>
  return
}
