// RUN: memsched-opt %s "--memsched-plan-arena=remarks reorder=0" --mlir-print-op-on-diagnostic=false --memsched-verify 2>&1 | FileCheck %s
// RUN: memsched-opt %s --memsched-test-harness=func=two_phases --memsched-test-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 -shared-libs=%memsched_runtime,%mlir_lib_dir/libmlir_c_runner_utils.so > %t.orig.out
// RUN: %arena_run %s two_phases %t %t.orig.out | FileCheck %s --check-prefix=EXEC

// Arenas by phase. %t (256 bytes) is computed and reduced into the
// argument %side, then freed; %a (256) is computed from the input. %a and
// %b (256 each) live together while %b is computed: the peak, 512 bytes.
// %r (32 bytes) is returned: it stays outside any arena and is allocated
// while %d (128) is live, after %a and %b are gone; %c (128) comes after
// %d. One arena for every buffer but %r packs them into 512 bytes and lives
// until %c is freed, so %r stacks on all of it: 544 bytes, above the 512
// the buffers need where they are. By phase: %t and %a (never live
// together) in an arena of 256 bytes at a common offset, freed before %d is
// allocated; %d and %c in one of 128, also at a common offset; %b, live
// across the start of the second phase, outside: 256 + 256 at %b's
// producer, 128 + 32 while %r is written: 512 bytes, the peak. Run, the
// results are the original program's and the counting allocator measures
// the certified memory (every buffer aligned to 16 bytes, as bufferization
// aligns them: each pays its alignment, as each arena does).
// CHECK-DAG: remark: memsched-plan-arena: allocation left outside the arenas by phase: it is live across a cut between phases
// CHECK: remark: memsched-plan-arena: 'two_phases': 2 arenas by phase, of 256, 128 bytes, for 4 buffers (2 of 2 placements proved optimal), memory 512 bytes against a peak of 512 bytes and a lower bound of 512 bytes (optimal: no order and no placement needs less); 2 allocations left outside
// CHECK: #memsched.certificate<peak = 512, lower_bound = 512, {{.*}}peak_with_arena = 512, arena_size = 256>
// CHECK: memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<256xi8>
// CHECK: memref.dealloc %{{.*}} : memref<256xi8>
// CHECK-NEXT: memref.alloc() {alignment = 16 : i64, memsched.arena} : memref<128xi8>
// EXEC: arena-run: outputs identical, measured = certified
#id = affine_map<(d0) -> (d0)>
#first = affine_map<(d0) -> (0)>
func.func @two_phases(%in: memref<16xf32>, %side: memref<4xf32>) -> memref<8xf32> {
  %t = memref.alloc() {alignment = 16 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%in : memref<16xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%t : memref<64xf32>) outs(%side : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %t : memref<64xf32>
  %a = memref.alloc() {alignment = 16 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%in : memref<16xf32>) outs(%a : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  %b = memref.alloc() {alignment = 16 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %a : memref<64xf32>
  %d = memref.alloc() {alignment = 16 : i64} : memref<32xf32>
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%b : memref<64xf32>) outs(%d : memref<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %b : memref<64xf32>
  %r = memref.alloc() {alignment = 16 : i64} : memref<8xf32>
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%d : memref<32xf32>) outs(%r : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %d : memref<32xf32>
  %c = memref.alloc() {alignment = 16 : i64} : memref<32xf32>
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%r : memref<8xf32>) outs(%c : memref<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel"]} ins(%c : memref<32xf32>) outs(%r : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  }
  memref.dealloc %c : memref<32xf32>
  return %r : memref<8xf32>
}
