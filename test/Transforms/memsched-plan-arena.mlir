// Without remarks nothing is printed (--verify-diagnostics: no diagnostic);
// with them, each buffer left outside says why (OUTSIDE).
// RUN: memsched-opt %s --split-input-file --memsched-plan-arena --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-plan-arena=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: memsched-opt %s --split-input-file --memsched-plan-arena --memsched-verify -o /dev/null 2>/dev/null
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=argument" 2>/dev/null | FileCheck %s --check-prefix=ARG
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=argument" --memsched-verify -o /dev/null 2>/dev/null
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=global alignment=64" 2>/dev/null | FileCheck %s --check-prefix=GLOBAL
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=global alignment=64" --memsched-verify -o /dev/null 2>/dev/null
// RUN: not memsched-opt %s --memsched-plan-arena=arena=heap 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not memsched-opt %s --memsched-plan-arena=alignment=24 2>&1 | FileCheck %s --check-prefix=BADALIGN

// RUN: not memsched-opt %s --memsched-plan-arena=heuristic=tflm 2>&1 | FileCheck %s --check-prefix=BADHEUR
// RUN: memsched-opt %s --split-input-file --memsched-plan-arena=heuristic=greedy-by-size --memsched-verify 2>/dev/null | FileCheck %s --check-prefix=GREEDY

// RUN: rm -rf %t && memsched-opt %s --split-input-file "--memsched-plan-arena=report-dir=%t" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t/chain.arena.json
// RUN: python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" %t/chain.arena.svg
// RUN: FileCheck %s --check-prefix=SVG < %t/chain.arena.svg

// REPORT: "name": "buffer#0",
// REPORT-NEXT: "type": "memref<64xf32>",
// REPORT-NEXT: "size": 256,
// REPORT-NEXT: "first": 0,
// REPORT-NEXT: "last": 1,
// REPORT-NEXT: "location": "{{.*}}memsched-plan-arena.mlir:{{[0-9]+}}:{{[0-9]+}}",
// REPORT-NEXT: "offset": 0
// REPORT: "name": "buffer#1",
// REPORT: "offset": 256
// REPORT: "name": "buffer#2",
// REPORT: "offset": 0
// REPORT: "arena_size": 384,
// REPORT: "peak_with_arena": 384
// SVG: arena 384 bytes (384 B); the function needs 384 bytes
// BADHEUR: error: memsched-plan-arena: heuristic must be greedy-by-size, best-fit-by-size, first-fit-by-start or first-fit-by-conflicts, got 'tflm'
// GREEDY-LABEL: func.func private @chain
// GREEDY-SAME: peak_with_arena = 384, arena_size = 384
// BADKIND: error: memsched-plan-arena: arena must be alloc, argument or global, got 'heap'
// BADALIGN: error: memsched-plan-arena: alignment must be a power of two, got 24

