// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes=deps -o /dev/null | FileCheck %s

// The edges between accesses of parts of one buffer, at the boundaries of
// the box tests (decomposeBoxOffset, mayOverlap, isContainedIn, coversBase):
// each pair below overlaps in exactly one row, column or element, or is
// disjoint only because of a detail a looser test would miss.

// Tests a box whose rows run one element past the end of the row grid (4
// columns from column 5 of rows of 8): it overlaps the box of the next row
// at elements 8 and 16, so the two writes stay ordered.
// CHECK-LABEL: memsched lifetimes: @wrap_by_one
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @wrap_by_one(%x: memref<2x4xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<32xf32>
  %v = memref.reinterpret_cast %b to offset: [5], sizes: [2, 4], strides: [8, 1] : memref<32xf32> to memref<2x4xf32, strided<[8, 1], offset: 5>>
  memref.copy %x, %v : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 5>>
  %w = memref.reinterpret_cast %b to offset: [8], sizes: [2, 4], strides: [8, 1] : memref<32xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %x, %w : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %b, %out : memref<32xf32> to memref<32xf32>
  memref.dealloc %b : memref<32xf32>
  return
}

// -----

// Tests boxes sharing one column (columns 0..3 and 3..6 of rows 0..1): they
// overlap.
// CHECK-LABEL: memsched lifetimes: @shared_column
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @shared_column(%x: memref<2x4xf32> {llvm.noalias}, %out: memref<4x8xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<4x8xf32>
  %a = memref.subview %b[0, 0] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %x, %a : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  %c = memref.subview %b[0, 3] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 3>>
  memref.copy %x, %c : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 3>>
  memref.copy %b, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return
}

// -----

// Tests boxes sharing one row (rows 0..1 and 1..2 of columns 0..3): they
// overlap.
// CHECK-LABEL: memsched lifetimes: @shared_row
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @shared_row(%x: memref<2x4xf32> {llvm.noalias}, %out: memref<4x8xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<4x8xf32>
  %a = memref.subview %b[0, 0] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %x, %a : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  %r = memref.subview %b[1, 0] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %x, %r : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %b, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return
}

// -----

