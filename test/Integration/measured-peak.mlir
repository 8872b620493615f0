// REQUIRES: mlir-runner
// The peak the counting allocator of libmemsched_runtime measures when the
// program runs, against sizes computed by hand. Each RUN wraps one function in
// a main() (--memsched-test-harness), lowers the whole module with allocation
// through _mlir_memref_to_llvm_{alloc,aligned_alloc,free}
// (--memsched-test-lower-to-llvm) and runs it.

// RUN: memsched-opt %s --memsched-test-harness=func=straight \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=STRAIGHT

// RUN: memsched-opt %s --memsched-test-harness=func=aligned \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=ALIGNED

// RUN: memsched-opt %s --memsched-test-harness=func=aligned \
// RUN:   --memsched-test-lower-to-llvm=use-aligned-alloc=true \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=ALIGNED-AA

// RUN: memsched-opt %s --memsched-test-harness=func=loop \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=LOOP

// RUN: memsched-opt %s --memsched-test-harness=func=stack \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=STACK

// RUN: memsched-opt %s --memsched-test-harness=func=escape \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=ESCAPE

// RUN: memsched-opt %s --memsched-test-harness=func=deep \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=DEEP

// RUN: memsched-opt %s --memsched-test-harness=func=double_free \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   2> %t.double_free.err \
// RUN: | FileCheck %s --check-prefix=DOUBLE
// RUN: FileCheck %s --check-prefix=DOUBLE-ERR < %t.double_free.err

// Differential run: @interleaved and @chained (same ops, two orders).
// RUN: memsched-opt %s --memsched-test-harness="func=interleaved seed=5" \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   > %t.interleaved
// RUN: memsched-opt %s --memsched-test-harness="func=chained seed=5" \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   > %t.chained
// RUN: cat %t.interleaved %t.chained | FileCheck %s --check-prefix=DIFF

// Tests that straight-line allocations are counted at their exact byte size:
// %a, %b, %c (1024 B each) are live together, then freed; %d (64 B) after.
// Peak 3 * 1024 = 3072.
// STRAIGHT: memsched-measured-peak=3072 live-at-end=0 allocs=4 frees=4
// STRAIGHT-NEXT: memsched-hash arg#0 f32 elems=256
// STRAIGHT-NEXT: memsched-hash arg#1 f32 elems=16
func.func @straight(%in: memref<16x16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16x16xf32>
  linalg.mul ins(%in, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%a : memref<16x16xf32>)
  %b = memref.alloc() : memref<16x16xf32>
  linalg.add ins(%a, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%b : memref<16x16xf32>)
  %c = memref.alloc() : memref<16x16xf32>
  linalg.mul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>)
             outs(%c : memref<16x16xf32>)
  memref.dealloc %a : memref<16x16xf32>
  memref.dealloc %b : memref<16x16xf32>
  %d = memref.alloc() : memref<16xf32>
  linalg.reduce ins(%c : memref<16x16xf32>) outs(%d : memref<16xf32>)
    dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %d, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %d : memref<16xf32>
  return
}

// Tests the sizes requested for memref.alloc with and without `alignment`.
// Generic alloc path: 10 x f32 with alignment 64 asks 40 + 64 = 104 bytes,
// 3 x f32 without alignment asks 12; both live: 116.
// Aligned-alloc path: 40 rounded up to 64 = 64; 12 rounded up to the minimum
// alignment 16 = 16; both live: 80.
// ALIGNED: memsched-measured-peak=116 live-at-end=0 allocs=2 frees=2
// ALIGNED-AA: memsched-measured-peak=80 live-at-end=0 allocs=2 frees=2
func.func @aligned(%in: memref<10xf32>, %out: memref<3xf32>) {
  %big = memref.alloc() {alignment = 64 : i64} : memref<10xf32>
  %small = memref.alloc() : memref<3xf32>
  memref.copy %in, %big : memref<10xf32> to memref<10xf32>
  %v = memref.subview %big[2] [3] [1]
      : memref<10xf32> to memref<3xf32, strided<[1], offset: 2>>
  memref.copy %v, %small : memref<3xf32, strided<[1], offset: 2>> to memref<3xf32>
  memref.copy %small, %out : memref<3xf32> to memref<3xf32>
  memref.dealloc %big : memref<10xf32>
  memref.dealloc %small : memref<3xf32>
  return
}

