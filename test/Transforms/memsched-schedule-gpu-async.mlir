// RUN: memsched-opt %s --split-input-file --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false --verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s --split-input-file --memsched-schedule --memsched-verify -o /dev/null
// RUN: memsched-opt %s --split-input-file --memsched-print-lifetimes=deps=true -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=LIFE

// Asynchronous GPU host code (what --gpu-async-region emits): gpu.alloc
// async, gpu.dealloc async, gpu.memcpy async and gpu.launch_func async run
// on the device in the order of their tokens; a synchronous gpu.wait
// blocks the host until the work it waits for has completed. Device
// buffers (gpu.alloc) count in #gpu.address_space<global>, host buffers in
// the default space.

// Tests host work around a chain of device work. The device buffer %d
// (4096 bytes) is freed by the device; the host temporaries %h1 and %h2
// (4096 bytes each) are used after the gpu.wait that waits for the free,
// and the copy of %out waits for the device's write to it. As written both
// host buffers are allocated together (8192 bytes); one after the other
// they take 4096 (optimal: each copy needs its buffer). The device space
// holds %d alone: 4096.
// CHECK-LABEL: func.func @host_around_device
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096
// CHECK-SAME: spaces = [#memsched.space<peak = 4096, lower_bound = 4096>, #memsched.space<memory_space = #gpu.address_space<global>, peak = 4096, lower_bound = 4096>]
// CHECK: gpu.dealloc async
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: %[[H1:.+]] = memref.alloc()
// CHECK-NEXT: memref.copy %arg1, %[[H1]]
// CHECK-NEXT: memref.copy %[[H1]], %arg2
// CHECK-NEXT: memref.dealloc %[[H1]]
// CHECK-NEXT: %[[H2:.+]] = memref.alloc()
// CHECK-NEXT: memref.copy %arg0, %[[H2]]
// CHECK-NEXT: memref.copy %[[H2]], %arg3
// CHECK-NEXT: memref.dealloc %[[H2]]
// CHECK-NEXT: return
// The wait takes the device work's accesses: the copy of %out after it.
// The host buffers' first users stay after the wait for the free.
// LIFE-LABEL: memsched lifetimes: @host_around_device
// LIFE: deps gpu.wait#5 <- gpu.memcpy#3 gpu.dealloc#4
// LIFE-NEXT: deps memref.copy#6 <- gpu.wait#5
// LIFE-NEXT: deps memref.copy#7 <- gpu.wait#5
func.func @host_around_device(%in: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %r1: memref<1024xf32> {llvm.noalias}, %r2: memref<1024xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 12288 -> 4096 bytes, lower bound 4096 bytes (optimal); memory space default: 8192 -> 4096 bytes, lower bound 4096 bytes (minimised); memory space #gpu.address_space<global>: 4096 -> 4096 bytes, lower bound 4096 bytes}}
  %h1 = memref.alloc() : memref<1024xf32>
  %h2 = memref.alloc() : memref<1024xf32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<1024xf32>
  %t2 = gpu.memcpy async [%t1] %d, %in : memref<1024xf32>, memref<1024xf32>
  %t3 = gpu.memcpy async [%t2] %out, %d : memref<1024xf32>, memref<1024xf32>
  %t4 = gpu.dealloc async [%t3] %d : memref<1024xf32>
  gpu.wait [%t4]
  memref.copy %out, %h1 : memref<1024xf32> to memref<1024xf32>
  memref.copy %in, %h2 : memref<1024xf32> to memref<1024xf32>
  memref.copy %h1, %r1 : memref<1024xf32> to memref<1024xf32>
  memref.copy %h2, %r2 : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %h1 : memref<1024xf32>
  memref.dealloc %h2 : memref<1024xf32>
  return
}

// -----

