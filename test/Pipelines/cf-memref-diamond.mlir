// Hand-written memref program with cf.cond_br / cf.br and allocations in
// every block, no deallocations: the deallocation pipeline places them
// (ownership indicators as block arguments, conditional frees).
//
// Upstream pipeline (mlir-opt 22): --buffer-deallocation-pipeline --convert-bufferization-to-memref

// REQUIRES: mlir-runner
// RUN: memsched-opt %s --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Differential run (test/Integration/differential.sh): the upstream output
// and its schedule lowered to LLVM under mlir-runner with the counting
// allocator; peaks in bytes with count-alignment-padding.
// RUN: %differential %t.memref.mlir diamond %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// The pipeline frees %tmp under `%c or not %c` in both arms (always) and
// hands the arm's buffer to ^bb3, which frees it under an ownership flag
// (not decided): ^bb3 starts with the buffer of one arm or the other, never
// both (4096 bytes), plus the 4x1024xf32 broadcast: 20480 bytes.
// REMARK: remark: memsched-schedule: peak 20480 -> 20480 bytes, lower bound 20480 bytes (optimal)
// CERT-LABEL: func.func @diamond(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 20480, lower_bound = 20480,{{.*}} block = 3>
// EXEC: orig-peak=20480
// EXEC: sched-peak=20480
// EXEC: certificate-peak=20480
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @diamond(%c: i1, %x: memref<1024xf32>, %out: memref<1024xf32>) {
  %tmp = memref.alloc() : memref<1024xf32>
  linalg.exp ins(%x : memref<1024xf32>) outs(%tmp : memref<1024xf32>)
  cf.cond_br %c, ^left, ^right
^left:
  %a = memref.alloc() : memref<1024xf32>
  linalg.mul ins(%tmp, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  %a2 = memref.alloc() : memref<1024xf32>
  linalg.abs ins(%x : memref<1024xf32>) outs(%a2 : memref<1024xf32>)
  linalg.add ins(%a, %a2 : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  cf.br ^join(%a : memref<1024xf32>)
^right:
  %b = memref.alloc() : memref<1024xf32>
  linalg.negf ins(%tmp : memref<1024xf32>) outs(%b : memref<1024xf32>)
  cf.br ^join(%b : memref<1024xf32>)
^join(%r: memref<1024xf32>):
  %big = memref.alloc() : memref<4x1024xf32>
  linalg.broadcast ins(%r : memref<1024xf32>) outs(%big : memref<4x1024xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1024xf32>)
  linalg.reduce ins(%big : memref<4x1024xf32>) outs(%out : memref<1024xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
