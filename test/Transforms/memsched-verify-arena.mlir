// RUN: memsched-opt %s --split-input-file --memsched-verify --verify-diagnostics -o /dev/null

// Tests that a placement as --memsched-plan-arena writes it verifies: %a at
// [0, 256) and %c at [0, 256) are never used at the same time, %b at
// [256, 384) is used with both.
func.func @valid(%in: memref<64xf32>, %out: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 384, lower_bound = 384, peak_with_arena = 384, arena_size = 384>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %a = memref.view %arena[%c0][] : memref<384xi8> to memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.view %arena[%c256][] : memref<384xi8> to memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  %c = memref.view %arena[%c0][] : memref<384xi8> to memref<64xf32>
  %sc = memref.subview %c[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%b : memref<32xf32>) outs(%sc : memref<32xf32, strided<[1]>>)
  linalg.copy ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that two views sharing bytes while both are in use are reported: %b
// moved to offset 192 overlaps %a, which is still read after %b is written.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'overlap': two views of the arena overlap in bytes ([0, 256) and [192, 320)) and are used at a common time}}
func.func @overlap(%in: memref<64xf32>, %out: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 384, lower_bound = 384, peak_with_arena = 384, arena_size = 384>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  %c0 = arith.constant 0 : index
  %c192 = arith.constant 192 : index
  %a = memref.view %arena[%c0][] : memref<384xi8> to memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  // expected-note @+1 {{the op at fault}}
  %b = memref.view %arena[%c192][] : memref<384xi8> to memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  linalg.copy ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that a conflict with a larger view starting well below is found: %a
// at [0, 256) is read until the end, %m at [256, 288) lies between, and %b
// at [224, 240) shares bytes with %a (not with %m) while %a is in use.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'overlap_below': two views of the arena overlap in bytes ([0, 256) and [224, 240)) and are used at a common time}}
func.func @overlap_below(%in: memref<64xf32>, %out: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 384, lower_bound = 384, peak_with_arena = 384, arena_size = 384>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  %c0 = arith.constant 0 : index
  %c224 = arith.constant 224 : index
  %c256 = arith.constant 256 : index
  %a = memref.view %arena[%c0][] : memref<384xi8> to memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %m = memref.view %arena[%c256][] : memref<384xi8> to memref<8xf32>
  %sa = memref.subview %a[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<8xf32, strided<[1]>>) outs(%m : memref<8xf32>)
  // expected-note @+1 {{the op at fault}}
  %b = memref.view %arena[%c224][] : memref<384xi8> to memref<4xf32>
  %sm = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  linalg.copy ins(%sm : memref<4xf32, strided<[1]>>) outs(%b : memref<4xf32>)
  linalg.copy ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that a view beyond the arena's end is reported.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'beyond': a view of the arena at [256, 512) ends beyond its 384 bytes}}
func.func @beyond(%in: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 384, lower_bound = 384, peak_with_arena = 384, arena_size = 384>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  %c256 = arith.constant 256 : index
  // expected-note @+1 {{the op at fault}}
  %a = memref.view %arena[%c256][] : memref<384xi8> to memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that the recorded memory is recomputed: the arena (384 bytes) and a
// buffer of 64 bytes outside it live at the same time need 448.
// expected-error @+1 {{memsched-verify: stale certificate on 'stale': it records peak_with_arena = 384 bytes but the planned body needs 448 bytes (the IR changed after planning)}}
func.func @stale(%in: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 384, lower_bound = 384, peak_with_arena = 384, arena_size = 384>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<384xi8> to memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %x = memref.alloc() : memref<16xf32>
  %s = memref.subview %a[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%s : memref<16xf32, strided<[1]>>) outs(%x : memref<16xf32>)
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that the arena's size must match the certificate's arena_size.
// expected-error @+1 {{memsched-verify: stale certificate on 'size': it records an arena of 256 bytes but the arena has 384 bytes}}
func.func @size(%in: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 256, lower_bound = 256, peak_with_arena = 384, arena_size = 256>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
  memref.dealloc %arena : memref<384xi8>
  return
}

// -----

// Tests that a certificate with an arena needs a marked arena.
// expected-error @+1 {{memsched-verify: the certificate of 'none' records an arena but it has no value marked memsched.arena}}
func.func @none(%in: memref<64xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 0, lower_bound = 0, peak_with_arena = 0, arena_size = 0>} {
  return
}

// -----

// Tests the certificate's own checks.
// expected-error @+1 {{arena and arena_size go together}}
func.func @half() attributes {memsched.certificate = #memsched.certificate<peak = 0, lower_bound = 0, peak_with_arena = 0>} {
  return
}

// -----

// Tests that an offset the lowering cannot access is reported: the stock
// lowering aligns memref<1xvector<16xf32>> to its 64-byte element and uses
// aligned vector loads and stores; at offset 16 of the arena they fault.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'misaligned': a view of the arena of element type vector<16xf32> at offset 16, not a multiple of the 64 bytes the lowering aligns such elements to}}
func.func @misaligned(%in: memref<1xvector<16xf32>>, %out: memref<1xvector<16xf32>>) attributes {memsched.certificate = #memsched.certificate<peak = 80, lower_bound = 80, peak_with_arena = 128, arena_size = 128>} {
  %arena = memref.alloc() {alignment = 64 : i64, memsched.arena} : memref<128xi8>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<4xf32>
  // expected-note @+1 {{the op at fault}}
  %b = memref.view %arena[%c16][] : memref<128xi8> to memref<1xvector<16xf32>>
  memref.copy %in, %b : memref<1xvector<16xf32>> to memref<1xvector<16xf32>>
  memref.copy %b, %out : memref<1xvector<16xf32>> to memref<1xvector<16xf32>>
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// Tests that an arena aligned below what a view of it needs is reported:
// offset 0 of an arena aligned to 16 bytes is not 64-byte aligned.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'underaligned': a view of the arena of element type vector<16xf32> needs 64-byte alignment but the arena is aligned to 16 bytes}}
func.func @underaligned(%in: memref<1xvector<16xf32>>, %out: memref<1xvector<16xf32>>) attributes {memsched.certificate = #memsched.certificate<peak = 64, lower_bound = 64, peak_with_arena = 64, arena_size = 64>} {
  %arena = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<64xi8>
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the op at fault}}
  %b = memref.view %arena[%c0][] : memref<64xi8> to memref<1xvector<16xf32>>
  memref.copy %in, %b : memref<1xvector<16xf32>> to memref<1xvector<16xf32>>
  memref.copy %b, %out : memref<1xvector<16xf32>> to memref<1xvector<16xf32>>
  memref.dealloc %arena : memref<64xi8>
  return
}