// Tests two chains of device work that --gpu-async-region starts around a
// host op: the second chain's allocation does not wait for the first
// chain's free by tokens, but the host issues it after the gpu.wait for
// that free. The device buffers are never allocated together: 4096 bytes
// in the device space; the host buffer (4096) lives with the second:
// 8192 bytes in all.
// CHECK-LABEL: func.func @chains_around_host_op
// CHECK-SAME: #memsched.certificate<peak = 8192, lower_bound = 8192
// CHECK-SAME: #memsched.space<memory_space = #gpu.address_space<global>, peak = 4096, lower_bound = 4096>
// LIFE-LABEL: memsched lifetimes: @chains_around_host_op
// LIFE: deps gpu.alloc#8 <- gpu.wait#5 gpu.wait#7
func.func @chains_around_host_op(%in: memref<1024xf32>, %out: memref<1024xf32>, %r: memref<1024xf32>) {
  // expected-remark @-1 {{memsched-schedule: peak 8192 -> 8192 bytes, lower bound 8192 bytes (optimal); memory space default: 4096 -> 4096 bytes, lower bound 4096 bytes (minimised); memory space #gpu.address_space<global>: 4096 -> 4096 bytes, lower bound 4096 bytes}}
  %0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%0] () : memref<1024xf32>
  %1 = gpu.memcpy async [%t1] %d, %in : memref<1024xf32>, memref<1024xf32>
  %2 = gpu.memcpy async [%1] %out, %d : memref<1024xf32>, memref<1024xf32>
  %3 = gpu.dealloc async [%2] %d : memref<1024xf32>
  gpu.wait [%3]
  %h = memref.alloc() : memref<1024xf32>
  memref.copy %out, %h : memref<1024xf32> to memref<1024xf32>
  %4 = gpu.wait async
  %e, %t5 = gpu.alloc async [%4] () : memref<1024xf32>
  %5 = gpu.memcpy async [%t5] %e, %h : memref<1024xf32>, memref<1024xf32>
  %6 = gpu.memcpy async [%5] %r, %e : memref<1024xf32>, memref<1024xf32>
  %7 = gpu.dealloc async [%6] %e : memref<1024xf32>
  gpu.wait [%7]
  memref.dealloc %h : memref<1024xf32>
  return
}

// -----

// Tests that a host op reading what device work wrote stays after the
// gpu.wait for that work (the device may write %out until then), while the
// host op that touches nothing of it is free to move: the gpu.wait takes
// the accesses of the work it waits for.
// LIFE-LABEL: memsched lifetimes: @wait_orders_host_reads
// LIFE: deps gpu.wait#2 <- gpu.memcpy#1
// LIFE-NEXT: deps memref.copy#3 <- gpu.wait#2
// LIFE-NEXT: deps memref.copy#4 <- none
func.func @wait_orders_host_reads(%in: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %r: memref<1024xf32> {llvm.noalias}, %s: memref<1024xf32> {llvm.noalias}, %u: memref<1024xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 0 -> 0 bytes, lower bound 0 bytes (optimal)}}
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %out, %in : memref<1024xf32>, memref<1024xf32>
  gpu.wait [%t1]
  memref.copy %out, %r : memref<1024xf32> to memref<1024xf32>
  memref.copy %s, %u : memref<1024xf32> to memref<1024xf32>
  return
}

// -----

