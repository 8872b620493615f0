// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-certify -o /dev/null 2>&1 | FileCheck %s --check-prefix=CERTIFY
// RUN: not memsched-opt %s --split-input-file --memsched-check-budget=bytes=1000000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET

// Tests that a pass placed before bufferization says so instead of
// certifying a peak of 0 bytes, and that the budget gate fails there
// rather than passing every budget.

// CHECK-LABEL: func.func @on_tensors
// CHECK-NOT: memsched.certificate
// CERTIFY: warning: memsched-certify: 'on_tensors' is not bufferized
// BUDGET: error: memsched-check-budget: 'on_tensors' is not bufferized (its ops work on tensors and it allocates no buffer): there is nothing to schedule or check; run memsched after bufferization (one-shot-bufferize, then the deallocation pipeline)
// expected-warning @+1 {{memsched-schedule: 'on_tensors' is not bufferized (its ops work on tensors and it allocates no buffer): there is nothing to schedule or check; run memsched after bufferization (one-shot-bufferize, then the deallocation pipeline)}}
func.func @on_tensors(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// Bufferized, but the deallocation pipeline has not run: nothing is freed.
// The function is still scheduled (its figures are those of a body that
// frees nothing), with a warning.
// CHECK-LABEL: func.func @never_freed
// CHECK-SAME: memsched.certificate
// CERTIFY: warning: memsched-certify: 'never_freed' frees none of the buffers it allocates
// BUDGET: warning: memsched-check-budget: 'never_freed' frees none of the buffers it allocates, so each lives to the end and the peak counts them all; run the deallocation pipeline (ownership-based-buffer-deallocation, buffer-deallocation-simplification, bufferization-lower-deallocations) before memsched
// expected-warning @+1 {{memsched-schedule: 'never_freed' frees none of the buffers it allocates, so each lives to the end and the peak counts them all; run the deallocation pipeline}}
func.func @never_freed(%x: memref<64xf32>, %y: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.copy ins(%a : memref<64xf32>) outs(%y : memref<64xf32>)
  return
}

// -----

// A function that frees nothing because it returns what it allocates is
// where it should be: no warning.
// CHECK-LABEL: func.func @returns_its_buffer
// CHECK-SAME: memsched.certificate
// CERTIFY-NOT: returns_its_buffer
// BUDGET-NOT: returns_its_buffer
func.func @returns_its_buffer(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
  return %a : memref<64xf32>
}
