// RUN: memsched-opt %s --split-input-file --memsched-split | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-split=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file --memsched-split --memsched-schedule --memsched-verify 2>/dev/null | FileCheck %s --check-prefix=CERT

// Tests channel groups on an inverted residual block (MobileNetV2's shape):
// a 1x1 expansion of the 4 channels of %x to 24 (%e, 1x24x8x8 f32, 6144
// bytes), bias + ReLU6 into %e2, a materialised pad into %p (1x24x10x10,
// 9600 bytes), a 3x3 depthwise convolution into %d (6144 bytes) and a 1x1
// projection back to 4 channels into %out. As written the copy holds %e2
// and %p: 15744 bytes. %e dies at the bias + ReLU6, which then writes %e
// in place; absorbed, the pad's interior takes the expansion and the
// bias + ReLU6. Every op runs channel by channel (the projection sums over
// the 24 channels, its outermost reduction), so the chain runs in 24
// groups of one channel with intermediates of 1x1x10x10 (400 bytes) and
// 1x1x8x8 (256 bytes): 656 bytes at most, which no larger group reaches
// (2 channels: 1312).
// REMARK: remark: memsched-split: 7 ops run by 24 groups of 1 channel (of 24): intermediates 15744 -> 656 bytes
// REMARK: remark: memsched-split: 'block': 1 op in place, 1 pad absorbed, 1 chain run by channel groups, peak as written 15744 -> 656 bytes
// CHECK-LABEL: func.func @block
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg5 : memref<1x4x8x8xf32>)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C24:.*]] = arith.constant 24 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[G:.*]] = %[[C0]] to %[[C24]] step %[[C1]] {
// CHECK-NEXT: %[[P:.*]] = memref.alloc() : memref<1x1x10x10xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[P]] : memref<1x1x10x10xf32>)
// CHECK-NEXT: %[[S:.*]] = memref.subview %[[P]][0, 0, 1, 1] [1, 1, 8, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[S]] :
// CHECK-NEXT: %[[W1:.*]] = memref.subview %arg1[%[[G]], 0, 0, 0] [1, 4, 1, 1] [1, 1, 1, 1]
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %[[W1]] : {{.*}}) outs(%[[S]] :
// CHECK-NEXT: %[[B:.*]] = memref.subview %arg2[%[[G]]] [1] [1]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]], %[[B]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = memref.alloc() : memref<1x1x8x8xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[D]] : memref<1x1x8x8xf32>)
// CHECK-NEXT: %[[WD:.*]] = memref.subview %arg3[%[[G]], 0, 0] [1, 3, 3] [1, 1, 1]
// CHECK-NEXT: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%[[P]], %[[WD]] : {{.*}}) outs(%[[D]] : memref<1x1x8x8xf32>)
// CHECK-NEXT: memref.dealloc %[[P]]
// CHECK-NEXT: %[[W2:.*]] = memref.subview %arg4[0, %[[G]], 0, 0] [4, 1, 1, 1] [1, 1, 1, 1]
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[D]], %[[W2]] : {{.*}}) outs(%arg5 : memref<1x4x8x8xf32>)
// CHECK-NEXT: memref.dealloc %[[D]]
// CHECK-NEXT: }
// CHECK-NEXT: return
// CERT-LABEL: func.func @block
// CERT-SAME: #memsched.certificate<peak = 656, lower_bound = 656
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @block(%x: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %b1: memref<24xf32>, %wd: memref<24x3x3xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32> {llvm.noalias}) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  %e2 = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %b1 : memref<1x24x8x8xf32>, memref<24xf32>) outs(%e2 : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %p = memref.alloc() : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%p : memref<1x24x10x10xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.copy %e2, %s : memref<1x24x8x8xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.dealloc %e2 : memref<1x24x8x8xf32>
  %d = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<1x24x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %wd : memref<1x24x10x10xf32>, memref<24x3x3xf32>) outs(%d : memref<1x24x8x8xf32>)
  memref.dealloc %p : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %d : memref<1x24x8x8xf32>
  return
}

// -----

