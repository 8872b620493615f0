// REQUIRES: mlir-runner
// A function argument may be a global: @step's %a is @G (the caller passes
// it), so the read of %a must stay after the copy into @G. The schedule may
// fill %x later (peak 8192 -> 4096 bytes), not read %a before the copy.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=8192
// EXEC-DAG: sched-peak=4096

// CHECK-LABEL: func.func private @step
// CHECK: memref.get_global @G
// CHECK: linalg.copy ins(%[[T:.+]] : memref<1024xf32>) outs(%{{.+}} : memref<1024xf32>)
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK: linalg.fill
// CHECK-NEXT: linalg.add ins(%{{.+}}, %[[X:.+]] : memref<1024xf32>, memref<1024xf32>)
// CHECK-NEXT: memref.dealloc %[[X]]
memref.global "private" @G : memref<1024xf32> = dense<0.0>

func.func private @step(%a: memref<1024xf32>, %out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1024xf32>)
  %t = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%t : memref<1024xf32>)
  %g = memref.get_global @G : memref<1024xf32>
  linalg.copy ins(%t : memref<1024xf32>) outs(%g : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %x : memref<1024xf32>
  return
}

func.func @f(%out: memref<1024xf32>) {
  %g = memref.get_global @G : memref<1024xf32>
  call @step(%g, %out) : (memref<1024xf32>, memref<1024xf32>) -> ()
  return
}
