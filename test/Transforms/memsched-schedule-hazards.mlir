// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: python3 %S/Inputs/long-chain.py 30000 > %t.long.mlir
// RUN: memsched-opt %t.long.mlir --memsched-schedule -o - | FileCheck %s --check-prefix=LONG

// LONG: func.func @long{{.*}}#memsched.certificate<peak = 16, lower_bound = 16

// Tests that an allocation of memrefs, which has no byte size in the data
// layout, is refused with a remark instead of aborting.
// CHECK-LABEL: func.func @memref_of_memrefs
// CHECK-NEXT: memref.alloc() : memref<4xmemref<8xf32>>
func.func @memref_of_memrefs() {
  // expected-remark @+1 {{memsched-schedule: 'memref_of_memrefs' left unchanged: element type memref<8xf32> has no byte size in the data layout}}
  %a = memref.alloc() : memref<4xmemref<8xf32>>
  memref.dealloc %a : memref<4xmemref<8xf32>>
  return
}

// -----

// Tests that byte counts beyond 64 bits are refused, for one allocation and
// for a sum.
// CHECK-LABEL: func.func @huge_shape
func.func @huge_shape() {
  // expected-remark @+1 {{memsched-schedule: 'huge_shape' left unchanged: the allocation's byte size does not fit in 64 bits}}
  %a = memref.alloc() : memref<4294967296x4294967296xf32>
  memref.dealloc %a : memref<4294967296x4294967296xf32>
  return
}

// CHECK-LABEL: func.func @huge_sum
func.func @huge_sum() {
  %a = memref.alloc() : memref<1152921504606846976xi64>
  // expected-remark @+1 {{memsched-schedule: 'huge_sum' left unchanged: the block's allocations add up to more than 2^64 bytes}}
  %b = memref.alloc() : memref<1152921504606846976xi64>
  memref.dealloc %a : memref<1152921504606846976xi64>
  memref.dealloc %b : memref<1152921504606846976xi64>
  return
}

// -----

// Tests that views with zero strides (a broadcast read) are compared without
// dividing by their strides, and stay ordered after the write they read.
// CHECK-LABEL: func.func @zero_stride
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[R0:.+]] : memref<4xf32, strided<[0]>>)
// CHECK-NEXT: linalg.copy ins(%{{.+}} : memref<4xf32, strided<[0]>>)
func.func @zero_stride(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %r0 = memref.reinterpret_cast %a to offset: [0], sizes: [4], strides: [0] : memref<8xf32> to memref<4xf32, strided<[0]>>
  %r1 = memref.reinterpret_cast %a to offset: [0], sizes: [4], strides: [0] : memref<8xf32> to memref<4xf32, strided<[0]>>
  linalg.fill ins(%one : f32) outs(%r0 : memref<4xf32, strided<[0]>>)
  linalg.copy ins(%r1 : memref<4xf32, strided<[0]>>) outs(%out : memref<4xf32>)
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// Tests that a view nobody reads and a loop whose body only takes views stay
// before the deallocation of the buffer they view.
// CHECK-LABEL: func.func @views_before_free
// CHECK: linalg.copy
// CHECK: memref.subview %[[A:.+]][0] [2] [1]
// CHECK: scf.for
// CHECK: memref.subview
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK: memref.alloc() : memref<64xf32>
func.func @views_before_free(%out: memref<8xf32>, %out2: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  linalg.copy ins(%a : memref<8xf32>) outs(%out : memref<8xf32>)
  %big = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%big : memref<64xf32>)
  linalg.copy ins(%big : memref<64xf32>) outs(%out2 : memref<64xf32>)
  memref.dealloc %big : memref<64xf32>
  %v = memref.subview %a[0] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1]>>
  scf.for %i = %c0 to %c4 step %c1 {
    %w = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
  }
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// Tests that a buffer allocated and freed with nothing in between counts in
// the lower bound as in the peak.
// CHECK-LABEL: func.func @untouched
// CHECK-SAME: peak = 1105920, lower_bound = 1105920
func.func @untouched(%out: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<16xf32>)
  %a = memref.alloc() : memref<276480xf32>
  memref.dealloc %a : memref<276480xf32>
  return
}

// -----

// Tests that a buffer returned without any other use counts in the lower
// bound: it is allocated in every order.
// CHECK-LABEL: func.func @returned_untouched
// CHECK-SAME: peak = 128, lower_bound = 128
func.func @returned_untouched(%out: memref<16xf32>) -> memref<32xf32> {
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<16xf32>)
  linalg.copy ins(%t : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %t : memref<16xf32>
  %a = memref.alloc() : memref<32xf32>
  return %a : memref<32xf32>
}
