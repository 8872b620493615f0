// REQUIRES: mlir-runner
// Differential execution of --memsched-rematerialize (differential.sh with
// DIFF_PASS): the program and its rewrite with a buffer computed again run
// under mlir-runner with the counting allocator: bit-identical outputs, and
// the measured peak of the rewrite equals its certificate's.
// RUN: env DIFF_PASS=memsched-rematerialize %differential %s train %t bytes=4096 max-extra-compute=0.2 | FileCheck %s
// The scheduled order alone peaks at 5120 bytes (as written: 7168); with
// a0 computed again, 4096 (test/Transforms/memsched-rematerialize.mlir).
// CHECK: orig-peak=7168
// CHECK: sched-peak=4096
// CHECK: certificate-peak=4096
// CHECK: differential: outputs identical
// RUN: grep -c "linalg.exp ins(%arg0" %t.sched.mlir | FileCheck %s --check-prefix=CLONED
// CLONED: 2
func.func @train(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %a1 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%a1 : memref<256xf32>)
  %a2 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a1 : memref<256xf32>) outs(%a2 : memref<256xf32>)
  %a3 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a2 : memref<256xf32>) outs(%a3 : memref<256xf32>)
  %g3 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%a3, %a3 : memref<256xf32>, memref<256xf32>) outs(%g3 : memref<256xf32>)
  %g2 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%g3, %a2 : memref<256xf32>, memref<256xf32>) outs(%g2 : memref<256xf32>)
  %g1 = memref.alloc() : memref<256xf32>
  linalg.mul ins(%g2, %a1 : memref<256xf32>, memref<256xf32>) outs(%g1 : memref<256xf32>)
  linalg.mul ins(%g1, %a0 : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a0 : memref<256xf32>
  memref.dealloc %a1 : memref<256xf32>
  memref.dealloc %a2 : memref<256xf32>
  memref.dealloc %a3 : memref<256xf32>
  memref.dealloc %g3 : memref<256xf32>
  memref.dealloc %g2 : memref<256xf32>
  memref.dealloc %g1 : memref<256xf32>
  return
}
