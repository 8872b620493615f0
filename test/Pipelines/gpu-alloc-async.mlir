// The host code of gpu-alloc-sync.mlir made asynchronous by
// --gpu-async-region: gpu.alloc async / gpu.dealloc async chained by
// tokens, one gpu.wait at the end. Asynchronous work runs in the order its
// tokens allow, not in the block's, so gpu.alloc async is refused with a
// remark rather than certified (gpu-alloc-sync.mlir: the same buffers,
// 12288 bytes).
//
// Upstream pipeline (mlir-opt 22): --gpu-kernel-outlining --gpu-async-region

// RUN: memsched-opt %s --gpu-kernel-outlining --gpu-async-region \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: 'host' left unchanged: gpu.alloc allocates a buffer memsched cannot size or move (it also returns 1 other result(s), e.g. the token of asynchronous work, which runs in the order its tokens allow, not in the block's); allocate with an op that returns only the memref, e.g. memref.alloc or gpu.alloc without async
// CERT-LABEL: func.func @host(
// CERT-NOT: memsched.certificate
// ===== End of expectations. =====

func.func @host(%in: memref<1024xf32>, %out: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %d_in = gpu.alloc () : memref<1024xf32>
  %d_tmp = gpu.alloc () : memref<1024xf32>
  %d_out = gpu.alloc () : memref<1024xf32>
  gpu.memcpy %d_in, %in : memref<1024xf32>, memref<1024xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) {
    %i = affine.apply affine_map<(b, t) -> (b * 256 + t)>(%bx, %tx)
    %v = memref.load %d_in[%i] : memref<1024xf32>
    memref.store %v, %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c256, %tx : index
    %r1 = arith.subi %r, %c1 : index
    %w = memref.load %tile[%r1] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %w, %d_tmp[%i] : memref<1024xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(b, t) -> (b * 256 + t)>(%bx, %tx)
    %v = memref.load %d_tmp[%i] : memref<1024xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %d_out[%i] : memref<1024xf32>
    gpu.terminator
  }
  gpu.dealloc %d_in : memref<1024xf32>
  gpu.dealloc %d_tmp : memref<1024xf32>
  gpu.memcpy %out, %d_out : memref<1024xf32>, memref<1024xf32>
  gpu.dealloc %d_out : memref<1024xf32>
  return
}
