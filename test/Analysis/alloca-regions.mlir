// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes -o /dev/null | FileCheck %s

// memref.alloca ends with the nearest allocation scope around it:
// `scf.for`, `affine.for`, `memref.alloca_scope`, the function. In a region
// without one (an scf.if branch, say) the stack memory outlives the region:
// the op of the body around it allocates it from its run on, once per run
// (a loop that runs such an op again is a scope itself, or refused:
// test/Analysis/unsupported.mlir @alloca_in_while).

// A branch: one piece (64 bytes) from the scf.if on, met by a heap buffer
// after it (64).
// CHECK-LABEL: memsched lifetimes: @branch
// CHECK-NEXT: peak-as-written=128 peak-tight=128
// CHECK-NEXT: buffer#0 scf.if memref<16xf32> size=64 first=scf.if#0 last=scf.if#0 escape=no
func.func @branch(%c: i1, %x: memref<16xf32>, %out: memref<16xf32>) {
  scf.if %c {
    %s = memref.alloca() : memref<16xf32>
    memref.copy %x, %s : memref<16xf32> to memref<16xf32>
    memref.copy %s, %out : memref<16xf32> to memref<16xf32>
  }
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// Branches in branches: both pieces (64 and 32 bytes) from the outer
// scf.if on (both counted: which branch runs is not known), with the
// heap buffer after it (64): 160.
// CHECK-LABEL: memsched lifetimes: @nested_branches
// CHECK-NEXT: peak-as-written=160 peak-tight=160
// CHECK-NEXT: buffer#0 scf.if memref<16xf32> size=64 first=scf.if#0 last=scf.if#0 escape=no
// CHECK-NEXT: buffer#1 scf.if memref<8xf32> size=32 first=scf.if#0 last=scf.if#0 escape=no
func.func @nested_branches(%c: i1, %d: i1, %x: memref<16xf32>, %out: memref<16xf32>) {
  scf.if %c {
    scf.if %d {
      %s = memref.alloca() : memref<16xf32>
      memref.copy %x, %s : memref<16xf32> to memref<16xf32>
      memref.copy %s, %out : memref<16xf32> to memref<16xf32>
    } else {
      %s = memref.alloca() : memref<8xf32>
      %h = memref.subview %x[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
      memref.copy %h, %s : memref<8xf32, strided<[1]>> to memref<8xf32>
    }
  }
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// A branch in a loop: the loop's body is an allocation scope, so the piece
// ends with each iteration; while an iteration runs it stays from the
// scf.if to the iteration's end (64 + the temporary's 64).
// CHECK-LABEL: memsched lifetimes: @branch_in_loop
// CHECK-NEXT: peak-as-written=128 peak-tight=128
// CHECK-NEXT: node scf.for#0 transient=128
func.func @branch_in_loop(%c: i1, %x: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.if %c {
      %s = memref.alloca() : memref<16xf32>
      memref.copy %x, %s : memref<16xf32> to memref<16xf32>
      memref.copy %s, %out : memref<16xf32> to memref<16xf32>
    }
    %t = memref.alloc() : memref<16xf32>
    memref.copy %x, %t : memref<16xf32> to memref<16xf32>
    memref.copy %t, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  return
}

// -----

// A loop is an allocation scope: each iteration's stack buffer (64 bytes)
// ends with it, next to the iteration's heap temporary (64).
// CHECK-LABEL: memsched lifetimes: @loop
// CHECK-NEXT: peak-as-written=128 peak-tight=128
// CHECK-NEXT: node scf.for#0 transient=128
func.func @loop(%x: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %s = memref.alloca() : memref<16xf32>
    memref.copy %x, %s : memref<16xf32> to memref<16xf32>
    %t = memref.alloc() : memref<16xf32>
    memref.copy %s, %t : memref<16xf32> to memref<16xf32>
    memref.copy %t, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  return
}