// The same block writing %out without `llvm.noalias`: %out may be %x or a
// weight, which a later group would read after earlier groups wrote their
// partial sums into it. The chain stops short of the projection: %d
// becomes a buffer the loop writes group by group (6144 bytes, whole), the
// expansion (in place, in the pad's interior) runs by groups of the padded
// buffer (400 bytes): 6544 bytes.
// REMARK: remark: memsched-split: channel chain left as it is: it writes a buffer that other operands may alias (an argument without `llvm.noalias`) or whose address escapes
// REMARK: remark: memsched-split: 5 ops run by 24 groups of 1 channel (of 24): intermediates 9600 -> 400 bytes
// REMARK: remark: memsched-split: 'aliased_output': 1 op in place, 1 pad absorbed, 1 chain run by channel groups, peak as written 15744 -> 6544 bytes
// CHECK-LABEL: func.func @aliased_output
// CHECK: %[[D:.*]] = memref.alloc() : memref<1x24x8x8xf32>
// CHECK: scf.for
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: linalg.fill {{.*}} outs(%arg5 :
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[D]], %arg4 : {{.*}}) outs(%arg5 :
// CHECK-NEXT: memref.dealloc %[[D]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @aliased_output(%x: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %b1: memref<24xf32>, %wd: memref<24x3x3xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  %e2 = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %b1 : memref<1x24x8x8xf32>, memref<24xf32>) outs(%e2 : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  %p = memref.alloc() : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%p : memref<1x24x10x10xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.copy %e2, %s : memref<1x24x8x8xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.dealloc %e2 : memref<1x24x8x8xf32>
  %d = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<1x24x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %wd : memref<1x24x10x10xf32>, memref<24x3x3xf32>) outs(%d : memref<1x24x8x8xf32>)
  memref.dealloc %p : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %d : memref<1x24x8x8xf32>
  return
}

// -----

// A call between the chain's ops, whose effects are not known: the ops
// before it cannot move after it. The chain breaks at the padded buffer
// %p (9600 bytes, whole), which the expansion and the bias + ReLU6 write
// before the call (in place, in its interior); after it, a loop reads it
// group by group (with one channel of %d: 256 bytes).
// REMARK: remark: memsched-split: channel chain left as it is: its ops would move past func.call, whose effects are not known
// REMARK: remark: memsched-split: 3 ops run by 24 groups of 1 channel (of 24): intermediates 6144 -> 256 bytes
// REMARK: remark: memsched-split: 'call_between': 1 op in place, 1 pad absorbed, 1 chain run by channel groups, peak as written 15744 -> 9856 bytes
// CHECK-LABEL: func.func @call_between
// CHECK: %[[P:.*]] = memref.alloc() : memref<1x24x10x10xf32>
// CHECK-NOT: scf.for
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: call @observe(%arg0)
// CHECK-NEXT: linalg.fill {{.*}} outs(%arg5 :
// CHECK: scf.for
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[P]]
// CHECK-NEXT: return
func.func private @observe(memref<1x4x8x8xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @call_between(%x: memref<1x4x8x8xf32>, %w1: memref<24x4x1x1xf32>, %b1: memref<24xf32>, %wd: memref<24x3x3xf32>, %w2: memref<4x24x1x1xf32>, %out: memref<1x4x8x8xf32> {llvm.noalias}) {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<1x24x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : memref<1x4x8x8xf32>, memref<24x4x1x1xf32>) outs(%e : memref<1x24x8x8xf32>)
  %e2 = memref.alloc() : memref<1x24x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %b1 : memref<1x24x8x8xf32>, memref<24xf32>) outs(%e2 : memref<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    %m = arith.minimumf %r, %six : f32
    linalg.yield %m : f32
  }
  memref.dealloc %e : memref<1x24x8x8xf32>
  func.call @observe(%x) : (memref<1x4x8x8xf32>) -> ()
  %p = memref.alloc() : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%p : memref<1x24x10x10xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.copy %e2, %s : memref<1x24x8x8xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  memref.dealloc %e2 : memref<1x24x8x8xf32>
  %d = memref.alloc() : memref<1x24x8x8xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<1x24x8x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %wd : memref<1x24x10x10xf32>, memref<24x3x3xf32>) outs(%d : memref<1x24x8x8xf32>)
  memref.dealloc %p : memref<1x24x10x10xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w2 : memref<1x24x8x8xf32>, memref<4x24x1x1xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %d : memref<1x24x8x8xf32>
  return
}

// -----

// %m = arith.select %c, %a, %b may be %a, which the chain's first op reads:
// the fill of %m between the chain's ops writes it. The chain's ops would
// move past the fill (the first one would read %a after it): left as it
// is (without the check the output changes).
// REMARK: remark: memsched-split: channel chain left as it is: its ops would move past linalg.fill, which uses a buffer they use
// CHECK-LABEL: func.func @select_between
// CHECK-NOT: scf.for
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @select_between(%x: memref<8x8xf32> {llvm.noalias}, %o: memref<8x8xf32> {llvm.noalias}, %c: i1) {
  %a = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  %b = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%x : memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  %m = arith.select %c, %a, %b : memref<8x8xf32>
  %t = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%m : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  memref.dealloc %t : memref<8x8xf32>
  memref.dealloc %a : memref<8x8xf32>
  memref.dealloc %b : memref<8x8xf32>
  return
}
