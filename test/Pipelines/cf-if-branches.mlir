// The scf.if of scf-if-branches.mlir with --convert-scf-to-cf after
// bufferization: cf.cond_br into two blocks and a join block.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --convert-scf-to-cf

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --convert-scf-to-cf \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir gated %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 41088 -> 36864 bytes, lower bound 36864 bytes (optimal)
// CERT-LABEL: func.func @gated(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 36864, lower_bound = 36864{{[,>]}}
// EXEC: orig-peak=41344
// EXEC: sched-peak=36992
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @gated(%flag: i1, %x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %sq = linalg.mul ins(%x, %x : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = scf.if %flag -> (tensor<32x32xf32>) {
    %m = linalg.matmul ins(%sq, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
    %r = linalg.max ins(%m, %f : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
    scf.yield %r : tensor<32x32xf32>
  } else {
    %t = linalg.transpose ins(%sq : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) permutation = [1, 0]
    scf.yield %t : tensor<32x32xf32>
  }
  %big = tensor.empty() : tensor<32x32x8xf32>
  %bc = linalg.broadcast ins(%y : tensor<32x32xf32>) outs(%big : tensor<32x32x8xf32>) dimensions = [2]
  %er = tensor.empty() : tensor<32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.reduce ins(%bc : tensor<32x32x8xf32>) outs(%z : tensor<32xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s : tensor<32xf32>
}
