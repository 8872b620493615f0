// Allocations with static non-canonical strided layouts: rows padded to
// 32 elements (memref<16x30xf32, strided<[32, 1]>>), a column-major
// buffer (strided<[1, 16]>) and one at an offset (strided<[30, 1],
// offset: 2>), used through static subviews; deallocations placed by the
// upstream pipeline.
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
// REMARK: remark: memsched-schedule: peak 6904 -> 3960 bytes, lower bound 3960 bytes (optimal)
// CERT-LABEL: func.func @padded(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 3960, lower_bound = 3960{{[,>]}}
// ===== End of expectations. =====

func.func @padded(%x: memref<16x30xf32>, %out: memref<16x30xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<16x30xf32, strided<[32, 1]>>
  linalg.exp ins(%x : memref<16x30xf32>) outs(%p : memref<16x30xf32, strided<[32, 1]>>)
  %t = memref.alloc() : memref<30x16xf32, strided<[1, 30]>>
  linalg.transpose ins(%p : memref<16x30xf32, strided<[32, 1]>>) outs(%t : memref<30x16xf32, strided<[1, 30]>>) permutation = [1, 0]
  %o = memref.alloc() : memref<16x30xf32, strided<[30, 1], offset: 2>>
  linalg.transpose ins(%t : memref<30x16xf32, strided<[1, 30]>>) outs(%o : memref<16x30xf32, strided<[30, 1], offset: 2>>) permutation = [1, 0]
  %top = memref.subview %o[0, 0] [8, 30] [1, 1] : memref<16x30xf32, strided<[30, 1], offset: 2>> to memref<8x30xf32, strided<[30, 1], offset: 2>>
  %bot = memref.subview %o[8, 0] [8, 30] [1, 1] : memref<16x30xf32, strided<[30, 1], offset: 2>> to memref<8x30xf32, strided<[30, 1], offset: 242>>
  %q = memref.alloc() : memref<8x30xf32, strided<[32, 1]>>
  linalg.add ins(%top, %bot : memref<8x30xf32, strided<[30, 1], offset: 2>>, memref<8x30xf32, strided<[30, 1], offset: 242>>) outs(%q : memref<8x30xf32, strided<[32, 1]>>)
  %o1 = memref.subview %out[0, 0] [8, 30] [1, 1] : memref<16x30xf32> to memref<8x30xf32, strided<[30, 1]>>
  %o2 = memref.subview %out[8, 0] [8, 30] [1, 1] : memref<16x30xf32> to memref<8x30xf32, strided<[30, 1], offset: 240>>
  linalg.mul ins(%q, %top : memref<8x30xf32, strided<[32, 1]>>, memref<8x30xf32, strided<[30, 1], offset: 2>>) outs(%o1 : memref<8x30xf32, strided<[30, 1]>>)
  linalg.sub ins(%q, %bot : memref<8x30xf32, strided<[32, 1]>>, memref<8x30xf32, strided<[30, 1], offset: 242>>) outs(%o2 : memref<8x30xf32, strided<[30, 1], offset: 240>>)
  return
}
