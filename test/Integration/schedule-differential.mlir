// REQUIRES: mlir-runner
// End to end on the output of the upstream pipeline: the analysis' peak as
// written equals what the counting allocator measures; after
// --memsched-schedule the measured peak equals the certificate's peak and the
// outputs are bit-identical to the original program's.

// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --buffer-deallocation-pipeline --convert-bufferization-to-memref --optimize-allocation-liveness -o %t.memref.mlir
// RUN: memsched-opt %t.memref.mlir --memsched-print-lifetimes=count-alignment-padding -o /dev/null | FileCheck %s --check-prefix=ANALYSIS
// RUN: memsched-opt %t.memref.mlir --memsched-schedule=count-alignment-padding -o %t.sched.mlir
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: memsched-opt %t.memref.mlir --memsched-test-harness=func=branches --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: memsched-opt %t.sched.mlir --memsched-test-harness=func=branches --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O2 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.sched.out
// RUN: FileCheck %s --check-prefix=ORIG < %t.orig.out
// RUN: FileCheck %s --check-prefix=SCHED < %t.sched.out
// RUN: grep memsched-hash %t.orig.out > %t.orig.hash
// RUN: grep memsched-hash %t.sched.out > %t.sched.hash
// RUN: diff %t.orig.hash %t.sched.hash

// Two 64 KiB broadcasts (+ 64 bytes of alignment each) are live together in
// the pipeline's order; the schedule finishes one branch before the other.
// ANALYSIS: peak-as-written=131840
// CERT: memsched.certificate = #memsched.certificate<peak = 66240, lower_bound = 66240
// ORIG: memsched-measured-peak=131840
// ORIG: memsched-hash result#0 f32 elems=64
// SCHED: memsched-measured-peak=66240
// SCHED: memsched-hash result#0 f32 elems=64

func.func @branches(%x: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %t1 = linalg.broadcast ins(%x : tensor<64xf32>) outs(%e : tensor<64x256xf32>) dimensions = [1]
  %t2 = linalg.broadcast ins(%w : tensor<64xf32>) outs(%e : tensor<64x256xf32>) dimensions = [1]
  %i = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%i : tensor<64xf32>) -> tensor<64xf32>
  %r1 = linalg.reduce ins(%t1 : tensor<64x256xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %r2 = linalg.reduce ins(%t2 : tensor<64x256xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.mulf %in, %acc : f32
      %s2 = arith.addf %s, %in : f32
      linalg.yield %s2 : f32
    }
  %o = linalg.add ins(%r1, %r2 : tensor<64xf32>, tensor<64xf32>) outs(%i : tensor<64xf32>) -> tensor<64xf32>
  return %o : tensor<64xf32>
}
