// REQUIRES: mlir-runner
// arena=argument on a public function with no buffer of its own that calls
// a planned private one: @entry keeps its signature (a runner, or any
// caller outside the module, calls it as written) and allocates the
// 512-byte arena @leaf takes, around the call. Run as placed, the program
// computes the same results and the counting allocator measures the
// certified memory: the arena and its 16 bytes of alignment padding.

// RUN: memsched-opt %s --memsched-test-harness=func=entry --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: env ARENA_MODE=argument %arena_run %s entry %t %t.orig.out | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.arena.mlir

// CHECK: arena-size=512
// CHECK: arena-certified=528
// CHECK: arena-measured=528
// CHECK: arena-run: outputs identical, measured = certified
// IR: func.func private @leaf(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<512xi8> {memsched.arena})
// IR: func.func @entry(%arg0: memref<64xf32>, %arg1: memref<64xf32>) attributes
func.func private @leaf(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.exp ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.exp ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  linalg.exp ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  return
}

func.func @entry(%in: memref<64xf32>, %out: memref<64xf32>) {
  call @leaf(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}
