// REQUIRES: mlir-runner
// An allocation sized by a memref.load, that no node touches: placing it
// (with its deallocation, now a node of its own) must not pull the load
// above the store it reads; the buffer counts where it is live, and the
// bound counts it too.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=4116
// EXEC-DAG: sched-peak=4096

// CHECK-LABEL: func.func @f
// CHECK-SAME: peak = 4096, lower_bound = 4096
// CHECK: memref.store %{{.+}}, %[[S:.+]][
// CHECK-NEXT: memref.load %[[S]][
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK-NEXT: memref.dealloc
func.func @f(%s: memref<1xf32>, %out: memref<1xf32>, %out3: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %five = arith.constant 5.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%big : memref<1024xf32>)
  memref.store %five, %s[%c0] : memref<1xf32>
  %v = memref.load %s[%c0] : memref<1xf32>
  %vi = arith.fptosi %v : f32 to i64
  %n = arith.index_cast %vi : i64 to index
  %m = affine.min affine_map<(d0) -> (d0, 5)>(%n)
  %d = memref.alloc(%m) : memref<?xf32>
  memref.store %v, %out[%c0] : memref<1xf32>
  linalg.copy ins(%big : memref<1024xf32>) outs(%out3 : memref<1024xf32>)
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %big : memref<1024xf32>
  return
}
