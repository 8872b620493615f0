// RUN: memsched-opt %s --memsched-test-harness="func=f seed=42" | FileCheck %s
// Errors: memsched-test-harness-errors.mlir.

// Tests the main() built around @f: arguments allocated with identity layout
// and filled, the counter reset right before the call and printed right after,
// hashes of the results then the memref arguments, arguments freed, results
// not (they may alias arguments); a castable layout goes through memref.cast;
// runtime functions are private declarations.
// CHECK-LABEL: func.func @f(
// CHECK-DAG: func.func private @memsched_counter_reset()
// CHECK-DAG: func.func private @memsched_counter_print()
// CHECK-DAG: func.func private @memsched_print_hash_f32(i64, i64, memref<*xf32>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @memsched_print_hash_index(i64, i64, memref<*xindex>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @memsched_print_hash_i32(i64, i64, memref<*xi32>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @main()
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x3xf32>
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: arith.constant 2654435761 : i64
// CHECK: arith.constant 42 : i64
// CHECK: arith.remui
// CHECK: memref.store %{{.+}}, %[[FLAT]][%[[IV]]] : memref<6xf32>
// CHECK: %[[B:.+]] = memref.alloc() : memref<4xi32>
// CHECK: scf.for
// CHECK: %[[BC:.+]] = memref.cast %[[B]] : memref<4xi32> to memref<4xi32, strided<[?], offset: ?>>
// CHECK: %[[S:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK-NOT: memsched
// CHECK: call @memsched_counter_reset() : () -> ()
// CHECK-NEXT: %[[R:.+]]:2 = call @f(%[[A]], %[[BC]], %[[S]])
// CHECK-NEXT: call @memsched_counter_print() : () -> ()
// CHECK: %[[RC:.+]] = memref.cast %[[R]]#0 : memref<2xf32> to memref<*xf32>
// CHECK: call @memsched_print_hash_f32(%{{.+}}, %{{.+}}, %[[RC]])
// CHECK: %[[SLOT:.+]] = memref.alloca() : memref<index>
// CHECK: memref.store %[[R]]#1, %[[SLOT]][] : memref<index>
// CHECK: %[[SC:.+]] = memref.cast %[[SLOT]] : memref<index> to memref<*xindex>
// CHECK: call @memsched_print_hash_index(%{{.+}}, %{{.+}}, %[[SC]])
// CHECK: %[[AC:.+]] = memref.cast %[[A]] : memref<2x3xf32> to memref<*xf32>
// CHECK: call @memsched_print_hash_f32(%{{.+}}, %{{.+}}, %[[AC]])
// CHECK: call @memsched_print_hash_i32(
// CHECK: memref.dealloc %[[A]] : memref<2x3xf32>
// CHECK-NEXT: memref.dealloc %[[B]] : memref<4xi32>
// CHECK-NEXT: return
func.func @f(%a: memref<2x3xf32>, %b: memref<4xi32, strided<[?], offset: ?>>,
             %s: f32) -> (memref<2xf32>, index) {
  %c0 = arith.constant 0 : index
  %r = memref.alloc() : memref<2xf32>
  memref.store %s, %r[%c0] : memref<2xf32>
  return %r, %c0 : memref<2xf32>, index
}
