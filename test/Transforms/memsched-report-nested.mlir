// RUN: rm -rf %t && memsched-opt %s --memsched-schedule="report-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/branches.json

// Tests the report of a function whose branch bodies memsched reorders: the
// timeline before is drawn with the bodies as written. Buffers are 1024
// bytes. The then-branch holds %a and %b together (2048), the else-branch
// %c, %d and %e (3072): the scf.if needs 3072 bytes as written, 1024 once
// each branch holds one buffer at a time (test/Transforms/
// memsched-schedule-nested.mlir, @branches). The scf.if is the body's only
// op: the timeline before peaks at 3072 at it, the one after at 1024.
// CHECK: "function": "@branches",
// CHECK-NEXT: "reordered": true,
// CHECK-NEXT: "peak_before": 3072,
// CHECK-NEXT: "peak_after": 1024,
// CHECK: "before": {
// CHECK-NEXT: "peak": 3072,
// CHECK: "ops": [
// CHECK-NEXT: "scf.if#0"
// CHECK-NEXT: ],
// CHECK-NEXT: "memory": [
// CHECK-NEXT: 3072
// CHECK-NEXT: ],
// CHECK: "after": {
// CHECK-NEXT: "peak": 1024,
// CHECK: "ops": [
// CHECK-NEXT: "scf.if#0"
// CHECK-NEXT: ],
// CHECK-NEXT: "memory": [
// CHECK-NEXT: 1024
// CHECK-NEXT: ],
func.func @branches(%c: i1, %x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}, %o3: memref<256xf32> {llvm.noalias}) {
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
