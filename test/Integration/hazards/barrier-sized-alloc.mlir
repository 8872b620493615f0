// REQUIRES: mlir-runner
// An escaping allocation (passed to an external call) sized by a call with
// side effects: the barriers before the allocation do not keep it allocated
// (no dependency cycle), the size call keeps its place in the barrier chain,
// and the function is scheduled (peak 4128 -> 4096 bytes).

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=4128
// EXEC-DAG: sched-peak=4096

// CHECK-LABEL: func.func @f
// CHECK: %[[K:.+]] = call @next()
// CHECK: %[[N:.+]] = call @next()
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
memref.global "private" @counter : memref<1xindex> = dense<0>

func.func private @next() -> index {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @counter : memref<1xindex>
  %v = memref.load %g[%c0] : memref<1xindex>
  %w = arith.addi %v, %c8 : index
  memref.store %w, %g[%c0] : memref<1xindex>
  return %w : index
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @f(%out: memref<1xindex>, %out3: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %k = call @next() : () -> index
  memref.store %k, %out[%c0] : memref<1xindex>
  %n = call @next() : () -> index
  %m = affine.min affine_map<(d0) -> (d0, 8)>(%n)
  %r = memref.alloc(%m) : memref<?xf32>
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%two : f32) outs(%big : memref<1024xf32>)
  linalg.copy ins(%big : memref<1024xf32>) outs(%out3 : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%r : memref<?xf32>)
  %u = memref.cast %r : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %r : memref<?xf32>
  return
}
