// RUN: memsched-opt %s --split-input-file --memsched-plan-arena=remarks \
// RUN:   --memsched-verify --mlir-print-op-on-diagnostic=false \
// RUN:   --verify-diagnostics | FileCheck %s
// RUN: not memsched-opt %s --split-input-file --memsched-plan-arena \
// RUN:   --memsched-check-budget=bytes=1000 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET

// Tests an arena sized for a range of sizes: a static temporary of 256
// bytes, dead before two temporaries of n x 4 floats (16*n bytes, live
// together); n in [1, 64]. Unplanned the peak is max(256, 32*n). Placed
// first fit in the order of a plan at n = 64 (the dynamic ones first): %a
// at 0, %b at 16*n, %s at 0 (it lives with neither): max(256, 32*n) bytes,
// never above the unplanned peak. Each offset is a multiple of 16 at every
// n (no rounding at run time); the size function returns the arena.
// CHECK-LABEL: func.func @shares(
// CHECK-SAME: peak_with_arena = 2048, arena_size = 2048, sizes_at = {arg0 = 64 : i64}
// CHECK-NEXT: arith.constant 1.0
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[C32]], %arg0 : index
// CHECK-NEXT: %[[SIZE:.*]] = arith.maxui %[[C256]], %[[M]] : index
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc(%[[SIZE]]) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[ARENA]][%[[C0]]][] : memref<?xi8> to memref<64xf32>
// CHECK: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[ARENA]][%[[C0B]]][%arg0] : memref<?xi8> to memref<?x4xf32>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[C16]], %arg0 : index
// CHECK-NEXT: memref.view %[[ARENA]][%[[OFF]]][%arg0] : memref<?xi8> to memref<?x4xf32>
// CHECK: memref.dealloc %[[ARENA]] : memref<?xi8>
// CHECK-LABEL: func.func @shares_arena_size(%arg0: index) -> index
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[C32]], %arg0 : index
// CHECK-NEXT: %[[SIZE:.*]] = arith.maxui %[[C256]], %[[M]] : index
// CHECK-NEXT: return %[[SIZE]] : index
// A budget of the planned function: its memory grows with n, so it fits at
// every n when it fits at n = 64: max(256, 32*64) = 2048 bytes does not fit
// 1000.
// BUDGET: error: memsched-check-budget: 'shares' needs 2048 bytes with its buffers in an arena of 2048 bytes, above the budget of 1000 bytes (at arg0 = 64, the upper ends of the ranges: the arena and its memory grow with every size)
// expected-remark @+1 {{at the sizes arg0 = 64 (over the ranges arg0 in [1, 64]: arena max(256, 32*arg0) bytes, given by @shares_arena_size; memory max(256, 32*arg0) bytes, never more than without it, proved at every size; stacking the dynamic buffers above the static ones: 32*arg0 + 256 bytes)}}
func.func @shares(%n: index {memsched.range = array<i64: 1, 64>}, %out: memref<?x4xf32>) {
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%s : memref<64xf32>)
  memref.dealloc %s : memref<64xf32>
  %a = memref.alloc(%n) : memref<?x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x4xf32>)
  %b = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  memref.copy %b, %out : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  return
}

// -----

// Tests an offset rounded up at run time: two buffers of n floats (4*n
// bytes, not a multiple of the arena's 16-byte alignment), live together,
// then a static one of 8192 bytes alone; n in [1, 64]. %a at 0, %b at 4*n
// rounded up to 16, its slot 4*n + 15 bytes: the arena is
// max(8*n + 15, 8192), 8192 over the whole range (8*64 + 15 = 527), as the
// unplanned peak.
// CHECK-LABEL: func.func @rounded(
// CHECK-SAME: peak_with_arena = 8192, arena_size = 8192
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[X:.*]] = arith.muli %[[C4]], %arg0 : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[C15:.*]] = arith.constant 15 : index
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[X]], %[[C15]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[UP]], %[[C16]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[Q]], %[[C16]] : index
// CHECK-NEXT: memref.view %{{.*}}[%[[OFF]]][%arg0] : memref<?xi8> to memref<?xf32>
// CHECK-LABEL: func.func @rounded_arena_size(%arg0: index) -> index
// expected-remark @+1 {{arena max(8*arg0 + 15, 8192) bytes, given by @rounded_arena_size}}
func.func @rounded(%n: index {memsched.range = array<i64: 1, 64>}, %out: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?xf32>)
  %b = memref.alloc(%n) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.copy %b, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %s = memref.alloc() : memref<2048xf32>
  linalg.fill ins(%one : f32) outs(%s : memref<2048xf32>)
  memref.dealloc %s : memref<2048xf32>
  return
}

