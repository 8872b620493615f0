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

// Tests that a body whose allocated buffers at a block's entry depend on the
// path taken (%a is freed on one way into ^bb2 only) is left unchanged.
// CHECK-LABEL: func.func @freed_on_one_path
// CHECK: cf.cond_br
func.func @freed_on_one_path(%c: i1) {
  // expected-remark @+1 {{memsched-schedule: 'freed_on_one_path' left unchanged: the buffer of this allocation is allocated when ^bb2 is entered from ^bb0 but not allocated on another path into it; memsched schedules blocks whose allocated buffers do not depend on the path taken: free it on every path into ^bb2 or on none}}
  %a = memref.alloc() : memref<16xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  memref.dealloc %a : memref<16xf32>
  cf.br ^bb2
^bb2:
  return
}
func.func @blocks() {
  %a = memref.alloc() : memref<16xf32>
  cf.br ^bb1
^bb1:
  memref.dealloc %a : memref<16xf32>
  return
}