// Tests that a transient allocation inside a loop counts once per iteration
// at a time: %acc (64 B) is live across the loop, %t (32 B) inside it. Peak
// 64 + 32 = 96, 1 + 4 allocations.
// LOOP: memsched-measured-peak=96 live-at-end=0 allocs=5 frees=5
func.func @loop(%in: memref<4x8xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<8xf32>
    %row = memref.subview %in[%i, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.mul ins(%row, %row : memref<8xf32, strided<[1], offset: ?>>,
                                memref<8xf32, strided<[1], offset: ?>>)
               outs(%t : memref<8xf32>)
    %dst = memref.subview %acc[0] [8] [1]
        : memref<16xf32> to memref<8xf32, strided<[1]>>
    linalg.add ins(%t, %dst : memref<8xf32>, memref<8xf32, strided<[1]>>)
               outs(%dst : memref<8xf32, strided<[1]>>)
    memref.dealloc %t : memref<8xf32>
  }
  memref.copy %acc, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %acc : memref<16xf32>
  return
}

// Tests that memref.alloca is invisible to the counting allocator: it lowers
// to llvm.alloca (stack). Only the 32 B heap buffer is measured, although the
// memory model counts the 4096 B alloca too.
// STACK: memsched-measured-peak=32 live-at-end=0 allocs=1 frees=1
func.func @stack(%in: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %s = memref.alloca() : memref<1024xf32>
  %t = memref.alloc() : memref<8xf32>
  linalg.add ins(%in, %in : memref<8xf32>, memref<8xf32>)
             outs(%t : memref<8xf32>)
  %v = memref.load %t[%c0] : memref<8xf32>
  memref.store %v, %s[%c0] : memref<1024xf32>
  %w = memref.load %s[%c0] : memref<1024xf32>
  memref.store %w, %out[%c0] : memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  return
}

