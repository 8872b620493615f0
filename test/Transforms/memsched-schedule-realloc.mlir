// RUN: memsched-opt %s --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s
// RUN: %differential %s grow %t | FileCheck %s --check-prefix=EXEC
// RUN: %differential %s across %t.across | FileCheck %s --check-prefix=EXEC-ACROSS

// memref.realloc allocates its result and frees the buffer it is given, in
// one op. %a (16 bytes) grows into %b (32); %big (256) is only used after
// %b is gone. Written, all three meet at the realloc: 304 bytes. Moved
// after %b's free, %big is alone: 256, no order below %big itself.
// CHECK: remark: memsched-schedule: peak 304 -> 256 bytes, lower bound 256 bytes (optimal)
// (@across, below)
// CHECK: remark: memsched-schedule: peak 288 -> 256 bytes, lower bound 256 bytes (optimal)
// CHECK-LABEL: func.func @grow(%arg0
// CHECK: memref.realloc
// CHECK: memref.dealloc %{{.*}} : memref<8xf32>
// CHECK-NEXT: memref.alloc() : memref<64xf32>
// EXEC: orig-peak=304
// EXEC: sched-peak=256
// EXEC: differential: outputs identical
// EXEC-ACROSS: orig-peak=288
// EXEC-ACROSS: sched-peak=256
// EXEC-ACROSS: differential: outputs identical
func.func @grow(%x: memref<4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %out2: memref<64xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %big = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%big : memref<64xf32>)
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<8xf32>)
  %head = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %bhead = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %bhead, %head : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1]>>
  memref.dealloc %b : memref<8xf32>
  memref.copy %big, %out2 : memref<64xf32> to memref<64xf32>
  memref.dealloc %big : memref<64xf32>
  return
}

// The buffer a realloc makes in one block lives on in the next (a live-in
// there: 32 bytes), where %big (256) is written while it is still
// allocated: 288 bytes. Its last use and free moved before %big: 256.
// CHECK-LABEL: func.func @across(%arg0
// CHECK: ^bb1:
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<8xf32>
// CHECK-NEXT: memref.alloc() : memref<64xf32>
func.func @across(%x: memref<4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %out2: memref<64xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  cf.br ^bb1
^bb1:
  %big = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%big : memref<64xf32>)
  memref.copy %big, %out2 : memref<64xf32> to memref<64xf32>
  %head = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %bhead = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %bhead, %head : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1]>>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %big : memref<64xf32>
  return
}
