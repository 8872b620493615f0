// RUN: memsched-opt %s --split-input-file --memsched-verify --verify-diagnostics -o /dev/null

// Tests that --memsched-verify checks the expressions over the ranges of a
// body's dynamic sizes (docs/dynamic.md). The body: one temporary of
// 1024*n bytes (256 x n floats), n in [1, 64]; its peak is 1024*n at every
// n and so is the bound (the fill alone holds it).

// The certificate --memsched-schedule writes: accepted.
func.func @fine(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 64 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0">} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// A peak expression equal to the body's at n = 64 (where the numbers are)
// but not below it: 16*n + 64512 is 64528 at n = 1, against 1024.
// expected-error @+1 {{memsched-verify: invalid certificate on 'peak_elsewhere': peak_expr 16*arg0 + 64512 is not the body's peak 1024*arg0 over the ranges at arg0 = 1: 64528 against 1024}}
func.func @peak_elsewhere(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 64 : i64}, peak_expr = "16*arg0 + 64512", lower_bound_expr = "1024*arg0">} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// A bound above what every order needs: 1024*n + 1 exceeds the peak.
// expected-error @+1 {{memsched-verify: invalid certificate on 'bound_too_high': lower_bound_expr 1024*arg0 + 1 is not proved: it is not below what the ops need in every order, 1024*arg0 at arg0 = 1: 1025 against 1024}}
func.func @bound_too_high(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 64 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0 + 1">} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// A name that is no size of the body.
// expected-error @+1 {{memsched-verify: invalid certificate on 'unknown_name': peak_expr: }}
func.func @unknown_name(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 64 : i64}, peak_expr = "1024*batch", lower_bound_expr = "1024*arg0">} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// Recorded at n = 32 while the numbers are those of n = 64: the peak as
// written at n = 32 is 32768 bytes.
// expected-error @+1 {{memsched-verify: stale certificate on 'wrong_point': it records a peak of 65536 bytes but the body as it stands peaks at 32768 bytes}}
func.func @wrong_point(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 32 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0">} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// An arena planned for n in [1, 64] (test/Transforms/memsched-plan-arena-
// dynamic.mlir, @shares) with the second dynamic view moved to offset 8*n:
// it then shares bytes with the first (at [0, 16*n)) while both are used.
// expected-error @+1 {{memsched-verify: invalid arena placement in 'overlap': two views of the arena, at [0, 16*arg0) and [8*arg0, 24*arg0), are used at a common time and are not proved apart at every size}}
func.func @overlap(%arg0: index {memsched.range = array<i64: 1, 64>}, %arg1: memref<?x4xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, bound_kind = "trivial", bound_op = "memref.copy#2", cut = [1, 2], peak_with_arena = 2048, arena_size = 2048, sizes_at = {arg0 = 64 : i64}, peak_expr = "max(256, 32*arg0)", lower_bound_expr = "max(256, 32*arg0)">} {
  %cst = arith.constant 1.000000e+00 : f32
  %c256 = arith.constant 256 : index
  %c32 = arith.constant 32 : index
  %0 = arith.muli %c32, %arg0 : index
  %1 = arith.maxui %c256, %0 : index
  %alloc = memref.alloc(%1) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
  %c0 = arith.constant 0 : index
  %view = memref.view %alloc[%c0][] : memref<?xi8> to memref<64xf32>
  linalg.fill ins(%cst : f32) outs(%view : memref<64xf32>)
  %view_1 = memref.view %alloc[%c0][%arg0] : memref<?xi8> to memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%view_1 : memref<?x4xf32>)
  %c8 = arith.constant 8 : index
  %2 = arith.muli %c8, %arg0 : index
  // expected-note @+1 {{the op at fault}}
  %view_2 = memref.view %alloc[%2][%arg0] : memref<?xi8> to memref<?x4xf32>
  memref.copy %view_1, %view_2 : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %view_2, %arg1 : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %alloc : memref<?xi8>
  return
}

// -----

