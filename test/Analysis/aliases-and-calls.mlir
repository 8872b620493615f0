// RUN: memsched-opt %s --split-input-file --allow-unregistered-dialect --memsched-print-lifetimes=deps -o /dev/null | FileCheck %s

// Which buffers an op touches and which ops are barriers, where the alias
// roots, the capture rules and the callee summaries decide.

// Tests a buffer yielded by an scf.if that also has effects (a node): the
// copy reading the scf.if result touches both buffers it may be, so neither
// is freed before it.
// CHECK-LABEL: memsched lifetimes: @yield_alias
// CHECK-NEXT: peak-as-written=128 peak-tight=128 nodes=3 buffers=2
// CHECK-NEXT: buffer#0 {{.*}} first=scf.if#1 last=memref.copy#2 escape=no
// CHECK-NEXT: buffer#1 {{.*}} first=linalg.fill#0 last=memref.copy#2 escape=no
// CHECK: deps memref.copy#2 <- linalg.fill#0 scf.if#1
func.func @yield_alias(%out: memref<16xf32>, %c: i1) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
  %s = scf.if %c -> memref<16xf32> {
    linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %b : memref<16xf32>
  }
  memref.copy %s, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests a buffer whose address is taken as an integer: it escapes, and the
// external call between its allocation and its deallocation (which may read
// it through that address) keeps it allocated.
// CHECK-LABEL: memsched lifetimes: @captured_address
// CHECK-NEXT: peak-as-written=64 peak-tight=64 nodes=2 buffers=1
// CHECK-NEXT: buffer#0 {{.*}} first=linalg.fill#0 last=func.call#1 escape=captured by memref.extract_aligned_pointer_as_index
func.func private @use_address(index)
func.func @captured_address() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  func.call @use_address(%p) : (index) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests callees whose effects cannot be summarised on their arguments: one
// writes a global, one stores an argument's address, one runs an op without
// a memory-effect interface. Each call is a barrier; a callee that only
// reads and writes its arguments is not.
// CHECK-LABEL: memsched lifetimes: @opaque_callees
// CHECK-NEXT: peak-as-written=0 peak-tight=0 nodes=4 buffers=0
// CHECK-NEXT: node func.call#0 barrier
// CHECK-NEXT: node func.call#1 barrier
// CHECK-NEXT: node func.call#2 barrier
// CHECK-NEXT: peak-tight-at=
memref.global "private" @g : memref<16xf32> = uninitialized
func.func private @writes_global(%a: memref<16xf32>) {
  %m = memref.get_global @g : memref<16xf32>
  memref.copy %a, %m : memref<16xf32> to memref<16xf32>
  return
}
func.func private @stores_address(%a: memref<16xf32>, %slot: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  memref.store %p, %slot[%c0] : memref<1xindex>
  return
}
func.func private @unknown_op(%a: memref<16xf32>) {
  "test.unknown"(%a) : (memref<16xf32>) -> ()
  return
}
func.func private @plain(%a: memref<16xf32>, %b: memref<16xf32>) {
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  return
}
func.func @opaque_callees(%x: memref<16xf32> {llvm.noalias}, %y: memref<16xf32> {llvm.noalias}, %slot: memref<1xindex> {llvm.noalias}) {
  func.call @writes_global(%x) : (memref<16xf32>) -> ()
  func.call @stores_address(%x, %slot) : (memref<16xf32>, memref<1xindex>) -> ()
  func.call @unknown_op(%x) : (memref<16xf32>) -> ()
  func.call @plain(%x, %y) : (memref<16xf32>, memref<16xf32>) -> ()
  return
}

// -----

// Tests that a node keeps every buffer it names as an operand allocated, even
// when it accesses none of it: the callee writes only its second argument, so
// the call has no effect on %a, yet %a is passed to it and must not be freed
// before it (its last toucher is the call, not the copy before it).
// CHECK-LABEL: memsched lifetimes: @operand_not_accessed
// CHECK-NEXT: peak-as-written=1024 peak-tight=1024 nodes=3 buffers=1
// CHECK-NEXT: buffer#0 {{.*}} size=1024 first=linalg.fill#0 last=func.call#2 escape=no
func.func private @writes_second(%a: memref<256xf32>, %out: memref<16xf32>) {
  %cst = arith.constant 2.0 : f32
  linalg.fill ins(%cst : f32) outs(%out : memref<16xf32>)
  return
}
func.func @operand_not_accessed(%out: memref<16xf32>, %out2: memref<16xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<256xf32>)
  %s = memref.subview %a[0] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%s : memref<16xf32, strided<[1]>>) outs(%out2 : memref<16xf32>)
  func.call @writes_second(%a, %out) : (memref<256xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<256xf32>
  return
}

// -----

// Tests calls whose results are views of their arguments: @identity returns
// its first argument, @second_half a subview of its second. Each result
// aliases just that operand, so reading it orders the read after %a's
// writer only (not %b's), and %b's buffer is not live at that read.
// The callees touch no memory: the calls are no barriers and wait for
// nothing; each copy out of a result waits for its call and for the writer
// of the buffer the result is a view of.
// CHECK-LABEL: memsched lifetimes: @returned_arguments
// CHECK: buffer#0 memref.alloc memref<64xf32> size=256 first=memref.copy#0 last=memref.copy#4 escape=no
// CHECK-NEXT: buffer#1 memref.alloc memref<64xf32> size=256 first=memref.copy#1 last=memref.copy#5 escape=no
// CHECK: deps memref.copy#0 <- none
// CHECK-NEXT: deps memref.copy#1 <- none
// CHECK-NEXT: deps func.call#2 <- none
// CHECK-NEXT: deps func.call#3 <- none
// CHECK-NEXT: deps memref.copy#4 <- memref.copy#0 func.call#2{{$}}
// CHECK-NEXT: deps memref.copy#5 <- memref.copy#1 func.call#3{{$}}
func.func private @identity(%x: memref<64xf32>, %y: memref<64xf32>) -> memref<64xf32> {
  return %x : memref<64xf32>
}
func.func private @second_half(%x: memref<64xf32>, %y: memref<64xf32>) -> memref<32xf32, strided<[1], offset: 32>> {
  %v = memref.subview %y[32] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 32>>
  return %v : memref<32xf32, strided<[1], offset: 32>>
}
func.func @returned_arguments(%in: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %half: memref<32xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  memref.copy %in, %b : memref<64xf32> to memref<64xf32>
  %r = call @identity(%a, %in) : (memref<64xf32>, memref<64xf32>) -> memref<64xf32>
  %h = call @second_half(%in, %b) : (memref<64xf32>, memref<64xf32>) -> memref<32xf32, strided<[1], offset: 32>>
  memref.copy %r, %out : memref<64xf32> to memref<64xf32>
  memref.copy %h, %half : memref<32xf32, strided<[1], offset: 32>> to memref<32xf32>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// Tests a call whose result is a global: not a view of an operand, so the
// call stays a barrier with unknown effects and its result may point
// anywhere.
// CHECK-LABEL: memsched lifetimes: @returned_global
// CHECK: escape=passed to func.call, which has unknown effects
// CHECK: node func.call#1 barrier
// CHECK: deps memref.copy#2 <- func.call#1{{$}}
memref.global "private" @g : memref<64xf32> = dense<0.0>
func.func private @global_or_argument(%x: memref<64xf32>) -> memref<64xf32> {
  %g = memref.get_global @g : memref<64xf32>
  return %g : memref<64xf32>
}
func.func @returned_global(%in: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %r = call @global_or_argument(%a) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %a : memref<64xf32>
  return
}
