// RUN: rm -rf %t && memsched-opt %s --memsched-schedule="report-dir=%t/sched" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/sched/inception.json
// RUN: FileCheck %s --check-prefix=SVG < %t/sched/inception.svg
// RUN: python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" %t/sched/inception.svg
// RUN: memsched-opt %s --memsched-certify="report-dir=%t/cert" -o /dev/null
// RUN: FileCheck %s --check-prefix=CERT < %t/cert/inception.json
// RUN: python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" %t/cert/inception.svg

// Tests the report: JSON with the peaks before and after, the bound, the op
// at the peak and the buffers live there; an SVG timeline that parses as XML.

// JSON: "function": "@inception",
// JSON-NEXT: "reordered": true,
// JSON-NEXT: "peak_before": 12288,
// JSON-NEXT: "peak_after": 4096,
// JSON-NEXT: "lower_bound": 4096,
// JSON-NEXT: "optimal": true,
// JSON-NEXT: "gap": 0,
// JSON: "before": {
// JSON-NEXT: "peak": 12288,
// JSON: "peak_op": "linalg.broadcast#2",
// JSON-NEXT: "live_at_peak": [
// JSON-NEXT: "buffer#0",
// JSON-NEXT: "buffer#1",
// JSON-NEXT: "buffer#2"
// JSON: "after": {
// JSON-NEXT: "peak": 4096,

// SVG: <svg
// SVG: peak 12288 bytes
// SVG: lower bound 4096 bytes
// SVG: peak 4096 bytes
// SVG: </svg>

// CERT: "reordered": false,
// CERT-NEXT: "peak_before": 12288,
// CERT-NEXT: "peak_after": 12288,
// CERT-NEXT: "lower_bound": 4096,
// CERT-NEXT: "optimal": false,
// CERT-NEXT: "gap": 8192,

func.func @inception(%x: memref<64xf32> {llvm.noalias}, %out: memref<192xf32> {llvm.noalias}) {
  %b0 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b0 : memref<64x16xf32>) dimensions = [1]
  %b1 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b1 : memref<64x16xf32>) dimensions = [1]
  %b2 = memref.alloc() : memref<64x16xf32>
  linalg.broadcast ins(%x : memref<64xf32>) outs(%b2 : memref<64x16xf32>) dimensions = [1]
  %s0 = memref.subview %out[0] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1]>>
  linalg.reduce ins(%b0 : memref<64x16xf32>) outs(%s0 : memref<64xf32, strided<[1]>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b0 : memref<64x16xf32>
  %s1 = memref.subview %out[64] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 64>>
  linalg.reduce ins(%b1 : memref<64x16xf32>) outs(%s1 : memref<64xf32, strided<[1], offset: 64>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b1 : memref<64x16xf32>
  %s2 = memref.subview %out[128] [64] [1] : memref<192xf32> to memref<64xf32, strided<[1], offset: 128>>
  linalg.reduce ins(%b2 : memref<64x16xf32>) outs(%s2 : memref<64xf32, strided<[1], offset: 128>>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  memref.dealloc %b2 : memref<64x16xf32>
  return
}
