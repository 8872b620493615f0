// REQUIRES: mlir-runner
// The deallocation of %a goes through an arith.select whose condition comes
// from a memref.load: freeing %a early (peak 5120 -> 4096 bytes) must not
// pull the load above the store it reads; the load joins %a's lifetime.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=5120
// EXEC-DAG: sched-peak=4096

// CHECK-LABEL: func.func @f
// CHECK: memref.store %{{.+}}, %[[S:.+]][
// CHECK-NEXT: %[[V:.+]] = memref.load %[[S]][
// CHECK: arith.select
// CHECK-NEXT: memref.dealloc
// CHECK: memref.alloc() : memref<1024xf32>
func.func @f(%s: memref<1xf32>, %out1: memref<256xf32>, %out2: memref<1xf32>, %out3: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %seven = arith.constant 7.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<256xf32>)
  linalg.copy ins(%a : memref<256xf32>) outs(%out1 : memref<256xf32>)
  memref.store %seven, %s[%c0] : memref<1xf32>
  %v = memref.load %s[%c0] : memref<1xf32>
  memref.store %v, %out2[%c0] : memref<1xf32>
  %c = arith.cmpf ogt, %v, %zero : f32
  %sel = arith.select %c, %a, %a : memref<256xf32>
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%big : memref<1024xf32>)
  linalg.copy ins(%big : memref<1024xf32>) outs(%out3 : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  memref.dealloc %sel : memref<256xf32>
  return
}
