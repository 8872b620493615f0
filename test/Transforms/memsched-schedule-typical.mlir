// RUN: memsched-opt %s --split-input-file "--memsched-schedule=remarks" --mlir-print-op-on-diagnostic=false --memsched-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s --split-input-file "--memsched-schedule=remarks ranges=@written:arg0=1:256:16" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not memsched-opt %s --split-input-file "--memsched-schedule=ranges=arg0=1:256:x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// Tests the typical value of a dynamic size (docs/dynamic.md): among the
// orders proved never above the order as written over the whole range,
// the one best at the typical value is taken.
//
// Two chains: P fills a static buffer S (4096 bytes) and copies a quarter
// of it into RP (1024 bytes); Q fills D (64*n bytes) and copies a quarter
// of it into RQ (16*n bytes); the last op reads RP and RQ. As written all
// four are live at the copies: 5120 + 80*n. P first: max(5120, 1024 +
// 80*n) (21504 at n = 256, 5120 at 1 and 16). Q first: max(80*n, 16*n +
// 5120) (20480 at 256, 5136 at 1, 5376 at 16). Both are never above the
// order as written. Without a typical value the upper end decides: Q
// first. With n = 16 typical: P first.

// REMARK: remark: memsched-schedule: over arg0 in [1, 256]: peak as written -> max(80*arg0, 16*arg0 + 5120) bytes, never above the order as written (proved); at arg0 = 256: 25600 -> 20480 bytes; at arg0 = 1: 5200 -> 5136 bytes; certificate
// CHECK-LABEL: func.func @written
// CHECK-SAME: peak_expr = "max(80*arg0, 16*arg0 + 5120)"
// CHECK-NEXT: memref.alloc(%arg0) : memref<?x16xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
// OPTION: remark: memsched-schedule: over arg0 in [1, 256]: peak as written -> max(5120, 80*arg0 + 1024) bytes, never above the order as written (proved); at arg0 = 256: 25600 -> 21504 bytes; at arg0 = 1: 5200 -> 5120 bytes; at arg0 = 16 (typical): 6400 -> 5120 bytes
// BAD: ranges entry 'arg0=1:256:x': expected [@FUNC:]argN=LO:HI[:TYPICAL] or [@FUNC:]argN.dD=LO:HI[:TYPICAL] (HI empty for no upper bound)
#id = affine_map<(i) -> (i)>
#row0 = affine_map<(i) -> (0, i)>
func.func @written(%n: index {memsched.range = array<i64: 1, 256>},
                   %o: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<1024xf32>
  %d = memref.alloc(%n) : memref<?x16xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%d : memref<?x16xf32>)
  %rp = memref.alloc() : memref<256xf32>
  %rq = memref.alloc(%n) : memref<?x4xf32>
  %sv = memref.subview %s[0] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1]>>
  memref.copy %sv, %rp : memref<256xf32, strided<[1]>> to memref<256xf32>
  %dv = memref.subview %d[0, 0] [%n, 4] [1, 1] : memref<?x16xf32> to memref<?x4xf32, strided<[16, 1]>>
  memref.copy %dv, %rq : memref<?x4xf32, strided<[16, 1]>> to memref<?x4xf32>
  memref.dealloc %s : memref<1024xf32>
  memref.dealloc %d : memref<?x16xf32>
  %rpv = memref.subview %rp[0] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel"]}
    ins(%rpv, %rq : memref<4xf32, strided<[1]>>, memref<?x4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %rp : memref<256xf32>
  memref.dealloc %rq : memref<?x4xf32>
  return
}

// -----

// REMARK: remark: memsched-schedule: over arg0 in [1, 256]: peak as written -> max(5120, 80*arg0 + 1024) bytes, never above the order as written (proved); at arg0 = 256: 25600 -> 21504 bytes; at arg0 = 1: 5200 -> 5120 bytes; at arg0 = 16 (typical): 6400 -> 5120 bytes
// CHECK-LABEL: func.func @typical
// CHECK-SAME: peak_expr = "max(5120, 80*arg0 + 1024)"
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
#id = affine_map<(i) -> (i)>
#row0 = affine_map<(i) -> (0, i)>
func.func @typical(%n: index {memsched.range = array<i64: 1, 256>, memsched.typical = array<i64: 16>},
                   %o: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<1024xf32>
  %d = memref.alloc(%n) : memref<?x16xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<1024xf32>)
  linalg.fill ins(%cst : f32) outs(%d : memref<?x16xf32>)
  %rp = memref.alloc() : memref<256xf32>
  %rq = memref.alloc(%n) : memref<?x4xf32>
  %sv = memref.subview %s[0] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1]>>
  memref.copy %sv, %rp : memref<256xf32, strided<[1]>> to memref<256xf32>
  %dv = memref.subview %d[0, 0] [%n, 4] [1, 1] : memref<?x16xf32> to memref<?x4xf32, strided<[16, 1]>>
  memref.copy %dv, %rq : memref<?x4xf32, strided<[16, 1]>> to memref<?x4xf32>
  memref.dealloc %s : memref<1024xf32>
  memref.dealloc %d : memref<?x16xf32>
  %rpv = memref.subview %rp[0] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel"]}
    ins(%rpv, %rq : memref<4xf32, strided<[1]>>, memref<?x4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %rp : memref<256xf32>
  memref.dealloc %rq : memref<?x4xf32>
  return
}

// -----

// A typical value outside the range.
// REMARK: remark: memsched-schedule: 'outside' left unchanged: the typical value 300 declared for a dynamic size is outside its range [1, 256]
func.func @outside(%n: index {memsched.range = array<i64: 1, 256>, memsched.typical = array<i64: 300>},
                   %o: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %o, %a : memref<?xf32> to memref<?xf32>
  memref.copy %a, %o : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
