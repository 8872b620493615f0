// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes=deps --verify-diagnostics -o /dev/null | FileCheck %s

// Buffers a loop or a branch hands out (Analysis/MemSched/RegionYields.h):
// the op allocates its result where it runs; its bodies' memory is the
// rest.

// A loop carrying a fresh buffer with its ownership flag (what
// --buffer-deallocation-pipeline emits). Each iteration holds the buffer
// it got (64 bytes, an earlier iteration's) until its conditional free,
// and allocates a temporary (64) and the next buffer (64): 192 bytes, of
// which the loop's result is 64, so 128 on top. The free after the loop,
// under the loop's flag, frees the loop's buffer; the temporary %big (256)
// comes before the loop and is read after it only.
// CHECK-LABEL: memsched lifetimes: @loop
// CHECK-NEXT: peak-as-written=448 peak-tight=448
// CHECK-NEXT: buffer#0 memref.alloc memref<64xf32> size=256 first=linalg.fill#0 last=memref.copy#2 escape=no
// CHECK-NEXT: buffer#1 scf.for memref<16xf32> size=64 first=scf.for#1 last=scf.if#3 escape=no
// CHECK-NEXT: node scf.for#1 transient=128{{$}}
// The entry value (an argument) is read by the loop; its free inside the
// loop frees the loop's own buffers only, so the loop and the ops on
// %big keep no order.
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps scf.for#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- linalg.fill#0 scf.for#1
// CHECK-NEXT: deps scf.if#3 <- scf.for#1 memref.copy#2
func.func @loop(%init: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%big : memref<64xf32>)
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%buf = %init, %own = %false) -> (memref<16xf32>, i1) {
    %tmp = memref.alloc() : memref<16xf32>
    memref.copy %buf, %tmp : memref<16xf32> to memref<16xf32>
    %new = memref.alloc() : memref<16xf32>
    memref.copy %tmp, %new : memref<16xf32> to memref<16xf32>
    memref.dealloc %tmp : memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %buf : memref<16xf32> -> memref<f32>, index, index, index
    bufferization.dealloc (%base : memref<f32>) if (%own)
    scf.yield %new, %true : memref<16xf32>, i1
  }
  %view = memref.subview %big[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  memref.copy %r#0, %view : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.dealloc %big : memref<64xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r#0 : memref<16xf32> -> memref<f32>, index, index, index
  scf.if %r#1 {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// Branches that each allocate the result: the scf.if allocates it, as
// large as the larger (a cast to a common type), and the then branch's
// temporary is on top while it runs.
// CHECK-LABEL: memsched lifetimes: @branch
// CHECK-NEXT: peak-as-written=192 peak-tight=192
// CHECK-NEXT: buffer#0 scf.if memref<?xf32> size=128 first=scf.if#0 last=memref.copy#1 escape=no
// CHECK-NEXT: node scf.if#0 transient=64
func.func @branch(%c: i1, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = scf.if %c -> memref<?xf32> {
    %tmp = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%tmp : memref<16xf32>)
    %a = memref.alloc() : memref<32xf32>
    %half = memref.subview %a[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    memref.copy %tmp, %half : memref<16xf32> to memref<16xf32, strided<[1]>>
    memref.dealloc %tmp : memref<16xf32>
    %cast = memref.cast %a : memref<32xf32> to memref<?xf32>
    scf.yield %cast : memref<?xf32>
  } else {
    %b = memref.alloc() : memref<8xf32>
    linalg.fill ins(%zero : f32) outs(%b : memref<8xf32>)
    %cast = memref.cast %b : memref<8xf32> to memref<?xf32>
    scf.yield %cast : memref<?xf32>
  }
  memref.copy %r, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %r : memref<?xf32>
  return
}

// -----

// The loop would free its entry value (flag true on entry): not followed.
func.func @owned_entry(%init: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%buf = %init, %own = %true) -> (memref<16xf32>, i1) {
    // expected-remark @+1 {{allocation in a nested region is not freed in that region}}
    %new = memref.alloc() : memref<16xf32>
    memref.copy %buf, %new : memref<16xf32> to memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %buf : memref<16xf32> -> memref<f32>, index, index, index
    scf.if %own {
      memref.dealloc %base : memref<f32>
    }
    scf.yield %new, %true : memref<16xf32>, i1
  }
  return
}

// -----

// The then branch also hands its buffer to a call (it may be kept there):
// the result is the else branch's buffer or that one, and a memref.dealloc
// of it may free either.
func.func private @keep(memref<16xf32>)
func.func @captured(%c: i1) {
  %r = scf.if %c -> memref<16xf32> {
    %a = memref.alloc() : memref<16xf32>
    func.call @keep(%a) : (memref<16xf32>) -> ()
    scf.yield %a : memref<16xf32>
  } else {
    %b = memref.alloc() : memref<16xf32>
    scf.yield %b : memref<16xf32>
  }
  // expected-remark @+1 {{memref.dealloc of a value that may be one of several buffers}}
  memref.dealloc %r : memref<16xf32>
  return
}

// -----

