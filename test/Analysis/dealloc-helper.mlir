// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes -o /dev/null | FileCheck %s

// The lowered form of `bufferization.dealloc (%a, %b) if (%true, %true)`
// (--bufferization-lower-deallocations --canonicalize --cse): a call of
// upstream's deallocation helper and an scf.if free per memref on its
// output (Analysis/MemSched/DeallocHelper.h). Recognised, the two frees
// free %a and %b (64 bytes each) before %t (256) is allocated: 256 bytes.
// CHECK-LABEL: memsched lifetimes: @two
// CHECK-NEXT: peak-as-written=256 peak-tight=256
// CHECK-NEXT: buffer#0 memref.alloc memref<16xf32> size=64 first=memref.copy#0 last=scf.if#9 escape=no
// CHECK-NEXT: buffer#1 memref.alloc memref<16xf32> size=64 first=memref.copy#1 last=scf.if#11 escape=no
  func.func @two(%arg0: memref<16xf32>, %arg1: memref<16xf32>, %arg2: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %alloc : memref<16xf32> to memref<16xf32>
    %alloc_0 = memref.alloc() : memref<16xf32>
    memref.copy %alloc, %alloc_0 : memref<16xf32> to memref<16xf32>
    memref.copy %alloc_0, %arg1 : memref<16xf32> to memref<16xf32>
    %alloc_1 = memref.alloc() : memref<2xindex>
    %alloc_2 = memref.alloc() : memref<2xi1>
    %alloc_3 = memref.alloc() : memref<0xindex>
    %intptr = memref.extract_aligned_pointer_as_index %alloc : memref<16xf32> -> index
    memref.store %intptr, %alloc_1[%c0] : memref<2xindex>
    %intptr_4 = memref.extract_aligned_pointer_as_index %alloc_0 : memref<16xf32> -> index
    memref.store %intptr_4, %alloc_1[%c1] : memref<2xindex>
    memref.store %true, %alloc_2[%c0] : memref<2xi1>
    memref.store %true, %alloc_2[%c1] : memref<2xi1>
    %cast = memref.cast %alloc_1 : memref<2xindex> to memref<?xindex>
    %cast_5 = memref.cast %alloc_2 : memref<2xi1> to memref<?xi1>
    %cast_6 = memref.cast %alloc_3 : memref<0xindex> to memref<?xindex>
    %alloc_7 = memref.alloc() : memref<2xi1>
    %alloc_8 = memref.alloc() : memref<0xi1>
    %cast_9 = memref.cast %alloc_7 : memref<2xi1> to memref<?xi1>
    %cast_10 = memref.cast %alloc_8 : memref<0xi1> to memref<?xi1>
    call @dealloc_helper(%cast, %cast_6, %cast_5, %cast_9, %cast_10) : (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> ()
    %0 = memref.load %alloc_7[%c0] : memref<2xi1>
    scf.if %0 {
      memref.dealloc %alloc : memref<16xf32>
    }
    %1 = memref.load %alloc_7[%c1] : memref<2xi1>
    scf.if %1 {
      memref.dealloc %alloc_0 : memref<16xf32>
    }
    memref.dealloc %alloc_1 : memref<2xindex>
    memref.dealloc %alloc_3 : memref<0xindex>
    memref.dealloc %alloc_2 : memref<2xi1>
    memref.dealloc %alloc_7 : memref<2xi1>
    memref.dealloc %alloc_8 : memref<0xi1>
    %alloc_11 = memref.alloc() : memref<64xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_11 : memref<64xf32>)
    memref.copy %alloc_11, %arg2 : memref<64xf32> to memref<64xf32>
    memref.dealloc %alloc_11 : memref<64xf32>
    return
  }
  func.func private @dealloc_helper(%arg0: memref<?xindex>, %arg1: memref<?xindex>, %arg2: memref<?xi1>, %arg3: memref<?xi1>, %arg4: memref<?xi1>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %false = arith.constant false
    %dim = memref.dim %arg0, %c0 : memref<?xindex>
    %dim_0 = memref.dim %arg1, %c0 : memref<?xindex>
    scf.for %arg5 = %c0 to %dim_0 step %c1 {
      memref.store %false, %arg4[%arg5] : memref<?xi1>
    }
    scf.for %arg5 = %c0 to %dim step %c1 {
      %0 = memref.load %arg0[%arg5] : memref<?xindex>
      %1 = memref.load %arg2[%arg5] : memref<?xi1>
      %2 = scf.for %arg6 = %c0 to %dim_0 step %c1 iter_args(%arg7 = %true) -> (i1) {
        %5 = memref.load %arg1[%arg6] : memref<?xindex>
        %6 = arith.cmpi eq, %5, %0 : index
        scf.if %6 {
          %9 = memref.load %arg4[%arg6] : memref<?xi1>
          %10 = arith.ori %9, %1 : i1
          memref.store %10, %arg4[%arg6] : memref<?xi1>
        }
        %7 = arith.cmpi ne, %5, %0 : index
        %8 = arith.andi %arg7, %7 : i1
        scf.yield %8 : i1
      }
      %3 = scf.for %arg6 = %c0 to %arg5 step %c1 iter_args(%arg7 = %2) -> (i1) {
        %5 = memref.load %arg0[%arg6] : memref<?xindex>
        %6 = arith.cmpi ne, %5, %0 : index
        %7 = arith.andi %arg7, %6 : i1
        scf.yield %7 : i1
      }
      %4 = arith.andi %3, %1 : i1
      memref.store %4, %arg3[%arg5] : memref<?xi1>
    }
    return
  }

