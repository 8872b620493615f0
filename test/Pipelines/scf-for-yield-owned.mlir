// The recurrent loop of scf-for-yield.mlir (@recurrent_owned) with memsched
// placed inside upstream's deallocation pipeline, before
// --bufferization-lower-deallocations: the frees are bufferization.dealloc
// ops. The one after the loop frees the entry state (condition true) and
// the loop's buffer (under the flag the loop returns) together.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" --ownership-based-buffer-deallocation --canonicalize --buffer-deallocation-simplification --canonicalize
//
// Figures by hand as in scf-for-yield.mlir: 5120 bytes written (entry
// state, temporary, and the loop's 3072), 4096 with the temporary after
// the loop. Measured with 64 bytes of padding per allocation: 5 x 1088 =
// 5440 before, 4 x 1088 = 4352 after.

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" --ownership-based-buffer-deallocation --canonicalize --buffer-deallocation-simplification --canonicalize \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: %differential %t.memref.mlir recurrent_owned %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 5120 -> 4096 bytes, lower bound 4096 bytes (optimal)
// CERT-LABEL: func.func @recurrent_owned(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 4096, lower_bound = 4096{{[,>]}}
// CERT: scf.for
// CERT: bufferization.dealloc ({{.*}}) if (%{{.*}})
// CERT: scf.yield
// CERT: linalg.map { math.exp }
// CERT-NEXT: linalg.add
// CERT: bufferization.dealloc ({{.*}}, {{.*}}) if (%true, %{{.*}}#1)
// EXEC: orig-peak=5440
// EXEC: sched-peak=4352
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @recurrent_owned(%x: tensor<16x16xf32>, %w: tensor<16x16xf32>, %out: tensor<16x16xf32> {bufferization.writable = true}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x16xf32>
  %h1 = linalg.map { math.absf } ins(%x : tensor<16x16xf32>) outs(%e1 : tensor<16x16xf32>)
  %ep = tensor.empty() : tensor<16x16xf32>
  %p = linalg.map { math.exp } ins(%x : tensor<16x16xf32>) outs(%ep : tensor<16x16xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h1) -> tensor<16x16xf32> {
    %e = tensor.empty() : tensor<16x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    %m = linalg.matmul ins(%h, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
    %e2 = tensor.empty() : tensor<16x16xf32>
    %t = linalg.map { math.tanh } ins(%m : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>)
    scf.yield %t : tensor<16x16xf32>
  }
  %s = linalg.add ins(%r, %p : tensor<16x16xf32>, tensor<16x16xf32>) outs(%out : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}
