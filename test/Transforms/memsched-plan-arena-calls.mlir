// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=argument remarks" --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=global" --memsched-verify -o /dev/null --verify-diagnostics
// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics -o /dev/null

// Tests that arena=argument never changes a public function's signature: the
// private @leaf takes its 512-byte arena from its callers; the public
// @entry has no buffer of its own and keeps its arguments: it allocates the
// arena it passes on around the call (the memory of @entry is that arena,
// 512 bytes, as unplanned).
// ARG: remark: memsched-plan-arena: 'leaf': arena of 512 bytes for 2 buffers
// ARG: remark: memsched-plan-arena: 'entry': arena of 512 bytes for the arenas of 1 call
// ARG-LABEL: func.func private @leaf(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<512xi8> {memsched.arena})
// ARG-LABEL: func.func @entry(%arg0: memref<64xf32>, %arg1: memref<64xf32>) attributes
// ARG-SAME: peak = 512, lower_bound = 512
// ARG-SAME: peak_with_arena = 512, arena_size = 512
// ARG-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<512xi8>
// ARG: %[[SLOT:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<512xi8> to memref<512xi8>
// ARG-NEXT: call @leaf(%arg0, %arg1, %[[SLOT]])
// ARG-NEXT: memref.dealloc %[[ARENA]] : memref<512xi8>
// ARG-NEXT: return
func.func private @leaf(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.exp ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.exp ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  linalg.exp ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  return
}

func.func @entry(%in: memref<64xf32>, %out: memref<64xf32>) {
  call @leaf(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}

// -----

// Tests that recursion through func.constant + func.call_indirect is
// recursion: one global arena (or one arena argument) for @walk would be
// shared by its nested activations, which overwrite the copy %a of the
// activation below them. Its memory has no bound, so every pass leaves @walk
// and its caller unchanged and names the cycle.
func.func private @walk(%buf: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%buf : memref<16xf32>) outs(%a : memref<16xf32>)
  %more = arith.cmpi sgt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    %fn = func.constant @walk : (memref<16xf32>, index) -> ()
    // expected-remark @+2 {{'walk' left unchanged: recursive call: @walk -> (func.call_indirect) @walk (its memory has no bound the analysis can see)}}
    // expected-remark @+1 {{'entry' left unchanged: recursive call: @walk -> (func.call_indirect) @walk (its memory has no bound the analysis can see)}}
    func.call_indirect %fn(%buf, %m) : (memref<16xf32>, index) -> ()
  }
  linalg.exp ins(%a : memref<16xf32>) outs(%buf : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  return
}

func.func @entry(%buf: memref<16xf32>) {
  %c3 = arith.constant 3 : index
  call @walk(%buf, %c3) : (memref<16xf32>, index) -> ()
  return
}

// -----

// Tests that a call through a function value of unknown origin may run any
// function of that type whose address is taken: @apply calls its argument,
// which may be @step (named by a func.constant), which calls @apply. Each
// remark is on the call that closes the cycle.
func.func private @apply(%buf: memref<16xf32>, %fn: (memref<16xf32>) -> ()) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%buf : memref<16xf32>) outs(%a : memref<16xf32>)
  // expected-remark @+1 {{'step' left unchanged: recursive call: @step -> @apply -> (func.call_indirect) @step}}
  func.call_indirect %fn(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

func.func @step(%buf: memref<16xf32>) {
  %fn = func.constant @step : (memref<16xf32>) -> ()
  // expected-remark @+1 {{'apply' left unchanged: recursive call: @apply -> (func.call_indirect) @step -> @apply}}
  call @apply(%buf, %fn) : (memref<16xf32>, (memref<16xf32>) -> ()) -> ()
  return
}
