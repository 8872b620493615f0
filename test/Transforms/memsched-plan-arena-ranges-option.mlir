// RUN: memsched-opt %s "--memsched-plan-arena=ranges=arg0=0:8" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: memsched-opt %t.mlir --memsched-verify -o /dev/null

// Tests that a range given by the `ranges` option, which the placement
// relies on, is written onto the argument, so that the planned function
// says for which sizes it holds and checks without the option. %z (16
// bytes) lives with %x (n x 4 floats, 16*n bytes) and then with %y (128
// bytes); %x and %y at 0. With n <= 8, %x ends at 16*n <= 128, so %z can sit
// at 128, above both: the arena is max(144, 16*n), 144 bytes at every n of
// the range. (Without the bound, %z would have to go above 16*n.)
// CHECK-LABEL: func.func @given(%arg0: index {memsched.range = array<i64: 0, 8>}
// CHECK: %[[ARENA:.*]] = memref.alloc(%{{.*}}) {alignment = 16 : i64, memsched.arena} : memref<?xi8>
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: memref.view %[[ARENA]][%[[C128]]][] : memref<?xi8> to memref<4xf32>
// CHECK-LABEL: func.func @given_arena_size
func.func @given(%n: index, %o: memref<?x4xf32>) {
  %one = arith.constant 1.0 : f32
  %z = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%z : memref<4xf32>)
  %x = memref.alloc(%n) : memref<?x4xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<?x4xf32>)
  memref.copy %x, %o : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %z, %z : memref<4xf32> to memref<4xf32>
  memref.dealloc %x : memref<?x4xf32>
  %y = memref.alloc() : memref<32xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<32xf32>)
  memref.copy %z, %z : memref<4xf32> to memref<4xf32>
  memref.copy %y, %y : memref<32xf32> to memref<32xf32>
  memref.dealloc %y : memref<32xf32>
  memref.dealloc %z : memref<4xf32>
  return
}
