// REQUIRES: mlir-runner
// The argument fill formula of --memsched-test-harness and the hashes of
// libmemsched_runtime, checked against values computed independently (Python
// model of the documented formula): element i, or argument position i for a
// scalar, gets k = ((i * 2654435761 + seed) mod 2^64) mod 1000, then
// k / 1000.0 - 0.5 (f64, rounded to the type) for floats, k & 1 for i1,
// k - 500 (truncated) for other integers and index. The hash is the 64-bit
// FNV-1a of the element bytes in row-major order of the logical indices.

// RUN: memsched-opt %s --memsched-test-harness="func=types seed=3" \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=TYPES

// RUN: memsched-opt %s --memsched-test-harness=func=views \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=VIEWS

// RUN: memsched-opt %s --memsched-test-harness=func=consts \
// RUN:   --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 \
// RUN:   -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=CONSTS

// Tests every supported element type, a 0-d memref, a layout reached by
// memref.cast, scalar arguments and results, strided and unranked results.
// Nothing is allocated inside @types.
// TYPES: memsched-measured-peak=0 live-at-end=0 allocs=0 frees=0
// TYPES-NEXT: memsched-hash result#0 i32 elems=1 fnv1a=0xd60974b8bace7a34
// TYPES-NEXT: memsched-hash result#1 f32 elems=1 fnv1a=0xab13efdae7734982
// TYPES-NEXT: memsched-hash result#2 index elems=1 fnv1a=0xdcc41d5179a89fee
// TYPES-NEXT: memsched-hash result#3 f64 elems=6 fnv1a=0x559c3d4fe02067cc
// TYPES-NEXT: memsched-hash result#4 f32 elems=1 fnv1a=0x605ec4fcbc066bd2
// TYPES-NEXT: memsched-hash arg#0 f16 elems=5 fnv1a=0xd8bf4749b1bfc7c4
// TYPES-NEXT: memsched-hash arg#1 bf16 elems=5 fnv1a=0x648feb3f721e9212
// TYPES-NEXT: memsched-hash arg#2 f64 elems=6 fnv1a=0x559c3d4fe02067cc
// TYPES-NEXT: memsched-hash arg#3 i1 elems=7 fnv1a=0xb63e07b4dd1b0537
// TYPES-NEXT: memsched-hash arg#4 i8 elems=5 fnv1a=0xfd6d376b612c669e
// TYPES-NEXT: memsched-hash arg#5 i16 elems=5 fnv1a=0xc45458179504abfc
// TYPES-NEXT: memsched-hash arg#6 i32 elems=5 fnv1a=0x6aaa046ec848e916
// TYPES-NEXT: memsched-hash arg#7 i64 elems=5 fnv1a=0xcab8c2f6fea09e12
// TYPES-NEXT: memsched-hash arg#8 index elems=5 fnv1a=0xcab8c2f6fea09e12
// TYPES-NEXT: memsched-hash arg#9 f32 elems=1 fnv1a=0x605ec4fcbc066bd2
// TYPES-NEXT: memsched-hash arg#10 f32 elems=4 fnv1a=0xc46f4895b65680a7
// TYPES-NOT: memsched-hash
func.func @types(%a: memref<5xf16>, %b: memref<5xbf16>, %c: memref<2x3xf64>,
                 %d: memref<7xi1>, %e: memref<5xi8>, %f: memref<5xi16>,
                 %g: memref<5xi32>, %h: memref<5xi64>, %i: memref<5xindex>,
                 %j: memref<f32>, %k: memref<2x2xf32, strided<[2, 1]>>,
                 %s: i32, %t: f32, %u: index)
    -> (i32, f32, index, memref<2x3xf64, strided<[3, 1], offset: ?>>,
        memref<*xf32>) {
  %cast = memref.cast %c
      : memref<2x3xf64> to memref<2x3xf64, strided<[3, 1], offset: ?>>
  %unranked = memref.cast %j : memref<f32> to memref<*xf32>
  return %s, %t, %u, %cast, %unranked
      : i32, f32, index, memref<2x3xf64, strided<[3, 1], offset: ?>>,
        memref<*xf32>
}

// Tests that views hash their visible elements in row-major order: every
// second element of %a (0, 2, 4, 6) and the transpose of %b (linear indices
// 0, 3, 1, 4, 2, 5), not the underlying buffer.
// VIEWS: memsched-measured-peak=0 live-at-end=0 allocs=0 frees=0
// VIEWS-NEXT: memsched-hash result#0 f32 elems=4 fnv1a=0x3cc0809344b0d08a
// VIEWS-NEXT: memsched-hash result#1 f32 elems=6 fnv1a=0x9f3e925b01afab62
// VIEWS-NEXT: memsched-hash arg#0 f32 elems=8 fnv1a=0x060a5ac6cf39eab1
// VIEWS-NEXT: memsched-hash arg#1 f32 elems=6 fnv1a=0x48690fb66485381a
func.func @views(%a: memref<8xf32>, %b: memref<2x3xf32>)
    -> (memref<4xf32, strided<[2]>>, memref<3x2xf32, strided<[1, 3]>>) {
  %even = memref.subview %a[0] [4] [2]
      : memref<8xf32> to memref<4xf32, strided<[2]>>
  %bt = memref.transpose %b (i, j) -> (j, i)
      : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  return %even, %bt
      : memref<4xf32, strided<[2]>>, memref<3x2xf32, strided<[1, 3]>>
}

// Tests that the hash is of the bits: -0.0 is not 0.0. FNV-1a of the
// little-endian f32 bytes of 1.0, 2.0, -0.0, 0.5; the empty memref hashes to
// the FNV offset basis. Both results escape: 16 + 0 bytes live at the end.
// CONSTS: memsched-measured-peak=16 live-at-end=16 allocs=2 frees=0
// CONSTS-NEXT: memsched-hash result#0 f32 elems=4 fnv1a=0x941736fcd0e92e35
// CONSTS-NEXT: memsched-hash result#1 f32 elems=0 fnv1a=0xcbf29ce484222325
func.func @consts() -> (memref<4xf32>, memref<0xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %mzero = arith.constant -0.0 : f32
  %half = arith.constant 0.5 : f32
  %r = memref.alloc() : memref<4xf32>
  memref.store %one, %r[%c0] : memref<4xf32>
  memref.store %two, %r[%c1] : memref<4xf32>
  memref.store %mzero, %r[%c2] : memref<4xf32>
  memref.store %half, %r[%c3] : memref<4xf32>
  %empty = memref.alloc() : memref<0xf32>
  return %r, %empty : memref<4xf32>, memref<0xf32>
}
