// A transformer feed-forward block: layer norm (mean, variance), an
// expanding matmul, GELU (tanh form), a contracting matmul and the
// residual add. Upstream's --optimize-allocation-liveness moves every
// dealloc after the last user first.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --optimize-allocation-liveness

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --optimize-allocation-liveness \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir ffn_block %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 10240 -> 10240 bytes, lower bound 10240 bytes (optimal)
// CERT-LABEL: func.func @ffn_block(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 10240, lower_bound = 10240{{[,>]}}
// EXEC: orig-peak=10368
// EXEC: sched-peak=10368
// EXEC: differential: outputs identical
// ===== End of expectations. =====

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @ffn_block(%x: tensor<16x32xf32>, %w1: tensor<32x128xf32>, %w2: tensor<128x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.7978846 : f32
  %er = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e = tensor.empty() : tensor<16x32xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x32xf32>, tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%a: f32, %s: f32, %o: f32):
      %mean = arith.divf %s, %n : f32
      %d = arith.subf %a, %mean : f32
      linalg.yield %d : f32
  } -> tensor<16x32xf32>
  %var = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x32xf32>) outs(%z : tensor<16xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %sq = arith.mulf %a, %a : f32
      %r = arith.addf %sq, %acc : f32
      linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %var : tensor<16x32xf32>, tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%a: f32, %v: f32, %o: f32):
      %vm = arith.divf %v, %n : f32
      %ve = arith.addf %vm, %eps : f32
      %rs = math.rsqrt %ve : f32
      %y = arith.mulf %a, %rs : f32
      linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %eh = tensor.empty() : tensor<16x128xf32>
  %fh = linalg.fill ins(%zero : f32) outs(%eh : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h = linalg.matmul ins(%ln, %w1 : tensor<16x32xf32>, tensor<32x128xf32>) outs(%fh : tensor<16x128xf32>) -> tensor<16x128xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x128xf32>) outs(%eh : tensor<16x128xf32>) {
    ^bb0(%a: f32, %o: f32):
      %a3 = arith.mulf %a, %a : f32
      %a3b = arith.mulf %a3, %a : f32
      %c = arith.constant 0.044715 : f32
      %t0 = arith.mulf %a3b, %c : f32
      %t1 = arith.addf %a, %t0 : f32
      %t2 = arith.mulf %t1, %k : f32
      %t3 = math.tanh %t2 : f32
      %t4 = arith.addf %t3, %one : f32
      %t5 = arith.mulf %a, %t4 : f32
      %t6 = arith.mulf %t5, %half : f32
      linalg.yield %t6 : f32
  } -> tensor<16x128xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o = linalg.matmul ins(%g, %w2 : tensor<16x128xf32>, tensor<128x32xf32>) outs(%fo : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.add ins(%o, %x : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