// A chain: %a (256 bytes) and %b (128) live together, then %b and %c (256):
// a 384-byte arena, %c at %a's offset; the peak is 384 too, nothing lost.
// @caller: %t (256 bytes) is live during the call, whose callee needs 384:
// its peak is 640. With arena=alloc the callee allocates its own arena
// (256 + 384 = 640); with arena=argument the private callee takes its arena
// from the caller, and the caller (public: its signature stays) allocates
// one that holds %t and a 384-byte slot for the callee (640).
// CHECK-LABEL: func.func private @chain
// CHECK-SAME: peak = 384, lower_bound = 384
// CHECK-SAME: peak_with_arena = 384, arena_size = 384
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<384xi8>
// CHECK-NEXT: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%[[O0]]][] : memref<384xi8> to memref<64xf32>
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK-NEXT: %[[O256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%[[O256]]][] : memref<384xi8> to memref<32xf32>
// CHECK-NEXT: memref.subview %[[A]]
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: %[[O0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]][%[[O0B]]][] : memref<384xi8> to memref<64xf32>
// CHECK-NEXT: memref.subview %[[C]]
// CHECK-NEXT: linalg.copy ins(%[[B]]
// CHECK-NEXT: linalg.copy ins(%[[C]] : memref<64xf32>) outs(%arg1 : memref<64xf32>)
// CHECK-NEXT: memref.dealloc %[[ARENA]] : memref<384xi8>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @caller
// CHECK-SAME: peak = 640, lower_bound = 640
// CHECK-SAME: peak_with_arena = 640, arena_size = 256
// ARG-LABEL: func.func private @chain
// ARG-SAME: %arg2: memref<384xi8> {memsched.arena}
// ARG-SAME: peak_with_arena = 384, arena_size = 384
// ARG-NOT: memref.alloc
// ARG-NOT: memref.dealloc
// ARG-LABEL: func.func @caller(%arg0: memref<64xf32>, %arg1: memref<64xf32>) attributes
// ARG-SAME: peak = 640, lower_bound = 640
// ARG-SAME: peak_with_arena = 640, arena_size = 640
// ARG-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<640xi8>
// ARG: %[[SLOT:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<640xi8> to memref<384xi8>
// ARG-NEXT: call @chain(%{{.*}}, %arg1, %[[SLOT]])
// ARG: memref.dealloc %[[ARENA]] : memref<640xi8>
// GLOBAL: memref.global "private" @chain_arena : memref<384xi8> = uninitialized {alignment = 64 : i64, memsched.arena}
// GLOBAL-LABEL: func.func private @chain
// GLOBAL-SAME: peak_with_arena = 384, arena_size = 384
// GLOBAL-NEXT: memref.get_global @chain_arena : memref<384xi8>
// GLOBAL: memref.global "private" @caller_arena : memref<256xi8>
// GLOBAL-LABEL: func.func @caller
// GLOBAL-SAME: peak_with_arena = 640, arena_size = 256
func.func private @chain(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  memref.dealloc %a : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  %sc = memref.subview %c[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%b : memref<32xf32>) outs(%sc : memref<32xf32, strided<[1]>>)
  memref.dealloc %b : memref<32xf32>
  linalg.copy ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %c : memref<64xf32>
  return
}
func.func @caller(%in: memref<64xf32>, %out: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  call @chain(%t, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// A loop body's buffer (64 bytes) shares a slot that lives while the loop
// runs; %b (128 bytes, 64-aligned) is live across the loop, %a (256) before
// it: offsets %a 0, %b 256, the loop's slot 0 (after %a's free).
// CHECK-LABEL: func.func @nested
// CHECK-SAME: peak_with_arena = 384, arena_size = 384
// CHECK: memref.alloc() {alignment = 64 : i64, memsched.arena} : memref<384xi8>
// CHECK: memref.view %{{.*}}[%c256{{.*}}][] : memref<384xi8> to memref<32xf32>
// CHECK: scf.for
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[Z]]][] : memref<384xi8> to memref<16xf32>
// CHECK-NOT: memref.dealloc
// CHECK: }
func.func @nested(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  memref.dealloc %a : memref<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<16xf32>
    %sb = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    linalg.copy ins(%sb : memref<16xf32, strided<[1]>>) outs(%t : memref<16xf32>)
    %so = memref.subview %out[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
    linalg.copy ins(%t : memref<16xf32>) outs(%so : memref<16xf32, strided<[1]>>)
    memref.dealloc %t : memref<16xf32>
  }
  memref.dealloc %b : memref<32xf32>
  return
}

// -----

// What stays outside, each with a remark: a returned buffer, a buffer in
// another memory space, one inside scf.parallel (iterations may run at the
// same time). A bounded dynamic size is placed at its bound (affine.min:
// at most 16 floats, 64 bytes) with its size operand on the view.
// The arena (64 bytes: %d at its bound) lives from %d's allocation to its
// free, so the returned 32-byte buffer, allocated later, does not stack on
// it: memory 64, the peak (with the arena live to the return it would be 96).
// CHECK-LABEL: func.func @outside
// CHECK-SAME: peak = 64, lower_bound = 64
// CHECK-SAME: peak_with_arena = 64, arena_size = 64
// CHECK: %[[N:.*]] = affine.min
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<64xi8>
// CHECK-NEXT: %[[O:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = memref.view %[[ARENA]][%[[O]]][%[[N]]] : memref<64xi8> to memref<?xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : memref<?xf32>)
// CHECK-NEXT: memref.load %[[D]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.dealloc %[[ARENA]] : memref<64xi8>
// CHECK-NEXT: memref.alloc() : memref<4xf32, 1>
func.func @outside(%in: memref<64xf32>, %out: memref<64xf32>, %m: index) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %n = affine.min affine_map<(d0) -> (d0, 16)>(%m)
  %d = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%f : f32) outs(%d : memref<?xf32>)
  %v = memref.load %d[%c0] : memref<?xf32>
  memref.store %v, %out[%c0] : memref<64xf32>
  memref.dealloc %d : memref<?xf32>
  // OUTSIDE: remark: memsched-plan-arena: allocation left outside the arena: it is in another memory space
  %s = memref.alloc() : memref<4xf32, 1>
  linalg.fill ins(%f : f32) outs(%s : memref<4xf32, 1>)
  memref.dealloc %s : memref<4xf32, 1>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // OUTSIDE: remark: memsched-plan-arena: allocation left outside the arena: it is inside scf.parallel, whose regions may run at the same time or out of order
    %p = memref.alloc() : memref<4xf32>
    linalg.fill ins(%f : f32) outs(%p : memref<4xf32>)
    memref.dealloc %p : memref<4xf32>
    scf.reduce
  }
  // OUTSIDE: remark: memsched-plan-arena: allocation left outside the arena: it is never freed in the function (returned, or live to the end): it must outlive the arena
  %r = memref.alloc() : memref<8xf32>
  linalg.fill ins(%f : f32) outs(%r : memref<8xf32>)
  return %r : memref<8xf32>
}
