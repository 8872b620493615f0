// Tests check-budget's third verdict: no order found fits, but the lower
// bound does not rule one out. A generated 120-op layered program (no op
// every order passes through) where the best order found peaks at 40960
// bytes and the bound proves 38080: a budget between the two is open.
// RUN: python3 %memsched_src_root/bench/synthetic.py --ops 120 --seed 1 > %t.mlir
// RUN: not memsched-opt %t.mlir --memsched-check-budget=bytes=39000 -o /dev/null 2>&1 | FileCheck %s
// RUN: not memsched-opt %t.mlir --memsched-check-budget=bytes=40960 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FITS

// CHECK: error: memsched-check-budget: 'synthetic' peaks at 255936 bytes, above the budget of 39000 bytes; the best order found peaks at 40960 bytes and the lower bound (38080 bytes) does not rule out an order that fits
// FITS: above the budget of 40960 bytes; reordering fits: --memsched-schedule finds an order that peaks at 40960 bytes
