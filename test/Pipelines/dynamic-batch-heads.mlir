// A batch of dynamic size B declared in [1, 64] on the tensor argument
// (`memsched.range`, docs/dynamic.md), through upstream bufferization: the
// range stays on the memref argument and every buffer's size is a multiple
// of B (arg0.d0). Two heads multiply the input (B x 128) by their weights
// into B x 1024 floats (4096*B bytes each), then by a second matrix into B x
// 16 (64*B each), and the two are added. As written the deallocations come
// last: 2 * 4096*B + 2 * 64*B = 8320*B. One head after the other: 4096*B +
// 64*B + 64*B = 4224*B, never above at any B (proved), 532480 -> 270336
// bytes at B = 64, certified optimal there; over the range the ops' own
// buffers give 4096*B + 64*B = 4160*B. At B = 1 the same bound as at 64
// (one head's product of 4096*B bytes lives with the other's result and
// its own, in any order) gives 4224 bytes, the peak there
// (`lower_bound_low`).
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref

// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// REMARK: remark: memsched-schedule: over arg0.d0 in [1, 64]: peak as written -> 4224*arg0.d0 bytes, never above the order as written (proved); at arg0.d0 = 64: 532480 -> 270336 bytes; at arg0.d0 = 1: 8320 -> 4224 bytes; certificate at arg0.d0 = 64: lower bound 270336 bytes (optimal); over the ranges: lower bound 4160*arg0.d0 bytes; at arg0.d0 = 1: lower bound 4224 bytes (optimal)
// CERT: #memsched.certificate<peak = 270336, lower_bound = 270336, {{.*}}sizes_at = {arg0.d0 = 64 : i64}, peak_expr = "4224*arg0.d0", lower_bound_expr = "4160*arg0.d0", lower_bound_low = 4224>
func.func @two_heads(%x: tensor<?x128xf32> {memsched.range = array<i64: 1, 64>},
                     %wa: tensor<128x1024xf32>, %wb: tensor<128x1024xf32>,
                     %va: tensor<1024x16xf32>, %vb: tensor<1024x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x128xf32>
  %ea = tensor.empty(%b) : tensor<?x1024xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %pa = linalg.matmul ins(%x, %wa : tensor<?x128xf32>, tensor<128x1024xf32>) outs(%fa : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %eb = tensor.empty(%b) : tensor<?x1024xf32>
  %fb = linalg.fill ins(%zero : f32) outs(%eb : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %pb = linalg.matmul ins(%x, %wb : tensor<?x128xf32>, tensor<128x1024xf32>) outs(%fb : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %er = tensor.empty(%b) : tensor<?x16xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<?x16xf32>) -> tensor<?x16xf32>
  %ra = linalg.matmul ins(%pa, %va : tensor<?x1024xf32>, tensor<1024x16xf32>) outs(%fr : tensor<?x16xf32>) -> tensor<?x16xf32>
  %er2 = tensor.empty(%b) : tensor<?x16xf32>
  %fr2 = linalg.fill ins(%zero : f32) outs(%er2 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %rb = linalg.matmul ins(%pb, %vb : tensor<?x1024xf32>, tensor<1024x16xf32>) outs(%fr2 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %sum = linalg.add ins(%ra, %rb : tensor<?x16xf32>, tensor<?x16xf32>) outs(%ra : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %sum : tensor<?x16xf32>
}
