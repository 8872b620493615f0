// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s

// Calls to functions of the module that return a fresh buffer: the call
// allocates it in the caller. @make copies its argument into a new
// 256-byte buffer and returns it (its own memory while it runs is that
// buffer alone, which the caller counts).

// Tests that a plain memref.dealloc of a call's result frees it: the second
// call moves after the first result is freed (512 -> 256 bytes).
// CHECK-LABEL: func.func @plain_free
// CHECK-SAME: #memsched.certificate<peak = 256, lower_bound = 256
// CHECK-NEXT: %[[R1:.+]] = call @make(%arg0)
// CHECK-NEXT: memref.copy %[[R1]], %arg2
// CHECK-NEXT: memref.dealloc %[[R1]]
// CHECK-NEXT: %[[R2:.+]] = call @make(%arg1)
// CHECK-NEXT: memref.copy %[[R2]], %arg3
// CHECK-NEXT: memref.dealloc %[[R2]]
// CHECK-NEXT: return
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
func.func @plain_free(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  %r2 = call @make(%y) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r1 : memref<64xf32>
  memref.copy %r2, %o2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r2 : memref<64xf32>
  return
}

// -----

// Tests a conditional free whose condition compares the buffer with a view
// of itself: it may not free, so %r1 stays allocated to the end; %r2 is
// made from %o1, after %r1 is copied into it, so both results are live
// together in every order (512 bytes).
// CHECK-LABEL: func.func @compared_with_itself
// CHECK-SAME: #memsched.certificate<peak = 512, lower_bound = 512
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
func.func @compared_with_itself(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  %r2 = call @make(%o1) : (memref<64xf32>) -> memref<64xf32>
  %v = memref.subview %r1[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  %p = memref.extract_aligned_pointer_as_index %r1 : memref<64xf32> -> index
  %q = memref.extract_aligned_pointer_as_index %v : memref<32xf32, strided<[1]>> -> index
  %c = arith.cmpi ne, %p, %q : index
  scf.if %c {
    memref.dealloc %r1 : memref<64xf32>
  }
  memref.copy %r2, %o2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r2 : memref<64xf32>
  return
}

// -----

// Tests a conditional free whose condition compares the buffer with one
// freed before it inside a region (the allocator may have given its address
// to %r1): it may not free, so %r1 stays allocated to the end; %r2 is made
// from %o1, after %r1 is copied into it, so the two coexist: 512 bytes
// (were the free taken, %r1 and the 64-byte %t, then %r2 and %t: 320).
// CHECK-LABEL: func.func @compared_with_freed
// CHECK-SAME: #memsched.certificate<peak = 512, lower_bound = 512
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
func.func @compared_with_freed(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %t = memref.alloc() : memref<16xf32>
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%t : memref<16xf32>)
  %q = memref.extract_aligned_pointer_as_index %t : memref<16xf32> -> index
  scf.execute_region {
    memref.dealloc %t : memref<16xf32>
    scf.yield
  }
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  %p = memref.extract_aligned_pointer_as_index %r1 : memref<64xf32> -> index
  %c = arith.cmpi ne, %p, %q : index
  scf.if %c {
    memref.dealloc %r1 : memref<64xf32>
  }
  %r2 = call @make(%o1) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r2, %o2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r2 : memref<64xf32>
  return
}

// -----

// Tests a conditional free whose condition compares the buffer with one
// freed before it by a memref.dealloc: the comparison uses that buffer's
// address after its free, which the order as written does not allow;
// left unchanged.
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
func.func @compared_after_free(%x: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}) {
  %t = memref.alloc() : memref<64xf32>
  memref.copy %x, %t : memref<64xf32> to memref<64xf32>
  %q = memref.extract_aligned_pointer_as_index %t : memref<64xf32> -> index
  memref.dealloc %t : memref<64xf32>
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  %p = memref.extract_aligned_pointer_as_index %r1 : memref<64xf32> -> index
  %c = arith.cmpi ne, %p, %q : index
  // expected-remark @+1 {{memsched-schedule: 'compared_after_free' left unchanged: uses a buffer (or its address) after its deallocation by memref.dealloc; move the use before the deallocation}}
  scf.if %c {
    memref.dealloc %r1 : memref<64xf32>
  }
  return
}

// -----

// Tests a callee that frees memory it is given: the caller cannot count the
// buffer until a free of its own; left unchanged with a remark on the call.
func.func private @release(%m: memref<64xf32>) {
  memref.dealloc %m : memref<64xf32>
  return
}
func.func @calls_release(%x: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  memref.copy %x, %t : memref<64xf32> to memref<64xf32>
  // expected-remark @+1 {{memsched-schedule: 'calls_release' left unchanged: the callee @release frees memory it is given: memsched counts a buffer until a memref.dealloc of it in this function; free it in the caller, or inline the callee first (--inline)}}
  call @release(%t) : (memref<64xf32>) -> ()
  return
}

// -----

// Tests a callee that also passes the buffer it returns to another function:
// the buffer may be kept elsewhere, so the call is not an allocation memsched
// follows; the caller is left unchanged with a remark on the call.
func.func private @keep(memref<64xf32>)
func.func private @make_and_keep(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  call @keep(%a) : (memref<64xf32>) -> ()
  return %a : memref<64xf32>
}
func.func @calls_make_and_keep(%x: memref<64xf32>, %o: memref<64xf32>) {
  // expected-remark @+1 {{memsched-schedule: 'calls_make_and_keep' left unchanged: the callee @make_and_keep returns a buffer it allocates in a way memsched does not follow}}
  %r = call @make_and_keep(%x) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r, %o : memref<64xf32> to memref<64xf32>
  memref.dealloc %r : memref<64xf32>
  return
}

// -----

// Tests a conditional free whose condition compares the buffer with an
// argument the function freed before: the allocator may have given that
// address to %r1, so the free may not happen and %r1 stays allocated to
// the end; %r2 is made from %o1 after %r1 is copied into it: 512 bytes.
// CHECK-LABEL: func.func @compared_with_freed_argument
// CHECK-SAME: #memsched.certificate<peak = 512, lower_bound = 512
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
func.func @compared_with_freed_argument(%x: memref<64xf32> {llvm.noalias}, %arg: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %q = memref.extract_aligned_pointer_as_index %arg : memref<64xf32> -> index
  memref.dealloc %arg : memref<64xf32>
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  %p = memref.extract_aligned_pointer_as_index %r1 : memref<64xf32> -> index
  %c = arith.cmpi ne, %p, %q : index
  scf.if %c {
    memref.dealloc %r1 : memref<64xf32>
  }
  %r2 = call @make(%o1) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r2, %o2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r2 : memref<64xf32>
  return
}
