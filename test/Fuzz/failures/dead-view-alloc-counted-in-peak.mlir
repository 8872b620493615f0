// Found while checking the fix of unused-alloc-counted-in-peak.mlir (bdd0e74)
// against the fuzzer's untouched allocations; the generator makes such
// programs (an arena byte buffer whose memref.view nobody uses, or an unused
// subview/cast of an allocation, never freed).
//
// BUG (fixed; peak accounting, not a miscompile): bdd0e74 gave size 0 to an
// allocation with no uses, but an allocation whose only uses are views that
// nobody uses is just as dead: the lowering erases the unused view, then the
// allocation (convert-linalg-to-loops' greedy driver; --canonicalize too), so
// it is never allocated. The analysis still counts it (`use_empty()` is false),
// live to the end of the function because nothing frees it.
//
// Here: certificate `peak = 4128` (32 + 4096 for %unused), lower_bound = 32;
// measured peak 32 (allocs=1). The same with
//   %unused = memref.alloc() : memref<4096xi8>
//   %v = memref.view %unused[%c0][] : memref<4096xi8> to memref<1024xf32>
// Suggested fix: treat an allocation as dead when it has no uses other than
// side-effect free ops whose results are (transitively) unused, as
// mlir::isOpTriviallyDead / the greedy driver's DCE sees it.
//
// Fixed: an allocation whose uses are all unobservable (side-effect free ops
// with unused results, transitively) takes no memory; kept as a regression
// test: certificate peak == measured peak == 32.
//
// REQUIRES: mlir-runner
// RUN: memsched-opt %s --memsched-schedule=count-alignment-padding -o %t.sched.mlir
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: memsched-opt %t.sched.mlir --memsched-test-harness=func=f --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=MEASURED

// CERT: #memsched.certificate<peak = 32,
// MEASURED: memsched-measured-peak=32 {{.*}}allocs=1

func.func @f(%in: memref<8xf32>) -> memref<8xf32> {
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%in : memref<8xf32>) outs(%b : memref<8xf32>)
  %unused = memref.alloc() : memref<1024xf32>
  %view = memref.subview %unused[0] [8] [1] : memref<1024xf32> to memref<8xf32, strided<[1]>>
  return %b : memref<8xf32>
}
