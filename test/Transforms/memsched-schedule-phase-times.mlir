// RUN: memsched-opt %s --memsched-schedule="remarks phase-times" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: memsched-opt %s --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not="phase times"

// `phase-times`: one more remark per function with the wall time of each
// phase (each exclusive of the phases nested in it) and the total; without
// the option, none. The figures are times: only their shape is checked
// (with the number of runs of a phase that ran more than once: the body is
// analysed before and after scheduling).
// CHECK: remark: memsched-schedule: peak 8192 -> 4096 bytes, lower bound 4096 bytes (optimal)
// CHECK: remark: memsched-schedule: phase times: analysis: aliases {{[0-9]+\.[0-9][0-9][0-9] s \(x2\)}}, analysis: buffers {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, analysis: accesses and dependences {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, analysis: peaks and graph {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, nested bodies {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}},
// CHECK-SAME: peers' orders {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, lower bound {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, search {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}},
// CHECK-SAME: rewrite {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, certificate {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}}, other {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}} (total {{[0-9]+\.[0-9][0-9][0-9] s( \(x[0-9]+\))?}})
// QUIET: remark: memsched-schedule: peak 8192 -> 4096 bytes
func.func @two(%x: f32, %out: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %out : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  linalg.add ins(%b, %out : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %b : memref<1024xf32>
  return
}

// Already in its best order: nothing moves, and the body analysed first is
// the one the certificate is proved on (one run of each analysis phase),
// where the reordered @two above analyses its body again (two runs).
// CHECK: remark: memsched-schedule: peak 4096 -> 4096 bytes, lower bound 4096 bytes (optimal)
// CHECK: remark: memsched-schedule: phase times: analysis: aliases {{[0-9]+\.[0-9][0-9][0-9] s}}, analysis: buffers {{[0-9]+\.[0-9][0-9][0-9] s}}, analysis: accesses and dependences {{[0-9]+\.[0-9][0-9][0-9] s}}, analysis: peaks and graph {{[0-9]+\.[0-9][0-9][0-9] s}},
func.func @kept(%x: f32, %out: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %out : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
  linalg.add ins(%b, %out : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %b : memref<1024xf32>
  return
}
