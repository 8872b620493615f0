// REQUIRES: mlir-runner
// Pad absorption (--memsched-split) run before and after under mlir-runner
// with the counting allocator: the in-place case of
// test/Transforms/memsched-split-pad.mlir (a convolution and a ReLU6 in
// place on %x, copied into the interior of the zero-filled %p, then a
// depthwise convolution over %p). The outputs are bit-identical; the
// measured peak goes from %x and %p together (1024 + 1600 bytes) to %p
// alone (1600), the certificate's peak of the split body.

// RUN: memsched-opt %s --memsched-test-harness=func=in_place --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: memsched-opt %s --memsched-split --memsched-schedule --memsched-verify -o %t.split.mlir
// RUN: memsched-opt %t.split.mlir --memsched-test-harness=func=in_place --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.split.out
// RUN: grep memsched-hash %t.orig.out > %t.orig.hash
// RUN: grep memsched-hash %t.split.out > %t.split.hash
// RUN: diff %t.orig.hash %t.split.hash
// RUN: FileCheck %s --check-prefix=ORIG < %t.orig.out
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.out
// RUN: FileCheck %s --check-prefix=CERT < %t.split.mlir

// ORIG: memsched-measured-peak=2624
// SPLIT: memsched-measured-peak=1600
// CERT: #memsched.certificate<peak = 1600, lower_bound = 1600
func.func @in_place(%in: memref<1x4x8x8xf32>, %w: memref<4x4x1x1xf32>, %dw: memref<4x3x3xf32>, %out: memref<1x4x8x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %x = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%x : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %w : memref<1x4x8x8xf32>, memref<4x4x1x1xf32>) outs(%x : memref<1x4x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x4x8x8xf32>) outs(%x : memref<1x4x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  %p = memref.alloc() : memref<1x4x10x10xf32>
  linalg.map outs(%p : memref<1x4x10x10xf32>)
    (%init: f32) {
      linalg.yield %cst : f32
    }
  %s = memref.subview %p[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %x, %s : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.dealloc %x : memref<1x4x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %dw : memref<1x4x10x10xf32>, memref<4x3x3xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %p : memref<1x4x10x10xf32>
  return
}
