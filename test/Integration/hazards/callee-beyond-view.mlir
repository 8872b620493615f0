// REQUIRES: mlir-runner
// A callee given a slice may rebuild the whole allocation from it
// (extract_strided_metadata + reinterpret_cast) and write outside the slice:
// the call's footprint is the whole buffer, so the read of the other half
// stays after the call. The schedule may fill %x later (peak 12288 -> 8192
// bytes), not read the other half before the call.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=12288
// EXEC-DAG: sched-peak=8192

// CHECK-LABEL: func.func @f
// CHECK: call @fill_all
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.add
func.func private @fill_all(%s: memref<512xf32, strided<[1]>>, %t: memref<1024xf32>) {
  %base, %off, %size, %stride = memref.extract_strided_metadata %s : memref<512xf32, strided<[1]>> -> memref<f32>, index, index, index
  %whole = memref.reinterpret_cast %base to offset: [0], sizes: [1024], strides: [1] : memref<f32> to memref<1024xf32>
  linalg.copy ins(%t : memref<1024xf32>) outs(%whole : memref<1024xf32>)
  return
}

func.func @f(%out: memref<512xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %buf = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%buf : memref<1024xf32>)
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1024xf32>)
  %t = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%t : memref<1024xf32>)
  %lo = memref.subview %buf[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  call @fill_all(%lo, %t) : (memref<512xf32, strided<[1]>>, memref<1024xf32>) -> ()
  memref.dealloc %t : memref<1024xf32>
  %hi = memref.subview %buf[512] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: 512>>
  %xh = memref.subview %x[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  linalg.add ins(%hi, %xh : memref<512xf32, strided<[1], offset: 512>>, memref<512xf32, strided<[1]>>) outs(%out : memref<512xf32>)
  memref.dealloc %x : memref<1024xf32>
  memref.dealloc %buf : memref<1024xf32>
  return
}
