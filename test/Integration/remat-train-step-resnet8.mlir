// REQUIRES: mlir-runner
// --memsched-rematerialize on the corpus's ResNet-8 training step at 0.8x
// its certified optimal peak (1520980 bytes, test/Integration/corpus):
// 1216784 bytes. The plan made from the body as scheduled stops at
// 1258696 bytes (no single recomputation lowers it further); the one made
// from the body as written meets the budget (docs/remat.md, "The budget
// loop"). Run under mlir-runner with the counting allocator: outputs
// bit-identical to the program as written, the measured peak equal to the
// certificate's and below the budget. (The budget counts the allocator's
// alignment padding here, as the measured peaks do.)
// RUN: env DIFF_PASS=memsched-rematerialize %differential %memsched_src_root/bench/models/train_step_resnet8.mlir forward %t bytes=1216784 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// CHECK: orig-peak=1704748
// CHECK: sched-peak=1129992
// CHECK: certificate-peak=1129992
// CHECK: differential: outputs identical
// CERT: remat_ops = {{[1-9][0-9]*}}, extra_compute_ppm =