// -----

// Tests that a plan that would need more memory than no plan at some size
// is not kept: with n unbounded, a static temporary of 256 bytes lives
// with a dynamic one (4*n bytes) and one of 128 bytes, then the last two
// with a second dynamic one. At n = 0 the unplanned peak is 256 + 128 =
// 384; in the arena each dynamic buffer's offset is rounded up to 16 at run
// time and its slot takes 15 bytes more: 384 + 15 + 15 = 414 where both
// sit above the static ones.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT: memsched.arena
// CHECK: return
// expected-remark @+1 {{'refused' left without an arena: planned, it would need 414 bytes at arg0 = 0, above the 384 bytes it needs without one}}
func.func @refused(%n: index, %out: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%s : memref<64xf32>)
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %out, %a : memref<?xf32> to memref<?xf32>
  %t = memref.alloc() : memref<32xf32>
  memref.copy %s, %s : memref<64xf32> to memref<64xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<32xf32>)
  memref.dealloc %s : memref<64xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %t : memref<32xf32>
  memref.copy %b, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// Tests a loop that allocates by the dynamic size inside: its memory is
// modelled over the range (256*d bytes inside, d x 64 floats), but such a
// buffer stays outside the arena: %a (256*d bytes) alone is placed, and the
// planned function needs 256*d + 256*d = 512*d bytes, its peak unplanned.
// CHECK-LABEL: func.func @in_loop(
// CHECK: memsched.arena
// expected-remark @+1 {{'in_loop': arena of 2048 bytes for 1 buffer (their largest live total 2048 bytes, placement bound 2048 bytes, optimal), memory 4096 bytes against a peak of 4096 bytes and a lower bound of 4096 bytes (optimal: no order and no placement needs less); 1 allocation left outside; at the sizes arg0.d0 = 8 (over the ranges arg0.d0 in [2, 8]: arena 256*arg0.d0 bytes, given by @in_loop_arena_size; memory 512*arg0.d0 bytes, never more than without it, proved at every size}}
func.func @in_loop(%x: memref<?x64xf32> {memsched.range = array<i64: 2, 8>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = memref.dim %x, %c0 : memref<?x64xf32>
  %a = memref.alloc(%d) : memref<?x64xf32>
  memref.copy %x, %a : memref<?x64xf32> to memref<?x64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @+1 {{allocation left outside the arena: its size depends on the function's dynamic sizes and it is inside scf.for: an arena sized for a range of sizes places such buffers of the function's body alone}}
    %l = memref.alloc(%d) : memref<?x64xf32>
    memref.copy %a, %l : memref<?x64xf32> to memref<?x64xf32>
    memref.dealloc %l : memref<?x64xf32>
  }
  memref.dealloc %a : memref<?x64xf32>
  return
}

// -----

// Tests that a function whose loop calls a function allocating by the
// dynamic size is left unchanged: what the call needs over the range is not
// modelled.
// CHECK-LABEL: func.func @in_call(
// CHECK-NOT: memsched.arena
// expected-remark @+1 {{'in_call' left unchanged: its buffers are sized by its dynamic sizes (arg0.d0 in [2, 8]) and its memory over their ranges cannot be modelled: the memory scf.for allocates inside depends on the dynamic sizes (2048 bytes at arg0.d0 = 8, 512 at arg0.d0 = 2)}}
func.func @in_call(%x: memref<?x64xf32> {memsched.range = array<i64: 2, 8>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = memref.dim %x, %c0 : memref<?x64xf32>
  %a = memref.alloc(%d) : memref<?x64xf32>
  memref.copy %x, %a : memref<?x64xf32> to memref<?x64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @copy_through(%a, %d) : (memref<?x64xf32>, index) -> ()
  }
  memref.dealloc %a : memref<?x64xf32>
  return
}
// The callee is planned too: its buffer alone, for every %n.
// CHECK-LABEL: func.func private @copy_through(
// CHECK: memsched.arena
// expected-remark @+1 {{'copy_through': arena of 262144 bytes for 1 buffer}}
func.func private @copy_through(%a: memref<?x64xf32>, %n: index) {
  %l = memref.alloc(%n) : memref<?x64xf32>
  memref.copy %a, %l : memref<?x64xf32> to memref<?x64xf32>
  memref.dealloc %l : memref<?x64xf32>
  return
}
