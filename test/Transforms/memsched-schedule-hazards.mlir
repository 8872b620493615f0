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

// -----

// Tests that scalar producers are emitted after what they use when one of
// them is reached both directly and through a chain (here %x, used by the
// loop body and through %y and %z): the small buffer's loop moves before the
// big buffer's fill, each index op after its operands. Peak as written
// 4096 + 64 bytes, after 4096 (the big buffer alone).
// CHECK-LABEL: func.func @producer_chain
// CHECK-SAME: peak = 4096, lower_bound = 4096
// CHECK-NEXT: %[[SMALL:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %[[F:.*]] = arith.constant 1.0
// CHECK-NEXT: linalg.fill ins(%[[F]] : f32) outs(%[[SMALL]] : memref<16xf32>)
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[X:.*]] = arith.addi %arg0, %[[C1]] : index
// CHECK-NEXT: %[[Y:.*]] = arith.muli %[[X]], %[[C4]] : index
// CHECK-NEXT: %[[Z:.*]] = arith.addi %[[Y]], %[[C1]] : index
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load %[[SMALL]][%[[X]]]
// CHECK-NEXT: memref.store %{{.*}}, %arg1[%[[Z]]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[SMALL]]
// CHECK-NEXT: %[[BIG:.*]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: linalg.fill ins(%[[F]] : f32) outs(%[[BIG]] : memref<1024xf32>)
func.func @producer_chain(%n: index, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%f : f32) outs(%big : memref<1024xf32>)
  %small = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%small : memref<16xf32>)
  %x = arith.addi %n, %c1 : index
  %y = arith.muli %x, %c4 : index
  %z = arith.addi %y, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %small[%x] : memref<16xf32>
    memref.store %v, %out[%z] : memref<64xf32>
  }
  memref.dealloc %small : memref<16xf32>
  %w = memref.load %big[%c0] : memref<1024xf32>
  memref.store %w, %out[%c0] : memref<64xf32>
  memref.dealloc %big : memref<1024xf32>
  return
}

// -----

// Tests that a deallocation of a value that may be either of two buffers is
// refused: the buffer it frees is unknown, so neither the peak (which must
// keep both live) nor the bound (which may count neither) could be certified.
// CHECK-LABEL: func.func @select_dealloc
// CHECK-NOT: memsched.certificate
// CHECK-NEXT: arith.constant
func.func @select_dealloc(%c: i1, %out: memref<16xf32>) {
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%f : f32) outs(%b : memref<16xf32>)
  linalg.add ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  %s = arith.select %c, %a, %b : memref<16xf32>
  %t = arith.select %c, %b, %a : memref<16xf32>
  // expected-remark @+1 {{memsched-schedule: 'select_dealloc' left unchanged: memref.dealloc of a value that may be one of several buffers}}
  memref.dealloc %s : memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// Tests that an allocation's size operand orders the allocation after the
// node that computes it, even when no toucher depends on that node otherwise:
// the small buffer's size is loaded from %sizes after the store that writes
// it from the big buffer, so its whole life lies inside the big buffer's, and
// its value is written back into the big buffer. Peak 4096 + 64 bytes (16
// floats, the bound of affine.min), which is also the lower bound. Without the
// size dependency the small buffer's life would be put before the big one
// (4096) and the planned order would be invalid.
// CHECK-LABEL: func.func @size_written_late
// CHECK-SAME: peak = 4160, lower_bound = 4160
// CHECK: memref.store %{{.+}}, %arg0[
// CHECK-NEXT: memref.load %arg0[
// CHECK-NEXT: affine.min
// CHECK-NEXT: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK-NEXT: linalg.fill
func.func @size_written_late(%sizes: memref<1xindex>, %out: memref<64xf32>, %out3: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%f : f32) outs(%big : memref<1024xf32>)
  %w = memref.load %big[%c0] : memref<1024xf32>
  %wi = arith.fptosi %w : f32 to i64
  %wn = arith.index_cast %wi : i64 to index
  memref.store %wn, %sizes[%c0] : memref<1xindex>
  %n0 = memref.load %sizes[%c0] : memref<1xindex>
  %n = affine.min affine_map<(d0) -> (d0, 16)>(%n0)
  %small = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%f : f32) outs(%small : memref<?xf32>)
  %v = memref.load %small[%c0] : memref<?xf32>
  memref.store %v, %out[%c0] : memref<64xf32>
  memref.dealloc %small : memref<?xf32>
  memref.store %v, %big[%c1] : memref<1024xf32>
  linalg.copy ins(%big : memref<1024xf32>) outs(%out3 : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  return
}

