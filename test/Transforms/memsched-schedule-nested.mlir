// RUN: memsched-opt %s --split-input-file --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify -o /dev/null

// Loop and branch bodies are reordered on their own (inner ones first),
// where their peak goes down; the op around them then needs less, and the
// function's body is scheduled with that. All buffers are 1024 bytes.

// Tests an scf.if whose branches each allocate their temporaries up front:
// then-branch: %a and %b live together (2048), one at a time 1024; the
// else-branch: %c, %d, %e together (3072), one at a time 1024.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: #memsched.certificate<peak = 1024, lower_bound = 1024
// CHECK: scf.if %
// CHECK-NEXT: %[[A:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%arg1 : {{.*}}) outs(%[[A]]
// CHECK-NEXT: linalg.exp ins(%[[A]] : {{.*}}) outs(%arg2
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%arg1 : {{.*}}) outs(%[[B]]
// CHECK-NEXT: linalg.exp ins(%[[B]] : {{.*}}) outs(%arg3
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: } else {
func.func @branches(%c: i1, %x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}, %o3: memref<256xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 3072 -> 1024 bytes, lower bound 1024 bytes (optimal); 2 loop or branch bodies reordered}}
  scf.if %c {
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
    linalg.exp ins(%a : memref<256xf32>) outs(%o1 : memref<256xf32>)
    linalg.exp ins(%b : memref<256xf32>) outs(%o2 : memref<256xf32>)
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  } else {
    %c1 = memref.alloc() : memref<256xf32>
    %d = memref.alloc() : memref<256xf32>
    %e = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%c1 : memref<256xf32>)
    linalg.exp ins(%x : memref<256xf32>) outs(%d : memref<256xf32>)
    linalg.exp ins(%x : memref<256xf32>) outs(%e : memref<256xf32>)
    linalg.exp ins(%c1 : memref<256xf32>) outs(%o1 : memref<256xf32>)
    linalg.exp ins(%d : memref<256xf32>) outs(%o2 : memref<256xf32>)
    linalg.exp ins(%e : memref<256xf32>) outs(%o3 : memref<256xf32>)
    memref.dealloc %c1 : memref<256xf32>
    memref.dealloc %d : memref<256xf32>
    memref.dealloc %e : memref<256xf32>
  }
  return
}

// -----

// Tests a loop nest, inner body first: the inner body goes from 2048 to 1024
// bytes. The outer body allocates %t and %u up front: %t, %u and the inner
// loop's 2048 make 4096 as written. Reordered (with the inner loop at 1024):
// %t and the inner loop, then %u = exp(%t) with %t still read: 2048 each
// (optimal: %u's exp needs %t and %u).
// CHECK-LABEL: func.func @loop_nest
// CHECK-SAME: #memsched.certificate<peak = 2048, lower_bound = 2048
// CHECK: scf.for %
// CHECK-NEXT: %[[T:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%arg0 : {{.*}}) outs(%[[T]]
// CHECK-NEXT: scf.for %
// CHECK-NEXT: %[[A:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%[[T]] : {{.*}}) outs(%[[A]]
// CHECK-NEXT: linalg.exp ins(%[[A]] : {{.*}}) outs(%arg1
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%[[T]] : {{.*}}) outs(%[[B]]
// CHECK-NEXT: linalg.exp ins(%[[B]] : {{.*}}) outs(%arg2
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[U:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%[[T]] : {{.*}}) outs(%[[U]]
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: linalg.exp ins(%[[U]] : {{.*}}) outs(%arg2
// CHECK-NEXT: memref.dealloc %[[U]]
func.func @loop_nest(%x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 4096 -> 2048 bytes, lower bound 2048 bytes (optimal); 2 loop or branch bodies reordered}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<256xf32>
    %u = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%t : memref<256xf32>)
    scf.for %j = %c0 to %c4 step %c1 {
      %a = memref.alloc() : memref<256xf32>
      %b = memref.alloc() : memref<256xf32>
      linalg.exp ins(%t : memref<256xf32>) outs(%a : memref<256xf32>)
      linalg.exp ins(%t : memref<256xf32>) outs(%b : memref<256xf32>)
      linalg.exp ins(%a : memref<256xf32>) outs(%o1 : memref<256xf32>)
      linalg.exp ins(%b : memref<256xf32>) outs(%o2 : memref<256xf32>)
      memref.dealloc %a : memref<256xf32>
      memref.dealloc %b : memref<256xf32>
    }
    linalg.exp ins(%t : memref<256xf32>) outs(%u : memref<256xf32>)
    linalg.exp ins(%u : memref<256xf32>) outs(%o2 : memref<256xf32>)
    memref.dealloc %u : memref<256xf32>
    memref.dealloc %t : memref<256xf32>
  }
  return
}

// -----

