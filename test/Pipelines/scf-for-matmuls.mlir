// A loop of matmuls: h = tanh(h W + x_t U) over 6 steps (scf.for with a
// tensor iter_arg, x_t an extract_slice of the input sequence), then a
// readout matmul. The new state is written into the iter_arg (destination
// passing), as One-Shot Bufferize requires of scf.for yields.
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
// RUN: %differential %t.memref.mlir recurrent %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 2048 -> 2048 bytes, lower bound 2048 bytes (optimal)
// CERT-LABEL: func.func @recurrent(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048{{[,>]}}
// EXEC: orig-peak=2176
// EXEC: sched-peak=2176
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @recurrent(%xs: tensor<6x8x32xf32>, %h0: tensor<8x32xf32>, %w: tensor<32x32xf32>, %u: tensor<32x32xf32>, %r: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %h = scf.for %t = %c0 to %c6 step %c1 iter_args(%hi = %h0) -> (tensor<8x32xf32>) {
    %x = tensor.extract_slice %xs[%t, 0, 0] [1, 8, 32] [1, 1, 1] : tensor<6x8x32xf32> to tensor<8x32xf32>
    %e = tensor.empty() : tensor<8x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = linalg.matmul ins(%hi, %w : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
    %b = linalg.matmul ins(%x, %u : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
    %s = linalg.add ins(%a, %b : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %n = linalg.tanh ins(%s : tensor<8x32xf32>) outs(%hi : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.yield %n : tensor<8x32xf32>
  }
  %eo = tensor.empty() : tensor<8x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%h, %r : tensor<8x32xf32>, tensor<32x16xf32>) outs(%fo : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
