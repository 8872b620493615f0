// REQUIRES: mlir-runner
// A chain four buffers deep computed again from the argument
// (`@deep_chain` in test/Transforms/memsched-rematerialize-bound.mlir,
// where the figures are derived), run under mlir-runner with the counting
// allocator: outputs bit-identical to the program as written, and the
// measured peak 6144 -> 5120 bytes, the certificate's; the five exps are
// cloned (ten in all).
// RUN: env DIFF_PASS=memsched-rematerialize %differential %memsched_src_root/test/Transforms/memsched-rematerialize-bound.mlir deep_chain %t bytes=5120 max-extra-compute=0.4 | FileCheck %s
// RUN: grep -c "linalg.exp" %t.sched.mlir | FileCheck %s --check-prefix=CLONED
// CHECK: orig-peak=6144
// CHECK: sched-peak=5120
// CHECK: certificate-peak=5120
// CHECK: differential: outputs identical
// CLONED: 14