// Tests two chains no token orders: each allocation comes before the other
// chain's free in the block, and the device may run it before that free:
// both buffers count together (8192 bytes), in every order memsched picks.
// CHECK-LABEL: func.func @two_chains
// CHECK-SAME: #memsched.certificate<peak = 8192, lower_bound = 8192
// LIFE-LABEL: memsched lifetimes: @two_chains
// LIFE: deps gpu.dealloc#5 <- gpu.alloc#1 gpu.alloc#2 gpu.memcpy#3
func.func @two_chains(%in: memref<1024xf32>, %o1: memref<1024xf32>, %o2: memref<1024xf32>) {
  // expected-remark @-1 {{memsched-schedule: peak 8192 -> 8192 bytes, lower bound 8192 bytes (optimal); memory space #gpu.address_space<global>: 8192 -> 8192 bytes, lower bound 8192 bytes}}
  %t0 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  %b, %tb = gpu.alloc async [%t0] () : memref<1024xf32>
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  %t2 = gpu.memcpy async [%t1] %o1, %a : memref<1024xf32>, memref<1024xf32>
  %t3 = gpu.dealloc async [%t2] %a : memref<1024xf32>
  %t4 = gpu.memcpy async [%tb] %b, %in : memref<1024xf32>, memref<1024xf32>
  %t5 = gpu.memcpy async [%t4] %o2, %b : memref<1024xf32>, memref<1024xf32>
  %t6 = gpu.dealloc async [%t5] %b : memref<1024xf32>
  gpu.wait [%t3, %t6]
  return
}

// -----

// Tests a device allocation after a device free in the block that neither
// waits for the free's token nor is issued after a gpu.wait for it: the
// device may allocate %b while %a is still allocated, which the block's
// order would not count. Refused.
func.func @alloc_may_pass_free(%in: memref<1024xf32>, %o1: memref<1024xf32>, %o2: memref<1024xf32>) {
  %t0 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  %t2 = gpu.memcpy async [%t1] %o1, %a : memref<1024xf32>, memref<1024xf32>
  %t3 = gpu.dealloc async [%t2] %a : memref<1024xf32>
  // expected-remark @+1 {{memsched-schedule: 'alloc_may_pass_free' left unchanged: gpu.alloc async may take memory before the device has run the gpu.dealloc async (line 146), which frees memory before it in the block: neither its tokens nor a gpu.wait between them wait for the free; make it wait for the free's token, or wait for that token (gpu.wait) before it (--gpu-async-region does either)}}
  %b, %tb = gpu.alloc async [%t0] () : memref<1024xf32>
  %t4 = gpu.memcpy async [%tb] %b, %in : memref<1024xf32>, memref<1024xf32>
  %t5 = gpu.memcpy async [%t4] %o2, %b : memref<1024xf32>, memref<1024xf32>
  %t6 = gpu.dealloc async [%t5] %b : memref<1024xf32>
  gpu.wait [%t3, %t6]
  return
}

// -----

// Tests a host allocation after a device free with no gpu.wait between:
// the host may allocate while the device buffer is still allocated.
// Refused (the peak of all spaces together would be too low).
func.func @host_alloc_without_wait(%in: memref<1024xf32>, %o: memref<1024xf32>) {
  %t0 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  %t2 = gpu.dealloc async [%t1] %a : memref<1024xf32>
  // expected-remark @+1 {{memsched-schedule: 'host_alloc_without_wait' left unchanged: memref.alloc may take memory before the device has run the gpu.dealloc async (line 165)}}
  %h = memref.alloc() : memref<1024xf32>
  memref.copy %in, %h : memref<1024xf32> to memref<1024xf32>
  memref.copy %h, %o : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %h : memref<1024xf32>
  gpu.wait [%t2]
  return
}

// -----

