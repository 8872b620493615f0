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
