// RUN: memsched-opt %s --split-input-file --memsched-split | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-split --memsched-schedule --memsched-verify 2>/dev/null | FileCheck %s --check-prefix=CERT

// In place: %a (1x4x8x8 f32, 1024 bytes) dies at the batch norm, which
// writes %b of the same type: it writes %a instead, %b is gone and %a is
// freed where %b was. As written %a and %b are both live at the batch
// norm (2048 bytes); in place 1024. The ReLU reads %b and writes %c: in
// place too.
// CHECK-LABEL: func.func @batch_norm
// CHECK-NEXT: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x8xf32>
// CHECK-NEXT: linalg.copy ins(%arg0 : {{.*}}) outs(%[[A]] :
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]], %arg1 : {{.*}}) outs(%[[A]] :
// CHECK: linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[A]] :
// CHECK: linalg.copy ins(%[[A]] : {{.*}}) outs(%arg2 :
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: return
// CERT-LABEL: func.func @batch_norm
// CERT-SAME: #memsched.certificate<peak = 1024, lower_bound = 1024
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @batch_norm(%x: memref<1x4x8x8xf32>, %s: memref<4xf32>, %out: memref<1x4x8x8xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x8xf32>
  linalg.copy ins(%x : memref<1x4x8x8xf32>) outs(%a : memref<1x4x8x8xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x8xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %s : memref<1x4x8x8xf32>, memref<4xf32>) outs(%b : memref<1x4x8x8xf32>) {
  ^bb0(%in: f32, %sc: f32, %o: f32):
    %m = arith.mulf %in, %sc : f32
    linalg.yield %m : f32
  }
  memref.dealloc %a : memref<1x4x8x8xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<1x4x8x8xf32>) outs(%c : memref<1x4x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %b : memref<1x4x8x8xf32>
  linalg.copy ins(%c : memref<1x4x8x8xf32>) outs(%out : memref<1x4x8x8xf32>)
  memref.dealloc %c : memref<1x4x8x8xf32>
  return
}

// -----

// Not in place: %m = arith.select %c, %a, %b may be %a, and the fill of %m
// after the copy into %t writes it; written in place, the copy's output
// would be that fill's.
// CHECK-LABEL: func.func @select_alias
// CHECK: arith.select
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[T]] :
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @select_alias(%x: memref<8x8xf32> {llvm.noalias}, %o: memref<8x8xf32> {llvm.noalias}, %c: i1) {
  %a = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  %b = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%x : memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  %m = arith.select %c, %a, %b : memref<8x8xf32>
  %t = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%m : memref<8x8xf32>)
  linalg.copy ins(%t : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
  memref.dealloc %t : memref<8x8xf32>
  memref.dealloc %a : memref<8x8xf32>
  memref.dealloc %b : memref<8x8xf32>
  return
}

// -----

// Not in place: %a is read again after the op (through a view made
// before it), the op reads %a transposed (another point's element), the
// op's body reads its output, an input of another type, and an output
// with another alignment (the allocator would count other bytes). (A call
// after each op keeps channel groups away.)
// CHECK-LABEL: func.func @refused
// CHECK: memref.collapse_shape
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[B]] :
// CHECK: %[[C:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[C]] :
// CHECK: %[[D:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[D]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[D]] :
// CHECK: %[[E:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E]] :
// CHECK: %[[G:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[E]] : {{.*}}) outs(%[[G]] :
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func private @tick()
func.func @refused(%x: memref<8x8xf32>, %o: memref<8x8xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  %flat = memref.collapse_shape %a [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  %b = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  memref.copy %flat, %o2 : memref<64xf32> to memref<64xf32>
  func.call @tick() : () -> ()
  memref.dealloc %a : memref<8x8xf32>
  %c = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#tr, #id3], iterator_types = ["parallel", "parallel"]} ins(%b : memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  func.call @tick() : () -> ()
  memref.dealloc %b : memref<8x8xf32>
  %cst0 = arith.constant 0.0 : f32
  %d = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%cst0 : f32) outs(%d : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]} ins(%c : memref<8x8xf32>) outs(%d : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  func.call @tick() : () -> ()
  memref.dealloc %c : memref<8x8xf32>
  %h = memref.alloc() : memref<8x8xf16>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]} ins(%d : memref<8x8xf32>) outs(%h : memref<8x8xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %d : memref<8x8xf32>
  %e = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]} ins(%h : memref<8x8xf16>) outs(%e : memref<8x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  }
  func.call @tick() : () -> ()
  memref.dealloc %h : memref<8x8xf16>
  func.call @tick() : () -> ()
  %g = memref.alloc() {alignment = 64 : i64} : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]} ins(%e : memref<8x8xf32>) outs(%g : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  memref.dealloc %e : memref<8x8xf32>
  linalg.copy ins(%g : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
  memref.dealloc %g : memref<8x8xf32>
  return
}
