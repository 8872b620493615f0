// RUN: memsched-opt %s "--memsched-check-budget=bytes=131072" -o /dev/null
// RUN: not memsched-opt %s "--memsched-check-budget=bytes=131071" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JUST
// RUN: not memsched-opt %s "--memsched-check-budget=bytes=40000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITTEN
// RUN: not memsched-opt %s --memsched-schedule "--memsched-check-budget=bytes=40000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULED
// RUN: not memsched-opt %s "--memsched-check-budget=bytes=1000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: memsched-opt %s "--memsched-check-budget=bytes=40000 ranges=@two_temporaries:arg0=1:19" -o /dev/null
// RUN: not memsched-opt %s "--memsched-check-budget=bytes=40000 ranges=arg0=1:20" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not memsched-opt %s "--memsched-check-budget=bytes=40000 ranges=arg0=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED

// Tests the budget check over the range of a dynamic size
// (docs/dynamic.md). Two temporaries of 1024*n bytes each (256 x n
// floats), n in [1, 64]: as written both are live together, 2048*n; one
// after the other, 1024*n; each fill alone holds 1024*n in every order.
//  - 131072 = 2048*64: fits at every size, no error;
//  - 131071: not at n = 64 (2048*63 = 129024 fits);
//  - 40000: as written up to n = 19 (2048*19 = 38912, 2048*20 = 40960);
//    no order from n = 40 on (1024*40 = 40960; 1024*39 = 39936 fits);
//    scheduled (1024*n) up to n = 39;
//  - 1000: no order at any size (1024 at n = 1).
// The range given by the `ranges` option narrows the attribute's: n in
// [1, 19] fits 40000 (2048*19 = 38912); in [1, 20] it does not at n = 20
// (40960), while every order needs only 1024*20 = 20480 there.
// OPTION: error: memsched-check-budget: 'two_temporaries' does not fit the budget of 40000 bytes at every size of arg0 in [1, 20]: it peaks at 40960 bytes at arg0 = 20; as written it fits for arg0 <= 19; reordering or a smaller size may fit
// MALFORMED: error: memsched-check-budget: ranges entry 'arg0=1': expected [@FUNC:]argN=LO:HI[:TYPICAL] or [@FUNC:]argN.dD=LO:HI[:TYPICAL] (HI empty for no upper bound)
// JUST: error: memsched-check-budget: 'two_temporaries' does not fit the budget of 131071 bytes at every size of arg0 in [1, 64]: it peaks at 131072 bytes at arg0 = 64; as written it fits for arg0 <= 63; reordering or a smaller size may fit
// WRITTEN: error: memsched-check-budget: 'two_temporaries' does not fit the budget of 40000 bytes at every size of arg0 in [1, 64]: it peaks at 131072 bytes at arg0 = 64; as written it fits for arg0 <= 19; no order of these ops fits for arg0 >= 40 (every order needs 40960 bytes there)
// SCHEDULED: error: memsched-check-budget: 'two_temporaries' does not fit the budget of 40000 bytes at every size of arg0 in [1, 64]: it peaks at 65536 bytes at arg0 = 64; as written it fits for arg0 <= 39; no order of these ops fits for arg0 >= 40 (every order needs 40960 bytes there)
// NEVER: error: memsched-check-budget: 'two_temporaries' does not fit the budget of 1000 bytes at every size of arg0 in [1, 64]: it peaks at 131072 bytes at arg0 = 64; as written it fits at no size; no order of these ops fits at any size: every order needs 1024 bytes at arg0 = 1
func.func @two_temporaries(%n: index {memsched.range = array<i64: 1, 64>},
                           %o1: memref<?xf32>, %o2: memref<?xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x256xf32>
  %b = memref.alloc(%n) : memref<?x256xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x256xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?x256xf32>)
  linalg.reduce ins(%a : memref<?x256xf32>) outs(%o1 : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  linalg.reduce ins(%b : memref<?x256xf32>) outs(%o2 : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  memref.dealloc %a : memref<?x256xf32>
  memref.dealloc %b : memref<?x256xf32>
  return
}
