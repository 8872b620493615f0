// RUN: memsched-opt %s --split-input-file --verify-diagnostics

// Tests that a lower bound above the peak is rejected.
// expected-error @+1 {{lower_bound (300 bytes) exceeds peak (200 bytes)}}
func.func @bound_above_peak() attributes {memsched.certificate = #memsched.certificate<peak = 200, lower_bound = 300>} {
  return
}

// -----

// Tests that an unknown bound kind is rejected.
// expected-error @+1 {{bound_kind must be "trivial", "forward", "backward", "window" or "exhaustive", got "guess"}}
func.func @bad_kind() attributes {memsched.certificate = #memsched.certificate<peak = 200, lower_bound = 100, bound_kind = "guess">} {
  return
}

// -----

// Tests that cut positions must be increasing.
// expected-error @+1 {{cut must list allocation positions in increasing order without repeats}}
func.func @bad_cut() attributes {memsched.certificate = #memsched.certificate<peak = 200, lower_bound = 100, cut = [3, 1]>} {
  return
}

// -----

// Tests that the certificate is only accepted on function-like ops.
func.func @not_on_ops() {
  // expected-error @+1 {{'memsched.certificate' is only valid on function-like ops}}
  %c = arith.constant {memsched.certificate = #memsched.certificate<peak = 1, lower_bound = 1>} 0 : i32
  return
}

// -----

// Tests that memsched.certificate must hold a certificate.
// expected-error @+1 {{'memsched.certificate' must be a #memsched.certificate attribute}}
func.func @wrong_attr() attributes {memsched.certificate = 3 : i64} {
  return
}

// -----

// Tests that unknown memsched attributes are rejected.
// expected-error @+1 {{unknown memsched attribute 'memsched.other'}}
func.func @unknown_attr() attributes {memsched.other = 3 : i64} {
  return
}

// -----

// Tests that a negative byte count does not parse.
// expected-error @+2 {{expected a non-negative byte count}}
// expected-error @+1 {{failed to parse MemSched_CertificateAttr parameter 'peak'}}
func.func @negative() attributes {memsched.certificate = #memsched.certificate<peak = -1, lower_bound = 0>} {
  return
}

// -----

// Tests that a missing required field does not parse.
// expected-error @+1 {{struct is missing required parameter: lower_bound}}
func.func @missing() attributes {memsched.certificate = #memsched.certificate<peak = 1>} {
  return
}

// -----

// Tests that an unknown size model is rejected.
// expected-error @+1 {{size_model must be "allocator" when present, got "pages"}}
func.func @bad_model() attributes {memsched.certificate = #memsched.certificate<peak = 2, lower_bound = 1, size_model = "pages">} {
  return
}

// -----

// Tests that a memory space's bound above its peak is rejected (the entry
// is invalid, so the certificate's spaces cannot be parsed).
// expected-error @+2 {{lower_bound (300 bytes) exceeds peak (200 bytes) of the memory space}}
// expected-error @+1 {{failed to parse MemSched_CertificateAttr parameter 'spaces'}}
func.func @space_bound_above_peak() attributes {memsched.certificate = #memsched.certificate<peak = 400, lower_bound = 100, spaces = [#memsched.space<memory_space = 1, peak = 200, lower_bound = 300>]>} {
  return
}

// -----

// Tests that a memory space cannot peak above all spaces together.
// expected-error @+1 {{the peak of a memory space (500 bytes) exceeds peak (400 bytes), which counts every space}}
func.func @space_above_total() attributes {memsched.certificate = #memsched.certificate<peak = 400, lower_bound = 100, spaces = [#memsched.space<memory_space = 1, peak = 500, lower_bound = 100>]>} {
  return
}

// -----

// Tests that a memory space is listed once (the default space too).
// expected-error @+1 {{spaces lists a memory space twice}}
func.func @space_twice() attributes {memsched.certificate = #memsched.certificate<peak = 400, lower_bound = 100, spaces = [#memsched.space<peak = 100, lower_bound = 100>, #memsched.space<peak = 200, lower_bound = 100>]>} {
  return
}

// -----

// Tests that spaces holds space entries only.
// expected-error @+1 {{spaces must hold #memsched.space entries, got 3 : i64}}
func.func @space_not_entry() attributes {memsched.certificate = #memsched.certificate<peak = 400, lower_bound = 100, spaces = [3]>} {
  return
}
