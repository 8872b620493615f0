// REQUIRES: mlir-runner
// A write covering an argument's type does not cover what the caller passed:
// @g's %a is the first half of a 1024-element buffer and @g also reaches the
// second half (reinterpret_cast). The fill of %a must not stand for the
// earlier read of the second half, which stays before the later write of it:
// every valid order keeps %z and %x live together (6144 bytes); the invalid
// one would need 4096.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=6144
// EXEC-DAG: sched-peak=6144

// CHECK-LABEL: func.func private @g
// CHECK: linalg.add ins(%{{.+}}, %{{.+}} : memref<512xf32, strided<[1], offset: 512>>, memref<512xf32>)
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.copy
func.func private @g(%a: memref<512xf32> {llvm.noalias}, %out1: memref<512xf32> {llvm.noalias}) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %hi = memref.reinterpret_cast %a to offset: [512], sizes: [512], strides: [1] : memref<512xf32> to memref<512xf32, strided<[1], offset: 512>>
  %z = memref.alloc() : memref<1024xf32>
  %z0 = memref.subview %z[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  %z1 = memref.subview %z[512] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: 512>>
  linalg.copy ins(%out1 : memref<512xf32>) outs(%z0 : memref<512xf32, strided<[1]>>)
  linalg.copy ins(%out1 : memref<512xf32>) outs(%z1 : memref<512xf32, strided<[1], offset: 512>>)
  %x = memref.alloc() : memref<512xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<512xf32>)
  linalg.add ins(%hi, %x : memref<512xf32, strided<[1], offset: 512>>, memref<512xf32>) outs(%out1 : memref<512xf32>)
  memref.dealloc %x : memref<512xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<512xf32>)
  linalg.copy ins(%z1 : memref<512xf32, strided<[1], offset: 512>>) outs(%hi : memref<512xf32, strided<[1], offset: 512>>)
  memref.dealloc %z : memref<1024xf32>
  return
}

func.func @f(%big: memref<1024xf32>, %out1: memref<512xf32>) {
  %lo = memref.subview %big[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  %a = memref.cast %lo : memref<512xf32, strided<[1]>> to memref<512xf32>
  call @g(%a, %out1) : (memref<512xf32>, memref<512xf32>) -> ()
  return
}