// One branch yields the argument: the result may be either; nothing frees
// the buffer, which lives to the end.
// CHECK-LABEL: memsched lifetimes: @mixed
// CHECK-NEXT: peak-as-written=64 peak-tight=64
// CHECK-NEXT: buffer#0 scf.if memref<16xf32> size=64 first=scf.if#0 last=memref.copy#1 escape=no
func.func @mixed(%c: i1, %x: memref<16xf32>) {
  %r = scf.if %c -> memref<16xf32> {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %x : memref<16xf32>
  }
  memref.copy %r, %x : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A callee whose branch hands out a buffer it frees: the call's transient
// bytes are the callee's peak, the branch's result (64 bytes) with its
// temporary (64) while the branch runs.
// CHECK-LABEL: memsched lifetimes: @caller
// CHECK-NEXT: peak-as-written=128 peak-tight=128
// CHECK: node func.call#0 transient=128
func.func private @callee(%c: i1, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = scf.if %c -> memref<16xf32> {
    %tmp = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%tmp : memref<16xf32>)
    %a = memref.alloc() : memref<16xf32>
    memref.copy %tmp, %a : memref<16xf32> to memref<16xf32>
    memref.dealloc %tmp : memref<16xf32>
    scf.yield %a : memref<16xf32>
  } else {
    %b = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%b : memref<16xf32>)
    scf.yield %b : memref<16xf32>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %r : memref<16xf32>
  return
}
func.func @caller(%c: i1, %out: memref<16xf32>) {
  func.call @callee(%c, %out) : (i1, memref<16xf32>) -> ()
  return
}

// -----

// A loop with a constant trip count runs its body: its result is the
// body's buffer, never the entry value, so the entry buffer may be freed
// before the result's last use.
// CHECK-LABEL: memsched lifetimes: @runs
// CHECK: buffer#0 memref.alloc memref<16xf32> size=64 first=linalg.fill#0 last=scf.for#1
// CHECK-NEXT: buffer#1 scf.for memref<16xf32> size=64 first=scf.for#1 last=scf.if#3
func.func @runs(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %init = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%init : memref<16xf32>)
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%buf = %init, %own = %false) -> (memref<16xf32>, i1) {
    %new = memref.alloc() : memref<16xf32>
    memref.copy %buf, %new : memref<16xf32> to memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %buf : memref<16xf32> -> memref<f32>, index, index, index
    scf.if %own {
      memref.dealloc %base : memref<f32>
    }
    scf.yield %new, %true : memref<16xf32>, i1
  }
  memref.dealloc %init : memref<16xf32>
  memref.copy %r#0, %out : memref<16xf32> to memref<16xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r#0 : memref<16xf32> -> memref<f32>, index, index, index
  scf.if %r#1 {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// The same with a trip count known only at run time: no iteration may
// run, and the result may be the entry buffer, used after its free.
func.func @may_not_run(%n: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %init = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%init : memref<16xf32>)
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %init, %own = %false) -> (memref<16xf32>, i1) {
    %new = memref.alloc() : memref<16xf32>
    memref.copy %buf, %new : memref<16xf32> to memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %buf : memref<16xf32> -> memref<f32>, index, index, index
    scf.if %own {
      memref.dealloc %base : memref<f32>
    }
    scf.yield %new, %true : memref<16xf32>, i1
  }
  memref.dealloc %init : memref<16xf32>
  // expected-remark @+1 {{uses a buffer (or its address) after its deallocation}}
  memref.copy %r#0, %out : memref<16xf32> to memref<16xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r#0 : memref<16xf32> -> memref<f32>, index, index, index
  scf.if %r#1 {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// A branch yielding a new buffer or an existing one, with the ownership
