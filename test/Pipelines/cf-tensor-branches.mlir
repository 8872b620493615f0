// Unstructured control flow on tensors: cf.cond_br to two blocks that
// compute different activations and cf.br to a join block with a tensor
// block argument. One-Shot Bufferize copies across the branches and the
// deallocation pipeline passes ownership flags as block arguments.
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
// RUN: %differential %t.memref.mlir branchy %t | FileCheck %s --check-prefix=EXEC

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// The pipeline frees the entry's two 256xf32 buffers under `%c` and
// `not %c` right before `cf.cond_br %c`: each is freed on the way into the
// arm that does not use it. The then-arm holds the product (live-in), the
// exponential and its copy: 3 x 1024 = 3072 bytes as bufferized; freeing
// the product before the copy: 2048. The join starts with one arm's buffer
// or the other's (never both) and adds the sum: 2048 bytes, as the entry.
// The run takes the else-arm: 2048 bytes + 2 x 64 of padding.
// REMARK: remark: memsched-schedule: peak 3072 -> 2048 bytes, lower bound 2048 bytes (optimal)
// CERT-LABEL: func.func @branchy(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048,
// EXEC: orig-peak=2176
// EXEC: sched-peak=2176
// EXEC: certificate-peak=2176
// EXEC: differential: outputs identical
// ===== End of expectations. =====

func.func @branchy(%c: i1, %x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %sq = linalg.mul ins(%x, %x : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  cf.cond_br %c, ^a, ^b
^a:
  %t = linalg.exp ins(%sq : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  cf.br ^join(%t : tensor<256xf32>)
^b:
  %u = linalg.abs ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  cf.br ^join(%u : tensor<256xf32>)
^join(%r: tensor<256xf32>):
  %e2 = tensor.empty() : tensor<256xf32>
  %s = linalg.add ins(%r, %x : tensor<256xf32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  return %s : tensor<256xf32>
}