// Tests asynchronous launches of a kernel in the module: each reads its
// first parameter and writes its second when the device runs it, and a
// launch with known effects is no barrier. The workgroup buffer of a
// gpu.launch async body (512 bytes) counts while that launch runs; two such
// launches chained by tokens never run together: 512 bytes.
// CHECK-LABEL: func.func @launches
// CHECK-SAME: #memsched.space<memory_space = #gpu.address_space<workgroup>, peak = 512, lower_bound = 512>
// LIFE-LABEL: memsched lifetimes: @launches
// LIFE-NOT: barrier
// LIFE: node gpu.launch#4 transient=512
// LIFE-NEXT: node gpu.launch#5 transient=512
// LIFE-NOT: barrier
// LIFE: deps gpu.wait#9 <- gpu.launch#4 gpu.launch#5 gpu.launch_func#6 gpu.dealloc#8
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%src: memref<1024xf32>, %dst: memref<1024xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<1024xf32>
      memref.store %v, %dst[%t] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @launches(%in: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) {
    // expected-remark @-1 {{memsched-schedule: peak 8704 -> 8704 bytes, lower bound 8704 bytes (optimal); memory space #gpu.address_space<global>: 8192 -> 8192 bytes, lower bound 8192 bytes (minimised); memory space #gpu.address_space<workgroup>: 512 -> 512 bytes, lower bound 512 bytes}}
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %t0 = gpu.wait async
    %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
    %b, %tb = gpu.alloc async [%ta] () : memref<1024xf32>
    %t1 = gpu.memcpy async [%tb] %a, %in : memref<1024xf32>, memref<1024xf32>
    %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
      %v = memref.load %a[%tx] : memref<1024xf32>
      memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      %u = memref.load %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %u, %b[%tx] : memref<1024xf32>
      gpu.terminator
    }
    %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
      %v = memref.load %b[%tx] : memref<1024xf32>
      memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      %u = memref.load %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %u, %a[%tx] : memref<1024xf32>
      gpu.terminator
    }
    %t4 = gpu.launch_func async [%t3] @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<1024xf32>, %out : memref<1024xf32>)
    %t5 = gpu.dealloc async [%t4] %a : memref<1024xf32>
    %t6 = gpu.dealloc async [%t5] %b : memref<1024xf32>
    gpu.wait [%t6]
    return
  }
}

// -----

// Tests two launches whose workgroup buffers no token keeps apart: the
// device may run them together. Refused.
func.func @concurrent_launches(%x: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<1024xf32>
    memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  // expected-remark @+1 {{memsched-schedule: 'concurrent_launches' left unchanged: gpu.launch async may take memory before the device has run the gpu.launch async (line 241)}}
  %t2 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<1024xf32>
    memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  gpu.wait [%t1, %t2]
  return
}

// -----

// Tests an asynchronous allocation in a nested region: refused with the
// place memsched follows them.
func.func @nested(%c: i1, %in: memref<1024xf32>) {
  %t0 = gpu.wait async
  scf.if %c {
    // expected-remark @+1 {{memsched-schedule: 'nested' left unchanged: gpu.alloc async in a nested region or a callee: memsched follows asynchronous allocations in the body it schedules (a single block), where their tokens order them; allocate in the function's body, or inline the callee first (--inline)}}
    %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
    %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
    %t2 = gpu.dealloc async [%t1] %a : memref<1024xf32>
    gpu.wait [%t2]
  }
  gpu.wait [%t0]
  return
}

// -----

// Tests an asynchronous allocation in a body with several blocks: refused.
func.func @blocks(%c: i1, %in: memref<1024xf32>) {
  %t0 = gpu.wait async
  // expected-remark @+1 {{memsched-schedule: 'blocks' left unchanged: gpu.alloc async in a body with several blocks: memsched follows asynchronous allocations and frees in bodies of one block; convert the control flow to scf first (--lift-cf-to-scf)}}
  %a, %ta = gpu.alloc async [%t0] () : memref<1024xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %t1 = gpu.memcpy async [%ta] %a, %in : memref<1024xf32>, memref<1024xf32>
  cf.br ^bb2
^bb2:
  %t2 = gpu.dealloc async [%ta] %a : memref<1024xf32>
  gpu.wait [%t2]
  return
}

// -----

