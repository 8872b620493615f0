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

// Row bands (test/Transforms/memsched-split-bands.mlir, @stem): the stem
// run by 16 bands of one row of %e, with 10% extra compute allowed (each
// band fills and copies the three rows of %p it needs) and without (the
// rows of %t computed once, %p whole; each band then by 3 bands of
// columns: patches). Bit-identical; measured peak 5392 bytes (%p and %t at
// the 3x3 convolution) -> 1304 (three rows of %p, %e, one row of one
// channel of %t) and 2344 (%p, %e, 6 columns of a row of one channel of
// %t).
// RUN: memsched-opt %s --memsched-test-harness=func=stem --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.stem.orig.out
// RUN: memsched-opt %s "--memsched-split=max-extra-compute=0.1" --memsched-schedule --memsched-verify -o %t.stem.split.mlir
// RUN: memsched-opt %t.stem.split.mlir --memsched-test-harness=func=stem --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.stem.split.out
// RUN: memsched-opt %s --memsched-split --memsched-schedule --memsched-verify -o %t.stem.zero.mlir
// RUN: memsched-opt %t.stem.zero.mlir --memsched-test-harness=func=stem --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.stem.zero.out
// RUN: grep memsched-hash %t.stem.orig.out > %t.stem.orig.hash
// RUN: grep memsched-hash %t.stem.split.out > %t.stem.split.hash
// RUN: grep memsched-hash %t.stem.zero.out > %t.stem.zero.hash
// RUN: diff %t.stem.orig.hash %t.stem.split.hash
// RUN: diff %t.stem.orig.hash %t.stem.zero.hash
// RUN: FileCheck %s --check-prefix=STEM-ORIG < %t.stem.orig.out
// RUN: FileCheck %s --check-prefix=STEM-SPLIT < %t.stem.split.out
// RUN: FileCheck %s --check-prefix=STEM-ZERO < %t.stem.zero.out
// STEM-ORIG: memsched-measured-peak=5392
// STEM-SPLIT: memsched-measured-peak=1304
// STEM-ZERO: memsched-measured-peak=2344
func.func @stem(%x: memref<1x1x16x16xf32>, %w1: memref<4x1x3x3xf32>, %w2: memref<1x4x1x1xf32>, %out: memref<1x1x16x16xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x1x18x18xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x1x18x18xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 1, 16, 16] [1, 1, 1, 1] : memref<1x1x18x18xf32> to memref<1x1x16x16xf32, strided<[324, 324, 18, 1], offset: 19>>
  memref.copy %x, %s : memref<1x1x16x16xf32> to memref<1x1x16x16xf32, strided<[324, 324, 18, 1], offset: 19>>
  %t = memref.alloc() : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x4x16x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w1 : memref<1x1x18x18xf32>, memref<4x1x3x3xf32>) outs(%t : memref<1x4x16x16xf32>)
  memref.dealloc %p : memref<1x1x18x18xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : memref<1x4x16x16xf32>) outs(%t : memref<1x4x16x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<1x1x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%e : memref<1x1x16x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%t, %w2 : memref<1x4x16x16xf32>, memref<1x4x1x1xf32>) outs(%e : memref<1x1x16x16xf32>)
  memref.dealloc %t : memref<1x4x16x16xf32>
  memref.copy %e, %out : memref<1x1x16x16xf32> to memref<1x1x16x16xf32>
  memref.dealloc %e : memref<1x1x16x16xf32>
  return
}

// Patches with a chain by groups in each (test/Transforms/memsched-split-bound.mlir,
// @expand_project): 8 bands of one row, each by 4 bands of two columns,
// each patch's expansion -> ReLU -> projection by groups of one channel.
// Bit-identical; measured peak 12288 bytes (%e and %r at the ReLU, written
// out of place) -> 1064 (%y, a patch of %x, 32 bytes, and one channel of a
// patch of %e, 8).
// RUN: memsched-opt %s --memsched-test-harness=func=expand_project --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.patch.orig.out
// RUN: memsched-opt %s --memsched-split --memsched-schedule --memsched-verify -o %t.patch.split.mlir
// RUN: memsched-opt %t.patch.split.mlir --memsched-test-harness=func=expand_project --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.patch.split.out
// RUN: grep memsched-hash %t.patch.orig.out > %t.patch.orig.hash
// RUN: grep memsched-hash %t.patch.split.out > %t.patch.split.hash
// RUN: diff %t.patch.orig.hash %t.patch.split.hash
// RUN: FileCheck %s --check-prefix=PATCH-ORIG < %t.patch.orig.out
// RUN: FileCheck %s --check-prefix=PATCH-SPLIT < %t.patch.split.out
// PATCH-ORIG: memsched-measured-peak=12288
// PATCH-SPLIT: memsched-measured-peak=1064
func.func @expand_project(%in: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<1x4x8x8xf32>
  memref.copy %in, %x : memref<1x4x8x8xf32> to memref<1x4x8x8xf32>
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  memref.dealloc %x : memref<1x4x8x8xf32>
  %r = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : memref<1x24x8x8xf32>) outs(%r : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %y = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%y : memref<1x4x8x8xf32>)
  memref.dealloc %r : memref<1x24x8x8xf32>
  memref.copy %y, %out : memref<1x4x8x8xf32> to memref<1x4x8x8xf32>
  memref.dealloc %y : memref<1x4x8x8xf32>
  return
}