// The same arena, placed right, with a size function that returns 31*n
// bytes instead of 32*n: wrong above n = 8 (at n = 64: 1984 against 2048).
// expected-error @+1 {{memsched-verify: wrong size function of 'wrong_size': @wrong_size_arena_size returns max(256, 31*arg0) bytes but the arena needs max(256, 32*arg0) (at arg0 = 64: 1984 against 2048)}}
func.func @wrong_size(%arg0: index {memsched.range = array<i64: 1, 64>}, %arg1: memref<?x4xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, bound_kind = "trivial", bound_op = "memref.copy#2", cut = [1, 2], peak_with_arena = 2048, arena_size = 2048, sizes_at = {arg0 = 64 : i64}, peak_expr = "max(256, 32*arg0)", lower_bound_expr = "max(256, 32*arg0)">} {
  %cst = arith.constant 1.000000e+00 : f32
  %c256 = arith.constant 256 : index
  %c32 = arith.constant 32 : index
  %0 = arith.muli %c32, %arg0 : index
  %1 = arith.maxui %c256, %0 : index
  %alloc = memref.alloc(%1) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
  %c0 = arith.constant 0 : index
  %view = memref.view %alloc[%c0][] : memref<?xi8> to memref<64xf32>
  linalg.fill ins(%cst : f32) outs(%view : memref<64xf32>)
  %view_1 = memref.view %alloc[%c0][%arg0] : memref<?xi8> to memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%view_1 : memref<?x4xf32>)
  %c16 = arith.constant 16 : index
  %2 = arith.muli %c16, %arg0 : index
  %view_2 = memref.view %alloc[%2][%arg0] : memref<?xi8> to memref<?x4xf32>
  memref.copy %view_1, %view_2 : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %view_2, %arg1 : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %alloc : memref<?xi8>
  return
}
func.func @wrong_size_arena_size(%arg0: index) -> index {
  %c256 = arith.constant 256 : index
  %c31 = arith.constant 31 : index
  %0 = arith.muli %c31, %arg0 : index
  %1 = arith.maxui %c256, %0 : index
  return %1 : index
}

// -----

// The arena's size tampered to 16*n + 256 (the dynamic views end at 32*n,
// beyond it from n = 17 on).
// expected-error @+1 {{memsched-verify: invalid arena placement in 'too_small': a view of the arena at [16*arg0, 32*arg0) is not within its size 16*arg0 + 256 at arg0 = 64}}
func.func @too_small(%arg0: index {memsched.range = array<i64: 1, 64>}, %arg1: memref<?x4xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, bound_kind = "trivial", bound_op = "memref.copy#2", cut = [1, 2], peak_with_arena = 2048, arena_size = 1280, sizes_at = {arg0 = 64 : i64}, peak_expr = "max(256, 32*arg0)", lower_bound_expr = "max(256, 32*arg0)">} {
  %cst = arith.constant 1.000000e+00 : f32
  %c256 = arith.constant 256 : index
  %c16 = arith.constant 16 : index
  %0 = arith.muli %c16, %arg0 : index
  %1 = arith.addi %c256, %0 : index
  %alloc = memref.alloc(%1) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
  %c0 = arith.constant 0 : index
  %view = memref.view %alloc[%c0][] : memref<?xi8> to memref<64xf32>
  linalg.fill ins(%cst : f32) outs(%view : memref<64xf32>)
  %view_1 = memref.view %alloc[%c0][%arg0] : memref<?xi8> to memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%view_1 : memref<?x4xf32>)
  // expected-note @+1 {{the op at fault}}
  %view_2 = memref.view %alloc[%0][%arg0] : memref<?xi8> to memref<?x4xf32>
  memref.copy %view_1, %view_2 : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %view_2, %arg1 : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %alloc : memref<?xi8>
  return
}

// -----

// A bound at the lower end above what can be proved there: at n = 1 the
// one temporary is 1024 bytes, and so is every order's peak.
// expected-error @+1 {{memsched-verify: invalid certificate on 'low_bound_too_high': lower_bound_low = 2048 bytes but only 1024 bytes can be proved at arg0 = 1}}
func.func @low_bound_too_high(%n: index {memsched.range = array<i64: 1, 64>}, %o: memref<?xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 65536, lower_bound = 65536, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], sizes_at = {arg0 = 64 : i64}, peak_expr = "1024*arg0", lower_bound_expr = "1024*arg0", lower_bound_low = 2048>} {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  return
}

// -----

// Sizes and offsets are index arithmetic, which wraps at 2^64: an arena of
// 2^62 * n + 16 bytes with a view at 2^62 * n (16 bytes and 0 at n = 4
// after wrapping, over the first view) is not read as polynomials (a
// coefficient of 2^62), and the certificate is refused.
// expected-error @+1 {{memsched-verify: cannot check the certificate of 'wraps': its arena's size is not computed from the dynamic sizes its `sizes_at` names}}
func.func @wraps(%arg0: index {memsched.range = array<i64: 1, 4>}) attributes {memsched.certificate = #memsched.certificate<peak = 32, lower_bound = 32, bound_kind = "trivial", bound_op = "memref.copy#0", cut = [0, 1], peak_with_arena = 32, arena_size = 32, sizes_at = {arg0 = 4 : i64}, peak_expr = "32", lower_bound_expr = "32">} {
  %big = arith.constant 4611686018427387904 : index
  %c16 = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %off = arith.muli %arg0, %big : index
  %size = arith.addi %off, %c16 : index
  %alloc = memref.alloc(%size) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
  %a = memref.view %alloc[%c0][] : memref<?xi8> to memref<16xi8>
  %b = memref.view %alloc[%off][] : memref<?xi8> to memref<16xi8>
  memref.copy %a, %b : memref<16xi8> to memref<16xi8>
  memref.dealloc %alloc : memref<?xi8>
  return
}
