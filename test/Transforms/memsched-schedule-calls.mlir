// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics

// Tests that a recursive call leaves the function unchanged with a remark.
func.func @recursive(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{memsched-schedule: 'recursive' left unchanged: recursive call}}
  call @recursive(%a) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Tests that calls nested deeper than 64 leave the outermost callers
// unchanged with a remark: @d0 calls @d1 ... calls @d66.
func.func @d0() {
  call @d1() : () -> ()
  return
}

func.func private @d1() {
  call @d2() : () -> ()
  return
}

func.func private @d2() {
  call @d3() : () -> ()
  return
}

func.func private @d3() {
  call @d4() : () -> ()
  return
}

func.func private @d4() {
  call @d5() : () -> ()
  return
}

func.func private @d5() {
  call @d6() : () -> ()
  return
}

func.func private @d6() {
  call @d7() : () -> ()
  return
}

func.func private @d7() {
  call @d8() : () -> ()
  return
}

func.func private @d8() {
  call @d9() : () -> ()
  return
}

func.func private @d9() {
  call @d10() : () -> ()
  return
}

func.func private @d10() {
  call @d11() : () -> ()
  return
}

func.func private @d11() {
  call @d12() : () -> ()
  return
}

func.func private @d12() {
  call @d13() : () -> ()
  return
}

func.func private @d13() {
  call @d14() : () -> ()
  return
}

func.func private @d14() {
  call @d15() : () -> ()
  return
}

func.func private @d15() {
  call @d16() : () -> ()
  return
}

func.func private @d16() {
  call @d17() : () -> ()
  return
}

func.func private @d17() {
  call @d18() : () -> ()
  return
}

func.func private @d18() {
  call @d19() : () -> ()
  return
}

func.func private @d19() {
  call @d20() : () -> ()
  return
}

func.func private @d20() {
  call @d21() : () -> ()
  return
}

func.func private @d21() {
  call @d22() : () -> ()
  return
}

func.func private @d22() {
  call @d23() : () -> ()
  return
}

func.func private @d23() {
  call @d24() : () -> ()
  return
}

func.func private @d24() {
  call @d25() : () -> ()
  return
}

func.func private @d25() {
  call @d26() : () -> ()
  return
}

func.func private @d26() {
  call @d27() : () -> ()
  return
}

func.func private @d27() {
  call @d28() : () -> ()
  return
}

func.func private @d28() {
  call @d29() : () -> ()
  return
}

func.func private @d29() {
  call @d30() : () -> ()
  return
}

func.func private @d30() {
  call @d31() : () -> ()
  return
}

func.func private @d31() {
  call @d32() : () -> ()
  return
}

func.func private @d32() {
  call @d33() : () -> ()
  return
}

func.func private @d33() {
  call @d34() : () -> ()
  return
}

func.func private @d34() {
  call @d35() : () -> ()
  return
}

func.func private @d35() {
  call @d36() : () -> ()
  return
}

func.func private @d36() {
  call @d37() : () -> ()
  return
}

func.func private @d37() {
  call @d38() : () -> ()
  return
}

func.func private @d38() {
  call @d39() : () -> ()
  return
}

func.func private @d39() {
  call @d40() : () -> ()
  return
}

func.func private @d40() {
  call @d41() : () -> ()
  return
}

func.func private @d41() {
  call @d42() : () -> ()
  return
}

func.func private @d42() {
  call @d43() : () -> ()
  return
}

func.func private @d43() {
  call @d44() : () -> ()
  return
}

func.func private @d44() {
  call @d45() : () -> ()
  return
}

func.func private @d45() {
  call @d46() : () -> ()
  return
}

func.func private @d46() {
  call @d47() : () -> ()
  return
}

func.func private @d47() {
  call @d48() : () -> ()
  return
}

func.func private @d48() {
  call @d49() : () -> ()
  return
}

func.func private @d49() {
  call @d50() : () -> ()
  return
}

func.func private @d50() {
  call @d51() : () -> ()
  return
}

func.func private @d51() {
  call @d52() : () -> ()
  return
}

func.func private @d52() {
  call @d53() : () -> ()
  return
}

func.func private @d53() {
  call @d54() : () -> ()
  return
}

func.func private @d54() {
  call @d55() : () -> ()
  return
}

func.func private @d55() {
  call @d56() : () -> ()
  return
}

func.func private @d56() {
  call @d57() : () -> ()
  return
}

func.func private @d57() {
  call @d58() : () -> ()
  return
}

func.func private @d58() {
  call @d59() : () -> ()
  return
}

func.func private @d59() {
  call @d60() : () -> ()
  return
}

func.func private @d60() {
  call @d61() : () -> ()
  return
}

func.func private @d61() {
  call @d62() : () -> ()
  return
}

func.func private @d62() {
  call @d63() : () -> ()
  return
}

func.func private @d63() {
  call @d64() : () -> ()
  return
}

func.func private @d64() {
  call @d65() : () -> ()
  return
}

func.func private @d65() {
  // expected-remark @+1 {{memsched-schedule: 'd0' left unchanged: nesting or call depth above 64}}
  call @d66() : () -> ()
  return
}

func.func private @d66() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  // expected-remark @+1 {{memsched-schedule: 'd1' left unchanged: nesting or call depth above 64}}
  return
}

// -----

// Tests that mutual recursion through callees of one block is named as
// such, on the call that closes the cycle, for each function that reaches
// it (@top calls into the cycle without being on it).
func.func private @ping(%buf: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%buf : memref<16xf32>) outs(%a : memref<16xf32>)
  // expected-remark @+1 {{memsched-schedule: 'pong' left unchanged: recursive call: @pong -> @ping -> @pong (its memory has no bound the analysis can see)}}
  call @pong(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

func.func private @pong(%buf: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%buf : memref<16xf32>) outs(%a : memref<16xf32>)
  // expected-remark @+2 {{memsched-schedule: 'ping' left unchanged: recursive call: @ping -> @pong -> @ping (its memory has no bound the analysis can see)}}
  // expected-remark @+1 {{memsched-schedule: 'top' left unchanged: recursive call: @ping -> @pong -> @ping (its memory has no bound the analysis can see)}}
  call @ping(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

func.func @top(%buf: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.exp ins(%buf : memref<16xf32>) outs(%a : memref<16xf32>)
  call @ping(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
