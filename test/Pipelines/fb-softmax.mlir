// Row-wise softmax of a 32x128 tensor written as linalg.generic and
// linalg.reduce (max, exp of the difference, sum, divide), identity
// layouts at the function boundary.
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
// RUN: %differential %t.memref.mlir softmax %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 32896 -> 32896 bytes, lower bound 32896 bytes (optimal)
// CERT-LABEL: func.func @softmax(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 32896, lower_bound = 32896{{[,>]}}
// EXEC: orig-peak=33088
// EXEC: sched-peak=33088
// EXEC: differential: outputs identical
// ===== End of expectations. =====

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @softmax(%x: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %ninf = arith.constant -3.0e38 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<32xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %m = linalg.reduce ins(%x : tensor<32x128xf32>) outs(%m0 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e2 = tensor.empty() : tensor<32x128xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<32x128xf32>, tensor<32xf32>) outs(%e2 : tensor<32x128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
  } -> tensor<32x128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.reduce ins(%ex : tensor<32x128xf32>) outs(%s0 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e3 = tensor.empty() : tensor<32x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<32x128xf32>, tensor<32xf32>) outs(%e3 : tensor<32x128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.divf %a, %b : f32
      linalg.yield %y : f32
  } -> tensor<32x128xf32>
  return %out : tensor<32x128xf32>
}
