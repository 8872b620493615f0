// A recurrent scf.while whose every step computes a fresh state
// (bufferized with allow-return-allocs-from-loops): upstream's
// bufferization copies the state into a fresh buffer in the `before`
// region, which is handed to the `after` region or out as the result; the
// `before` region frees the state it got under the ownership flag the
// deallocation pipeline carries (false on entry: the entry state is the
// caller's), and the `after` region computes the next state into buffers
// of its own and frees the copy it got. A temporary computed before the
// loop is only used after it.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref
//
// Figures by hand (16x16xf32 = 1024 bytes). A `before` run holds the state
// it got (1024, the previous `after` run's; the first run's is the argument
// %h0) and its copy (1024): 2048. An `after` run holds the copy it got
// (1024), the matmul's accumulator (1024) and the new state (1024): 3072.
// The loop's result is the last copy (1024). Written, the exp temporary
// (1024) is live across the loop: 4096. Moved after the loop, the loop
// alone peaks at 3072, and after it the result and the temporary need
// 2048; no order is below the loop's own 3072. Measured with the
// allocator's 64 bytes of padding per allocation: 4 x 1088 = 4352 before,
// 3 x 1088 = 3264 after.

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: %differential %t.memref.mlir recurrent_while %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 4096 -> 3072 bytes, lower bound 3072 bytes (optimal)
// CERT-LABEL: func.func @recurrent_while(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 3072, lower_bound = 3072{{[,>]}}
// CERT: scf.while
// CERT: scf.yield
// CERT: linalg.map { math.exp }
// CERT-NEXT: linalg.add
// EXEC: orig-peak=4352
// EXEC: sched-peak=3264
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @recurrent_while(%x: tensor<16x16xf32>, %h0: tensor<16x16xf32>, %w: tensor<16x16xf32>, %out: tensor<16x16xf32> {bufferization.writable = true}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<16x16xf32>
  %p = linalg.map { math.exp } ins(%x : tensor<16x16xf32>) outs(%ep : tensor<16x16xf32>)
  %r:2 = scf.while (%h = %h0, %i = %c0) : (tensor<16x16xf32>, index) -> (tensor<16x16xf32>, index) {
    %more = arith.cmpi slt, %i, %c3 : index
    scf.condition(%more) %h, %i : tensor<16x16xf32>, index
  } do {
  ^bb0(%h1: tensor<16x16xf32>, %i1: index):
    %e = tensor.empty() : tensor<16x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    %m = linalg.matmul ins(%h1, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
    %e2 = tensor.empty() : tensor<16x16xf32>
    %t = linalg.map { math.tanh } ins(%m : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>)
    %i2 = arith.addi %i1, %c1 : index
    scf.yield %t, %i2 : tensor<16x16xf32>, index
  }
  %s = linalg.add ins(%r#0, %p : tensor<16x16xf32>, tensor<16x16xf32>) outs(%out : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}
