// REQUIRES: mlir-runner
// Recomputation in a body with several blocks
// (test/Transforms/memsched-rematerialize-blocks.mlir, where the figures are
// derived), run under mlir-runner with the counting allocator (the branch
// condition is a constant: ^train runs): outputs bit-identical, measured
// peak 7168 as written, 4096 after (scheduling alone: 5120), the
// certificate's.
// RUN: env DIFF_PASS=memsched-rematerialize %differential %memsched_src_root/test/Transforms/memsched-rematerialize-blocks.mlir train_or_copy %t bytes=4096 max-extra-compute=0.5 | FileCheck %s
// CHECK: orig-peak=7168
// CHECK: sched-peak=4096
// CHECK: certificate-peak=4096
// CHECK: differential: outputs identical
