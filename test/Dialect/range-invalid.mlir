// RUN: memsched-opt %s --split-input-file --verify-diagnostics

// Tests the checks of the `memsched.range` argument attribute
// (docs/dynamic.md).

// expected-error @+1 {{'memsched.range' on argument 0 must be array<i64: lo, hi> with 1 pair(s) (one per dynamic size; hi = -1 for no upper bound)}}
func.func @not_a_pair(%n: index {memsched.range = array<i64: 1, 2, 3>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.range' on argument 0: [8, 4] is not a range (0 <= lo <= hi, or hi = -1 for none)}}
func.func @reversed(%n: index {memsched.range = array<i64: 8, 4>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.range' on argument 0: [-1, 4] is not a range (0 <= lo <= hi, or hi = -1 for none)}}
func.func @negative(%n: index {memsched.range = array<i64: -1, 4>}) {
  return
}

// -----

// One pair per dynamic dimension of a shaped argument.
// expected-error @+1 {{'memsched.range' on argument 0 must be array<i64: lo, hi> with 2 pair(s) (one per dynamic size; hi = -1 for no upper bound)}}
func.func @shaped(%x: memref<?x4x?xf32> {memsched.range = array<i64: 1, 8>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.range' on argument 0 of type 'memref<4xf32>': a shaped argument needs dynamic dimensions}}
func.func @static_shape(%x: memref<4xf32> {memsched.range = array<i64: 1, 8>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.range' on argument 0 of type 'f32': it describes an integer, index or shaped argument}}
func.func @float(%x: f32 {memsched.range = array<i64: 1, 8>}) {
  return
}

// -----

// Well formed: no error.
func.func @fine(%n: index {memsched.range = array<i64: 1, -1>},
                %x: memref<?x4x?xf32> {memsched.range = array<i64: 1, 8, 0, 16>}) {
  return
}

// -----

// `memsched.typical`: one value per dynamic size, each >= 0.
// expected-error @+1 {{'memsched.typical' on argument 0 must be array<i64> with 2 value(s) >= 0 (one per dynamic size)}}
func.func @typical_count(%x: memref<?x4x?xf32> {memsched.typical = array<i64: 8>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.typical' on argument 0 must be array<i64> with 1 value(s) >= 0 (one per dynamic size)}}
func.func @typical_negative(%n: index {memsched.typical = array<i64: -3>}) {
  return
}

// -----

// expected-error @+1 {{'memsched.typical' on argument 0 of type 'f32': it describes an integer, index or shaped argument}}
func.func @typical_float(%x: f32 {memsched.typical = array<i64: 3>}) {
  return
}
