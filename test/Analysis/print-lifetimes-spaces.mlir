// RUN: memsched-opt %s --memsched-print-lifetimes -o /dev/null | FileCheck %s

// Tests the per-space peaks of a body with several blocks: the device
// buffer %d (1024 bytes, space 1) is allocated in ^bb0 and live through
// ^bb1; the host buffer %h (2048 bytes) lives in ^bb1 only. All together
// ^bb1 peaks at 3072 bytes.
// CHECK-LABEL: memsched lifetimes: @blocks
// CHECK-NEXT: blocks=2 body-peak-as-written=3072 at ^bb1
// CHECK-NEXT: space=default peak-as-written=2048 ^bb0=0 ^bb1=2048
// CHECK-NEXT: space=1 peak-as-written=1024 ^bb0=1024 ^bb1=1024
func.func @blocks(%x: memref<256xf32>, %y: memref<512xf32>, %out: memref<256xf32>, %out2: memref<512xf32>) {
  %d = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %d : memref<256xf32> to memref<256xf32, 1>
  cf.br ^bb1
^bb1:
  %h = memref.alloc() : memref<512xf32>
  memref.copy %y, %h : memref<512xf32> to memref<512xf32>
  memref.copy %h, %out2 : memref<512xf32> to memref<512xf32>
  memref.dealloc %h : memref<512xf32>
  memref.copy %d, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d : memref<256xf32, 1>
  return
}

// Tests that a body in the default space alone prints no space lines.
// CHECK-LABEL: memsched lifetimes: @host_only
// CHECK-NEXT: peak-as-written=1024
func.func @host_only(%x: memref<256xf32>, %out: memref<256xf32>) {
  %h = memref.alloc() : memref<256xf32>
  memref.copy %x, %h : memref<256xf32> to memref<256xf32>
  memref.copy %h, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %h : memref<256xf32>
  return
}
