// REQUIRES: mlir-runner
// Corpus model densenet121 (bench/models/densenet121.mlir): after --memsched-schedule the
// measured peak equals the certificate's peak, and the outputs (and the
// arguments, which the program may write) are bit-identical to the original
// program's. -O0 keeps the JIT time of the large function low.

// RUN: memsched-opt %memsched_src_root/bench/models/densenet121.mlir --memsched-schedule=count-alignment-padding -o %t.sched.mlir
// RUN: memsched-opt %memsched_src_root/bench/models/densenet121.mlir --memsched-test-harness=func=forward --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: memsched-opt %t.sched.mlir --memsched-test-harness=func=forward --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.sched.out
// RUN: cat %t.sched.mlir %t.sched.out | FileCheck %s
// RUN: grep memsched-hash %t.orig.out > %t.orig.hash
// RUN: grep memsched-hash %t.sched.out > %t.sched.hash
// RUN: diff %t.orig.hash %t.sched.hash

// CHECK: memsched.certificate = #memsched.certificate<peak = [[PEAK:[0-9]+]],
// CHECK: memsched-measured-peak=[[PEAK]] {{.*}}
// CHECK: memsched-hash result#0
