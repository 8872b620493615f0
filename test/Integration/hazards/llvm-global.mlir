// REQUIRES: mlir-runner
// Loads and stores of an llvm.mlir.global through llvm.mlir.addressof touch
// memory no memref names: they keep their order, although loading the
// global before the loop that stores into it would free %x earlier.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=8192
// EXEC-DAG: sched-peak=8192

// CHECK-LABEL: func.func @f
// CHECK: scf.for
// CHECK: llvm.store
// CHECK: memref.dealloc
// CHECK: llvm.load
llvm.mlir.global internal @acc(0.0 : f32) : f32

func.func @f(%out: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1024xf32>)
  %t = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%t : memref<1024xf32>)
  %g = llvm.mlir.addressof @acc : !llvm.ptr
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %t[%i] : memref<1024xf32>
    %s = llvm.load %g : !llvm.ptr -> f32
    %w = arith.addf %s, %v : f32
    llvm.store %w, %g : f32, !llvm.ptr
  }
  memref.dealloc %t : memref<1024xf32>
  %r = llvm.load %g : !llvm.ptr -> f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<1024xf32>) outs(%out : memref<1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = arith.addf %in, %r : f32
    linalg.yield %y : f32
  }
  memref.dealloc %x : memref<1024xf32>
  return
}
