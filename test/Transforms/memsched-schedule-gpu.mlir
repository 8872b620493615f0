// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify=require | FileCheck %s

// GPU host code: gpu.alloc / gpu.dealloc, synchronous or with async tokens.

// Tests asynchronous allocations and frees: gpu.alloc async and gpu.dealloc
// async allocate and free like their synchronous forms (4096 bytes each);
// %a is freed before %c is allocated, so the peak is 4096 + 4096 bytes
// (%a and %b), not 12288. The tokens order every op: nothing moves.
// CHECK-LABEL: func.func @async_chain
// CHECK-SAME: #memsched.certificate<peak = 8192, lower_bound = 8192
// CHECK-NEXT: %[[T0:.+]] = gpu.wait async
// CHECK-NEXT: %[[A:.+]], %[[TA:.+]] = gpu.alloc async [%[[T0]]]
// CHECK-NEXT: %[[T1:.+]] = gpu.memcpy async [%[[TA]]] %[[A]], %arg0
// CHECK-NEXT: %[[B:.+]], %[[TB:.+]] = gpu.alloc async [%[[T1]]]
// CHECK-NEXT: %[[T2:.+]] = gpu.memcpy async [%[[TB]]] %[[B]], %[[A]]
// CHECK-NEXT: %[[T3:.+]] = gpu.dealloc async [%[[T2]]] %[[A]]
// CHECK-NEXT: %[[C:.+]], %[[TC:.+]] = gpu.alloc async [%[[T3]]]
// CHECK-NEXT: %[[T4:.+]] = gpu.memcpy async [%[[TC]]] %[[C]], %[[B]]
// CHECK-NEXT: %[[T5:.+]] = gpu.dealloc async [%[[T4]]] %[[B]]
// CHECK-NEXT: %[[T6:.+]] = gpu.memcpy async [%[[T5]]] %arg1, %[[C]]
// CHECK-NEXT: %[[T7:.+]] = gpu.dealloc async [%[[T6]]] %[[C]]
// CHECK-NEXT: gpu.wait [%[[T7]]]
// CHECK-NEXT: return
func.func @async_chain(%in: memref<1024xf32>, %out: memref<1024xf32>) {
  %t0 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  %b, %tb = gpu.alloc async [%t1] () : memref<1024xf32>
  %t2 = gpu.memcpy async [%tb] %b, %a : memref<1024xf32>, memref<1024xf32>
  %t3 = gpu.dealloc async [%t2] %a : memref<1024xf32>
  %c, %tc = gpu.alloc async [%t3] () : memref<1024xf32>
  %t4 = gpu.memcpy async [%tc] %c, %b : memref<1024xf32>, memref<1024xf32>
  %t5 = gpu.dealloc async [%t4] %b : memref<1024xf32>
  %t6 = gpu.memcpy async [%t5] %out, %c : memref<1024xf32>, memref<1024xf32>
  %t7 = gpu.dealloc async [%t6] %c : memref<1024xf32>
  gpu.wait [%t7]
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
