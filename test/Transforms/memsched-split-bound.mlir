// RUN: memsched-opt %s --memsched-split=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: rm -rf %t && memsched-opt %s "--memsched-split=report-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t/expand_project.split.json

// The bound over every split into channel groups. %x (1x4x8x8 f32, 1024
// bytes, a copy of the argument) is expanded by a 1x1 convolution to 24
// channels in %e (6144 bytes), rectified into %r (as written the
// rectifier holds both: 12288 bytes; the pass runs it in place), and
// projected back to 4 channels in %y (1024 bytes), which is copied out.
// Unsplit, the expansion then holds %x and %e, the projection %e and %y:
// 7168 bytes. By groups of one
// channel, the loop holds %x (read by every group), %y (accumulated by
// every group) and one channel of %e (256 bytes): 2304 bytes.
//
// No split goes lower: when the last group to expand runs, it reads %x
// and writes its channel of %e; either some group has projected already
// (%y is live) or the 23 others hold their channel of %e (5888 bytes):
// at least 1024 + 256 + min(1024, 5888) = 2304 bytes. The bound is 2304
// and the split reaches it (gap 0).
// REMARK: remark: memsched-split: 'expand_project': 1 op in place, 1 chain run by channel groups, peak as written 12288 -> 2304 bytes, scheduled 2304 bytes; no split into channel groups peaks below 2304 bytes (gap 0.0%)
// REPORT: "fragment_bound": 2304,
// REPORT-NEXT: "fragment_bound_at": "{{.*}}memsched-split-bound.mlir:{{[0-9]+}}:3",
// REPORT-NEXT: "function": "@expand_project",
// REPORT-NEXT: "gap_to_fragment_bound": 0,
// REPORT: "peak_as_written_after": 2304,
// REPORT-NEXT: "peak_as_written_before": 12288,
// REPORT-NEXT: "peak_scheduled": 2304,
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @expand_project(%in: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<1x4x8x8xf32>
  memref.copy %in, %x : memref<1x4x8x8xf32> to memref<1x4x8x8xf32>
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  memref.dealloc %x : memref<1x4x8x8xf32>
  %r = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : memref<1x24x8x8xf32>) outs(%r : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %y = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%y : memref<1x4x8x8xf32>)
  memref.dealloc %r : memref<1x24x8x8xf32>
  memref.copy %y, %out : memref<1x4x8x8xf32> to memref<1x4x8x8xf32>
  memref.dealloc %y : memref<1x4x8x8xf32>
  return
}
