// An inception-style block: three branches (1x1 conv, 1x1 then 3x3 conv,
// 3x3 max pool then 1x1 conv) concatenated along channels with
// tensor.insert_slice into one result (copies into strided subviews).
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
// RUN: %differential %t.memref.mlir inception %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 28068 -> 12288 bytes, lower bound 12288 bytes (optimal)
// CERT-LABEL: func.func @inception(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 12288, lower_bound = 12288{{[,>]}}
// EXEC: orig-peak=28644
// EXEC: sched-peak=12544
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @inception(%x: tensor<1x8x8x16xf32>, %wa: tensor<1x1x16x8xf32>, %wb1: tensor<1x1x16x8xf32>, %wb2: tensor<3x3x8x8xf32>, %wc: tensor<1x1x16x8xf32>) -> tensor<1x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %a = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %wa : tensor<1x8x8x16xf32>, tensor<1x1x16x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %b1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %wb1 : tensor<1x8x8x16xf32>, tensor<1x1x16x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %pb = tensor.pad %b1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
  %b = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pb, %wb2 : tensor<1x10x10x8xf32>, tensor<3x3x8x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %px = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %ninf : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %ep = tensor.empty() : tensor<1x8x8x16xf32>
  %fp = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%px, %win : tensor<1x10x10x16xf32>, tensor<3x3xf32>) outs(%fp : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pool, %wc : tensor<1x8x8x16xf32>, tensor<1x1x16x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %out = tensor.empty() : tensor<1x8x8x24xf32>
  %o1 = tensor.insert_slice %a into %out[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x8x8x24xf32>
  %o2 = tensor.insert_slice %b into %o1[0, 0, 0, 8] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x8x8x24xf32>
  %o3 = tensor.insert_slice %c into %o2[0, 0, 0, 16] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x8x8x24xf32>
  return %o3 : tensor<1x8x8x24xf32>
}