// -----

// The same with a function of that name whose body is not upstream's
// helper (one store changed): its frees may not run, %a and %b stay to the
// end and meet %t: 384 bytes.
// CHECK-LABEL: memsched lifetimes: @two
// CHECK-NEXT: peak-as-written=384 peak-tight=384
// CHECK-NEXT: buffer#0 memref.alloc memref<16xf32> size=64 first=memref.copy#0 last=scf.if#9 escape=captured by memref.extract_aligned_pointer_as_index
  func.func @two(%arg0: memref<16xf32>, %arg1: memref<16xf32>, %arg2: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %alloc : memref<16xf32> to memref<16xf32>
    %alloc_0 = memref.alloc() : memref<16xf32>
    memref.copy %alloc, %alloc_0 : memref<16xf32> to memref<16xf32>
    memref.copy %alloc_0, %arg1 : memref<16xf32> to memref<16xf32>
    %alloc_1 = memref.alloc() : memref<2xindex>
    %alloc_2 = memref.alloc() : memref<2xi1>
    %alloc_3 = memref.alloc() : memref<0xindex>
    %intptr = memref.extract_aligned_pointer_as_index %alloc : memref<16xf32> -> index
    memref.store %intptr, %alloc_1[%c0] : memref<2xindex>
    %intptr_4 = memref.extract_aligned_pointer_as_index %alloc_0 : memref<16xf32> -> index
    memref.store %intptr_4, %alloc_1[%c1] : memref<2xindex>
    memref.store %true, %alloc_2[%c0] : memref<2xi1>
    memref.store %true, %alloc_2[%c1] : memref<2xi1>
    %cast = memref.cast %alloc_1 : memref<2xindex> to memref<?xindex>
    %cast_5 = memref.cast %alloc_2 : memref<2xi1> to memref<?xi1>
    %cast_6 = memref.cast %alloc_3 : memref<0xindex> to memref<?xindex>
    %alloc_7 = memref.alloc() : memref<2xi1>
    %alloc_8 = memref.alloc() : memref<0xi1>
    %cast_9 = memref.cast %alloc_7 : memref<2xi1> to memref<?xi1>
    %cast_10 = memref.cast %alloc_8 : memref<0xi1> to memref<?xi1>
    call @dealloc_helper(%cast, %cast_6, %cast_5, %cast_9, %cast_10) : (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> ()
    %0 = memref.load %alloc_7[%c0] : memref<2xi1>
    scf.if %0 {
      memref.dealloc %alloc : memref<16xf32>
    }
    %1 = memref.load %alloc_7[%c1] : memref<2xi1>
    scf.if %1 {
      memref.dealloc %alloc_0 : memref<16xf32>
    }
    memref.dealloc %alloc_1 : memref<2xindex>
    memref.dealloc %alloc_3 : memref<0xindex>
    memref.dealloc %alloc_2 : memref<2xi1>
    memref.dealloc %alloc_7 : memref<2xi1>
    memref.dealloc %alloc_8 : memref<0xi1>
    %alloc_11 = memref.alloc() : memref<64xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_11 : memref<64xf32>)
    memref.copy %alloc_11, %arg2 : memref<64xf32> to memref<64xf32>
    memref.dealloc %alloc_11 : memref<64xf32>
    return
  }
  func.func private @dealloc_helper(%arg0: memref<?xindex>, %arg1: memref<?xindex>, %arg2: memref<?xi1>, %arg3: memref<?xi1>, %arg4: memref<?xi1>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %false = arith.constant false
    %dim = memref.dim %arg0, %c0 : memref<?xindex>
    %dim_0 = memref.dim %arg1, %c0 : memref<?xindex>
    scf.for %arg5 = %c0 to %dim_0 step %c1 {
      memref.store %true, %arg4[%arg5] : memref<?xi1>
    }
    scf.for %arg5 = %c0 to %dim step %c1 {
      %0 = memref.load %arg0[%arg5] : memref<?xindex>
      %1 = memref.load %arg2[%arg5] : memref<?xi1>
      %2 = scf.for %arg6 = %c0 to %dim_0 step %c1 iter_args(%arg7 = %true) -> (i1) {
        %5 = memref.load %arg1[%arg6] : memref<?xindex>
        %6 = arith.cmpi eq, %5, %0 : index
        scf.if %6 {
          %9 = memref.load %arg4[%arg6] : memref<?xi1>
          %10 = arith.ori %9, %1 : i1
          memref.store %10, %arg4[%arg6] : memref<?xi1>
        }
        %7 = arith.cmpi ne, %5, %0 : index
        %8 = arith.andi %arg7, %7 : i1
        scf.yield %8 : i1
      }
      %3 = scf.for %arg6 = %c0 to %arg5 step %c1 iter_args(%arg7 = %2) -> (i1) {
        %5 = memref.load %arg0[%arg6] : memref<?xindex>
        %6 = arith.cmpi ne, %5, %0 : index
        %7 = arith.andi %arg7, %6 : i1
        scf.yield %7 : i1
      }
      %4 = arith.andi %3, %1 : i1
      memref.store %4, %arg3[%arg5] : memref<?xi1>
    }
    return
  }
