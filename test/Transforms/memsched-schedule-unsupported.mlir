// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: not memsched-opt %s --split-input-file --memsched-schedule=strict -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// Tests that an unsupported function is left unchanged, with a remark naming
// the op and the reason (an error with strict): here a loop calls a
// function that allocates a buffer of a size without an upper bound
// (docs/dynamic.md).
// CHECK-LABEL: func.func private @grow
// CHECK-LABEL: func.func @unbounded
// CHECK: scf.for
// CHECK: func.call @grow
// CHECK: %[[B:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.dealloc %[[B]]
// STRICT: error: memsched-schedule: 'unbounded' left unchanged: the memory scf.for allocates inside depends on the dynamic sizes
func.func private @grow(%n: index, %o: memref<?xf32>) {
  %t = memref.alloc(%n) : memref<?xf32>
  memref.copy %o, %t : memref<?xf32> to memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return
}
func.func @unbounded(%n: index, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-remark @+1 {{memsched-schedule: 'unbounded' left unchanged: the memory scf.for allocates inside depends on the dynamic sizes}}
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @grow(%n, %o) : (index, memref<?xf32>) -> ()
  }
  %b = memref.alloc() : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests that a body where an allocation runs again in a loop of blocks while
// the buffer it made before may still be allocated (%a is freed on the way
// out of the loop only) is left unchanged.
// CHECK-LABEL: func.func @realloc_in_loop
// CHECK: cf.cond_br
func.func @realloc_in_loop(%c: i1) {
  cf.br ^bb1
^bb1:
  // expected-remark @+1 {{memsched-schedule: 'realloc_in_loop' left unchanged: allocation that runs again in a loop of blocks while the buffer it allocated before may still be allocated: free the buffer (by a memref.dealloc at the top of a block) before the branch back to ^bb1}}
  %a = memref.alloc() : memref<16xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb2:
  memref.dealloc %a : memref<16xf32>
  return
}
func.func @blocks() {
  %a = memref.alloc() : memref<16xf32>
  cf.br ^bb1
^bb1:
  memref.dealloc %a : memref<16xf32>
  return
}
