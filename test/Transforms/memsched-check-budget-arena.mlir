// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=argument" "--memsched-check-budget=bytes=383" --verify-diagnostics -o /dev/null
// RUN: memsched-opt %s --split-input-file "--memsched-plan-arena=arena=argument" "--memsched-check-budget=bytes=384" -o /dev/null

// Tests that the budget is checked against the planned function's memory:
// with the arena as an argument the body allocates nothing, but it needs
// the 384-byte arena (%a 256 + %b 128 live together).
// expected-error @+1 {{memsched-check-budget: 'chain' needs 384 bytes with its buffers in an arena of 384 bytes, above the budget of 383 bytes}}
func.func @chain(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  memref.dealloc %a : memref<64xf32>
  %so = memref.subview %out[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%b : memref<32xf32>) outs(%so : memref<32xf32, strided<[1]>>)
  memref.dealloc %b : memref<32xf32>
  return
}
