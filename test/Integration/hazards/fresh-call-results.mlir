// REQUIRES: mlir-runner
// Calls to a function that returns a fresh buffer (what function-boundary
// bufferization makes of a function returning a tensor): each call
// allocates a 256-byte buffer in the caller. The first result is freed the
// way upstream's deallocation pipeline does it, under an scf.if comparing
// its base address with %o1's: an argument is never the caller's
// allocation, so that free always happens. The second call then moves after
// it (the arguments are llvm.noalias: the copies into %o1 and %o2 need not
// wait for the other call's read): 512 -> 256 bytes.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=512
// EXEC-DAG: sched-peak=256

// CHECK-LABEL: func.func @f
// CHECK-SAME: #memsched.certificate<peak = 256, lower_bound = 256
// CHECK-NEXT: %[[R1:.+]] = call @make(%arg0)
// CHECK-NEXT: memref.copy %[[R1]], %arg2
// CHECK: scf.if
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: %[[R2:.+]] = call @make(%arg1)
// CHECK-NEXT: memref.copy %[[R2]], %arg3
// CHECK-NEXT: memref.dealloc %[[R2]]
// CHECK-NEXT: return

func.func private @make(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  return %a : memref<64xf32>
}

func.func @f(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}, %o1: memref<64xf32> {llvm.noalias}, %o2: memref<64xf32> {llvm.noalias}) {
  %r1 = call @make(%x) : (memref<64xf32>) -> memref<64xf32>
  %r2 = call @make(%y) : (memref<64xf32>) -> memref<64xf32>
  memref.copy %r1, %o1 : memref<64xf32> to memref<64xf32>
  %base, %off, %size, %stride = memref.extract_strided_metadata %r1 : memref<64xf32> -> memref<f32>, index, index, index
  %p = memref.extract_aligned_pointer_as_index %base : memref<f32> -> index
  %q = memref.extract_aligned_pointer_as_index %o1 : memref<64xf32> -> index
  %c = arith.cmpi ne, %p, %q : index
  scf.if %c {
    memref.dealloc %base : memref<f32>
  }
  memref.copy %r2, %o2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %r2 : memref<64xf32>
  return
}
