// RUN: memsched-opt %s "--memsched-plan-arena=reorder=0 remarks" --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s

// Tests a function where one arena for all buffers costs memory: a returned
// buffer (16 bytes) is allocated first and lives to the end, and in this
// order the other 13 buffers (live total at most 176 bytes) cannot be
// packed into less than 192 bytes (see memsched-plan-arena-reorder.mlir).
// One arena would live alongside the returned buffer: 192 + 16 bytes; as
// heap allocations they need their peak, 176 + 16 = 192. Arenas by phase
// find a phase whose two buffers share 64 bytes without a gap, and leave
// the others as they are: 192 bytes, the peak, nothing lost.
// CHECK: remark: memsched-plan-arena: 'all_outside': arena of 64 bytes for 2 buffers {{.*}}, memory 192 bytes against a peak of 192 bytes and a lower bound of 176 bytes (nothing lost to fragmentation); 12 allocations left outside
// CHECK-LABEL: func.func @all_outside(%arg0
// CHECK-SAME: peak_with_arena = 192, arena_size = 64
// CHECK: memref.alloc() : memref<4xf32>
func.func @all_outside(%in: memref<4xf32>, %out: memref<16xf32>) -> memref<4xf32> {
  %leak = memref.alloc() : memref<4xf32>
  linalg.copy ins(%in : memref<4xf32>) outs(%leak : memref<4xf32>)
  %b0 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%b0 : memref<16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    linalg.yield %x0 : f32
  }
  %b1 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b0 : memref<16xf32>) outs(%b1 : memref<8xf32>) {
  ^bb0(%x0: f32, %o: f32):
    linalg.yield %x0 : f32
  }
  %b2 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b0 : memref<16xf32>) outs(%b2 : memref<8xf32>) {
  ^bb0(%x0: f32, %o: f32):
    linalg.yield %x0 : f32
  }
  %b3 = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b0, %b2 : memref<16xf32>, memref<8xf32>) outs(%b3 : memref<4xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  %b4 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b0, %b1 : memref<16xf32>, memref<8xf32>) outs(%b4 : memref<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b0 : memref<16xf32>
  %b5 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b3, %b4 : memref<4xf32>, memref<8xf32>) outs(%b5 : memref<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b4 : memref<8xf32>
  %b6 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b1, %b3 : memref<8xf32>, memref<4xf32>) outs(%b6 : memref<16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b6 : memref<16xf32>
  %b7 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b2, %b5 : memref<8xf32>, memref<8xf32>) outs(%b7 : memref<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  %b8 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b2, %b3 : memref<8xf32>, memref<4xf32>) outs(%b8 : memref<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b3 : memref<4xf32>
  memref.dealloc %b8 : memref<8xf32>
  %b9 = memref.alloc() : memref<12xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b7 : memref<8xf32>) outs(%b9 : memref<12xf32>) {
  ^bb0(%x0: f32, %o: f32):
    linalg.yield %x0 : f32
  }
  memref.dealloc %b9 : memref<12xf32>
  %b10 = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b5 : memref<8xf32>) outs(%b10 : memref<4xf32>) {
  ^bb0(%x0: f32, %o: f32):
    linalg.yield %x0 : f32
  }
  memref.dealloc %b5 : memref<8xf32>
  %b11 = memref.alloc() : memref<12xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b1, %b2 : memref<8xf32>, memref<8xf32>) outs(%b11 : memref<12xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b1 : memref<8xf32>
  memref.dealloc %b2 : memref<8xf32>
  memref.dealloc %b11 : memref<12xf32>
  %b12 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b7, %b10 : memref<8xf32>, memref<4xf32>) outs(%b12 : memref<16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    linalg.yield %s1 : f32
  }
  memref.dealloc %b7 : memref<8xf32>
  memref.dealloc %b10 : memref<4xf32>
  memref.copy %b12, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %b12 : memref<16xf32>
  return %leak : memref<4xf32>
}
