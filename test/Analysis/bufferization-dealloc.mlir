// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes=deps -o /dev/null | FileCheck %s

// bufferization.dealloc (before --bufferization-lower-deallocations): a
// node freeing each memref whose condition is constant true and that no
// retained value may be; anything else it may free stays allocated to the
// end of the body.

// Both freed by one op: %a (256 bytes) and %b (64) end at it, so %c (128),
// allocated after it, never meets them.
// CHECK-LABEL: memsched lifetimes: @both
// CHECK-NEXT: peak-as-written=320 peak-tight=320
// CHECK-NEXT: buffer#0 memref.alloc memref<64xf32> size=256 first=linalg.fill#0 last=bufferization.dealloc#3 escape=no
// CHECK-NEXT: buffer#1 memref.alloc memref<16xf32> size=64 first=linalg.fill#1 last=bufferization.dealloc#3 escape=no
// CHECK-NEXT: buffer#2 memref.alloc memref<32xf32> size=128 first=linalg.fill#4 last=bufferization.dealloc#5 escape=no
// CHECK: deps bufferization.dealloc#3 <- linalg.fill#0 linalg.fill#1 memref.copy#2
func.func @both(%out: memref<16xf32>) {
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<16xf32>)
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  bufferization.dealloc (%a, %b : memref<64xf32>, memref<16xf32>) if (%true, %true)
  %c = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32xf32>)
  bufferization.dealloc (%c : memref<32xf32>) if (%true)
  return
}

// -----

// A condition from elsewhere (an argument) may be false: %a stays
// allocated to the end, and %c is allocated next to it.
// CHECK-LABEL: memsched lifetimes: @undecided
// CHECK-NEXT: peak-as-written=384 peak-tight=384
// CHECK-NEXT: buffer#0 memref.alloc memref<64xf32> size=256 first=linalg.fill#0 last=bufferization.dealloc#1 escape=no
func.func @undecided(%cond: i1) {
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  bufferization.dealloc (%a : memref<64xf32>) if (%cond)
  %c = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32xf32>)
  bufferization.dealloc (%c : memref<32xf32>) if (%true)
  return
}

// -----

// A retained value that may be the buffer keeps it (here an arith.select
// of it and an argument): %a stays allocated.
// CHECK-LABEL: memsched lifetimes: @retained
// CHECK-NEXT: peak-as-written=384 peak-tight=384
func.func @retained(%cond: i1, %x: memref<64xf32>) -> memref<64xf32> {
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  %s = arith.select %cond, %a, %x : memref<64xf32>
  %own = bufferization.dealloc (%a : memref<64xf32>) if (%true) retain (%s : memref<64xf32>)
  %c = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32xf32>)
  bufferization.dealloc (%c : memref<32xf32>) if (%true)
  return %s : memref<64xf32>
}
