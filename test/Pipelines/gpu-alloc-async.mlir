// The host code of gpu-alloc-sync.mlir made asynchronous by
// --gpu-async-region: gpu.alloc async / gpu.dealloc async chained by
// tokens, one gpu.wait at the end. The device runs the chain in token
// order, whatever the block's order, so memsched certifies the chain's
// peak and moves no device allocation across it: the three buffers are
// allocated before the first free (12288 bytes in
// #gpu.address_space<global>), and that is optimal for these tokens.
// Scheduling before --gpu-async-region gives the chain the order of
// gpu-alloc-sync.mlir (8192 bytes), which the asynchronous program keeps:
// its certificate still holds there.
//
// Upstream pipeline (mlir-opt 22): --gpu-kernel-outlining --gpu-async-region

// RUN: memsched-opt %s --gpu-kernel-outlining --gpu-async-region \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: memsched-opt %s --gpu-kernel-outlining --memsched-schedule --gpu-async-region \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false 2>&1 \
// RUN: | FileCheck %s --check-prefix=FIRST

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 12288 -> 12288 bytes, lower bound 12288 bytes (optimal); memory space #gpu.address_space<global>: 12288 -> 12288 bytes, lower bound 12288 bytes
// CERT-LABEL: func.func @host(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 12288, lower_bound = 12288{{[,>]}}
// CERT-SAME: spaces = [#memsched.space<memory_space = #gpu.address_space<global>, peak = 12288, lower_bound = 12288>]
// FIRST: remark: memsched-schedule: peak 8192 bytes, already certified optimal
// FIRST: func.func @host(
// FIRST-SAME: #memsched.certificate<peak = 8192, lower_bound = 8192{{[,>]}}
// FIRST: gpu.alloc async
// FIRST-NEXT: gpu.memcpy async
// FIRST-NEXT: gpu.alloc async
// FIRST: gpu.launch_func async
// FIRST-NEXT: gpu.dealloc async
// FIRST-NEXT: gpu.alloc async
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
