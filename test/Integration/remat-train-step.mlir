// REQUIRES: mlir-runner
// --memsched-rematerialize on the corpus's CNN training step (forward, loss,
// backward, SGD update) at 0.9x its certified optimal peak (1292836 bytes,
// test/Integration/corpus): buffers computed again, among them chains (a
// convolution with its activation), run under mlir-runner with the
// counting allocator: outputs bit-identical to the program as written, the
// measured peak equal to the certificate's.
// RUN: env DIFF_PASS=memsched-rematerialize %differential %memsched_src_root/bench/models/train_step_cnn.mlir forward %t bytes=1163552 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// Measured, with the allocator's alignment padding: 1504172 bytes as
// written, 1061604 after (below the budget; scheduling alone reaches
// 1292836 + padding).
// CHECK: orig-peak=1504172
// CHECK: sched-peak=1061604
// CHECK: certificate-peak=1061604
// CHECK: differential: outputs identical
// CERT: remat_ops = {{[1-9][0-9]*}}, extra_compute_ppm =
