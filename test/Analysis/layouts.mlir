// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes=deps -o /dev/null 2>&1 | FileCheck %s

// Allocations with a layout. A static strided layout is sized by its
// extent: (the largest offset it reaches + 1) x the element size. Canonical
// row-major strides at offset 0 are the identity layout in disguise: sized
// and analysed (footprints of its views) as the identity.

// Tests canonical strides: 64 x 4 x 4 bytes.
// CHECK-LABEL: memsched lifetimes: @canonical
// CHECK: buffer#0 memref.alloc memref<64x4xf32, strided<[4, 1]>> size=1024
func.func @canonical(%in: memref<64x4xf32>, %out: memref<64x4xf32>) {
  %a = memref.alloc() : memref<64x4xf32, strided<[4, 1]>>
  memref.copy %in, %a : memref<64x4xf32> to memref<64x4xf32, strided<[4, 1]>>
  memref.copy %a, %out : memref<64x4xf32, strided<[4, 1]>> to memref<64x4xf32>
  memref.dealloc %a : memref<64x4xf32, strided<[4, 1]>>
  return
}

// -----

// Tests padded rows at an offset: the last element is at 2 + 3 * 8 + 3 = 29,
// so 30 elements, 120 bytes.
// CHECK-LABEL: memsched lifetimes: @padded_rows
// CHECK: buffer#0 memref.alloc memref<4x4xf32, strided<[8, 1], offset: 2>> size=120
func.func @padded_rows(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %a, %out : memref<4x4xf32, strided<[8, 1], offset: 2>> to memref<4x4xf32>
  memref.dealloc %a : memref<4x4xf32, strided<[8, 1], offset: 2>>
  return
}

// -----

// Tests a column-major layout (strides [1, 4] on 4 x 6): the last element is
// at 3 + 5 * 4 = 23, 24 elements of 8 bytes.
// CHECK-LABEL: memsched lifetimes: @column_major
// CHECK: buffer#0 memref.alloc memref<4x6xf64, strided<[1, 4]>> size=192
func.func @column_major(%out: memref<4x6xf64>) {
  %cst = arith.constant 1.0 : f64
  %a = memref.alloc() : memref<4x6xf64, strided<[1, 4]>>
  linalg.fill ins(%cst : f64) outs(%a : memref<4x6xf64, strided<[1, 4]>>)
  memref.copy %a, %out : memref<4x6xf64, strided<[1, 4]>> to memref<4x6xf64>
  memref.dealloc %a : memref<4x6xf64, strided<[1, 4]>>
  return
}

// -----

// Tests a unit dimension with an arbitrary stride: still the identity in
// disguise (a stride never stepped over), 16 x 4 bytes.
// CHECK-LABEL: memsched lifetimes: @unit_dimension
// CHECK: buffer#0 memref.alloc memref<1x16xf32, strided<[7, 1]>> size=64
func.func @unit_dimension(%out: memref<1x16xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1x16xf32, strided<[7, 1]>>
  linalg.fill ins(%cst : f32) outs(%a : memref<1x16xf32, strided<[7, 1]>>)
  memref.copy %a, %out : memref<1x16xf32, strided<[7, 1]>> to memref<1x16xf32>
  memref.dealloc %a : memref<1x16xf32, strided<[7, 1]>>
  return
}

// -----

// Tests views of a buffer with canonical strides: the two halves are
// disjoint, so the copy of the bottom half waits for its fill only, as it
// would with the identity layout.
// CHECK-LABEL: memsched lifetimes: @canonical_halves
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.fill#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- linalg.fill#1{{$}}
func.func @canonical_halves(%out: memref<4x8xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8x8xf32, strided<[8, 1]>>
  %top = memref.subview %a[0, 0] [4, 8] [1, 1] : memref<8x8xf32, strided<[8, 1]>> to memref<4x8xf32, strided<[8, 1]>>
  %bot = memref.subview %a[4, 0] [4, 8] [1, 1] : memref<8x8xf32, strided<[8, 1]>> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  linalg.fill ins(%cst : f32) outs(%top : memref<4x8xf32, strided<[8, 1]>>)
  linalg.fill ins(%cst : f32) outs(%bot : memref<4x8xf32, strided<[8, 1], offset: 32>>)
  memref.copy %bot, %out : memref<4x8xf32, strided<[8, 1], offset: 32>> to memref<4x8xf32>
  memref.dealloc %a : memref<8x8xf32, strided<[8, 1]>>
  return
}

// -----

// Tests views of a buffer with padded rows (the last element at 7 * 16 + 7,
// 120 elements): its views are taken as the whole buffer (sound, coarser),
// so every access is ordered.
// CHECK-LABEL: memsched lifetimes: @padded_halves
// CHECK: buffer#0 memref.alloc memref<8x8xf32, strided<[16, 1]>> size=480
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.fill#1 <- linalg.fill#0
// CHECK-NEXT: deps memref.copy#2 <- linalg.fill#1
func.func @padded_halves(%out: memref<4x8xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8x8xf32, strided<[16, 1]>>
  %top = memref.subview %a[0, 0] [4, 8] [1, 1] : memref<8x8xf32, strided<[16, 1]>> to memref<4x8xf32, strided<[16, 1]>>
  %bot = memref.subview %a[4, 0] [4, 8] [1, 1] : memref<8x8xf32, strided<[16, 1]>> to memref<4x8xf32, strided<[16, 1], offset: 64>>
  linalg.fill ins(%cst : f32) outs(%top : memref<4x8xf32, strided<[16, 1]>>)
  linalg.fill ins(%cst : f32) outs(%bot : memref<4x8xf32, strided<[16, 1], offset: 64>>)
  memref.copy %bot, %out : memref<4x8xf32, strided<[16, 1], offset: 64>> to memref<4x8xf32>
  memref.dealloc %a : memref<8x8xf32, strided<[16, 1]>>
  return
}
