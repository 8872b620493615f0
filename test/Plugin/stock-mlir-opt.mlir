// The packaged mlir-opt of LLVM 22 runs every memsched pass through the
// dialect and pass plugin, here on a real network of the corpus (resnet18).
// Plugin passes are registered after the command line is parsed, so they are
// named in --pass-pipeline rather than as --flags.

// RUN: mlir-opt %memsched_src_root/bench/models/resnet18.mlir \
// RUN:   --load-dialect-plugin=%memsched_plugin --load-pass-plugin=%memsched_plugin \
// RUN:   --pass-pipeline="builtin.module(memsched-schedule, memsched-verify{require}, memsched-check-budget{bytes=1000000})" \
// RUN: | FileCheck %s --check-prefix=SCHED

// RUN: mlir-opt %memsched_src_root/bench/models/resnet18.mlir \
// RUN:   --load-dialect-plugin=%memsched_plugin --load-pass-plugin=%memsched_plugin \
// RUN:   --pass-pipeline="builtin.module(memsched-pipeline, memsched-certify)" \
// RUN: | FileCheck %s --check-prefix=PIPE

// RUN: not mlir-opt %memsched_src_root/bench/models/resnet18.mlir \
// RUN:   --load-dialect-plugin=%memsched_plugin --load-pass-plugin=%memsched_plugin \
// RUN:   --pass-pipeline="builtin.module(memsched-check-budget{bytes=100000})" -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=BUDGET

// The certificate printed by the stock tool parses back with the plugin.
// RUN: mlir-opt %memsched_src_root/bench/models/resnet18.mlir \
// RUN:   --load-dialect-plugin=%memsched_plugin --load-pass-plugin=%memsched_plugin \
// RUN:   --pass-pipeline="builtin.module(memsched-certify)" \
// RUN: | mlir-opt --load-dialect-plugin=%memsched_plugin --load-pass-plugin=%memsched_plugin \
// RUN:   --pass-pipeline="builtin.module(memsched-verify{require})" \
// RUN: | FileCheck %s --check-prefix=ROUNDTRIP

// SCHED: func.func @forward
// SCHED-SAME: memsched.certificate = #memsched.certificate<peak = 540928, lower_bound = 540928
// PIPE: func.func @forward
// PIPE-SAME: memsched.certificate = #memsched.certificate<peak = 540928, lower_bound = 540928
// BUDGET: error: memsched-check-budget: 'forward' peaks at 540928 bytes, above the budget of 100000 bytes; no order of these ops fits
// ROUNDTRIP: #memsched.certificate<peak = 540928, lower_bound = 540928