// flag the deallocation pipeline returns next to it (true from the branch
// that allocates): the scf.if allocates its buffer (64 bytes), the result
// may also be the argument, and the free under the flag frees the buffer.
// CHECK-LABEL: memsched lifetimes: @fresh_or_argument
// CHECK-NEXT: peak-as-written=64 peak-tight=64
// CHECK-NEXT: buffer#0 scf.if memref<16xf32> size=64 first=scf.if#0 last=scf.if#2 escape=no
// CHECK: deps memref.copy#1 <- scf.if#0
// CHECK-NEXT: deps scf.if#2 <- scf.if#0 memref.copy#1
func.func @fresh_or_argument(%c: i1, %x: memref<16xf32>, %out: memref<16xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %r:2 = scf.if %c -> (memref<16xf32>, i1) {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    scf.yield %a, %true : memref<16xf32>, i1
  } else {
    scf.yield %x, %false : memref<16xf32>, i1
  }
  memref.copy %r#0, %out : memref<16xf32> to memref<16xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r#0 : memref<16xf32> -> memref<f32>, index, index, index
  scf.if %r#1 {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// The copy the deallocation pipeline makes of a buffer it does not own
// before returning it: the result is the argument or a new buffer,
// returned (it lives to the end).
// CHECK-LABEL: memsched lifetimes: @copy_unless_owned
// CHECK-NEXT: peak-as-written=64 peak-tight=64
// CHECK-NEXT: buffer#0 scf.if memref<16xf32> size=64 first=scf.if#0 last=scf.if#0 escape=returned
func.func @copy_unless_owned(%owned: i1, %x: memref<16xf32>) -> memref<16xf32> {
  %r = scf.if %owned -> (memref<16xf32>) {
    scf.yield %x : memref<16xf32>
  } else {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    scf.yield %a : memref<16xf32>
  }
  return %r : memref<16xf32>
}

// -----

// Freed without the flag, the free may be of the argument: not followed.
func.func @fresh_or_argument_freed(%c: i1, %x: memref<16xf32>) {
  %r = scf.if %c -> (memref<16xf32>) {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %x : memref<16xf32>
  }
  // expected-remark @+1 {{memref.dealloc of a value that may be one of several buffers}}
  memref.dealloc %r : memref<16xf32>
  return
}

// -----

// shape.assuming is a branch op of one region: its buffer is its result.
// CHECK-LABEL: memsched lifetimes: @assuming
// CHECK-NEXT: peak-as-written=64 peak-tight=64
// CHECK-NEXT: buffer#0 shape.assuming memref<16xf32> size=64 first=shape.assuming#0 last=memref.copy#1 escape=no
func.func @assuming(%w: !shape.witness, %x: memref<16xf32>, %out: memref<16xf32>) {
  %r = shape.assuming %w -> (memref<16xf32>) {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    shape.assuming_yield %a : memref<16xf32>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %r : memref<16xf32>
  return
}

// -----

// scf.while as one-shot-bufferize (allow-return-allocs-from-loops) and the
// deallocation pipeline leave it: the `before` region copies the state it
// got into a buffer of its own (its result, or the `after` region's
// argument) and frees the state under the ownership flag; the `after`
// region computes the next state into a buffer of its own and frees the
// copy. A `before` run holds the state (64) and the copy (64); an `after`
// run the copy (64), a temporary (128) and the next state (64): 256, of
// which the op's buffer (64) is the copy, so 192 on top. %big (256) comes
// before the loop and is read after it only.
// CHECK-LABEL: memsched lifetimes: @while_loop
// CHECK-NEXT: peak-as-written=512 peak-tight=512
// CHECK-NEXT: buffer#0 memref.alloc memref<64xf32> size=256 first=linalg.fill#0 last=memref.copy#2 escape=no
// CHECK-NEXT: buffer#1 scf.while memref<16xf32> size=64 first=scf.while#1 last=memref.copy#2 escape=no
// CHECK-NEXT: node scf.while#1 transient=192{{$}}
// CHECK: deps linalg.fill#0 <- none
// CHECK-NEXT: deps scf.while#1 <- none
// CHECK-NEXT: deps memref.copy#2 <- linalg.fill#0 scf.while#1
func.func @while_loop(%init: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%big : memref<64xf32>)
  %r:2 = scf.while (%s = %init, %i = %c0, %own = %false) : (memref<16xf32>, index, i1) -> (memref<16xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    %copy = memref.alloc() : memref<16xf32>
    memref.copy %s, %copy : memref<16xf32> to memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %s : memref<16xf32> -> memref<f32>, index, index, index
    scf.if %own {
      memref.dealloc %base : memref<f32>
    }
    scf.condition(%more) %copy, %i : memref<16xf32>, index
  } do {
  ^bb0(%t: memref<16xf32>, %j: index):
    %tmp = memref.alloc() : memref<32xf32>
    linalg.fill ins(%zero : f32) outs(%tmp : memref<32xf32>)
    %next = memref.alloc() : memref<16xf32>
    memref.copy %t, %next : memref<16xf32> to memref<16xf32>
    memref.dealloc %tmp : memref<32xf32>
    %j1 = arith.addi %j, %c1 : index
    memref.dealloc %t : memref<16xf32>
    scf.yield %next, %j1, %true : memref<16xf32>, index, i1
  }
  %view = memref.subview %big[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  memref.copy %r#0, %view : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.dealloc %r#0 : memref<16xf32>
  memref.dealloc %big : memref<64xf32>
  return
}

// -----

// The `after` region keeps the copy it got (nothing frees it): each run
// would leave one more buffer allocated. Not followed.
func.func @while_keeps_copy(%init: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %r:2 = scf.while (%s = %init, %i = %c0, %own = %false) : (memref<16xf32>, index, i1) -> (memref<16xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    // expected-remark @+1 {{allocation in a nested region is not freed in that region}}
    %copy = memref.alloc() : memref<16xf32>
    memref.copy %s, %copy : memref<16xf32> to memref<16xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %s : memref<16xf32> -> memref<f32>, index, index, index
    scf.if %own {
      memref.dealloc %base : memref<f32>
    }
    scf.condition(%more) %copy, %i : memref<16xf32>, index
  } do {
  ^bb0(%t: memref<16xf32>, %j: index):
    %next = memref.alloc() : memref<16xf32>
    memref.copy %t, %next : memref<16xf32> to memref<16xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %next, %j1, %true : memref<16xf32>, index, i1
  }
  memref.dealloc %r#0 : memref<16xf32>
  return
}