// Tests that a returned buffer stays live to the end: %r (64 B) escapes, %t
// (32 B) is freed. Peak 96, 64 still live when @escape returns.
// ESCAPE: memsched-measured-peak=96 live-at-end=64 allocs=2 frees=1
// ESCAPE-NEXT: memsched-hash result#0 f32 elems=16
// ESCAPE-NEXT: memsched-hash arg#0 f32 elems=8
func.func @escape(%in: memref<8xf32>) -> memref<4x4xf32> {
  %t = memref.alloc() : memref<8xf32>
  linalg.add ins(%in, %in : memref<8xf32>, memref<8xf32>)
             outs(%t : memref<8xf32>)
  %r = memref.alloc() : memref<4x4xf32>
  %r0 = memref.collapse_shape %r [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %lo = memref.subview %r0[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  %hi = memref.subview %r0[8] [8] [1]
      : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  memref.copy %t, %lo : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %in, %hi : memref<8xf32> to memref<8xf32, strided<[1], offset: 8>>
  memref.dealloc %t : memref<8xf32>
  return %r : memref<4x4xf32>
}

// Tests the runtime's pointer table under load: 3000 allocations of 1, 2, ...,
// 3000 bytes live at once (recursion), each freed with its own size. Peak
// 3000 * 3001 / 2 = 4501500, nothing left, no unknown free.
// DEEP: memsched-measured-peak=4501500 live-at-end=0 allocs=3000 frees=3000
// DEEP-NOT: memsched-unknown-frees
func.func @deep() {
  %n = arith.constant 3000 : index
  func.call @rec(%n) : (index) -> ()
  return
}

func.func @rec(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %more = arith.cmpi ugt, %n, %c0 : index
  scf.if %more {
    %b = memref.alloc(%n) : memref<?xi8>
    %m = arith.subi %n, %c1 : index
    func.call @rec(%m) : (index) -> ()
    memref.dealloc %b : memref<?xi8>
  }
  return
}

// Tests that freeing a pointer twice (or one the runtime never returned) is
// reported and not passed to free(): a wrong schedule fails loudly.
// DOUBLE: memsched-measured-peak=32 live-at-end=0 allocs=1 frees=1
// DOUBLE-NEXT: memsched-unknown-frees=1
// DOUBLE-ERR: memsched-runtime: free of unknown pointer
func.func @double_free(%out: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<8xf32>)
  memref.copy %t, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  return
}

// Tests that two orders of the same ops measure different peaks and produce
// bit-identical outputs. Two independent chains, each a 1024 B temporary
// reduced into a 64 B row sum, then %out = sumA + sumB. Interleaved, both
// temporaries are live with both sums: 1024 + 1024 + 64 + 64 = 2176. Chained
// (what a memory-aware scheduler finds), one temporary at a time:
// 64 + 1024 + 64 = 1152.
// DIFF: memsched-measured-peak=2176 live-at-end=0 allocs=4 frees=4
// DIFF-NEXT: memsched-hash arg#0 f32 elems=256 fnv1a=[[IN:0x[0-9a-f]+]]
// DIFF-NEXT: memsched-hash arg#1 f32 elems=16 fnv1a=[[OUT:0x[0-9a-f]+]]
// DIFF-NEXT: memsched-measured-peak=1152 live-at-end=0 allocs=4 frees=4
// DIFF-NEXT: memsched-hash arg#0 f32 elems=256 fnv1a=[[IN]]
// DIFF-NEXT: memsched-hash arg#1 f32 elems=16 fnv1a=[[OUT]]
func.func @interleaved(%in: memref<16x16xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ta = memref.alloc() : memref<16x16xf32>
  linalg.mul ins(%in, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%ta : memref<16x16xf32>)
  %tb = memref.alloc() : memref<16x16xf32>
  linalg.add ins(%in, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%tb : memref<16x16xf32>)
  %sa = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sa : memref<16xf32>)
  linalg.reduce ins(%ta : memref<16x16xf32>) outs(%sa : memref<16xf32>)
    dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %sb = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sb : memref<16xf32>)
  linalg.reduce ins(%tb : memref<16x16xf32>) outs(%sb : memref<16xf32>)
    dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  memref.dealloc %ta : memref<16x16xf32>
  memref.dealloc %tb : memref<16x16xf32>
  linalg.add ins(%sa, %sb : memref<16xf32>, memref<16xf32>)
             outs(%out : memref<16xf32>)
  memref.dealloc %sa : memref<16xf32>
  memref.dealloc %sb : memref<16xf32>
  return
}

func.func @chained(%in: memref<16x16xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ta = memref.alloc() : memref<16x16xf32>
  linalg.mul ins(%in, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%ta : memref<16x16xf32>)
  %sa = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sa : memref<16xf32>)
  linalg.reduce ins(%ta : memref<16x16xf32>) outs(%sa : memref<16xf32>)
    dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  memref.dealloc %ta : memref<16x16xf32>
  %tb = memref.alloc() : memref<16x16xf32>
  linalg.add ins(%in, %in : memref<16x16xf32>, memref<16x16xf32>)
             outs(%tb : memref<16x16xf32>)
  %sb = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sb : memref<16xf32>)
  linalg.reduce ins(%tb : memref<16x16xf32>) outs(%sb : memref<16xf32>)
    dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  memref.dealloc %tb : memref<16x16xf32>
  linalg.add ins(%sa, %sb : memref<16xf32>, memref<16xf32>)
             outs(%out : memref<16xf32>)
  memref.dealloc %sa : memref<16xf32>
  memref.dealloc %sb : memref<16xf32>
  return
}
