// RUN: memsched-opt %s "--memsched-plan-arena=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s
// RUN: memsched-opt %s --memsched-test-harness=func=recurrent_while --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: %arena_run %s recurrent_while %t %t.orig.out | FileCheck %s --check-prefix=EXEC

// An arena next to an scf.while handing out its last copy of the state
// (scheduled test/Pipelines/scf-while-yield.mlir). The while's buffers
// (the copy each `before` run makes, 1024 bytes, and the next state each
// `after` run makes, 1024) are the op's, outside any arena. The
// accumulator each `after` run allocates and frees (1024) and the exp
// temporary after the loop (1024) are never live together: one arena of
// 1024 bytes holds both at offset 0. Memory: an `after` run holds the copy
// it got, the accumulator and the next state, 3072, the peak; after the
// loop the result (1024) and the arena (1024). Run, the results are the
// original program's and the counting allocator measures the certified
// memory.
// CHECK-DAG: remark: memsched-plan-arena: allocation left outside the arena: the scf.while around it hands it out as its result
// CHECK-DAG: remark: memsched-plan-arena: allocation left outside the arena: the scf.while around it hands it to its next run, which frees it
// CHECK: remark: memsched-plan-arena: 'recurrent_while': arena of 1024 bytes for 2 buffers (their largest live total 1024 bytes, placement bound 1024 bytes, optimal), memory 3072 bytes against a peak of 3072 bytes
// CHECK: #memsched.certificate<peak = 3072, lower_bound = 3072, {{.*}}peak_with_arena = 3072, arena_size = 1024>
// EXEC: arena-run: outputs identical, measured = certified
func.func @recurrent_while(%arg0: memref<16x16xf32>, %arg1: memref<16x16xf32>, %arg2: memref<16x16xf32>, %arg3: memref<16x16xf32>) {
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c3 = arith.constant 3 : index
  %0:2 = scf.while (%arg4 = %arg1, %arg5 = %c0, %arg6 = %false) : (memref<16x16xf32>, index, i1) -> (memref<16x16xf32>, index) {
    %1 = arith.cmpi slt, %arg5, %c3 : index
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
    memref.copy %arg4, %alloc_0 : memref<16x16xf32> to memref<16x16xf32>
    %base_buffer_1, %offset_2, %sizes_3:2, %strides_4:2 = memref.extract_strided_metadata %arg4 : memref<16x16xf32> -> memref<f32>, index, index, index, index, index
    scf.if %arg6 {
      memref.dealloc %base_buffer_1 : memref<f32>
    }
    scf.condition(%1) %alloc_0, %arg5 : memref<16x16xf32>, index
  } do {
  ^bb0(%arg4: memref<16x16xf32>, %arg5: index):
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_0 : memref<16x16xf32>)
    linalg.matmul ins(%arg4, %arg2 : memref<16x16xf32>, memref<16x16xf32>) outs(%alloc_0 : memref<16x16xf32>)
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
    linalg.map { math.tanh } ins(%alloc_0 : memref<16x16xf32>) outs(%alloc_1 : memref<16x16xf32>)
    %1 = arith.addi %arg5, %c1 : index
    %base_buffer_2, %offset_3, %sizes_4:2, %strides_5:2 = memref.extract_strided_metadata %arg4 : memref<16x16xf32> -> memref<f32>, index, index, index, index, index
    memref.dealloc %base_buffer_2 : memref<f32>
    memref.dealloc %alloc_0 : memref<16x16xf32>
    scf.yield %alloc_1, %1, %true : memref<16x16xf32>, index, i1
  }
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.map { math.exp } ins(%arg0 : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>)
  linalg.add ins(%0#0, %alloc : memref<16x16xf32>, memref<16x16xf32>) outs(%arg3 : memref<16x16xf32>)
  memref.dealloc %alloc : memref<16x16xf32>
  %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %0#0 : memref<16x16xf32> -> memref<f32>, index, index, index, index, index
  memref.dealloc %base_buffer : memref<f32>
  return
}

