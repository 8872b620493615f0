// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-print-lifetimes=deps -o /dev/null | FileCheck %s

// Tests the output of the upstream pipeline on a small convolutional network:
// the peak as written is the plain walk of allocs and deallocs (6272 + 4608 +
// 6272 bytes live at the third convolution), and no dependency is missed (a
// write covering a whole buffer orders what comes before it against what
// comes after, so transitive edges are left out).
// CHECK-LABEL: memsched lifetimes: @cnn
// CHECK-NEXT: peak-as-written=17152 peak-tight=17152 nodes=8 buffers=3
// CHECK-NEXT: buffer#0 memref.alloc memref<1x8x14x14xf32> size=6272 first=linalg.fill#0 last=linalg.conv_2d_nchw_fchw#6 escape=no
// CHECK-NEXT: buffer#1 memref.alloc memref<1x8x12x12xf32> size=4608 first=linalg.fill#3 last=linalg.generic#7 escape=returned
// CHECK-NEXT: buffer#2 memref.alloc memref<1x8x14x14xf32> size=6272 first=linalg.fill#5 last=linalg.generic#7 escape=no
// CHECK-NEXT: peak-tight-at=linalg.fill#5 live: buffer#0 buffer#1 buffer#2
// CHECK-NEXT: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.conv_2d_nchw_fchw#1 <- linalg.fill#0
// CHECK-NEXT: deps linalg.generic#2 <- linalg.conv_2d_nchw_fchw#1
// CHECK-NEXT: deps linalg.fill#3 <- none
// CHECK-NEXT: deps linalg.conv_2d_nchw_fchw#4 <- linalg.generic#2 linalg.fill#3
// CHECK-NEXT: deps linalg.fill#5 <- none
// CHECK-NEXT: deps linalg.conv_2d_nchw_fchw#6 <- linalg.generic#2 linalg.fill#5
// CHECK-NEXT: deps linalg.generic#7 <- linalg.conv_2d_nchw_fchw#4 linalg.conv_2d_nchw_fchw#6
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @cnn(%arg0: memref<1x3x16x16xf32>, %arg1: memref<8x3x3x3xf32>, %arg2: memref<8x8x3x3xf32>, %arg3: memref<8x8x1x1xf32>) -> memref<1x8x12x12xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x8x14x14xf32>
  linalg.fill ins(%cst : f32) outs(%alloc : memref<1x8x14x14xf32>)
  linalg.conv_2d_nchw_fchw ins(%arg0, %arg1 : memref<1x3x16x16xf32>, memref<8x3x3x3xf32>) outs(%alloc : memref<1x8x14x14xf32>)
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc : memref<1x8x14x14xf32>) outs(%alloc : memref<1x8x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %cst : f32
    linalg.yield %0 : f32
  }
  %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<1x8x12x12xf32>
  linalg.fill ins(%cst : f32) outs(%alloc_0 : memref<1x8x12x12xf32>)
  linalg.conv_2d_nchw_fchw ins(%alloc, %arg2 : memref<1x8x14x14xf32>, memref<8x8x3x3xf32>) outs(%alloc_0 : memref<1x8x12x12xf32>)
  %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1x8x14x14xf32>
  linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<1x8x14x14xf32>)
  linalg.conv_2d_nchw_fchw ins(%alloc, %arg3 : memref<1x8x14x14xf32>, memref<8x8x1x1xf32>) outs(%alloc_1 : memref<1x8x14x14xf32>)
  memref.dealloc %alloc : memref<1x8x14x14xf32>
  %subview = memref.subview %alloc_1[0, 0, 1, 1] [1, 8, 12, 12] [1, 1, 1, 1] : memref<1x8x14x14xf32> to memref<1x8x12x12xf32, strided<[1568, 196, 14, 1], offset: 15>>
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_0, %subview : memref<1x8x12x12xf32>, memref<1x8x12x12xf32, strided<[1568, 196, 14, 1], offset: 15>>) outs(%alloc_0 : memref<1x8x12x12xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %0 = arith.addf %in, %in_2 : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %alloc_1 : memref<1x8x14x14xf32>
  return %alloc_0 : memref<1x8x12x12xf32>
}

// -----

