// Hand-written memref loop in blocks (a header with a back edge, as
// --convert-scf-to-cf emits), a temporary allocated and freed in every
// iteration. No upstream pass runs: the deallocations are written by
// hand, since --buffer-deallocation-pipeline refuses this input
// ("Only structured control-flow loops are supported.").
//
// Upstream pipeline (mlir-opt 22): (none)

// REQUIRES: mlir-runner
// RUN: memsched-opt %s \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir loop %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 10240 -> 8192 bytes, lower bound 8192 bytes (optimal)
// CERT-LABEL: func.func @loop(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 8192, lower_bound = 8192{{[,>]}}
// EXEC: orig-peak=10240
// EXEC: sched-peak=8192
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @loop(%x: memref<512xf32>, %acc: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pre = memref.alloc() : memref<512xf32>
  linalg.exp ins(%x : memref<512xf32>) outs(%pre : memref<512xf32>)
  cf.br ^header(%c0 : index)
^header(%i: index):
  %cond = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %cond, ^body, ^exit
^body:
  %t = memref.alloc() : memref<512xf32>
  linalg.mul ins(%pre, %acc : memref<512xf32>, memref<512xf32>) outs(%t : memref<512xf32>)
  linalg.tanh ins(%t : memref<512xf32>) outs(%acc : memref<512xf32>)
  memref.dealloc %t : memref<512xf32>
  %next = arith.addi %i, %c1 : index
  cf.br ^header(%next : index)
^exit:
  %post = memref.alloc() : memref<2048xf32>
  %v = memref.expand_shape %post [[0, 1]] output_shape [4, 512] : memref<2048xf32> into memref<4x512xf32>
  linalg.broadcast ins(%acc : memref<512xf32>) outs(%v : memref<4x512xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<512xf32>)
  linalg.reduce ins(%v : memref<4x512xf32>) outs(%acc : memref<512xf32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  memref.dealloc %post : memref<2048xf32>
  memref.dealloc %pre : memref<512xf32>
  return
}
