// A tiled matmul kernel in a gpu.launch that stages 16x16 tiles of both
// operands in workgroup memory allocated in the launch body
// (memref.alloc in memory space #gpu.address_space<workgroup>, never
// freed: what linalg promotion to shared memory emits; they end with the
// kernel), around host allocations of the operands. No upstream pass: the deallocation
// pipeline would not free workgroup buffers.
//
// Upstream pipeline (mlir-opt 22): (none)

// RUN: memsched-opt %s \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// The two 16x16xf32 workgroup tiles (2 x 1024 bytes) end with the kernel:
// the launch's transient workgroup memory. The two 64x64xf32 host copies
// (2 x 16384 bytes) are both read by the kernel.
// REMARK: remark: memsched-schedule: peak 34816 -> 34816 bytes, lower bound 34816 bytes (optimal); memory space default: 32768 -> 32768 bytes, lower bound 32768 bytes (minimised); memory space #gpu.address_space<workgroup>: 2048 -> 2048 bytes, lower bound 2048 bytes
// CERT-LABEL: func.func @tiled_matmul(
// CERT-SAME: #memsched.space<memory_space = #gpu.address_space<workgroup>, peak = 2048, lower_bound = 2048>
// ===== End of expectations. =====

func.func @tiled_matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %da = memref.alloc() : memref<64x64xf32>
  %db = memref.alloc() : memref<64x64xf32>
  memref.copy %a, %da : memref<64x64xf32> to memref<64x64xf32>
  memref.copy %b, %db : memref<64x64xf32> to memref<64x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    %ta = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
    %tb = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
    %row = affine.apply affine_map<(b, t) -> (b * 16 + t)>(%by, %ty)
    %col = affine.apply affine_map<(b, t) -> (b * 16 + t)>(%bx, %tx)
    %sum = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (f32) {
      %ka = arith.addi %k, %tx : index
      %kb = arith.addi %k, %ty : index
      %va = memref.load %da[%row, %ka] : memref<64x64xf32>
      %vb = memref.load %db[%kb, %col] : memref<64x64xf32>
      memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %part = scf.for %kk = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
        %x = memref.load %ta[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %y = memref.load %tb[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %p, %m : f32
        scf.yield %s : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    memref.store %sum, %c[%row, %col] : memref<64x64xf32>
    gpu.terminator
  }
  memref.dealloc %da : memref<64x64xf32>
  memref.dealloc %db : memref<64x64xf32>
  return
}
