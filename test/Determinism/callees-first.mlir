// Tests that the passes give the same output on every run, with and without
// threads: callees are scheduled before their callers, and a caller counts
// its callees' final peaks (the reordered @kI peak at 8192, not 12288).
// RUN: bash %S/run-repeatedly.sh 10 %s --memsched-schedule --memsched-verify=require | FileCheck %s
// RUN: bash %S/run-repeatedly.sh 3 %s --memsched-certify --memsched-check-budget=bytes=100000000 | FileCheck %s --check-prefix=CERTIFY

// CHECK-LABEL: func.func private @k0
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k0
// CERTIFY-SAME: peak = 12288
func.func private @k0(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c0
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c0
// CERTIFY-SAME: peak = 16384
func.func @c0(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k0(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k1
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k1
// CERTIFY-SAME: peak = 12288
func.func private @k1(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c1
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c1
// CERTIFY-SAME: peak = 16384
func.func @c1(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k1(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k2
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k2
// CERTIFY-SAME: peak = 12288
func.func private @k2(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c2
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c2
// CERTIFY-SAME: peak = 16384
func.func @c2(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k2(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k3
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k3
// CERTIFY-SAME: peak = 12288
func.func private @k3(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c3
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c3
// CERTIFY-SAME: peak = 16384
func.func @c3(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k3(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k4
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k4
// CERTIFY-SAME: peak = 12288
func.func private @k4(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c4
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c4
// CERTIFY-SAME: peak = 16384
func.func @c4(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k4(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k5
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k5
// CERTIFY-SAME: peak = 12288
func.func private @k5(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c5
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c5
// CERTIFY-SAME: peak = 16384
func.func @c5(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k5(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k6
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k6
// CERTIFY-SAME: peak = 12288
func.func private @k6(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c6
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c6
// CERTIFY-SAME: peak = 16384
func.func @c6(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k6(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func private @k7
// CHECK-SAME: peak = 8192, lower_bound = 8192
// CERTIFY-LABEL: func.func private @k7
// CERTIFY-SAME: peak = 12288
func.func private @k7(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  linalg.add ins(%out, %c : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %c : memref<1024xf32>
  return
}

// CHECK-LABEL: func.func @c7
// CHECK-SAME: peak = 12288, lower_bound = 12288
// CERTIFY-LABEL: func.func @c7
// CERTIFY-SAME: peak = 16384
func.func @c7(%out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%out : memref<1024xf32>) outs(%t : memref<1024xf32>)
  call @k7(%out) : (memref<1024xf32>) -> ()
  linalg.add ins(%out, %t : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  return
}
