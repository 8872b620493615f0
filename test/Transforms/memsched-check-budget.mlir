// RUN: memsched-opt %s --split-input-file --memsched-check-budget=bytes=8192 --verify-diagnostics
// RUN: not memsched-opt %s --split-input-file --memsched-check-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBUDGET

// NOBUDGET: memsched-check-budget needs a budget: --memsched-check-budget="bytes=N"

// Tests a function within the budget.
func.func @fits(%x: memref<16xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<2048xf32>
  %s = memref.subview %a[0] [16] [1] : memref<2048xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%x : memref<16xf32>) outs(%s : memref<16xf32, strided<[1]>>)
  memref.dealloc %a : memref<2048xf32>
  return
}

// -----

// Tests a function over the budget that a reordering brings under it.
// expected-error @+1 {{memsched-check-budget: 'reorder_fits' peaks at 12288 bytes, above the budget of 8192 bytes; reordering fits: --memsched-schedule finds an order that peaks at 4096 bytes}}
func.func @reorder_fits(%x: memref<64xf32> {llvm.noalias}, %out: memref<192xf32> {llvm.noalias}) {
  %b0 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b0 : memref<64x16xf32>) dimensions = [1]
  %b1 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b1 : memref<64x16xf32>) dimensions = [1]
  %b2 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b2 : memref<64x16xf32>) dimensions = [1]
  %s0 = memref.subview %out[0] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1]>>
  linalg.copy ins(%x : memref<64xf32>) outs(%s0 : memref<64xf32, strided<[1]>>)
  %s1 = memref.subview %out[64] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 64>>
  %s2 = memref.subview %out[128] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 128>>
  linalg.reduce ins(%b0 : memref<64x16xf32>) outs(%s0 : memref<64xf32, strided<[1]>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b0 : memref<64x16xf32>
  linalg.reduce ins(%b1 : memref<64x16xf32>) outs(%s1 : memref<64xf32, strided<[1], offset: 64>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b1 : memref<64x16xf32>
  linalg.reduce ins(%b2 : memref<64x16xf32>) outs(%s2 : memref<64xf32, strided<[1], offset: 128>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b2 : memref<64x16xf32>
  return
}

// -----

// Tests a function no order can fit: the join needs both 4 KiB inputs and
// its 4 KiB output at once.
// expected-error @+1 {{memsched-check-budget: 'cannot_fit' peaks at 12288 bytes, above the budget of 8192 bytes; no order of these ops fits: every order needs at least 12288 bytes while linalg.add#2 runs (rematerialisation or tiling is needed)}}
func.func @cannot_fit(%x: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%a : memref<1024xf32>)
  %b = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%b : memref<1024xf32>)
  %c = memref.alloc() : memref<1024xf32>
  // expected-note @+1 {{the op that sets the lower bound of 12288 bytes}}
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%c : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.copy ins(%c : memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// -----

// Tests that a function the analysis cannot handle is an error: the budget
// cannot be checked.
// expected-error @+2 {{memsched-check-budget: cannot check 'realloc_in_loop' against the budget: allocation that runs again in a loop of blocks}}
// expected-note @+4 {{the op at fault}}
func.func @realloc_in_loop(%c: i1) {
  cf.br ^bb1
^bb1:
  %a = memref.alloc() : memref<4096xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb2:
  memref.dealloc %a : memref<4096xf32>
  return
}

// -----

// Tests a body with several blocks: ^bb1 holds %keep (8192 bytes, allocated
// in ^bb0 and freed in ^bb2) while it fills two 2048-byte buffers that are
// both read by its last op, so every order of ^bb1 needs 8192 + 2 x 2048 =
// 12288 bytes: reordering cannot meet the budget.
// expected-error @+1 {{memsched-check-budget: 'held_across_blocks' peaks at 12288 bytes, above the budget of 8192 bytes; no order of these ops fits: every order needs at least 12288 bytes while linalg.add#2 in block 1 runs (rematerialisation or tiling is needed)}}
func.func @held_across_blocks(%out: memref<512xf32>) {
  %keep = memref.alloc() : memref<2048xf32>
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%keep : memref<2048xf32>)
  cf.br ^bb1
^bb1:
  %a = memref.alloc() : memref<512xf32>
  %b = memref.alloc() : memref<512xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<512xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<512xf32>)
  // expected-note @+1 {{the op that sets the lower bound of 12288 bytes}}
  linalg.add ins(%a, %b : memref<512xf32>, memref<512xf32>) outs(%out : memref<512xf32>)
  memref.dealloc %a : memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  cf.br ^bb2
^bb2:
  memref.dealloc %keep : memref<2048xf32>
  return
}
