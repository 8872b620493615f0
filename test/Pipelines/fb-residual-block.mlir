// A residual block: conv, ReLU, conv, add the input, ReLU (3x3
// convolutions with zero padding, 8 channels, 12x12).
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir residual_block %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 30976 -> 20096 bytes, lower bound 20096 bytes (optimal)
// CERT-LABEL: func.func @residual_block(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 20096, lower_bound = 20096{{[,>]}}
// EXEC: orig-peak=31360
// EXEC: sched-peak=20352
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @residual_block(%x: tensor<1x12x12x8xf32>, %w1: tensor<3x3x8x8xf32>, %w2: tensor<3x3x8x8xf32>) -> tensor<1x12x12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p1 = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
  } : tensor<1x12x12x8xf32> to tensor<1x14x14x8xf32>
  %e = tensor.empty() : tensor<1x12x12x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x14x14x8xf32>, tensor<3x3x8x8xf32>) outs(%f : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %r1 = linalg.max ins(%c1, %f : tensor<1x12x12x8xf32>, tensor<1x12x12x8xf32>) outs(%e : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %p2 = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
  } : tensor<1x12x12x8xf32> to tensor<1x14x14x8xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x14x14x8xf32>, tensor<3x3x8x8xf32>) outs(%f : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %s = linalg.add ins(%c2, %x : tensor<1x12x12x8xf32>, tensor<1x12x12x8xf32>) outs(%e : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %r2 = linalg.max ins(%s, %f : tensor<1x12x12x8xf32>, tensor<1x12x12x8xf32>) outs(%e : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  return %r2 : tensor<1x12x12x8xf32>
}
