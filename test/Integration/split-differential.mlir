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

// Channel groups (test/Transforms/memsched-split-channels.mlir, @block): an
// inverted residual block run in 24 groups of one channel, the projection
// accumulating into %out group after group. Bit-identical under the
// sequential lowering; measured peak 15744 bytes (%e2 and %p at the copy)
// -> 656 (one channel's %p, 400, and %d, 256).
// RUN: memsched-opt %s --memsched-test-harness=func=block --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.block.orig.out
// RUN: memsched-opt %s --memsched-split --memsched-schedule --memsched-verify -o %t.block.split.mlir
// RUN: memsched-opt %t.block.split.mlir --memsched-test-harness=func=block --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.block.split.out
// RUN: grep memsched-hash %t.block.orig.out > %t.block.orig.hash
// RUN: grep memsched-hash %t.block.split.out > %t.block.split.hash
// RUN: diff %t.block.orig.hash %t.block.split.hash
// RUN: FileCheck %s --check-prefix=BLOCK-ORIG < %t.block.orig.out
// RUN: FileCheck %s --check-prefix=BLOCK-SPLIT < %t.block.split.out
// BLOCK-ORIG: memsched-measured-peak=15744
// BLOCK-SPLIT: memsched-measured-peak=656
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @block(%x: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %b1: memref<24xf32>, %wd: memref<24x3x3xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32> {llvm.noalias}) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  %e2 = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %b1 : memref<1x24x8x8xf32>, memref<24xf32>) outs(%e2 : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %p = memref.alloc() : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%p : memref<1x24x10x10xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.copy %e2, %s : memref<1x24x8x8xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.dealloc %e2 : memref<1x24x8x8xf32>
  %d = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<1x24x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %wd : memref<1x24x10x10xf32>, memref<24x3x3xf32>) outs(%d : memref<1x24x8x8xf32>)
  memref.dealloc %p : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %d : memref<1x24x8x8xf32>
  return
}

// The same block with %out not `llvm.noalias` (memsched-split-channels.mlir,
// @aliased_output): the chain stops short of the projection, %d written
// whole group by group: 15744 -> 6544 bytes (%d, 6144, and one channel of
// %p, 400, whose interior the expansion writes in place).
// RUN: memsched-opt %s --memsched-test-harness=func=aliased_output --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.aliased.orig.out
// RUN: memsched-opt %s --memsched-split --memsched-schedule --memsched-verify -o %t.aliased.split.mlir
// RUN: memsched-opt %t.aliased.split.mlir --memsched-test-harness=func=aliased_output --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.aliased.split.out
// RUN: grep memsched-hash %t.aliased.orig.out > %t.aliased.orig.hash
// RUN: grep memsched-hash %t.aliased.split.out > %t.aliased.split.hash
// RUN: diff %t.aliased.orig.hash %t.aliased.split.hash
// RUN: FileCheck %s --check-prefix=ALIASED-ORIG < %t.aliased.orig.out
// RUN: FileCheck %s --check-prefix=ALIASED-SPLIT < %t.aliased.split.out
// ALIASED-ORIG: memsched-measured-peak=15744
// ALIASED-SPLIT: memsched-measured-peak=6544
func.func @aliased_output(%x: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %b1: memref<24xf32>, %wd: memref<24x3x3xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  %e2 = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %b1 : memref<1x24x8x8xf32>, memref<24xf32>) outs(%e2 : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %p = memref.alloc() : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%p : memref<1x24x10x10xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.copy %e2, %s : memref<1x24x8x8xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.dealloc %e2 : memref<1x24x8x8xf32>
  %d = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<1x24x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %wd : memref<1x24x10x10xf32>, memref<24x3x3xf32>) outs(%d : memref<1x24x8x8xf32>)
  memref.dealloc %p : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %d : memref<1x24x8x8xf32>
  return
}
