// RUN: memsched-opt %s \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN:   --memsched-pipeline \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | FileCheck %s

// memsched-pipeline's place in a full lowering, from linalg on tensors to the
// LLVM dialect: after bufferization and deallocation placement, before
// finalize-memref-to-llvm. The first branch's 64 KiB broadcast is freed
// before the second is allocated; the certificate stays on the function.

// CHECK-LABEL: llvm.func @branches
// CHECK-SAME: memsched.certificate = #memsched.certificate<peak = 66048, lower_bound = 66048
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
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
      linalg.yield %s : f32
    }
  %o = linalg.add ins(%r1, %r2 : tensor<64xf32>, tensor<64xf32>) outs(%i : tensor<64xf32>) -> tensor<64xf32>
  return %o : tensor<64xf32>
}
