// A hand-tiled elementwise chain: scf.for over row tiles of 8, each tile
// extracted, computed in a temporary (exp, then scaled by the row max of
// a full-size intermediate) and inserted back with insert_slice.
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
// RUN: %differential %t.memref.mlir tiled %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 17408 -> 17408 bytes, lower bound 17408 bytes (optimal)
// CERT-LABEL: func.func @tiled(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 17408, lower_bound = 17408{{[,>]}}
// EXEC: orig-peak=17600
// EXEC: sched-peak=17600
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @tiled(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %e = tensor.empty() : tensor<64x32xf32>
  %sum = linalg.add ins(%x, %y : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %out = tensor.empty() : tensor<64x32xf32>
  %r = scf.for %i = %c0 to %c64 step %c8 iter_args(%acc = %out) -> (tensor<64x32xf32>) {
    %t = tensor.extract_slice %sum[%i, 0] [8, 32] [1, 1] : tensor<64x32xf32> to tensor<8x32xf32>
    %et = tensor.empty() : tensor<8x32xf32>
    %ex = linalg.exp ins(%t : tensor<8x32xf32>) outs(%et : tensor<8x32xf32>) -> tensor<8x32xf32>
    %sq = linalg.mul ins(%ex, %t : tensor<8x32xf32>, tensor<8x32xf32>) outs(%et : tensor<8x32xf32>) -> tensor<8x32xf32>
    %ins = tensor.insert_slice %sq into %acc[%i, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<64x32xf32>
    scf.yield %ins : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}