// Tests a gpu.wait for work of unknown origin (it also waits for a token the
// caller passes): a barrier, which still takes the accesses of the work it
// is known to wait for. The host frees %h only after it: the device copy
// may write %h until then. %h2 then takes its place: 512 -> 256 bytes.
// CHECK-LABEL: func.func @wait_with_argument_token
// CHECK: %[[H:.+]] = memref.alloc()
// CHECK-NEXT: gpu.memcpy async [%{{.+}}] %[[H]]
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: memref.dealloc %[[H]]
// CHECK-NEXT: memref.alloc()
// LIFE-LABEL: memsched lifetimes: @wait_with_argument_token
// LIFE: buffer#0 memref.alloc {{.*}} escape=used by asynchronous GPU work
// LIFE: node gpu.wait#2 barrier
func.func @wait_with_argument_token(%tok: !gpu.async.token, %d: memref<64xf32>, %o: memref<64xf32>) {
  // expected-remark @-1 {{memsched-schedule: peak 512 -> 256 bytes, lower bound 256 bytes (optimal)}}
  %h = memref.alloc() : memref<64xf32>
  %h2 = memref.alloc() : memref<64xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<64xf32>, memref<64xf32>
  gpu.wait [%t1, %tok]
  memref.copy %d, %h2 : memref<64xf32> to memref<64xf32>
  memref.copy %h2, %o : memref<64xf32> to memref<64xf32>
  memref.dealloc %h : memref<64xf32>
  memref.dealloc %h2 : memref<64xf32>
  return
}

// -----

// Tests a loop body whose chain starts from the iter_arg token: the
// gpu.wait in the body waits for work of unknown origin too. The body is
// reordered (%h2's copies need no temporary of %h's), but %h is freed only
// after the wait.
// CHECK-LABEL: func.func @loop_body_chain
// CHECK: scf.for %
// CHECK-NEXT: %[[H:.+]] = memref.alloc()
// CHECK-NEXT: gpu.memcpy async [%{{.+}}] %[[H]]
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @loop_body_chain(%d: memref<64xf32>, %in: memref<64xf32>, %o: memref<64xf32>, %n: index) {
  // expected-remark @-1 {{memsched-schedule: peak 512 -> 256 bytes, lower bound 256 bytes (optimal); 1 loop or branch body reordered}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> !gpu.async.token {
    %h = memref.alloc() : memref<64xf32>
    %h2 = memref.alloc() : memref<64xf32>
    %t1 = gpu.memcpy async [%t] %h, %d : memref<64xf32>, memref<64xf32>
    gpu.wait [%t1]
    memref.copy %in, %h2 : memref<64xf32> to memref<64xf32>
    memref.copy %h2, %o : memref<64xf32> to memref<64xf32>
    memref.dealloc %h : memref<64xf32>
    memref.dealloc %h2 : memref<64xf32>
    %t2 = gpu.wait async
    scf.yield %t2 : !gpu.async.token
  }
  gpu.wait [%r]
  return
}

// -----

// Tests a host allocation whose only user waits for a device free by its
// token: the host allocates %h where the op is issued, not when the copy
// runs, so the device may still hold %d. Refused.
func.func @host_alloc_used_after_free_token(%i: memref<64xf32>) -> (memref<64xf32>, !gpu.async.token) {
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %i : memref<64xf32>, memref<64xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<64xf32>
  // expected-remark @+1 {{memsched-schedule: 'host_alloc_used_after_free_token' left unchanged: memref.alloc may take memory before the device has run the gpu.dealloc async}}
  %h = memref.alloc() : memref<64xf32>
  %t4 = gpu.memcpy async [%t3] %h, %i : memref<64xf32>, memref<64xf32>
  return %h, %t4 : memref<64xf32>, !gpu.async.token
}

// -----

// Tests an allocation nothing in the block uses, after a device free:
// where it is allocated relative to the free is not known. Refused.
func.func @untouched_after_free(%i: memref<64xf32>) -> memref<64xf32> {
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %i : memref<64xf32>, memref<64xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<64xf32>
  // expected-remark @+1 {{memsched-schedule: 'untouched_after_free' left unchanged: memref.alloc makes a buffer no op of the block uses while the device frees memory asynchronously}}
  %x = memref.alloc() : memref<64xf32>
  gpu.wait [%t3]
  return %x : memref<64xf32>
}

// -----

