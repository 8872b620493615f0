// REQUIRES: mlir-runner
// A buffer computed again twice (test/Transforms/memsched-rematerialize-
// twice.mlir, where the figures are derived), run under mlir-runner with
// the counting allocator: outputs bit-identical to the program as written,
// and the measured peak 2048 -> 1024 bytes, the certificate's.
// RUN: env DIFF_PASS=memsched-rematerialize %differential %memsched_src_root/test/Transforms/memsched-rematerialize-twice.mlir twice %t bytes=1024 max-extra-compute=0.5 | FileCheck %s
// RUN: grep -c "linalg.fill ins(%arg0" %t.sched.mlir | FileCheck %s --check-prefix=CLONED
// CHECK: orig-peak=2048
// CHECK: sched-peak=1024
// CHECK: certificate-peak=1024
// CHECK: differential: outputs identical
// CLONED: 3
