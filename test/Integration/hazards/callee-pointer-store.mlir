// REQUIRES: mlir-runner
// A callee that turns its memref argument into an !llvm.ptr and writes
// through it has unknown effects: the call stays ordered against the copy
// that overwrites the same memory, although running the copy first would
// free %x earlier (peak 8192 -> 4096 bytes).

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=8192
// EXEC-DAG: sched-peak=8192

// CHECK-LABEL: func.func @f
// CHECK: call @poke
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.copy
func.func private @poke(%out: memref<1024xf32>, %t: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %base = memref.extract_aligned_pointer_as_index %out : memref<1024xf32> -> index
  %i64 = arith.index_cast %base : index to i64
  %p = llvm.inttoptr %i64 : i64 to !llvm.ptr
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %t[%i] : memref<1024xf32>
    %ii = arith.index_cast %i : index to i64
    %q = llvm.getelementptr %p[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %v, %q : f32, !llvm.ptr
  }
  return
}

func.func @f(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1024xf32>)
  %t = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%t : memref<1024xf32>)
  call @poke(%out, %t) : (memref<1024xf32>, memref<1024xf32>) -> ()
  memref.dealloc %t : memref<1024xf32>
  %half = memref.subview %out[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  %xh = memref.subview %x[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  linalg.copy ins(%xh : memref<512xf32, strided<[1]>>) outs(%half : memref<512xf32, strided<[1]>>)
  memref.dealloc %x : memref<1024xf32>
  return
}
