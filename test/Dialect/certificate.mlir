// RUN: memsched-opt %s --split-input-file | FileCheck %s
// RUN: memsched-opt %s --split-input-file | memsched-opt --split-input-file | FileCheck %s

// Tests that a minimal certificate round-trips.
// CHECK-LABEL: func.func @minimal
// CHECK-SAME: memsched.certificate = #memsched.certificate<peak = 1605632, lower_bound = 1605632>
func.func @minimal() attributes {memsched.certificate = #memsched.certificate<peak = 1605632, lower_bound = 1605632>} {
  return
}

// -----

// Tests that every optional field round-trips.
// CHECK-LABEL: func.func @full
// CHECK-SAME: #memsched.certificate<peak = 200, lower_bound = 150, bound_kind = "forward", bound_op = "linalg.matmul#3", cut = [0, 2], size_model = "allocator">
func.func @full() attributes {memsched.certificate = #memsched.certificate<peak = 200, lower_bound = 150, bound_kind = "forward", bound_op = "linalg.matmul#3", cut = [0, 2], size_model = "allocator">} {
  return
}

// -----

// Tests that byte counts above 2^32 are kept exactly.
// CHECK-LABEL: func.func @large
// CHECK-SAME: #memsched.certificate<peak = 18446744073709551615, lower_bound = 4294967296>
func.func @large() attributes {memsched.certificate = #memsched.certificate<peak = 18446744073709551615, lower_bound = 4294967296>} {
  return
}

// -----

// Tests that the attribute is accepted on any function-like op.
// CHECK-LABEL: llvm.func @on_llvm_func
// CHECK-SAME: #memsched.certificate<peak = 8, lower_bound = 0>
llvm.func @on_llvm_func() attributes {memsched.certificate = #memsched.certificate<peak = 8, lower_bound = 0>} {
  llvm.return
}

// -----

// Tests that per-space entries round-trip: the default space has no
// memory_space, an integer space prints as a memref type spells it.
// CHECK-LABEL: func.func @spaces
// CHECK-SAME: #memsched.certificate<peak = 4096, lower_bound = 4096, spaces = [#memsched.space<peak = 3072, lower_bound = 2048>, #memsched.space<memory_space = 1, peak = 2048, lower_bound = 2048>, #memsched.space<memory_space = #gpu.address_space<workgroup>, peak = 512, lower_bound = 0>]>
func.func @spaces() attributes {memsched.certificate = #memsched.certificate<peak = 4096, lower_bound = 4096, spaces = [#memsched.space<peak = 3072, lower_bound = 2048>, #memsched.space<memory_space = 1, peak = 2048, lower_bound = 2048>, #memsched.space<memory_space = #gpu.address_space<workgroup>, peak = 512, lower_bound = 0>]>} {
  return
}
