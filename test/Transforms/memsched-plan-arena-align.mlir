// RUN: memsched-opt %s "--memsched-plan-arena=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s
// RUN: memsched-opt %s --memsched-test-harness=func=vec --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: %arena_run %s vec %t %t.orig.out | FileCheck %s --check-prefix=EXEC

// Tests that arena offsets keep the alignment the stock lowering gives an
// allocation of vector elements: finalize-memref-to-llvm aligns
// memref<4xvector<16xf32>> (no alignment attribute) to its element's 64
// bytes and accesses it with 64-byte-aligned vector loads and stores. Three
// buffers live together: %a (16 bytes of f32, live throughout) and two of
// 256 bytes of vectors. Packed without regard to the element type, a vector
// buffer could sit at offset 16 (or 272); here both sit at multiples of 64
// (0 and 256) and %a after them (512), in an arena aligned to 64 of
// 16 + 256 + 256 = 528 bytes, the peak. The placed program computes the
// same results and the counting allocator measures the certified 528 bytes.

// CHECK: arena of 528 bytes for 3 buffers
// CHECK: memref.alloc() {alignment = 64 : i64, memsched.arena} : memref<528xi8>
// CHECK: memref.view %{{.*}}[%c512][] : memref<528xi8> to memref<4xf32>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<528xi8> to memref<4xvector<16xf32>>
// CHECK: memref.view %{{.*}}[%c256][] : memref<528xi8> to memref<4xvector<16xf32>>
// EXEC: arena-size=528
// EXEC: arena-run: outputs identical, measured = certified
func.func @vec(%in: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l0 = llvm.mlir.constant(0 : i32) : i32
  %z = arith.constant dense<0.0> : vector<16xf32>
  %a = memref.alloc() : memref<4xf32>
  memref.copy %in, %a : memref<4xf32> to memref<4xf32>
  %v1 = memref.alloc() : memref<4xvector<16xf32>>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    %e = llvm.insertelement %x, %z[%l0 : i32] : vector<16xf32>
    memref.store %e, %v1[%i] : memref<4xvector<16xf32>>
  }
  %v2 = memref.alloc() : memref<4xvector<16xf32>>
  scf.for %i = %c0 to %c4 step %c1 {
    %e = memref.load %v1[%i] : memref<4xvector<16xf32>>
    %d = arith.addf %e, %e : vector<16xf32>
    memref.store %d, %v2[%i] : memref<4xvector<16xf32>>
  }
  memref.dealloc %v1 : memref<4xvector<16xf32>>
  scf.for %i = %c0 to %c4 step %c1 {
    %e = memref.load %v2[%i] : memref<4xvector<16xf32>>
    %s = llvm.extractelement %e[%l0 : i32] : vector<16xf32>
    %x = memref.load %a[%i] : memref<4xf32>
    %y = arith.addf %s, %x : f32
    memref.store %y, %out[%i] : memref<4xf32>
  }
  memref.dealloc %v2 : memref<4xvector<16xf32>>
  memref.dealloc %a : memref<4xf32>
  return
}