// Tests a gpu.launch async with workgroup memory inside a region: the device
// may run it together with the launch after the region. Refused.
func.func @nested_launch(%x: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %t0 = gpu.wait async
  %t1 = scf.execute_region -> !gpu.async.token {
    // expected-remark @+1 {{memsched-schedule: 'nested_launch' left unchanged: gpu.launch async that allocates while it runs, in a nested region or a callee}}
    %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%tx] : memref<1024xf32>
      memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    scf.yield %t : !gpu.async.token
  }
  %t2 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %w = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<1024xf32>
    memref.store %v, %w[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  gpu.wait [%t1, %t2]
  return
}

// -----

// Tests a wait for work with an effect on no value (gpu.printf): a barrier,
// so the host's print stays after it.
// LIFE-LABEL: memsched lifetimes: @wait_for_printf
// LIFE: node gpu.launch#1 barrier
// LIFE-NEXT: node gpu.wait#2 barrier
func.func @wait_for_printf(%v: f32) {
  // expected-remark @-1 {{memsched-schedule: peak 0 -> 0 bytes, lower bound 0 bytes (optimal)}}
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.printf "kernel\n"
    gpu.terminator
  }
  gpu.wait [%t1]
  vector.print %v : f32
  return
}

// -----

// Tests the remark for a gpu.alloc of a dynamic size: clamping it does not
// bound it (gpu.alloc has no value-bounds model), so the remark says what
// does.
#clamp = affine_map<(d0) -> (d0, 64)>
func.func @dynamic_device_size(%n0: index, %i: memref<?xf32>) {
  %n = affine.min #clamp(%n0)
  %t0 = gpu.wait async
  // expected-remark @+1 {{memsched-schedule: 'dynamic_device_size' left unchanged: dynamic dimension 0 has no constant upper bound (memref<?xf32>); gpu.alloc gives no bound of its sizes: make the size static, or allocate with memref.alloc, whose sizes clamped with affine.min are bounded}}
  %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %d, %i : memref<?xf32>, memref<?xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<?xf32>
  gpu.wait [%t3]
  return
}

// -----

// Tests that the bound is proved on the new order when the waits' accesses
// follow the order (test/Fuzz/async_fuzz.py, seed 11461): as written the
// first wait for %t10 takes the writes to %d6 (it waits for them through
// %t9); scheduled, the wait for %t7 and %t9 comes first and takes them, so
// %d6 can be freed earlier in the new body than the old one allowed. The
// certificate's bound is the new body's (256), not the old one's (512),
// so --memsched-verify (RUN line 2) proves it again.
func.func @waits_follow_the_order(%arg0: memref<64xf32> {llvm.noalias}, %arg1: memref<64xf32> {llvm.noalias}, %arg2: memref<64xf32> {llvm.noalias}) {
  // expected-remark @-1 {{memsched-schedule: peak 768 -> 512 bytes, lower bound 256 bytes; memory space #gpu.address_space<global>: 768 -> 512 bytes, lower bound 256 bytes}}
  %w3 = gpu.wait async
  %d1, %t2 = gpu.alloc async [%w3] () : memref<64xf32>
  %t4 = gpu.memcpy async [%t2] %d1, %arg1 : memref<64xf32>, memref<64xf32>
  gpu.wait [%t2, %t4]
  %d5 = gpu.alloc () : memref<64xf32>
  gpu.memcpy %d5, %arg1 : memref<64xf32>, memref<64xf32>
  %w8 = gpu.wait async
  %d6, %t7 = gpu.alloc async [%w8] () : memref<64xf32>
  %t9 = gpu.memcpy async [%t7] %d6, %arg0 : memref<64xf32>, memref<64xf32>
  %t10 = gpu.memcpy async [%t9] %arg2, %d5 : memref<64xf32>, memref<64xf32>
  gpu.wait [%t10]
  gpu.wait [%t7, %t9]
  gpu.dealloc %d1 : memref<64xf32>
  gpu.dealloc %d6 : memref<64xf32>
  return
}