// Tests 1-D ranges meeting in one element (0..4 and 4..7): they overlap.
// CHECK-LABEL: memsched lifetimes: @shared_element
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @shared_element(%x: memref<5xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<8xf32>
  %lo = memref.subview %b[0] [5] [1] : memref<8xf32> to memref<5xf32, strided<[1]>>
  memref.copy %x, %lo : memref<5xf32> to memref<5xf32, strided<[1]>>
  %hi = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %y, %hi : memref<4xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %b, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// Tests boxes of one rank with different strides: columns 2..3 and the even
// columns 0 and 2 overlap in column 2, although their coordinates in their
// own grids (columns 2..3 and 0..1) do not meet.
// CHECK-LABEL: memsched lifetimes: @different_strides
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @different_strides(%x: memref<2x2xf32> {llvm.noalias}, %out: memref<4x8xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<4x8xf32>
  %cols = memref.subview %b[0, 2] [2, 2] [1, 1] : memref<4x8xf32> to memref<2x2xf32, strided<[8, 1], offset: 2>>
  memref.copy %x, %cols : memref<2x2xf32> to memref<2x2xf32, strided<[8, 1], offset: 2>>
  %even = memref.subview %b[0, 0] [2, 2] [1, 2] : memref<4x8xf32> to memref<2x2xf32, strided<[8, 2]>>
  memref.copy %x, %even : memref<2x2xf32> to memref<2x2xf32, strided<[8, 2]>>
  memref.copy %b, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return
}

// -----

// Tests that a write does not stand for an earlier write it does not cover:
// rows 0..2 x columns 0..3 span the range of rows 0..1 x columns 4..7
// without containing it, so the read of rows 0..1 x columns 4..7 still
// depends on the first write.
// CHECK-LABEL: memsched lifetimes: @range_not_contained
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- memref.copy#0
func.func @range_not_contained(%x: memref<2x4xf32> {llvm.noalias}, %y: memref<3x4xf32> {llvm.noalias}, %out: memref<2x4xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<3x8xf32>
  %right = memref.subview %b[0, 4] [2, 4] [1, 1] : memref<3x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  memref.copy %x, %right : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %left = memref.subview %b[0, 0] [3, 4] [1, 1] : memref<3x8xf32> to memref<3x4xf32, strided<[8, 1]>>
  memref.copy %y, %left : memref<3x4xf32> to memref<3x4xf32, strided<[8, 1]>>
  memref.copy %right, %out : memref<2x4xf32, strided<[8, 1], offset: 4>> to memref<2x4xf32>
  memref.dealloc %b : memref<3x8xf32>
  return
}

// -----

// Tests that a write of a prefix of an allocation does not cover it: the
// earlier write of unknown extent (through a dynamic shape) stays before the
// read of the suffix.
// CHECK-LABEL: memsched lifetimes: @prefix_does_not_cover
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- linalg.fill#0
// CHECK-NEXT: deps memref.copy#2 <- linalg.fill#0
func.func @prefix_does_not_cover(%x: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %one = arith.constant 1.0 : f32
  %b = memref.alloc() : memref<8xf32>
  %dyn = memref.cast %b : memref<8xf32> to memref<?xf32>
  linalg.fill ins(%one : f32) outs(%dyn : memref<?xf32>)
  %lo = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %x, %lo : memref<4xf32> to memref<4xf32, strided<[1]>>
  %hi = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %hi, %out : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// Tests byte views of one buffer at different byte offsets: memref.view
// shifts by its byte operand, which its type does not show, so bytes 4..7
// of the first view are the second view and the writes stay ordered.
// CHECK-LABEL: memsched lifetimes: @byte_views
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @byte_views(%x: memref<4xi8> {llvm.noalias}, %out: memref<16xi8> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %raw = memref.alloc() : memref<16xi8>
  %v0 = memref.view %raw[%c0][] : memref<16xi8> to memref<8xi8>
  %tail = memref.subview %v0[4] [4] [1] : memref<8xi8> to memref<4xi8, strided<[1], offset: 4>>
  memref.copy %x, %tail : memref<4xi8> to memref<4xi8, strided<[1], offset: 4>>
  %v4 = memref.view %raw[%c4][] : memref<16xi8> to memref<4xi8>
  memref.copy %x, %v4 : memref<4xi8> to memref<4xi8>
  memref.copy %raw, %out : memref<16xi8> to memref<16xi8>
  memref.dealloc %raw : memref<16xi8>
  return
}

// -----

// Tests that a write of a whole argument stands for the earlier accesses
// within it: each accumulation into %out depends on the one before it only
// (a chain, not every earlier one). The write of %out's second half does not
// contain the last accumulation but is ordered after it: the copy of all of
// %out after it depends on it alone, and on the accumulation through it.
// CHECK-LABEL: memsched lifetimes: @accumulate_into_argument
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.fill#1 <- none
// CHECK-NEXT: deps linalg.add#2 <- linalg.fill#0
// CHECK-NEXT: deps linalg.add#3 <- linalg.fill#1 linalg.add#2
// CHECK-NEXT: deps linalg.add#4 <- linalg.fill#0 linalg.add#3
// CHECK-NEXT: deps linalg.fill#5 <- linalg.add#4
// CHECK-NEXT: deps memref.copy#6 <- linalg.fill#5
func.func @accumulate_into_argument(%out: memref<8xf32> {llvm.noalias}, %res: memref<8xf32> {llvm.noalias}) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<8xf32>)
  linalg.add ins(%out, %a : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  linalg.add ins(%out, %b : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  linalg.add ins(%out, %a : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  %half = memref.subview %out[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  linalg.fill ins(%one : f32) outs(%half : memref<4xf32, strided<[1], offset: 4>>)
  memref.copy %out, %res : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Tests that an access kept under a later write is still ordered when a
// later access misses that write: the fill of %out's second half is ordered
// after the accumulation into all of %out and stands for it, but the copy
// of %out's first half, disjoint from the fill, depends on the accumulation
// itself (and not on the fill); the copy of all of %out after it depends on
// the fill (and on the accumulation through it).
// CHECK-LABEL: memsched lifetimes: @read_past_a_partial_write
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.add#1 <- linalg.fill#0
// CHECK-NEXT: deps linalg.fill#2 <- linalg.add#1
// CHECK-NEXT: deps memref.copy#3 <- linalg.add#1
// CHECK-NEXT: deps memref.copy#4 <- linalg.fill#2
func.func @read_past_a_partial_write(%out: memref<8xf32> {llvm.noalias}, %res: memref<4xf32> {llvm.noalias}, %all: memref<8xf32> {llvm.noalias}) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  linalg.add ins(%out, %a : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %a : memref<8xf32>
  %second = memref.subview %out[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  linalg.fill ins(%one : f32) outs(%second : memref<4xf32, strided<[1], offset: 4>>)
  %first = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %first, %res : memref<4xf32, strided<[1]>> to memref<4xf32>
  memref.copy %out, %all : memref<8xf32> to memref<8xf32>
  return
}
