// Tests that report files stay inside the report directory whatever the
// symbol names: separators and a leading dot are replaced and a hash of the
// name keeps apart names that map to the same characters.
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: memsched-opt %s --memsched-certify="report-dir=%t/in/reports" -o /dev/null
// RUN: ls %t/in/reports | FileCheck %s
// RUN: ls %t/in | FileCheck %s --check-prefix=DIR
// RUN: not ls %t/x.json

// CHECK-DAG: {{^}}_._x-{{[0-9a-f]+}}.json
// CHECK-DAG: {{^}}_._x-{{[0-9a-f]+}}.svg
// CHECK-DAG: {{^}}a_b-{{[0-9a-f]+}}.json
// CHECK-DAG: {{^}}a_b-{{[0-9a-f]+}}.json
// CHECK-DAG: {{^}}plain.json
// DIR: reports
// DIR-NOT: json

func.func @"../x"(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}

func.func @"a/b"(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}

func.func @"a\\b"(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}

func.func @plain(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}
