// RUN: memsched-opt %s --split-input-file --memsched-verify --verify-diagnostics
// RUN: not memsched-opt %s --split-input-file --memsched-verify=require -o /dev/null 2>&1 | FileCheck %s --check-prefix=REQUIRE

// Tests that a certificate matching the body passes.
func.func @fresh(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests a stale certificate: the body changed (a deallocation moved down)
// after certification.
// expected-error @+1 {{memsched-verify: stale certificate on 'stale': it records a peak of 128 bytes but the body as it stands peaks at 192 bytes}}
func.func @stale(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  %c = memref.alloc() : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%c : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  linalg.copy ins(%c : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// Tests a certificate claiming a bound that cannot be proved.
// expected-error @+1 {{memsched-verify: inconsistent certificate on 'overclaim': it records a lower bound of 192 bytes but only 128 bytes can be proved for this body}}
func.func @overclaim(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 192, lower_bound = 192>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  %c = memref.alloc() : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%c : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  linalg.copy ins(%c : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// Tests the size model: a certificate computed with allocator sizes is
// checked with allocator sizes (16 x 4 + 64 alignment bytes).
func.func @allocator_sizes(%x: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, size_model = "allocator">} {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Tests a certified function the analysis can no longer handle.
// expected-error @+1 {{memsched-verify: cannot check the certificate of 'unbounded': dynamic dimension 0 has no constant upper bound}}
func.func @unbounded(%n: index) attributes {memsched.certificate = #memsched.certificate<peak = 0, lower_bound = 0>} {
  // expected-note @+1 {{the op at fault}}
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Tests that functions without a certificate are ignored, unless required.
// REQUIRE: error: memsched-verify: 'uncertified' has no memsched.certificate
func.func @uncertified() {
  return
}

// -----

// Tests a body with several blocks whose ^bb1 changed after certification:
// %keep (64 bytes, allocated in ^bb0) is now freed after %b's allocation,
// so ^bb1 peaks at 64 + 64 + 64 = 192 bytes.
// expected-error @+1 {{memsched-verify: stale certificate on 'stale_blocks': it records a peak of 128 bytes but the body as it stands peaks at 192 bytes}}
func.func @stale_blocks(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, block = 1>} {
  %keep = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%keep : memref<16xf32>)
  cf.br ^bb1
^bb1:
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%keep : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  memref.dealloc %keep : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests a certificate of a body with several blocks that claims a bound no
// block has: every order of ^bb1 needs only 128 bytes.
// expected-error @+1 {{memsched-verify: inconsistent certificate on 'overclaimed_blocks': it records a lower bound of 192 bytes but only 128 bytes can be proved for this body}}
func.func @overclaimed_blocks(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 192, lower_bound = 192, block = 1>} {
  %keep = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%keep : memref<16xf32>)
  cf.br ^bb1
^bb1:
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%keep : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  memref.dealloc %keep : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests that the entries of the memory spaces are checked: they match the
// body (host %h and device %d, 1024 bytes each, live together).
func.func @spaces_fresh(%x: memref<256xf32>, %out: memref<256xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, spaces = [#memsched.space<peak = 1024, lower_bound = 1024>, #memsched.space<memory_space = 1, peak = 1024, lower_bound = 1024>]>} {
  %h = memref.alloc() : memref<256xf32>
  memref.copy %x, %h : memref<256xf32> to memref<256xf32>
  %d = memref.alloc() : memref<256xf32, 1>
  memref.copy %h, %d : memref<256xf32> to memref<256xf32, 1>
  memref.dealloc %h : memref<256xf32>
  memref.copy %d, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d : memref<256xf32, 1>
  return
}

// -----

// Tests a stale entry: space 1 peaks at 1024 bytes, not 2048.
// expected-error @+1 {{memsched-verify: stale certificate on 'spaces_stale': it records a peak of 2048 bytes in memory space 1 but the body peaks at 1024 bytes there}}
func.func @spaces_stale(%x: memref<256xf32>, %out: memref<256xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, spaces = [#memsched.space<peak = 1024, lower_bound = 1024>, #memsched.space<memory_space = 1, peak = 2048, lower_bound = 1024>]>} {
  %h = memref.alloc() : memref<256xf32>
  memref.copy %x, %h : memref<256xf32> to memref<256xf32>
  %d = memref.alloc() : memref<256xf32, 1>
  memref.copy %h, %d : memref<256xf32> to memref<256xf32, 1>
  memref.dealloc %h : memref<256xf32>
  memref.copy %d, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d : memref<256xf32, 1>
  return
}

// -----

// Tests that the entries name exactly the spaces the body allocates in.
// expected-error @+1 {{memsched-verify: stale certificate on 'spaces_missing': it records memory spaces [1] but the body allocates in [default, 1]}}
func.func @spaces_missing(%x: memref<256xf32>, %out: memref<256xf32>) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 2048, spaces = [#memsched.space<memory_space = 1, peak = 1024, lower_bound = 1024>]>} {
  %h = memref.alloc() : memref<256xf32>
  memref.copy %x, %h : memref<256xf32> to memref<256xf32>
  %d = memref.alloc() : memref<256xf32, 1>
  memref.copy %h, %d : memref<256xf32> to memref<256xf32, 1>
  memref.dealloc %h : memref<256xf32>
  memref.copy %d, %out : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %d : memref<256xf32, 1>
  return
}

// -----

// Tests an entry whose bound cannot be proved: two independent device
// buffers need never live together (1024 bytes, not 2048).
// expected-error @+1 {{memsched-verify: inconsistent certificate on 'spaces_bound': it records a lower bound of 2048 bytes in memory space 1 but only 1024 bytes can be proved there}}
func.func @spaces_bound(%x: memref<256xf32> {llvm.noalias}, %o1: memref<256xf32> {llvm.noalias}, %o2: memref<256xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 2048, lower_bound = 1024, spaces = [#memsched.space<memory_space = 1, peak = 2048, lower_bound = 2048>]>} {
  %a = memref.alloc() : memref<256xf32, 1>
  %b = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32, 1>
  memref.copy %x, %b : memref<256xf32> to memref<256xf32, 1>
  memref.copy %a, %o1 : memref<256xf32, 1> to memref<256xf32>
  memref.copy %b, %o2 : memref<256xf32, 1> to memref<256xf32>
  memref.dealloc %a : memref<256xf32, 1>
  memref.dealloc %b : memref<256xf32, 1>
  return
}

// -----

// Tests that a certificate naming an op the body does not have is
// rejected: the body has 3 scheduled ops.
// expected-error @+1 {{memsched-verify: invalid certificate on 'bad_op': its bound_op "nonsense#99" names no scheduled op of the body (name#position, the position among its 3 scheduled ops)}}
func.func @bad_op(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "nonsense#99", cut = [0, 1]>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests that an op named at a position the body does not have is
// rejected (3 scheduled ops), and that a name the body has at another
// position is not evidence but no error either: ops added or removed by a
// later transform that keeps the memory move positions, and the bound is
// then proved without it (128 bytes: both buffers live at the second copy).
// expected-error @+1 {{memsched-verify: invalid certificate on 'bad_position': its bound_op "linalg.copy#5" names no scheduled op of the body}}
func.func @bad_position(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "linalg.copy#5", cut = [0, 1]>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

func.func @moved_op(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "linalg.exp#0", cut = [0, 1]>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.exp ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests that a cut naming an allocation the body does not have is
// rejected: the body has 2.
// expected-error @+1 {{memsched-verify: invalid certificate on 'bad_cut': its cut lists allocation 99 but the body has 2 allocations}}
func.func @bad_cut(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "linalg.copy#1", cut = [0, 1, 99]>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Tests that a block the body does not have is rejected.
// expected-error @+1 {{memsched-verify: invalid certificate on 'bad_block': it records block = 7 but the body has 1 block (a body of one block records none)}}
func.func @bad_block(%x: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) attributes {memsched.certificate = #memsched.certificate<peak = 128, lower_bound = 128, bound_kind = "trivial", bound_op = "linalg.copy#1", cut = [0, 1], block = 7>} {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}
