// A four-layer MLP in one function (matmul, bias, ReLU per layer, widths
// 64-256-256-64-10). The deallocation pipeline frees every buffer at the
// end of the body.
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
// RUN: %differential %t.memref.mlir deep_mlp %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 39232 -> 24576 bytes, lower bound 24576 bytes (optimal)
// CERT-LABEL: func.func @deep_mlp(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 24576, lower_bound = 24576{{[,>]}}
// EXEC: orig-peak=39744
// EXEC: sched-peak=24768
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @deep_mlp(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x256xf32>, %b2: tensor<256xf32>, %w3: tensor<256x64xf32>, %b3: tensor<64xf32>, %w4: tensor<64x10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x256xf32>) outs(%f1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %bb1 = linalg.broadcast ins(%b1 : tensor<256xf32>) outs(%e1 : tensor<8x256xf32>) dimensions = [0]
  %a1 = linalg.add ins(%m1, %bb1 : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %r1 = linalg.max ins(%a1, %f1 : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %m2 = linalg.matmul ins(%r1, %w2 : tensor<8x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %bb2 = linalg.broadcast ins(%b2 : tensor<256xf32>) outs(%e1 : tensor<8x256xf32>) dimensions = [0]
  %a2 = linalg.add ins(%m2, %bb2 : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %r2 = linalg.max ins(%a2, %f1 : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %e3 = tensor.empty() : tensor<8x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m3 = linalg.matmul ins(%r2, %w3 : tensor<8x256xf32>, tensor<256x64xf32>) outs(%f3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %bb3 = linalg.broadcast ins(%b3 : tensor<64xf32>) outs(%e3 : tensor<8x64xf32>) dimensions = [0]
  %a3 = linalg.add ins(%m3, %bb3 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r3 = linalg.max ins(%a3, %f3 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e4 = tensor.empty() : tensor<8x10xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %m4 = linalg.matmul ins(%r3, %w4 : tensor<8x64xf32>, tensor<64x10xf32>) outs(%f4 : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %m4 : tensor<8x10xf32>
}
