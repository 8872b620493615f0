// RUN: memsched-opt %s --split-input-file --memsched-rematerialize="bytes=1024 max-extra-compute=0.2 remarks" --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-rematerialize="bytes=1024 max-extra-compute=0.2" --memsched-verify=require -o /dev/null

// What --memsched-rematerialize recomputes and what it refuses to (budget
// 1024 bytes, below any order: each function does what it can).

// Tests a recomputation that has no equal: a0 = exp(x) is read by the next
// exp and, last, by the mul. Live at the exps of c and d: a0 b c, then a0 c
// d: 3072 bytes. Recomputing a0 before the mul: b c, c d, d a0': 2048.
// (b and c have one reader each: nothing to recompute.)
// No recomputation can meet the budget: the second exp (node 1; the
// allocations are not nodes) reads a0 and writes b, 2048 bytes in any
// program made of these ops.
// CHECK-LABEL: func.func @recompute_input
// CHECK-SAME: #memsched.certificate<peak = 2048, lower_bound = 2048
// CHECK-SAME: remat_ops = 1
// expected-warning @+1 {{memsched-rematerialize: 'recompute_input' peak 3072 -> 2048 bytes, above the budget of 1024 bytes, 1 op(s) computed again: extra compute 256 of 1280 (20.00%); the lowest peak reached is 2048 bytes; no recomputation of its ops can meet the budget: 'linalg.exp#1' alone needs 2048 bytes (its operands, results and scratch, with the buffers live throughout)}}
func.func @recompute_input(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests that an input overwritten before the late use blocks the
// recomputation: the same program with %x zeroed after the second exp, so
// exp(x) computed again before the mul would not give a0.
// CHECK-LABEL: func.func @input_overwritten
// CHECK-NOT: remat_ops
// CHECK: return
// expected-warning @+1 {{memsched-rematerialize: 'input_overwritten' peaks at 3072 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (20.00% of its compute) lowers its peak}}
func.func @input_overwritten(%x: memref<256xf32>, %out: memref<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  linalg.fill ins(%zero : f32) outs(%x : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests the check on the rewritten body where the graph's own check cannot
// see the hazard: the op that overwrites %x is itself a reader of a0 (it
// copies a0 into %x). On the graph a clone waits only for what must follow
// its producer other than the buffer's readers, so a clone of exp(x) before
// the mul would be accepted there; on the rewritten body the copy is a
// dependency of the clone placed after the producer, and the recomputation
// is dropped. (Without that check: 3072 -> 2048 bytes, and the mul reads
// exp of the overwritten %x.)
// CHECK-LABEL: func.func @reader_overwrites_input
// CHECK-NOT: remat_ops
// CHECK: return
// expected-warning @+1 {{memsched-rematerialize: 'reader_overwrites_input' peaks at 3072 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (20.00% of its compute) lowers its peak}}
func.func @reader_overwrites_input(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  linalg.copy ins(%a0 : memref<256xf32>) outs(%x : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests that a producer with another effect is not cloned: the op that
// writes a0 also writes %side (a second output), which a clone would write
// again.
// CHECK-LABEL: func.func @side_effect
// CHECK-NOT: remat_ops
// CHECK: return
// expected-warning @+1 {{memsched-rematerialize: 'side_effect' peaks at 3072 bytes, above the budget of 1024 bytes, and no recomputation within max-extra-compute (20.00% of its compute) lowers its peak}}
func.func @side_effect(%x: memref<256xf32>, %out: memref<256xf32>, %side: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<256xf32>) outs(%a0, %side : memref<256xf32>, memref<256xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %e = math.exp %in : f32
    linalg.yield %e, %in : f32, f32
  }
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.exp ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
  linalg.mul ins(%d, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  return
}

// -----

// Tests that an input of the producer freed before the late reader stays
// allocated up to the clone: %p (1 KiB, broadcast from %t, 64 bytes) is
// read by the first exp and by the last mul. Live at the exps of q r s:
// p q, p q r (3072), p r s... Recomputing %p before the mul keeps %t (64
// bytes) instead of %p: at most q r + t = 2112 bytes. %t's deallocation
// moves after the clone.
// CHECK-LABEL: func.func @input_freed
// CHECK-SAME: #memsched.certificate<peak = 2112, lower_bound = 2112
// CHECK-NEXT: %[[T:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<16xf32>) outs(%[[T]] : memref<16xf32>)
// CHECK-NEXT: %[[P:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T]] : memref<16xf32>) outs(%[[P]] : memref<256xf32>)
// CHECK: %[[Q:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%[[P]] : memref<256xf32>) outs(%[[Q]] : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[P]]
// CHECK: linalg.generic {{.*}} ins(%[[T]] : memref<16xf32>) outs(%[[COPY:[^ ]+]] : memref<256xf32>)
// CHECK: memref.dealloc %[[T]]
// CHECK-NEXT: linalg.mul ins(%{{.+}}, %[[COPY]] :
#small = affine_map<(d0) -> (d0 mod 16)>
#id = affine_map<(d0) -> (d0)>
// expected-warning @+1 {{memsched-rematerialize: 'input_freed' peak 3072 -> 2112 bytes, above the budget of 1024 bytes, 1 op(s) computed again: extra compute 256 of 1296 (19.75%); the lowest peak reached is 2112 bytes}}
func.func @input_freed(%x: memref<16xf32>, %y: memref<256xf32>, %out: memref<256xf32>) {
  %t = memref.alloc() : memref<16xf32>
  linalg.exp ins(%x : memref<16xf32>) outs(%t : memref<16xf32>)
  %p = memref.alloc() : memref<256xf32>
  linalg.generic {indexing_maps = [#small, #id], iterator_types = ["parallel"]} ins(%t : memref<16xf32>) outs(%p : memref<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  memref.dealloc %t : memref<16xf32>
  %q = memref.alloc() : memref<256xf32>
  linalg.exp ins(%p : memref<256xf32>) outs(%q : memref<256xf32>)
  %r = memref.alloc() : memref<256xf32>
  linalg.exp ins(%q : memref<256xf32>) outs(%r : memref<256xf32>)
  %s = memref.alloc() : memref<256xf32>
  linalg.exp ins(%r : memref<256xf32>) outs(%s : memref<256xf32>)
  linalg.mul ins(%s, %p : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %p : memref<256xf32>
  memref.dealloc %q : memref<256xf32>
  memref.dealloc %r : memref<256xf32>
  memref.dealloc %s : memref<256xf32>
  return
}

// -----

// Tests the same with the input freed through a view of it (memref.cast):
// the free of the view moves after the clone. %a0 (2 KiB, from %x, 256
// bytes) is read by the first exp and the mul: as written a0 b c (6144);
// with a0 recomputed before the mul, at most x c d (4352).
// CHECK-LABEL: func.func @input_freed_through_cast
// CHECK-SAME: #memsched.certificate<peak = 4352, lower_bound = 4352
// CHECK: linalg.generic {{.*}} ins(%[[X:[^ ]+]] : memref<64xf32>) outs(%[[COPY:[^ ]+]] : memref<8x64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<64xf32>) outs(%[[COPY2:[^ ]+]] : memref<8x64xf32>)
// CHECK: %[[CAST:.+]] = memref.cast %[[X]]
// CHECK-NEXT: memref.dealloc %[[CAST]]
// CHECK-NEXT: linalg.mul ins(%{{.+}}, %[[COPY2]] :
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bc2 = affine_map<(d0, d1) -> (d1)>
// expected-warning @+1 {{memsched-rematerialize: 'input_freed_through_cast' peak 6144 -> 4352 bytes, above the budget of 1024 bytes, 1 op(s) computed again: extra compute 512 of 2624 (19.51%); the lowest peak reached is 4352 bytes}}
func.func @input_freed_through_cast(%arg: memref<64xf32>, %out: memref<8x64xf32>) {
  %x = memref.alloc() : memref<64xf32>
  linalg.exp ins(%arg : memref<64xf32>) outs(%x : memref<64xf32>)
  %a0 = memref.alloc() : memref<8x64xf32>
  linalg.generic {indexing_maps = [#bc2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64xf32>) outs(%a0 : memref<8x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %xc = memref.cast %x : memref<64xf32> to memref<?xf32>
  memref.dealloc %xc : memref<?xf32>
  %b = memref.alloc() : memref<8x64xf32>
  linalg.exp ins(%a0 : memref<8x64xf32>) outs(%b : memref<8x64xf32>)
  %c = memref.alloc() : memref<8x64xf32>
  linalg.exp ins(%b : memref<8x64xf32>) outs(%c : memref<8x64xf32>)
  %d = memref.alloc() : memref<8x64xf32>
  linalg.exp ins(%c : memref<8x64xf32>) outs(%d : memref<8x64xf32>)
  linalg.mul ins(%d, %a0 : memref<8x64xf32>, memref<8x64xf32>) outs(%out : memref<8x64xf32>)
  memref.dealloc %a0 : memref<8x64xf32>
  memref.dealloc %b : memref<8x64xf32>
  memref.dealloc %c : memref<8x64xf32>
  memref.dealloc %d : memref<8x64xf32>
  return
}
