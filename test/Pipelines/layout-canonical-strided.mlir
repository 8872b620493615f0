// Allocations typed with the explicit canonical layout
// memref<64x4xf32, strided<[4, 1]>> (and strided<[4, 1], offset: 0>), as
// front ends that always spell layouts emit, mixed with identity-layout
// buffers; deallocations placed by the upstream pipeline.
// Not run under mlir-runner: upstream --finalize-memref-to-llvm leaves a
// memref.alloc with a non-identity layout (even strided<[4, 1]>) unlowered.
//
// Upstream pipeline (mlir-opt 22): --buffer-deallocation-pipeline --convert-bufferization-to-memref

// RUN: memsched-opt %s --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 20480 -> 17408 bytes, lower bound 17408 bytes (optimal)
// CERT-LABEL: func.func @gather_mix(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 17408, lower_bound = 17408{{[,>]}}
// ===== End of expectations. =====

func.func @gather_mix(%x: memref<64x4xf32>, %y: memref<64x4xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64x4xf32, strided<[4, 1]>>
  linalg.exp ins(%x : memref<64x4xf32>) outs(%a : memref<64x4xf32, strided<[4, 1]>>)
  %b = memref.alloc() : memref<64x4xf32, strided<[4, 1], offset: 0>>
  linalg.mul ins(%a, %y : memref<64x4xf32, strided<[4, 1]>>, memref<64x4xf32>) outs(%b : memref<64x4xf32, strided<[4, 1], offset: 0>>)
  %c = memref.alloc() : memref<64x4xf32>
  linalg.abs ins(%y : memref<64x4xf32>) outs(%c : memref<64x4xf32>)
  %big = memref.alloc() : memref<64x4x16xf32, strided<[64, 16, 1]>>
  linalg.broadcast ins(%c : memref<64x4xf32>) outs(%big : memref<64x4x16xf32, strided<[64, 16, 1]>>) dimensions = [2]
  %d = memref.alloc() : memref<64x4xf32, strided<[4, 1]>>
  linalg.fill ins(%zero : f32) outs(%d : memref<64x4xf32, strided<[4, 1]>>)
  linalg.reduce ins(%big : memref<64x4x16xf32, strided<[64, 16, 1]>>) outs(%d : memref<64x4xf32, strided<[4, 1]>>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%b, %d : memref<64x4xf32, strided<[4, 1], offset: 0>>, memref<64x4xf32, strided<[4, 1]>>) outs(%b : memref<64x4xf32, strided<[4, 1], offset: 0>>)
  linalg.fill ins(%zero : f32) outs(%out : memref<64xf32>)
  linalg.reduce ins(%b : memref<64x4xf32, strided<[4, 1], offset: 0>>) outs(%out : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
