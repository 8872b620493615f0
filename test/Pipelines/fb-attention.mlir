// Single-head attention: Q, K, V projections of 16 tokens of width 32,
// scores Q K^T scaled, row-wise softmax, the weighted sum of V and an
// output projection.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline --convert-bufferization-to-memref

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir attention %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 13376 -> 7168 bytes, lower bound 7168 bytes (optimal)
// CERT-LABEL: func.func @attention(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 7168, lower_bound = 7168{{[,>]}}
// EXEC: orig-peak=13888
// EXEC: sched-peak=7424
// EXEC: differential: outputs identical
// ===== End of expectations. =====

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @attention(%x: tensor<16x32xf32>, %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>, %wo: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %scale = arith.constant 0.17677669 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %et = tensor.empty() : tensor<32x16xf32>
  %kt = linalg.transpose ins(%k : tensor<16x32xf32>) outs(%et : tensor<32x16xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<16x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x32xf32>, tensor<32x16xf32>) outs(%fs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %er = tensor.empty() : tensor<16xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.reduce ins(%s : tensor<16x16xf32>) outs(%m0 : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<16x16xf32>, tensor<16xf32>) outs(%es : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %d2 = arith.mulf %d, %scale : f32
      %y = math.exp %d2 : f32
      linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%p : tensor<16x16xf32>) outs(%s0 : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %pn = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %sum : tensor<16x16xf32>, tensor<16xf32>) outs(%es : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.divf %a, %b : f32
      linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %ctx = linalg.matmul ins(%pn, %v : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o = linalg.matmul ins(%ctx, %wo : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %o : tensor<16x32xf32>
}
