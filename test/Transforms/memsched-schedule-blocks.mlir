// RUN: memsched-opt %s --split-input-file --memsched-schedule | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify=require -o /dev/null
// RUN: memsched-opt %s --split-input-file --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Bodies with several blocks: each block is scheduled on its own, with the
// buffers allocated when it starts counted from its start; ops never cross
// blocks and terminators stay.

// Tests a diamond: ^bb1 finishes with %a (4096 bytes) before it allocates
// %b, while %keep (1024 bytes, allocated in ^bb0, freed in ^bb3) stays live
// throughout. Peak 1024 + 4096 = 5120 bytes in ^bb1 (was 1024 + 2 x 4096);
// the certificate's bound is that of ^bb1 (block = 1), its cut %keep and %a
// (the body's allocations 0 and 1).
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: #memsched.certificate<peak = 5120, lower_bound = 5120, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0, 1], block = 1>
// CHECK: ^bb1:
// CHECK-NEXT: %[[A:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[A]]
// CHECK-NEXT: %[[SA:.+]] = memref.subview %[[A]]
// CHECK-NEXT: linalg.copy ins(%[[SA]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[B]]
// CHECK-NEXT: %[[SB:.+]] = memref.subview %[[B]]
// CHECK-NEXT: linalg.copy ins(%[[SB]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: cf.br ^bb3
// CHECK: ^bb3:
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
// REMARK: remark: memsched-schedule: peak 9216 -> 5120 bytes, lower bound 5120 bytes (optimal)
func.func @diamond(%x: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %keep = memref.alloc() : memref<256xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%out : memref<64xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<1024xf32>)
  %sa = memref.subview %a[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<64xf32, strided<[1]>>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<1024xf32>
  %sb = memref.subview %b[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  linalg.copy ins(%sb : memref<64xf32, strided<[1]>>) outs(%x : memref<64xf32>)
  memref.dealloc %b : memref<1024xf32>
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %s = memref.subview %keep[0] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1]>>
  linalg.copy ins(%x : memref<64xf32>) outs(%s : memref<64xf32, strided<[1]>>)
  memref.dealloc %keep : memref<256xf32>
  return
}

// -----

// Tests a buffer allocated in ^bb0 and freed in ^bb1: ^bb1 reads it and
// frees it before it allocates %y, so the two 4096-byte buffers never
// coexist (peak 8192 -> 4096 bytes; the bound: %x alone at ^bb1's start).
// CHECK-LABEL: func.func @free_live_in_first
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK: ^bb1:
// CHECK-NEXT: linalg.copy ins(%[[X:.+]] : memref<1024xf32>) outs(%arg0
// CHECK-NEXT: memref.dealloc %[[X]]
// CHECK-NEXT: %[[Y:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[Y]]
// CHECK-NEXT: linalg.copy ins(%[[Y]] {{.*}} outs(%arg1
// CHECK-NEXT: memref.dealloc %[[Y]]
// CHECK-NEXT: return
// REMARK: remark: memsched-schedule: peak 8192 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @free_live_in_first(%o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%x : memref<1024xf32>)
  cf.br ^bb1
^bb1:
  %y = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o2 : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%o1 : memref<1024xf32>)
  memref.dealloc %x : memref<1024xf32>
  return
}

// -----

// Tests a buffer passed to the next block as a block argument and freed
// through it there: the read and the free move before the 4096-byte
// allocation (peak 1024 + 4096 = 5120 -> 4096 bytes).
// CHECK-LABEL: func.func @through_block_argument
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK: ^bb1(%[[M:.+]]: memref<256xf32>):
// CHECK-NEXT: linalg.copy ins(%[[M]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[M]]
// CHECK-NEXT: %[[BIG:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[BIG]]
// CHECK-NEXT: linalg.copy ins(%[[BIG]]
// CHECK-NEXT: memref.dealloc %[[BIG]]
// CHECK-NEXT: return
// REMARK: remark: memsched-schedule: peak 5120 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @through_block_argument(%o1: memref<256xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<256xf32>)
  cf.br ^bb1(%a : memref<256xf32>)
^bb1(%m: memref<256xf32>):
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<1024xf32>)
  linalg.copy ins(%big : memref<1024xf32>) outs(%o2 : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  linalg.copy ins(%m : memref<256xf32>) outs(%o1 : memref<256xf32>)
  memref.dealloc %m : memref<256xf32>
  return
}

