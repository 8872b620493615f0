// Private callees that update a tensor argument in place and return it:
// bufferized in place, the result equivalent to the argument and dropped
// by --drop-equivalent-buffer-results (it skips public functions; public
// ones keep the result and the deallocation pipeline makes them return a
// fresh copy, the unsupported form of fb-mlp-calls.mlir).
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries" --drop-equivalent-buffer-results --buffer-deallocation-pipeline --convert-bufferization-to-memref

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries" --drop-equivalent-buffer-results --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir model %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 0 -> 0 bytes, lower bound 0 bytes (optimal)
// REMARK: remark: memsched-schedule: peak 0 -> 0 bytes, lower bound 0 bytes (optimal)
// REMARK: remark: memsched-schedule: peak 33024 -> 32768 bytes, lower bound 32768 bytes (optimal)
// CERT-LABEL: func.func private @scale_(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 0, lower_bound = 0{{[,>]}}
// CERT-LABEL: func.func private @row_sums(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 0, lower_bound = 0{{[,>]}}
// CERT-LABEL: func.func @model(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 32768, lower_bound = 32768{{[,>]}}
// EXEC: orig-peak=33216
// EXEC: sched-peak=32896
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func private @scale_(%t: tensor<64x64xf32> {bufferization.writable = true}, %s: f32) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<64x64xf32>) {
    ^bb0(%o: f32):
      %y = arith.mulf %o, %s : f32
      linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func private @row_sums(%t: tensor<64x64xf32>, %acc: tensor<64xf32> {bufferization.writable = true}) -> tensor<64xf32> {
  %r = linalg.reduce ins(%t : tensor<64x64xf32>) outs(%acc : tensor<64xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}

func.func @model(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = call @scale_(%m, %two) : (tensor<64x64xf32>, f32) -> tensor<64x64xf32>
  %t = linalg.transpose ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  %u = linalg.add ins(%t, %s : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %r = call @row_sums(%u, %z) : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