// Tests that a body's accesses to memory from outside it keep their order:
// %t is allocated outside the loop; the body reads it into %b, overwrites it
// from %a, and adds %b to the new %t. Computing %a and writing %t first
// would hold one temporary at a time (1024), but %b must read the old %t
// before that write, and the add needs the new one: %a and %b are
// allocated together in every valid order (2048, with %t: 3072). The body
// stays as written. The bound counts the body at the lower bound of its own
// graph, whose cut at the exp that overwrites %t sees it (%a read there,
// %b read after it: 2048), not only at the most one of its ops needs
// (1024): 2048 + %t = 3072, the peak, proved optimal.
// CHECK-LABEL: func.func @outer_buffer
// CHECK-SAME: #memsched.certificate<peak = 3072, lower_bound = 3072
// CHECK: scf.for %
// CHECK-NEXT: %[[A:.+]] = memref.alloc()
// CHECK-NEXT: %[[B:.+]] = memref.alloc()
// CHECK-NEXT: linalg.exp ins(%arg0 : {{.*}}) outs(%[[A]]
// CHECK-NEXT: linalg.exp ins(%[[T:.+]] : {{.*}}) outs(%[[B]]
// CHECK-NEXT: linalg.exp ins(%[[A]] : {{.*}}) outs(%[[T]]
// CHECK-NEXT: linalg.add ins(%[[B]], %[[T]] : {{.*}}) outs(%arg1
func.func @outer_buffer(%x: memref<256xf32> {llvm.noalias}, %o: memref<256xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 3072 -> 3072 bytes, lower bound 3072 bytes (optimal)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%t : memref<256xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%t : memref<256xf32>) outs(%b : memref<256xf32>)
    linalg.exp ins(%a : memref<256xf32>) outs(%t : memref<256xf32>)
    linalg.add ins(%b, %t : memref<256xf32>, memref<256xf32>) outs(%o : memref<256xf32>)
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  linalg.exp ins(%t : memref<256xf32>) outs(%o : memref<256xf32>)
  memref.dealloc %t : memref<256xf32>
  return
}

// -----

// Tests that the bodies of parallel loops are left as they are: scf.forall
// may run its iterations together.
// CHECK-LABEL: func.func @parallel
// CHECK-SAME: #memsched.certificate<peak = 2048, lower_bound = 2048
// CHECK: scf.forall (
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: memref.alloc()
func.func @parallel(%x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 2048 -> 2048 bytes, lower bound 2048 bytes (optimal)}}
  scf.forall (%i) in (4) {
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
    linalg.exp ins(%a : memref<256xf32>) outs(%o1 : memref<256xf32>)
    linalg.exp ins(%b : memref<256xf32>) outs(%o2 : memref<256xf32>)
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  return
}

// -----

// Tests that a body freeing memory from outside it is left as it is: %big
// (4096) is freed in the scf.if, which then allocates %a and %b. Counted on
// its own the body would not see %big, and moving %b's allocation before
// the free would raise the real peak. The bound counts such a body at its
// peak as written.
// CHECK-LABEL: func.func @frees_outer_buffer
// CHECK-SAME: #memsched.certificate<peak = 6144, lower_bound = 6144
// CHECK: scf.if %
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: memref.alloc()
func.func @frees_outer_buffer(%c: i1, %x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 6144 -> 6144 bytes, lower bound 6144 bytes (optimal)}}
  %big = memref.alloc() : memref<1024xf32>
  %v = memref.subview %big[0] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1]>>
  linalg.exp ins(%x : memref<256xf32>) outs(%v : memref<256xf32, strided<[1]>>)
  linalg.exp ins(%v : memref<256xf32, strided<[1]>>) outs(%o1 : memref<256xf32>)
  scf.if %c {
    memref.dealloc %big : memref<1024xf32>
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
    linalg.exp ins(%a : memref<256xf32>) outs(%o1 : memref<256xf32>)
    linalg.exp ins(%b : memref<256xf32>) outs(%o2 : memref<256xf32>)
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  return
}

// -----

// Tests a loop body whose buffers come from a call (a fresh buffer of
// 256 bytes, freed in the body) and an allocation (64): copied in first,
// the small one lives while the call's is made (320); moved down to its
// use, one at a time (256).
// expected-remark @+1 {{peak 256 -> 256 bytes, lower bound 256 bytes (optimal)}}
func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}
// CHECK-LABEL: func.func @call_in_loop
// CHECK-SAME: #memsched.certificate<peak = 256, lower_bound = 256
// CHECK: scf.for
// CHECK: func.call @make
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.dealloc
// expected-remark @+1 {{peak 320 -> 256 bytes, lower bound 256 bytes (optimal); 1 loop or branch body reordered}}
func.func @call_in_loop(%x: memref<64xf32> {llvm.noalias}, %y: memref<16xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %out2: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<16xf32>
    memref.copy %y, %t : memref<16xf32> to memref<16xf32>
    %r = func.call @make(%x) : (memref<64xf32>) -> memref<64xf32>
    memref.copy %r, %out : memref<64xf32> to memref<64xf32>
    memref.dealloc %r : memref<64xf32>
    memref.copy %t, %out2 : memref<16xf32> to memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  return
}