// -----

// Tests that a deallocation's own operands order it: the small buffer is
// freed through a memref.reinterpret_cast whose size is loaded from %sizes
// after the store that writes it from the big buffer, so the free comes after
// the big buffer's fill and the two overlap (4096 + 64 bytes, also the lower
// bound), though the small buffer's last read could run before the big
// buffer exists.
// CHECK-LABEL: func.func @free_through_cast
// CHECK-SAME: peak = 4160, lower_bound = 4160
// CHECK: memref.load %arg0[
// CHECK-NEXT: affine.min
// CHECK-NEXT: memref.reinterpret_cast
// CHECK-NEXT: memref.dealloc
func.func @free_through_cast(%sizes: memref<1xindex>, %out: memref<64xf32>, %out3: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%f : f32) outs(%big : memref<1024xf32>)
  %w = memref.load %big[%c0] : memref<1024xf32>
  %wi = arith.fptosi %w : f32 to i64
  %wn = arith.index_cast %wi : i64 to index
  memref.store %wn, %sizes[%c0] : memref<1xindex>
  %small = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%small : memref<16xf32>)
  %v = memref.load %small[%c0] : memref<16xf32>
  memref.store %v, %out[%c0] : memref<64xf32>
  %n0 = memref.load %sizes[%c0] : memref<1xindex>
  %n = affine.min affine_map<(d0) -> (d0, 16)>(%n0)
  %r = memref.reinterpret_cast %small to offset: [0], sizes: [%n], strides: [1] : memref<16xf32> to memref<?xf32>
  memref.dealloc %r : memref<?xf32>
  memref.store %v, %big[%c1] : memref<1024xf32>
  linalg.copy ins(%big : memref<1024xf32>) outs(%out3 : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  return
}

// -----

// Tests that an allocation sized by a load is scheduled after that load: the
// small buffer's whole life (load of its size, allocation, fill, read, free)
// moves before the big buffer's. Peak as written 4096 + 64 bytes (the small
// buffer at its bound of 16 floats while the big one is live), after 4096.
// CHECK-LABEL: func.func @loaded_size
// CHECK-SAME: peak = 4096, lower_bound = 4096
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[N0:.*]] = memref.load %arg0[%[[C0]]] : memref<1xindex>
// CHECK-NEXT: %[[N:.*]] = affine.min #{{.*}}(%[[N0]])
// CHECK-NEXT: %[[SMALL:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: arith.constant 1.0
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[SMALL]] : memref<?xf32>)
// CHECK-NEXT: memref.load %[[SMALL]]
// CHECK-NEXT: memref.dealloc %[[SMALL]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
func.func @loaded_size(%sizes: memref<1xindex>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%f : f32) outs(%big : memref<1024xf32>)
  %n0 = memref.load %sizes[%c0] : memref<1xindex>
  %n = affine.min affine_map<(d0) -> (d0, 16)>(%n0)
  %small = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%f : f32) outs(%small : memref<?xf32>)
  %v = memref.load %small[%c0] : memref<?xf32>
  memref.store %v, %out[%c0] : memref<64xf32>
  memref.dealloc %small : memref<?xf32>
  %w = memref.load %big[%c0] : memref<1024xf32>
  memref.store %w, %out[%c1] : memref<64xf32>
  memref.dealloc %big : memref<1024xf32>
  return
}
