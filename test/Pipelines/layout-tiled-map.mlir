// A buffer with a tiled affine-map layout (4x4 tiles, not expressible
// as strides), next to an identity-layout temporary. No upstream pass
// runs: --buffer-deallocation-pipeline fails on this layout
// ('memref.extract_strided_metadata' op operand #0 must be strided), and
// --normalize-memrefs leaves it (linalg ops are not normalizable), so the
// deallocations are written by hand. Not run: the LLVM lowering does
// not take non-strided layouts either.
//
// Upstream pipeline (mlir-opt 22): (none)

// RUN: memsched-opt %s \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: 'tiled_layout' left unchanged: allocation with a layout that is not strided (affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>); give it an identity or strided layout first (--normalize-memrefs does so when every user of the buffer can take the normalized type; linalg ops cannot)
// CERT-LABEL: func.func @tiled_layout(
// CERT-NOT: memsched.certificate
// ===== End of expectations. =====

#tiled = affine_map<(i, j) -> (i floordiv 4, j floordiv 4, i mod 4, j mod 4)>
func.func @tiled_layout(%x: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %t = memref.alloc() : memref<16x16xf32, #tiled>
  linalg.exp ins(%x : memref<16x16xf32>) outs(%t : memref<16x16xf32, #tiled>)
  %u = memref.alloc() : memref<16x16xf32>
  linalg.transpose ins(%t : memref<16x16xf32, #tiled>) outs(%u : memref<16x16xf32>) permutation = [1, 0]
  linalg.add ins(%u, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>)
  memref.dealloc %t : memref<16x16xf32, #tiled>
  memref.dealloc %u : memref<16x16xf32>
  return
}