// -----

// Tests a loop of blocks (the output of --convert-scf-to-cf): the loop body
// ^bb2 allocates and frees two 4096-byte buffers per iteration; it finishes
// with the first before it allocates the second (peak 8192 -> 4096 bytes).
// The header and exit keep their order and terminators.
// CHECK-LABEL: func.func @loop_of_blocks
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], block = 2>
// CHECK: ^bb1(%[[I:.+]]: index):
// CHECK-NEXT: %[[DONE:.+]] = arith.cmpi sge, %[[I]]
// CHECK-NEXT: cf.cond_br %[[DONE]], ^bb3, ^bb2
// CHECK: ^bb2:
// CHECK-NEXT: %[[T1:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[T1]]
// CHECK-NEXT: linalg.copy ins(%[[T1]] {{.*}} outs(%arg0
// CHECK-NEXT: memref.dealloc %[[T1]]
// CHECK-NEXT: %[[T2:.+]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[T2]]
// CHECK-NEXT: linalg.copy ins(%[[T2]] {{.*}} outs(%arg1
// CHECK-NEXT: memref.dealloc %[[T2]]
// CHECK-NEXT: arith.addi
// CHECK-NEXT: cf.br ^bb1
// REMARK: remark: memsched-schedule: peak 8192 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @loop_of_blocks(%o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 4.0 : f32
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^bb3, ^bb2
^bb2:
  %t1 = memref.alloc() : memref<1024xf32>
  %t2 = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%t1 : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%t2 : memref<1024xf32>)
  linalg.copy ins(%t1 : memref<1024xf32>) outs(%o1 : memref<1024xf32>)
  linalg.copy ins(%t2 : memref<1024xf32>) outs(%o2 : memref<1024xf32>)
  memref.dealloc %t1 : memref<1024xf32>
  memref.dealloc %t2 : memref<1024xf32>
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next : index)
^bb3:
  return
}

// -----

// Tests that a block no path reaches counts for nothing: ^bb2 would need
// 16384 bytes but never runs; the peak is ^bb0's 4096 bytes.
// CHECK-LABEL: func.func @unreachable_block
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096, bound_kind = "trivial", bound_op = "linalg.fill#0", cut = [0], block = 0>
// REMARK: remark: memsched-schedule: peak 4096 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @unreachable_block(%o1: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  linalg.copy ins(%a : memref<1024xf32>) outs(%o1 : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  cf.br ^bb1
^bb1:
  return
^bb2:
  %z = memref.alloc() : memref<4096xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<4096xf32>)
  memref.dealloc %z : memref<4096xf32>
  cf.br ^bb1
}

// -----

// Tests that a side-effect free use of a buffer from an earlier block that
// feeds only the terminator stays before the buffer's deallocation, while
// the free still moves before the 4096-byte %y (8192 -> 4096 bytes).
// CHECK-LABEL: func.func @dangling_use_of_live_in
// CHECK: ^bb1:
// CHECK-NEXT: linalg.copy ins(%[[A:.+]] : memref<1024xf32>) outs(%arg1
// CHECK-NEXT: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[Y:.+]] = memref.alloc() : memref<1024xf32>
// CHECK: cf.br ^bb2(%[[P]] : index)
// REMARK: remark: memsched-schedule: peak 8192 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @dangling_use_of_live_in(%o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) -> index {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  cf.br ^bb1
^bb1:
  %y = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o1 : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  linalg.copy ins(%a : memref<1024xf32>) outs(%o2 : memref<1024xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<1024xf32> -> index
  memref.dealloc %a : memref<1024xf32>
  cf.br ^bb2(%p : index)
^bb2(%q: index):
  return %q : index
}

// -----

// Tests that a buffer freed on one path into a block counts as allocated in
// it (the union over the paths): %a (4096 bytes) is freed in ^bb1 only, so
// ^bb2 starts with it. ^bb2 as written holds %a, %y and %z (12288 bytes);
// %y's life, then %z's: 4096 + 4096 = 8192 bytes.
// CHECK-LABEL: func.func @freed_on_one_path
// CHECK: ^bb2:
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
// REMARK: remark: memsched-schedule: peak 12288 -> 8192 bytes, lower bound 8192 bytes (optimal)
func.func @freed_on_one_path(%c: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.copy ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  cf.br ^bb2
^bb2:
  %y = memref.alloc() : memref<1024xf32>
  %z = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<1024xf32>)
  linalg.copy ins(%z : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %z : memref<1024xf32>
  return
}