// Tests that the copies filling the channel slices of a concatenation touch
// disjoint parts of the buffer and do not depend on each other.
// CHECK-LABEL: memsched lifetimes: @concat
// CHECK-NEXT: peak-as-written=2048 peak-tight=2048 nodes=3 buffers=1
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- memref.copy#0 memref.copy#1
func.func @concat(%x: memref<1x4x8x8xf32>, %y: memref<1x4x8x8xf32>, %out: memref<1x8x8x8xf32>) {
  %cat = memref.alloc() : memref<1x8x8x8xf32>
  %s0 = memref.subview %cat[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x8x8x8xf32> to memref<1x4x8x8xf32, strided<[512, 64, 8, 1]>>
  memref.copy %x, %s0 : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[512, 64, 8, 1]>>
  %s1 = memref.subview %cat[0, 4, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x8x8x8xf32> to memref<1x4x8x8xf32, strided<[512, 64, 8, 1], offset: 256>>
  memref.copy %y, %s1 : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[512, 64, 8, 1], offset: 256>>
  memref.copy %cat, %out : memref<1x8x8x8xf32> to memref<1x8x8x8xf32>
  memref.dealloc %cat : memref<1x8x8x8xf32>
  return
}

// -----

// Tests slices along the innermost dimension: interleaved in memory but
// disjoint as boxes; a slice overlapping both depends on both.
// CHECK-LABEL: memsched lifetimes: @concat_w
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- memref.copy#0 memref.copy#1
// CHECK-NEXT: deps memref.copy#3 <- memref.copy#0 memref.copy#1 memref.copy#2
func.func @concat_w(%x: memref<2x4xf32>, %out: memref<2x8xf32>) {
  %cat = memref.alloc() : memref<2x8xf32>
  %s0 = memref.subview %cat[0, 0] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %x, %s0 : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  %s1 = memref.subview %cat[0, 4] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  memref.copy %x, %s1 : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %s2 = memref.subview %cat[0, 2] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %x, %s2 : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %cat, %out : memref<2x8xf32> to memref<2x8xf32>
  memref.dealloc %cat : memref<2x8xf32>
  return
}

// -----

// Tests that accesses through every upstream view op (expand_shape,
// transpose, cast, collapse_shape, reinterpret_cast, view) reach the buffer
// they view.
// CHECK-LABEL: memsched lifetimes: @views
// CHECK-NEXT: peak-as-written=128 peak-tight=128 nodes=5 buffers=2
// CHECK-NEXT: buffer#0 memref.alloc memref<16xf32> size=64 first=linalg.fill#0 last=memref.load#3 escape=no
// CHECK-NEXT: buffer#1 memref.alloc memref<64xi8> size=64 first=memref.copy#2 last=memref.copy#2 escape=no
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps memref.store#1 <- linalg.fill#0
// CHECK-NEXT: deps memref.copy#2 <- memref.store#1
// CHECK-NEXT: deps memref.load#3 <- memref.store#1
// CHECK-NEXT: deps memref.store#4 <- memref.load#3
func.func @views(%out: memref<4x4xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %t = memref.transpose %e (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  %c = memref.cast %e : memref<4x4xf32> to memref<?x?xf32>
  %col = memref.collapse_shape %e [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [2, 8], strides: [8, 1] : memref<16xf32> to memref<2x8xf32>
  %raw = memref.alloc() : memref<64xi8>
  %v = memref.view %raw[%c0][] : memref<64xi8> to memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<?x?xf32>)
  memref.store %cst, %r[%c0, %i] : memref<2x8xf32>
  memref.copy %col, %v : memref<16xf32> to memref<16xf32>
  %ld = memref.load %t[%i, %c0] : memref<4x4xf32, strided<[1, 4]>>
  memref.store %ld, %out[%c0, %c0] : memref<4x4xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %raw : memref<64xi8>
  return
}

// -----

// Tests that scf.for, scf.if and affine.for are atomic ops whose nested
// allocations count as transient bytes at their own peak (100 + 50 in the
// scf.if), and that their effects on outer buffers order them.
// CHECK-LABEL: memsched lifetimes: @loops
// CHECK-NEXT: peak-as-written=1624 peak-tight=1624 nodes=4 buffers=1
// CHECK-NEXT: buffer#0 memref.alloc memref<256xf32> size=1024 first=linalg.fill#0 last=affine.for#3 escape=no
// CHECK-NEXT: node scf.for#1 transient=128
// CHECK-NEXT: node scf.if#2 transient=600
// CHECK-NEXT: node affine.for#3 transient=16
// CHECK-NEXT: peak-tight-at=scf.if#2 live: buffer#0
// CHECK-NEXT: deps linalg.fill#0 <- none
// CHECK-NEXT: deps scf.for#1 <- none
// CHECK-NEXT: deps scf.if#2 <- none
// CHECK-NEXT: deps affine.for#3 <- linalg.fill#0 scf.for#1
func.func @loops(%out: memref<8xf32>, %n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<256xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<256xf32>)
  scf.for %iv = %c0 to %n step %c1 {
    %tmp = memref.alloc() : memref<32xf32>
    linalg.fill ins(%cst : f32) outs(%tmp : memref<32xf32>)
    %v = memref.load %tmp[%c0] : memref<32xf32>
    memref.store %v, %out[%c0] : memref<8xf32>
    memref.dealloc %tmp : memref<32xf32>
  }
  scf.if %cond {
    %t1 = memref.alloc() : memref<100xf32>
    %t2 = memref.alloc() : memref<50xf32>
    memref.dealloc %t1 : memref<100xf32>
    memref.dealloc %t2 : memref<50xf32>
  }
  affine.for %j = 0 to 8 {
    %t3 = memref.alloc() : memref<4xf32>
    %v = affine.load %big[%j] : memref<256xf32>
    affine.store %v, %out[%j] : memref<8xf32>
    memref.dealloc %t3 : memref<4xf32>
  }
  memref.dealloc %big : memref<256xf32>
  return
}

// -----

// Tests buffers carried through scf.for iter_args and scf.if results: they
// alias the buffers that flow into them.
// CHECK-LABEL: memsched lifetimes: @region_aliases
// CHECK-NEXT: peak-as-written=128 peak-tight=128 nodes=3 buffers=2
// CHECK-NEXT: buffer#0 {{.*}} first=linalg.fill#0 last=memref.copy#2 escape=no
// CHECK-NEXT: buffer#1 {{.*}} first=scf.for#1 last=memref.copy#2 escape=no
// CHECK: deps memref.copy#2 <- linalg.fill#0 scf.for#1
func.func @region_aliases(%out: memref<16xf32>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%it = %b) -> memref<16xf32> {
    memref.store %cst, %it[%c0] : memref<16xf32>
    scf.yield %it : memref<16xf32>
  }
  %s = scf.if %c -> memref<16xf32> {
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %r : memref<16xf32>
  }
  memref.copy %s, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests calls: a callee defined in the module contributes its effects on its
// arguments and its own allocations (transient), an external declaration and
// an op without effect information are barriers.
// CHECK-LABEL: memsched lifetimes: @kernel
// CHECK-LABEL: memsched lifetimes: @calls
// CHECK-NEXT: peak-as-written=448 peak-tight=384 nodes=4 buffers=3
// CHECK-NEXT: buffer#0 {{.*}} first=linalg.fill#0 last=func.call#1 escape=no
// CHECK-NEXT: buffer#1 {{.*}} first=func.call#1 last=func.call#1 escape=no
// CHECK-NEXT: buffer#2 {{.*}} first=func.call#2 last=func.call#2 escape=returned
// CHECK-NEXT: node func.call#1 transient=256
// CHECK-NEXT: node func.call#2 barrier
// CHECK-NEXT: node test.unknown#3 barrier
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps func.call#1 <- linalg.fill#0
// CHECK-NEXT: deps func.call#2 <- linalg.fill#0 func.call#1
// CHECK-NEXT: deps test.unknown#3 <- func.call#2
func.func private @external(memref<16xf32>)
func.func @kernel(%in: memref<16xf32>, %out: memref<16xf32>) {
  %t = memref.alloc() : memref<64xf32>
  memref.copy %in, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<64xf32>
  return
}
func.func @calls(%arg: memref<16xf32>) -> memref<16xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  func.call @kernel(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  func.call @external(%c) : (memref<16xf32>) -> ()
  "test.unknown"() : () -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return %c : memref<16xf32>
}

// -----

// Tests a buffer stored into memory: it escapes, and its deallocation stays
// after the access through the loaded pointer (a barrier).
// CHECK-LABEL: memsched lifetimes: @store_escape
// CHECK-NEXT: peak-as-written=64 peak-tight=64 nodes=4 buffers=1
// CHECK-NEXT: buffer#0 {{.*}} first=linalg.fill#0 last=linalg.fill#3 escape=captured by memref.store
// CHECK-NEXT: node linalg.fill#3 barrier
func.func @store_escape(%mm: memref<1xmemref<16xf32>>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  memref.store %a, %mm[%c0] : memref<1xmemref<16xf32>>
  %l = memref.load %mm[%c0] : memref<1xmemref<16xf32>>
  linalg.fill ins(%cst : f32) outs(%l : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests a dynamic size bounded through the value bounds of affine.min.
// CHECK-LABEL: memsched lifetimes: @dyn
// CHECK-NEXT: peak-as-written=256 peak-tight=256
// CHECK-NEXT: buffer#0 memref.alloc memref<?xf32> size=<=256
func.func @dyn(%n: index) {
  %cst = arith.constant 1.0 : f32
  %m = affine.min affine_map<(d0) -> (d0, 64)>(%n)
  %a = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Tests memref.alloca (live to the end of the function) and a leaked
// allocation (no deallocation: live to the end).
// CHECK-LABEL: memsched lifetimes: @alloca_and_leak
// CHECK-NEXT: peak-as-written=96 peak-tight=96 nodes=2 buffers=2
// CHECK-NEXT: buffer#0 memref.alloca memref<8xf32> size=32
// CHECK-NEXT: buffer#1 memref.alloc memref<16xf32> size=64
func.func @alloca_and_leak() {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<8xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<16xf32>)
  return
}

// -----

// Tests that boxes of one buffer with equal strides but rows that wrap (4
// columns starting at column 6 of rows of 8) are not taken as disjoint: the
// two writes overlap at elements 8, 9, 16 and 17 and keep their order.
// CHECK-LABEL: memsched lifetimes: @wrapped_rows
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- memref.copy#0
func.func @wrapped_rows(%x: memref<2x4xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<32xf32>
  %v = memref.reinterpret_cast %b to offset: [6], sizes: [2, 4], strides: [8, 1] : memref<32xf32> to memref<2x4xf32, strided<[8, 1], offset: 6>>
  memref.copy %x, %v : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 6>>
  %w = memref.reinterpret_cast %b to offset: [8], sizes: [2, 4], strides: [8, 1] : memref<32xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %x, %w : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  memref.copy %b, %out : memref<32xf32> to memref<32xf32>
  memref.dealloc %b : memref<32xf32>
  return
}

// -----

// Tests that an allocation nothing uses is dead code and takes no memory.
// CHECK-LABEL: memsched lifetimes: @dead_alloc
// CHECK-NEXT: peak-as-written=64 peak-tight=64 nodes=1 buffers=2
// CHECK-NEXT: buffer#0 memref.alloc memref<1024xf32> size=0 untouched escape=no
func.func @dead_alloc(%x: memref<16xf32> {llvm.noalias}) {
  %dead = memref.alloc() : memref<1024xf32>
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests that a buffer passed to an op with unknown effects escapes (the op
// may keep its address), so that a later op with unknown effects, which may
// use that address, counts as touching it: the buffer stays live, and its
// deallocation stays after @use_saved.
// CHECK-LABEL: memsched lifetimes: @stashed_address
// CHECK-NEXT: peak-as-written=64 peak-tight=64 nodes=3 buffers=1
// CHECK-NEXT: buffer#0 memref.alloc memref<16xf32> size=64 first=linalg.fill#0 last=func.call#2 escape=passed to func.call, which has unknown effects
// CHECK-NEXT: node func.call#1 barrier
// CHECK-NEXT: node func.call#2 barrier
func.func private @save_address(memref<16xf32>)
func.func private @use_saved()
func.func @stashed_address() {
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<16xf32>)
  func.call @save_address(%a) : (memref<16xf32>) -> ()
  func.call @use_saved() : () -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests that an effect on no value (vector.print writes the output stream)
// makes a barrier: it keeps its place among the ops with effects.
// CHECK-LABEL: memsched lifetimes: @global_effect
// CHECK-NEXT: peak-as-written=0 peak-tight=0 nodes=3 buffers=0 edges=3
// CHECK-NEXT: node vector.print#1 barrier
func.func @global_effect(%arg: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %arg[%c0] : memref<4xf32>
  vector.print %x : f32
  %f = arith.constant 2.0 : f32
  memref.store %f, %arg[%c0] : memref<4xf32>
  return
}

// -----

// Tests the size of a buffer of i1: each element takes a whole byte in
// memory (LLVM's store size of i1), so 8 elements are 8 bytes, not 1 and
// not 0.
// CHECK-LABEL: memsched lifetimes: @bool_buffer
// CHECK-NEXT: peak-as-written=8 peak-tight=8 nodes=2 buffers=1
// CHECK-NEXT: buffer#0 memref.alloc memref<8xi1> size=8 first=linalg.fill#0 last=memref.copy#1
func.func @bool_buffer(%out: memref<8xi1>) {
  %t = arith.constant true
  %m = memref.alloc() : memref<8xi1>
  linalg.fill ins(%t : i1) outs(%m : memref<8xi1>)
  memref.copy %m, %out : memref<8xi1> to memref<8xi1>
  memref.dealloc %m : memref<8xi1>
  return
}

// -----

// Tests a body with several blocks: the body's peak is that of ^bb1, where
// %x (allocated in ^bb0, 4096 bytes) is live from the start to its
// deallocation and the 2048-byte %y is allocated. ^bb1's uses of %x keep
// their order (the fill writes it, the copy reads it) and each comes before
// %x's deallocation, including the store, which only uses a size read from
// %x.
// CHECK-LABEL: memsched lifetimes: @blocks
// CHECK-NEXT: blocks=2 body-peak-as-written=6144 at ^bb1
// CHECK-NEXT: // ^bb0
// CHECK-NEXT: peak-as-written=4096 peak-tight=4096 nodes=1 buffers=1
// CHECK-NEXT: buffer#0 memref.alloc memref<1024xf32> size=4096 first=linalg.fill#0 last=linalg.fill#0 escape=no
// CHECK: // ^bb1
// CHECK-NEXT: peak-as-written=6144 peak-tight=6144 nodes=6 buffers=1
// CHECK-NEXT: live-in#0 memref.alloc memref<1024xf32> size=4096 freed=memref.dealloc#5
// CHECK-NEXT: buffer#0 memref.alloc memref<512xf32> size=2048
// CHECK-NEXT: peak-tight-at=linalg.fill#2 live: buffer#0 live-in#0
// CHECK-NEXT: deps linalg.fill#0 <- none
// CHECK-NEXT: deps linalg.copy#1 <- linalg.fill#0
// CHECK-NEXT: deps linalg.fill#2 <- none
// CHECK-NEXT: deps linalg.copy#3 <- linalg.fill#2
// CHECK-NEXT: deps memref.store#4 <- none
// CHECK-NEXT: deps memref.dealloc#5 <- linalg.fill#0 linalg.copy#1 memref.store#4
func.func @blocks(%o1: memref<1024xf32> {llvm.noalias}, %o2: memref<512xf32> {llvm.noalias}, %o3: memref<2048xf32> {llvm.noalias}) {
  %cst = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%x : memref<1024xf32>)
  cf.br ^bb1
^bb1:
  %y = memref.alloc() : memref<512xf32>
  linalg.fill ins(%cst : f32) outs(%x : memref<1024xf32>)
  linalg.copy ins(%x : memref<1024xf32>) outs(%o1 : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%y : memref<512xf32>)
  linalg.copy ins(%y : memref<512xf32>) outs(%o2 : memref<512xf32>)
  %d = memref.dim %x, %c0 : memref<1024xf32>
  memref.store %cst, %o3[%d] : memref<2048xf32>
  memref.dealloc %x : memref<1024xf32>
  memref.dealloc %y : memref<512xf32>
  return
}
