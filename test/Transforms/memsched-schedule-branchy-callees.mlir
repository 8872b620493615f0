// RUN: memsched-opt %s --split-input-file --memsched-schedule="remarks certify" --verify-diagnostics | FileCheck %s

// Tests that a call to a callee with several blocks counts the callee's
// memory while it runs: the largest peak of its blocks. @scratch holds its
// 1024xf32 buffer (4096 bytes) in every block and a 512xf32 one (2048
// bytes) in ^bb1 only: 6144 bytes. @caller as written runs the call while
// its 256xf32 buffer (1024 bytes) is allocated: 7168 bytes; the call first,
// 6144 bytes, which the call alone needs.

// expected-remark @+1 {{memsched-schedule: peak 6144 -> 6144 bytes, lower bound 6144 bytes (optimal)}}
func.func private @scratch(%out: memref<16xf32>, %flag: i1) {
  %cst = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%t : memref<1024xf32>)
  cf.cond_br %flag, ^a, ^exit
^a:
  %u = memref.alloc() : memref<512xf32>
  linalg.fill ins(%cst : f32) outs(%u : memref<512xf32>)
  %us = memref.subview %u[0] [16] [1] : memref<512xf32> to memref<16xf32, strided<[1]>>
  %ts = memref.subview %t[16] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%us : memref<16xf32, strided<[1]>>) outs(%ts : memref<16xf32, strided<[1], offset: 16>>)
  memref.dealloc %u : memref<512xf32>
  cf.br ^exit
^exit:
  %s = memref.subview %t[16] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%s : memref<16xf32, strided<[1], offset: 16>>) outs(%out : memref<16xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME: #memsched.certificate<peak = 6144, lower_bound = 6144,
// CHECK-NEXT: call @scratch(
// CHECK-NEXT: memref.alloc() : memref<256xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
// expected-remark @+1 {{memsched-schedule: peak 7168 -> 6144 bytes, lower bound 6144 bytes (optimal)}}
func.func @caller(%o1: memref<16xf32>, %o2: memref<16xf32>, %flag: i1) {
  %cst = arith.constant 2.0 : f32
  %big = memref.alloc() : memref<256xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<256xf32>)
  call @scratch(%o1, %flag) : (memref<16xf32>, i1) -> ()
  %s = memref.subview %big[0] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%s : memref<16xf32, strided<[1]>>) outs(%o2 : memref<16xf32>)
  memref.dealloc %big : memref<256xf32>
  return
}

// -----

// Tests that a callee with several blocks that returns a buffer it
// allocates leaves its caller unchanged with a remark that says what to do
// (the callee itself is scheduled block by block).

// expected-remark @+1 {{memsched-schedule: peak 64 -> 64 bytes, lower bound 64 bytes (optimal)}}
func.func private @make(%flag: i1) -> memref<16xf32> {
  %m = memref.alloc() : memref<16xf32>
  cf.cond_br %flag, ^a, ^b
^a:
  %c1 = arith.constant 1.0 : f32
  linalg.fill ins(%c1 : f32) outs(%m : memref<16xf32>)
  cf.br ^b
^b:
  return %m : memref<16xf32>
}

// CHECK-LABEL: func.func @uses_make(
// CHECK-NOT: memsched.certificate
func.func @uses_make(%out: memref<16xf32>, %flag: i1) {
  // expected-remark @+1 {{memsched-schedule: 'uses_make' left unchanged: the callee @make has several blocks and a buffer it allocates is still allocated when it returns (memsched follows returned buffers of callees with one block only): free it before the return, or inline the callee first (--inline)}}
  %m = call @make(%flag) : (i1) -> memref<16xf32>
  linalg.copy ins(%m : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %m : memref<16xf32>
  return
}

// -----

// Tests that a callee with several blocks that calls back into its caller
// leaves both unchanged with a remark.

func.func private @ping(%out: memref<4xf32>, %flag: i1) {
  cf.cond_br %flag, ^a, ^b
^a:
  // expected-remark @+1 {{memsched-schedule: 'ping' left unchanged: recursive call (through the callee @pong)}}
  call @pong(%out, %flag) : (memref<4xf32>, i1) -> ()
  cf.br ^b
^b:
  return
}

func.func private @pong(%out: memref<4xf32>, %flag: i1) {
  cf.cond_br %flag, ^a, ^b
^a:
  // expected-remark @+1 {{memsched-schedule: 'pong' left unchanged: recursive call (through the callee @ping)}}
  call @ping(%out, %flag) : (memref<4xf32>, i1) -> ()
  cf.br ^b
^b:
  return
}

// -----

// Tests that what memsched cannot analyse in a callee with several blocks
// leaves the caller unchanged with the callee's reason, on the callee's op.

// expected-warning @+1 {{memsched-schedule: 'leaky_loop' frees none of the buffers it allocates, so each lives to the end and the peak counts them all; run the deallocation pipeline}}
func.func private @leaky_loop(%n: index) {
  cf.br ^loop
^loop:
  %m = memref.alloc() : memref<16xf32>
  %c = arith.constant 0 : index
  %more = arith.cmpi slt, %c, %n : index
  // expected-remark @-3 {{memsched-schedule: 'leaky_loop' left unchanged: allocation that runs again in a loop of blocks while the buffer it allocated before may still be allocated}}
  // expected-remark @-4 {{memsched-schedule: 'calls_leaky_loop' left unchanged: in the callee @leaky_loop, whose memory while it runs its caller needs: allocation that runs again in a loop of blocks while the buffer it allocated before may still be allocated}}
  cf.cond_br %more, ^loop, ^done
^done:
  return
}

func.func @calls_leaky_loop(%n: index) {
  call @leaky_loop(%n) : (index) -> ()
  return
}