// -----

// Tests that a free under an scf.if counts on the edge where the branch
// decides its condition, as the deallocation pipeline emits it: %a is freed
// under `not %c` before `cf.cond_br %c`, so it is freed on the way to ^bb2,
// and ^bb1 frees it itself: ^bb3 starts with nothing. ^bb3 as written holds
// %y and %z (8192 bytes); one after the other: 4096 bytes, as in ^bb0 and
// ^bb1. (Counting %a in ^bb3 would give 12288 -> 8192.)
// CHECK-LABEL: func.func @freed_under_branch_condition
// REMARK: remark: memsched-schedule: peak 8192 -> 4096 bytes, lower bound 4096 bytes (optimal)
func.func @freed_under_branch_condition(%c: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %true = arith.constant true
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  %nc = arith.xori %c, %true : i1
  scf.if %nc {
    memref.dealloc %a : memref<1024xf32>
  }
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.copy ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %y = memref.alloc() : memref<1024xf32>
  %z = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<1024xf32>)
  linalg.copy ins(%z : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %z : memref<1024xf32>
  return
}

// -----

// Tests that a free under an scf.if whose condition no branch decides may not
// run: %a (4096 bytes) is freed under %d, the branch is on %c, so ^bb3
// starts with %a: 4096 + %y and %z (12288 bytes as written), one after the
// other: 8192 bytes.
// CHECK-LABEL: func.func @freed_under_another_condition
// REMARK: remark: memsched-schedule: peak 12288 -> 8192 bytes, lower bound 8192 bytes (optimal)
func.func @freed_under_another_condition(%c: i1, %d: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  linalg.copy ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
  scf.if %d {
    memref.dealloc %a : memref<1024xf32>
  }
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %y = memref.alloc() : memref<1024xf32>
  %z = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<1024xf32>)
  linalg.copy ins(%z : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %z : memref<1024xf32>
  return
}

// -----

// Tests that buffers no path brings together count once: ^bb3 starts with
// %a (from ^bb1) or %b (from ^bb2), never both, 4096 bytes, and adds %y:
// 8192 bytes (counting both arms' buffers would give 12288).
// CHECK-LABEL: func.func @one_buffer_per_arm
// REMARK: remark: memsched-schedule: peak 8192 -> 8192 bytes, lower bound 8192 bytes (optimal)
func.func @one_buffer_per_arm(%c: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  cf.br ^bb3(%a : memref<1024xf32>)
^bb2:
  %b = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<1024xf32>)
  cf.br ^bb3(%b : memref<1024xf32>)
^bb3(%m: memref<1024xf32>):
  %y = memref.alloc() : memref<1024xf32>
  linalg.add ins(%m, %m : memref<1024xf32>, memref<1024xf32>) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  return
}

// -----

// Tests that buffers every path brings together each count: %a and %b come
// into ^bb3 from both arms and live through it, with %y: 12288 bytes.
// CHECK-LABEL: func.func @two_buffers_on_every_path
// REMARK: remark: memsched-schedule: peak 12288 -> 12288 bytes, lower bound 12288 bytes (optimal)
func.func @two_buffers_on_every_path(%c: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<1024xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %y = memref.alloc() : memref<1024xf32>
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%y : memref<1024xf32>)
  linalg.copy ins(%y : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %y : memref<1024xf32>
  return
}

// -----

// Tests that an exclusive group counts its largest buffer: ^bb3 starts with
// %y (4096 bytes, from ^bb1) or %z (8192 bytes, from ^bb2), never both;
// with %w: 8192 + 4096 = 12288 bytes.
// CHECK-LABEL: func.func @largest_of_the_arms
// REMARK: remark: memsched-schedule: peak 12288 -> 12288 bytes, lower bound 12288 bytes (optimal)
func.func @largest_of_the_arms(%c: i1, %o: memref<1024xf32> {llvm.noalias}) {
  %cst = arith.constant 1.0 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<1024xf32>)
  cf.br ^bb3
^bb2:
  %z = memref.alloc() : memref<2048xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<2048xf32>)
  cf.br ^bb3
^bb3:
  %w = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%cst : f32) outs(%w : memref<1024xf32>)
  linalg.copy ins(%w : memref<1024xf32>) outs(%o : memref<1024xf32>)
  memref.dealloc %w : memref<1024xf32>
  return
}
