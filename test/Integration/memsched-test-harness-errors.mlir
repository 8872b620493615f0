// RUN: memsched-opt %s --split-input-file --verify-diagnostics \
// RUN:   --memsched-test-harness=func=bad -o /dev/null
// RUN: not memsched-opt %s --split-input-file --memsched-test-harness 2>&1 \
// RUN: | FileCheck %s --check-prefix=NOFUNC

// Tests that the function to run must be named.
// NOFUNC: error: memsched-test-harness: missing option func=<name>

// Tests that a dynamic shape is rejected.
// expected-error@+1 {{memsched-test-harness: argument #1 of @bad has type 'memref<?xf32>': dynamic shapes cannot be allocated}}
func.func @bad(%a: memref<4xf32>, %b: memref<?xf32>) {
  return
}

// -----

// Tests that a tensor argument is rejected.
// expected-error@+1 {{memsched-test-harness: argument #0 of @bad has type 'tensor<4xf32>': only statically shaped memrefs and scalars}}
func.func @bad(%a: tensor<4xf32>) {
  return
}

// -----

// Tests that an element type the runtime cannot hash is rejected.
// expected-error@+1 {{argument #0 of @bad has type 'memref<4xcomplex<f32>>': unsupported element type}}
func.func @bad(%a: memref<4xcomplex<f32>>) {
  return
}

// -----

// Tests that a non-default memory space is rejected.
// expected-error@+1 {{argument #0 of @bad has type 'memref<4xf32, 1>': only the default memory space is supported}}
func.func @bad(%a: memref<4xf32, 1>) {
  return
}

// -----

// Tests that a layout an identity buffer cannot be cast to is rejected.
// expected-error@+1 {{argument #0 of @bad has type 'memref<4x4xf32, strided<[1, 4]>>': its layout is not reachable from an identity layout by memref.cast}}
func.func @bad(%a: memref<4x4xf32, strided<[1, 4]>>) {
  return
}

// -----

// Tests that an unsupported result type is rejected.
// expected-error@+1 {{result #0 of @bad has type 'vector<4xf32>': only memrefs in the default memory space and scalars}}
func.func @bad() -> vector<4xf32> {
  %v = arith.constant dense<0.0> : vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// Tests that an existing main is not overwritten.
// expected-error@+1 {{memsched-test-harness: the module already has a symbol named 'main'}}
module {
  func.func @bad() {
    return
  }
  func.func @main() {
    return
  }
}

// -----

// Tests that the function must exist and have a body.
// expected-error@+1 {{memsched-test-harness: no function with a body named @bad}}
module {
  func.func private @bad()
}

// -----

// Tests that a clashing declaration of a runtime function is reported.
module {
  func.func @bad() {
    return
  }
  // expected-error@+1 {{memsched-test-harness: symbol 'memsched_counter_reset' exists with another type; expected '() -> ()'}}
  func.func private @memsched_counter_reset(i32)
}
