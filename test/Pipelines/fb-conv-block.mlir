// A conv block: zero padding (tensor.pad), 3x3 convolution (NHWC/HWCF),
// bias, ReLU and 2x2 max pooling, in one function returning a tensor.
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
// RUN: %differential %t.memref.mlir conv_block %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 63632 -> 49152 bytes, lower bound 49152 bytes (optimal)
// CERT-LABEL: func.func @conv_block(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 49152, lower_bound = 49152{{[,>]}}
// EXEC: orig-peak=64016
// EXEC: sched-peak=49344
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @conv_block(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x16x16xf32>) dimensions = [0, 1, 2]
  %a = linalg.add ins(%c, %bb : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %r = linalg.max ins(%a, %f : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x8x8x16xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r, %win : tensor<1x16x16x16xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %pool : tensor<1x8x8x16xf32>
}
