// RUN: memsched-opt %s --memsched-schedule | FileCheck %s

// Buffers with strided layouts are scheduled like any other, sized by their
// extent: %a (canonical strides, the identity in disguise) 16 x 16 x 4 =
// 1024 bytes; %b (rows of 32 elements) (15 * 32 + 15 + 1) x 4 = 1984 bytes.
// As written both are live at the copies: 3008 bytes. One after the other:
// max(1024, 1984) = 1984 bytes, which the trivial bound at %b's fill proves.
// (Upstream's LLVM lowering does not lower memref.alloc with a non-identity
// layout, so this program cannot run on the CPU pipeline as it stands.)

// CHECK-LABEL: func.func @two_buffers
// CHECK-SAME: #memsched.certificate<peak = 1984, lower_bound = 1984,
// CHECK-NEXT: memref.alloc() : memref<16x16xf32, strided<[16, 1]>>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {{.*}} memref<16x16xf32, strided<[16, 1]>>
// CHECK-NEXT: memref.copy {{.*}} memref<16x16xf32, strided<[16, 1]>> to memref<16x16xf32>
// CHECK-NEXT: memref.dealloc {{.*}} memref<16x16xf32, strided<[16, 1]>>
// CHECK-NEXT: memref.alloc() : memref<16x16xf32, strided<[32, 1]>>
// CHECK-NEXT: linalg.fill {{.*}} memref<16x16xf32, strided<[32, 1]>>
// CHECK-NEXT: memref.copy {{.*}} memref<16x16xf32, strided<[32, 1]>> to memref<16x16xf32>
// CHECK-NEXT: memref.dealloc {{.*}} memref<16x16xf32, strided<[32, 1]>>
// CHECK-NEXT: return
func.func @two_buffers(%o1: memref<16x16xf32>, %o2: memref<16x16xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16x16xf32, strided<[16, 1]>>
  %b = memref.alloc() : memref<16x16xf32, strided<[32, 1]>>
  linalg.fill ins(%cst : f32) outs(%a : memref<16x16xf32, strided<[16, 1]>>)
  linalg.fill ins(%cst : f32) outs(%b : memref<16x16xf32, strided<[32, 1]>>)
  memref.copy %a, %o1 : memref<16x16xf32, strided<[16, 1]>> to memref<16x16xf32>
  memref.copy %b, %o2 : memref<16x16xf32, strided<[32, 1]>> to memref<16x16xf32>
  memref.dealloc %a : memref<16x16xf32, strided<[16, 1]>>
  memref.dealloc %b : memref<16x16xf32, strided<[32, 1]>>
  return
}
