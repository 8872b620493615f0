// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-print-lifetimes --verify-diagnostics | FileCheck %s

// Unsupported functions get a remark naming the op and the reason, and the
// IR is printed unchanged.

// Tests a body with several blocks where a deallocation frees a block
// argument that is one of two allocations, depending on the path.
// CHECK-LABEL: func.func @merge
// CHECK: cf.cond_br
func.func @merge(%c: i1) {
  %a = memref.alloc() : memref<16xf32>
  cf.cond_br %c, ^bb1(%a : memref<16xf32>), ^bb2
^bb2:
  memref.dealloc %a : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  cf.br ^bb1(%d : memref<16xf32>)
^bb1(%m: memref<16xf32>):
  // expected-remark @+1 {{memsched: 'merge' is not supported: memref.dealloc of a value that may be one of several buffers (e.g. a block argument that receives different allocations from different predecessors): which one it frees is not known; free each buffer in a block where its value is known}}
  memref.dealloc %m : memref<16xf32>
  return
}
func.func @blocks() {
  %a = memref.alloc() : memref<16xf32>
  cf.br ^bb1
^bb1:
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests a dynamic size without a constant upper bound.
func.func @unbounded(%n: index) {
  // expected-remark @+1 {{memsched: 'unbounded' is not supported: dynamic dimension 0 has no constant upper bound (memref<?xf32>); declare its range (a `memsched.range` attribute on the function argument it comes from, docs/dynamic.md), clamp it with affine.min against a constant, or make it static}}
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Tests a stack allocation in a loop whose body may run again and again
// (scf.while): how much stack it leaves has no bound.
func.func @alloca_in_while(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    // expected-remark @+1 {{memref.alloca in a region without its own allocation scope outlives the region, and scf.while runs it a number of times with no constant bound: wrap the region's ops in memref.alloca_scope, or allocate with memref.alloc and free it in the region}}
    %a = memref.alloca() : memref<16xf32>
    "test.use"(%a) : (memref<16xf32>) -> ()
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// Tests that a stack allocation in a loop body (an allocation scope) is
// transient memory of the loop.
// CHECK-LABEL: memsched lifetimes: @alloca_in_loop
// CHECK-NEXT: peak-as-written=64 peak-tight=64 nodes=1 buffers=0
// CHECK-NEXT: node scf.for#0 transient=64
func.func @alloca_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloca() : memref<16xf32>
    "test.use"(%a) : (memref<16xf32>) -> ()
  }
  return
}

// -----

// Tests an allocation in a loop body that is never freed.
func.func @leak_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @+1 {{allocation in a nested region is not freed in that region: memsched follows a buffer yielded out of a branch when every branch yields an allocation of its own, and out of a loop with the ownership flag --buffer-deallocation-pipeline adds, when nothing else frees or keeps it; otherwise free it in the region it is allocated in (a memref.dealloc of the allocation there), or hoist the allocation out of the region}}
    %a = memref.alloc() : memref<16xf32>
    "test.use"(%a) : (memref<16xf32>) -> ()
  }
  return
}

// -----

// Tests an allocation with a layout that is not strided.
func.func @not_strided_alloc() {
  // expected-remark @+1 {{allocation with a layout that is not strided (affine_map<(d0, d1) -> (d0 floordiv 2, d1)>); give it an identity or strided layout first (--normalize-memrefs does so when every user of the buffer can take the normalized type; linalg ops cannot)}}
  %a = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>
  memref.dealloc %a : memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>
  return
}

// -----

// Tests an allocation with a dynamic stride in its layout.
func.func @dynamic_stride_alloc(%stride: index) {
  // expected-remark @+1 {{allocation with layout strided<[?, 1]> and a dynamic size, stride or offset: its extent is not known; use static strides and sizes or the identity layout}}
  %a = memref.alloc()[%stride] : memref<4x4xf32, strided<[?, 1]>>
  memref.dealloc %a : memref<4x4xf32, strided<[?, 1]>>
  return
}

// -----

// Tests a buffer deallocated twice.
func.func @double_free() {
  %a = memref.alloc() : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  // expected-remark @+1 {{buffer deallocated twice in the block}}
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests a call to a function that returns a view of a buffer it allocates
// (only a fresh buffer returned itself is followed): the remark is on the
// call, not on the callee's allocation.
func.func @make(%x: memref<64xf32>) -> memref<32xf32, strided<[1]>> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %v = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  return %v : memref<32xf32, strided<[1]>>
}
func.func @caller_of_make(%x: memref<64xf32>, %out: memref<32xf32, strided<[1]>>) {
  // expected-remark @+1 {{the callee @make returns a buffer it allocates in a way memsched does not follow (a view of it, a buffer it also frees, captures or passes to a call, or one returned twice): return the allocation itself, or inline the callee first (--inline)}}
  %r = call @make(%x) : (memref<64xf32>) -> memref<32xf32, strided<[1]>>
  memref.copy %r, %out : memref<32xf32, strided<[1]>> to memref<32xf32, strided<[1]>>
  return
}

// -----

// Tests a call to a function that frees its allocation through a view.
func.func @frees_a_view(%x: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %v = memref.cast %a : memref<64xf32> to memref<?xf32>
  memref.dealloc %v : memref<?xf32>
  return
}
func.func @caller_of_frees_a_view(%x: memref<64xf32>) {
  // expected-remark @+1 {{the callee @frees_a_view does not free an allocation in its body (memsched recognises a memref.dealloc of the allocation itself); inline the callee first (--inline)}}
  call @frees_a_view(%x) : (memref<64xf32>) -> ()
  return
}

// -----

// bufferization.clone (what the deallocation pipeline leaves before
// --convert-bufferization-to-memref): the remark names the lowering.
// CHECK-LABEL: func.func @clone
// CHECK: bufferization.clone
func.func @clone(%x: memref<16xf32>) -> memref<16xf32> {
  // expected-remark @+1 {{memsched: 'clone' is not supported: bufferization.clone allocates a buffer and copies into it in one op, which memsched does not follow; lower it to memref.alloc + memref.copy first (--convert-bufferization-to-memref, the last step of the pipeline in docs/user-guide.md)}}
  %c = bufferization.clone %x : memref<16xf32> to memref<16xf32>
  return %c : memref<16xf32>
}

// -----

// memref.realloc of an argument: it would free the caller's memory.
// CHECK-LABEL: func.func @realloc
// CHECK: memref.realloc
func.func @realloc(%x: memref<16xf32>) -> memref<32xf32> {
  // expected-remark @+1 {{memsched: 'realloc' is not supported: memref.realloc of a buffer that is not one allocation of this body (an argument, or a value that may be one of several): allocate the new buffer with memref.alloc, copy into it and free the old one}}
  %b = memref.realloc %x : memref<16xf32> to memref<32xf32>
  return %b : memref<32xf32>
}

// -----

// memref.realloc to a smaller size: the lowering decides whether the old
// buffer stays.
func.func @shrink(%x: memref<16xf32>, %out: memref<8xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  // expected-remark @+1 {{memsched: 'shrink' is not supported: memref.realloc to a smaller or dynamic size: whether it keeps the old buffer (as --expand-realloc lowers it) or makes a new one depends on its lowering; allocate the new buffer with memref.alloc, copy into it and free the old one}}
  %b = memref.realloc %a : memref<16xf32> to memref<8xf32>
  memref.copy %b, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}
