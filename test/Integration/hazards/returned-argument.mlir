// REQUIRES: mlir-runner
// Calls whose results are views of their arguments: @identity returns its
// argument, @rows a subview of it. The results alias those operands only,
// so the copy out of %b need not wait for %a's and the schedule runs one
// buffer's work after the other: 512 -> 256 bytes (two 64 x 4-byte
// buffers, then one at a time). The calls touch no memory and may move
// before the writes into their operands; every read through a result stays
// after the write of the buffer it aliases.

// RUN: %differential %s f %t | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s < %t.sched.mlir

// EXEC-DAG: differential: outputs identical
// EXEC-DAG: orig-peak=512
// EXEC-DAG: sched-peak=256

// CHECK-LABEL: func.func @f
// CHECK-SAME: #memsched.certificate<peak = 256, lower_bound = 256
// CHECK-NEXT: %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: %[[R:.+]] = call @identity(%[[A]])
// CHECK-NEXT: memref.copy %arg0, %[[A]]
// CHECK-NEXT: memref.copy %[[R]], %arg1
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: %[[H:.+]] = call @rows(%[[B]])
// CHECK-NEXT: memref.copy %arg0, %[[B]]
// CHECK-NEXT: memref.copy %[[H]], %arg2
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return

func.func private @identity(%x: memref<64xf32>) -> memref<64xf32> {
  return %x : memref<64xf32>
}
func.func private @rows(%x: memref<64xf32>) -> memref<32xf32, strided<[1], offset: 32>> {
  %v = memref.subview %x[32] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 32>>
  return %v : memref<32xf32, strided<[1], offset: 32>>
}
func.func @f(%in: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %half: memref<32xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  memref.copy %in, %b : memref<64xf32> to memref<64xf32>
  %r = call @identity(%a) : (memref<64xf32>) -> memref<64xf32>
  %h = call @rows(%b) : (memref<64xf32>) -> memref<32xf32, strided<[1], offset: 32>>
  memref.copy %r, %out : memref<64xf32> to memref<64xf32>
  memref.copy %h, %half : memref<32xf32, strided<[1], offset: 32>> to memref<32xf32>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return
}
