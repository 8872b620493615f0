// RUN: memsched-opt %s --split-input-file --memsched-schedule --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify -o /dev/null
// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=LIFE

// GPU host code: gpu.alloc / gpu.dealloc.

// Tests synchronous device allocations: the second buffer's work moves
// after the first's free (8192 -> 4096 bytes).
// CHECK-LABEL: func.func @sync_branches
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK-NEXT: %[[A:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[A]], %arg0
// CHECK-NEXT: gpu.memcpy %arg1, %[[A]]
// CHECK-NEXT: gpu.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[B]], %arg0
// CHECK-NEXT: gpu.memcpy %arg2, %[[B]]
// CHECK-NEXT: gpu.dealloc %[[B]]
// CHECK-NEXT: return
func.func @sync_branches(%in: memref<1024xf32> {llvm.noalias}, %o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) {
  %a = gpu.alloc () : memref<1024xf32>
  %b = gpu.alloc () : memref<1024xf32>
  gpu.memcpy %a, %in : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %b, %in : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %o1, %a : memref<1024xf32>, memref<1024xf32>
  gpu.memcpy %o2, %b : memref<1024xf32>, memref<1024xf32>
  gpu.dealloc %a : memref<1024xf32>
  gpu.dealloc %b : memref<1024xf32>
  return
}

// -----

// Tests kernel launches after outlining: gpu.launch_func of a kernel in the
// module reads its first parameter and writes its second, as the kernel's
// body says, so the second buffer's work moves after the first's free
// (8192 -> 4096 bytes), as for the copies above.
// CHECK-LABEL: func.func @launches
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK: %[[A:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[A]], %arg0
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.constant 1024 : index
// CHECK-NEXT: gpu.launch_func @kernels::@copy {{.*}} args(%[[A]] : memref<1024xf32>, %arg1 : memref<1024xf32>)
// CHECK-NEXT: gpu.dealloc %[[A]]
// CHECK-NEXT: %[[B:.+]] = gpu.alloc () : memref<1024xf32>
// CHECK-NEXT: gpu.memcpy %[[B]], %arg0
// CHECK-NEXT: gpu.launch_func @kernels::@copy {{.*}} args(%[[B]] : memref<1024xf32>, %arg2 : memref<1024xf32>)
// CHECK-NEXT: gpu.dealloc %[[B]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%src: memref<1024xf32>, %dst: memref<1024xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<1024xf32>
      memref.store %v, %dst[%t] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @launches(%in: memref<1024xf32> {llvm.noalias}, %o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %a = gpu.alloc () : memref<1024xf32>
    %b = gpu.alloc () : memref<1024xf32>
    gpu.memcpy %a, %in : memref<1024xf32>, memref<1024xf32>
    gpu.memcpy %b, %in : memref<1024xf32>, memref<1024xf32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%a : memref<1024xf32>, %o1 : memref<1024xf32>)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%b : memref<1024xf32>, %o2 : memref<1024xf32>)
    gpu.dealloc %a : memref<1024xf32>
    gpu.dealloc %b : memref<1024xf32>
    return
  }
}

// -----

// Tests the ops that stay barriers: a launch of a kernel that allocates
// (memory memsched does not count) and a gpu.wait for work of unknown
// origin (a token the caller passes). Nothing crosses them: the peak stays
// at 8192 bytes and the order as written.
// CHECK-LABEL: func.func @barrier_launches
// CHECK-SAME: #memsched.certificate<peak = 8192, lower_bound = 8192
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: gpu.alloc
// CHECK-NEXT: gpu.alloc
// CHECK-NEXT: gpu.memcpy
// CHECK-NEXT: gpu.memcpy
// CHECK-NEXT: gpu.launch_func @kernels::@scratch
// CHECK-NEXT: gpu.wait [%arg3]
// CHECK-NEXT: gpu.launch_func @kernels::@copy
// CHECK-NEXT: gpu.dealloc
// CHECK-NEXT: gpu.dealloc
// The kernel launches with known effects are not barriers; these are.
// LIFE-LABEL: memsched lifetimes: @launches
// LIFE-NOT: barrier
// LIFE-LABEL: memsched lifetimes: @barrier_launches
// LIFE: node gpu.launch_func#2 barrier
// LIFE-NEXT: node gpu.wait#3 barrier
// LIFE-NOT: barrier
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scratch(%src: memref<1024xf32>, %dst: memref<1024xf32>) kernel {
      %t = gpu.thread_id x
      %s = memref.alloca() : memref<4xf32>
      %v = memref.load %src[%t] : memref<1024xf32>
      %c0 = arith.constant 0 : index
      memref.store %v, %s[%c0] : memref<4xf32>
      %w = memref.load %s[%c0] : memref<4xf32>
      memref.store %w, %dst[%t] : memref<1024xf32>
      gpu.return
    }
    gpu.func @copy(%src: memref<1024xf32>, %dst: memref<1024xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<1024xf32>
      memref.store %v, %dst[%t] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @barrier_launches(%in: memref<1024xf32> {llvm.noalias}, %o1: memref<1024xf32> {llvm.noalias}, %o2: memref<1024xf32> {llvm.noalias}, %pending: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %a = gpu.alloc () : memref<1024xf32>
    %b = gpu.alloc () : memref<1024xf32>
    gpu.memcpy %a, %in : memref<1024xf32>, memref<1024xf32>
    gpu.memcpy %b, %in : memref<1024xf32>, memref<1024xf32>
    gpu.launch_func @kernels::@scratch blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%a : memref<1024xf32>, %o1 : memref<1024xf32>)
    gpu.wait [%pending]
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%b : memref<1024xf32>, %o2 : memref<1024xf32>)
    gpu.dealloc %a : memref<1024xf32>
    gpu.dealloc %b : memref<1024xf32>
    return
  }
}

// -----

// Tests that workgroup buffers a gpu.launch body allocates and never frees
// end with the kernel: the launch's transient bytes in the workgroup space
// (2 x 256 bytes), and the function is scheduled.
// LIFE-LABEL: memsched lifetimes: @promoted_tiles
// LIFE: space=#gpu.address_space<workgroup> peak-as-written=512
// LIFE: node gpu.launch#0 transient=512
// CHECK-LABEL: func.func @promoted_tiles
// CHECK-SAME: memsched.certificate
func.func @promoted_tiles(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %ta = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %tb = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %ta[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %w = memref.load %ta[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %tb[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// Tests that a workgroup buffer allocated in a loop inside a gpu.launch body
// and never freed still leaves the function unchanged: each iteration would
// allocate another.
func.func @tile_per_iteration(%x: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %c4 step %c1 {
      // expected-remark @+1 {{memsched-schedule: 'tile_per_iteration' left unchanged: allocation in a nested region is not freed in that region}}
      %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%tx] : memref<64xf32>
      memref.store %v, %t[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}
