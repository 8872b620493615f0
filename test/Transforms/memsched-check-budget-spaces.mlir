// RUN: memsched-opt %s --split-input-file "--memsched-check-budget=space-bytes=1:2048,default:4096" --verify-diagnostics --allow-unregistered-dialect -o /dev/null
// RUN: memsched-opt %s --split-input-file "--memsched-check-budget=space-bytes=#gpu.address_space<workgroup>:0" --allow-unregistered-dialect -o /dev/null
// RUN: not memsched-opt %s --split-input-file "--memsched-check-budget=space-bytes=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADENTRY
// RUN: not memsched-opt %s --split-input-file "--memsched-check-budget=space-bytes=#nothing:8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSPACE

// Budgets per memory space: 2048 bytes of space 1, 4096 of the default
// space (no budget for all together). No workgroup memory is allocated
// anywhere: a budget of 0 bytes for it holds.

// BADENTRY: memsched-check-budget: space-bytes entry '1': expected SPACE:BYTES
// BADSPACE: memsched-check-budget: space-bytes entry '#nothing:8': '#nothing' is not a memory space

// Tests a body within both budgets (3 device buffers of 1024 bytes, two
// live together; 6144 bytes in all, above each budget alone).
func.func @fits(%x: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %h = memref.alloc() : memref<1024xf32>
  %d0 = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %d0 : memref<256xf32> to memref<256xf32, 1>
  %d1 = memref.alloc() : memref<256xf32, 1>
  memref.copy %d0, %d1 : memref<256xf32, 1> to memref<256xf32, 1>
  memref.dealloc %d0 : memref<256xf32, 1>
  %d2 = memref.alloc() : memref<256xf32, 1>
  memref.copy %d1, %d2 : memref<256xf32, 1> to memref<256xf32, 1>
  memref.dealloc %d1 : memref<256xf32, 1>
  memref.copy %d2, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d2 : memref<256xf32, 1>
  "test.use"(%h) : (memref<1024xf32>) -> ()
  memref.dealloc %h : memref<1024xf32>
  return
}

// -----

// Tests a space over its budget that an order of the same ops fits: three
// independent device buffers of 1024 bytes allocated together (3072 bytes),
// one at a time when each copy pair runs in turn.
// expected-error @+1 {{memsched-check-budget: 'device_reorder' peaks at 3072 bytes in memory space 1, above the budget of 2048 bytes; reordering fits: an order of the same ops peaks at 1024 bytes there (--memsched-schedule="memory-space=1" takes it unless it raises another space's peak)}}
func.func @device_reorder(%x: memref<256xf32> {llvm.noalias}, %o0: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}) {
  %d0 = memref.alloc() : memref<256xf32, 1>
  %d1 = memref.alloc() : memref<256xf32, 1>
  %d2 = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %d0 : memref<256xf32> to memref<256xf32, 1>
  memref.copy %x, %d1 : memref<256xf32> to memref<256xf32, 1>
  memref.copy %x, %d2 : memref<256xf32> to memref<256xf32, 1>
  memref.copy %d0, %o0 : memref<256xf32, 1> to memref<256xf32>
  memref.copy %d1, %o1 : memref<256xf32, 1> to memref<256xf32>
  memref.copy %d2, %o2 : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d0 : memref<256xf32, 1>
  memref.dealloc %d1 : memref<256xf32, 1>
  memref.dealloc %d2 : memref<256xf32, 1>
  return
}

// -----

// Tests a space no order fits: the add reads two device buffers and writes
// a third, 3072 bytes of space 1 in every order.
// expected-error @+1 {{memsched-check-budget: 'device_too_small' peaks at 3072 bytes in memory space 1, above the budget of 2048 bytes; no order of these ops fits: every order needs at least 3072 bytes in memory space 1 while linalg.add#2 runs (rematerialisation or tiling is needed)}}
func.func @device_too_small(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32, 1>
  %b = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %b : memref<256xf32> to memref<256xf32, 1>
  %c = memref.alloc() : memref<256xf32, 1>
  // expected-note @+1 {{the op that sets the lower bound of 3072 bytes}}
  linalg.add ins(%a, %b : memref<256xf32, 1>, memref<256xf32, 1>) outs(%c : memref<256xf32, 1>)
  memref.dealloc %a : memref<256xf32, 1>
  memref.dealloc %b : memref<256xf32, 1>
  memref.copy %c, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %c : memref<256xf32, 1>
  return
}
