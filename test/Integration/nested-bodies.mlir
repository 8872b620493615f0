// REQUIRES: mlir-runner
// Loop and branch bodies reordered on their own, run before and after under
// mlir-runner with the counting allocator.
//
// Each of the 4 iterations of the loop allocates two 1024-byte temporaries,
// %a = exp(x) and %b = exp(acc), and frees them at the end: 2048 bytes as
// written. Computing and consuming %a (o1 = a + acc) before %b exists keeps
// one temporary at a time: 1024 bytes (each exp needs its own). The write
// of the accumulator (acc = b + x) stays after both reads of it in the
// iteration (exp(acc) and a + acc).

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=2048
// EXEC-DAG: sched-peak=1024

// CHECK-LABEL: func.func @f
// CHECK-SAME: #memsched.certificate<peak = 1024, lower_bound = 1024
// CHECK: scf.for %
// CHECK-NEXT: %[[A:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[A]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[A]], %arg1 : memref<256xf32>, memref<256xf32>) outs(%arg2 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: linalg.exp ins(%arg1 : memref<256xf32>) outs(%[[B]] : memref<256xf32>)
// CHECK-NEXT: linalg.add ins(%[[B]], %arg0 : memref<256xf32>, memref<256xf32>) outs(%arg1 : memref<256xf32>)
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: }
func.func @f(%x: memref<256xf32> {llvm.noalias}, %acc: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%acc : memref<256xf32>) outs(%b : memref<256xf32>)
    linalg.add ins(%a, %acc : memref<256xf32>, memref<256xf32>) outs(%o1 : memref<256xf32>)
    linalg.add ins(%b, %x : memref<256xf32>, memref<256xf32>) outs(%acc : memref<256xf32>)
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  return
}
