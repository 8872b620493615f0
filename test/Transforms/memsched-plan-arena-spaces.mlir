// RUN: memsched-opt %s --memsched-schedule | memsched-opt "--memsched-plan-arena=arena=global" --memsched-verify | FileCheck %s

// Tests that a caller left as it is gets a certificate that counts what
// its callees' arenas changed, per memory space too: @body's two 256-byte
// default-space buffers move into a global arena (static memory), so @f
// no longer allocates in the default space while it runs; its memory is
// that of space 1, %s (256 bytes) and %u (1024 bytes) together: 1280
// bytes, as before. Its total peak is the same, but the entry of the default
// space (512 bytes during the call) is gone.
// CHECK-LABEL: func.func private @body
// CHECK-SAME: peak_with_arena = 512, arena_size = 512
// CHECK-LABEL: func.func @f
// CHECK-SAME: #memsched.certificate<peak = 1280, lower_bound = 1280,
// CHECK-SAME: spaces = [#memsched.space<memory_space = 1, peak = 1280, lower_bound = 1280>]>
func.func private @body(%in: memref<64xf32, 1>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.exp ins(%in : memref<64xf32, 1>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.exp ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  linalg.exp ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  return
}

func.func @f(%in: memref<64xf32>, %out: memref<64xf32>) {
  %s = memref.alloc() : memref<64xf32, 1>
  linalg.exp ins(%in : memref<64xf32>) outs(%s : memref<64xf32, 1>)
  call @body(%s, %out) : (memref<64xf32, 1>, memref<64xf32>) -> ()
  %u = memref.alloc() : memref<256xf32, 1>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : memref<64xf32, 1>) outs(%u : memref<256xf32, 1>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%u : memref<256xf32, 1>) outs(%out : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %u : memref<256xf32, 1>
  memref.dealloc %s : memref<64xf32, 1>
  return
}
