// REQUIRES: mlir-runner
// A store into %a0 through an scf.for iter_args region argument, between the
// producer of %a0 and its late reader.
// Computing %a0 again for the last mul would bring the peak from 5120 to 4096
// bytes (test/Integration/remat-differential.mlir), but the late reader
// must see that write: the write makes the op a writer of %a0 after its
// readers, so %a0 is not a source and the body keeps its 5120-byte peak
// (a0..a3 and g3 live at the first mul in every order; 7168 as written).

// RUN: env DIFF_PASS=memsched-rematerialize %differential %s train %t bytes=4096 max-extra-compute=0.5 | FileCheck %s --check-prefix=EXEC
// RUN: grep -c "linalg.exp ins(%arg0" %t.sched.mlir | FileCheck %s --check-prefix=CLONES

// EXEC: orig-peak=7168
// EXEC: sched-peak=5120
// EXEC: differential: outputs identical
// CLONES: 1
func.func @train(%x: memref<256xf32>, %out: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 5.0 : f32
  %a0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a0 : memref<256xf32>)
  %a1 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a0 : memref<256xf32>) outs(%a1 : memref<256xf32>)
  %a2 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a1 : memref<256xf32>) outs(%a2 : memref<256xf32>)
  %a3 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a2 : memref<256xf32>) outs(%a3 : memref<256xf32>)
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%it = %a0) -> (memref<256xf32>) {
    memref.store %f, %it[%i] : memref<256xf32>
    scf.yield %it : memref<256xf32>
  }
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
