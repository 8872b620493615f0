// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: not memsched-opt %s --split-input-file --memsched-schedule=strict -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// Tests that an unsupported function is left unchanged, with a remark naming
// the op and the reason (an error with strict).
// CHECK-LABEL: func.func @unbounded
// CHECK-NEXT: %[[A:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: memref.dealloc %[[B]]
// STRICT: error: memsched-schedule: 'unbounded' left unchanged: dynamic dimension 0 has no constant upper bound
func.func @unbounded(%n: index) {
  // expected-remark @+1 {{memsched-schedule: 'unbounded' left unchanged: dynamic dimension 0 has no constant upper bound}}
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.dealloc %a : memref<?xf32>
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
