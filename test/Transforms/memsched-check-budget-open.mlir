// Tests check-budget's verdicts on generated layered programs (no op every
// order passes through), where the min-cut bound stays below the optimum.
// 120 ops: the exact search proves that no order needs less than 40960
// bytes (graph_exact.py, sharing no code with memsched, finds no order of
// the exported graph below it in 739,082 sets), so a budget of 39000 cannot
// be met by any order. 300 ops: the best order found peaks at 53696 bytes and
// the bound proves 53440: a budget between the two is open.
// RUN: python3 %memsched_src_root/bench/synthetic.py --ops 120 --seed 1 > %t.mlir
// RUN: not memsched-opt %t.mlir --memsched-check-budget=bytes=39000 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not memsched-opt %t.mlir --memsched-check-budget=bytes=40960 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: python3 %memsched_src_root/bench/synthetic.py --ops 300 --seed 1 > %t.300.mlir
// RUN: not memsched-opt %t.300.mlir --memsched-check-budget=bytes=53500 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPEN

// NONE: error: memsched-check-budget: 'synthetic' peaks at 255936 bytes, above the budget of 39000 bytes; no order of these ops fits: an exhaustive search of the orders from linalg.copy#0 on proves that every order needs at least 40960 bytes (rematerialisation or tiling is needed)
// NONE: note: where the searched orders start
// FITS: above the budget of 40960 bytes; reordering fits: --memsched-schedule finds an order that peaks at 40960 bytes
// OPEN: error: memsched-check-budget: 'synthetic' peaks at 479680 bytes, above the budget of 53500 bytes; the best order found peaks at 53696 bytes and the lower bound (53440 bytes) does not rule out an order that fits
