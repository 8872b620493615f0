// A chain a -> b -> c -> d where d reads a again (test/Tools/remat-exhaustive.test).
#id = affine_map<(d0) -> (d0)>
module {
  func.func @forward() -> memref<256xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %a = memref.alloc() : memref<2048xf32>
    linalg.fill ins(%cst : f32) outs(%a : memref<2048xf32>)
    %b = memref.alloc() : memref<2048xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<2048xf32>) outs(%b : memref<2048xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %in : f32
      linalg.yield %0 : f32
    }
    %c = memref.alloc() : memref<2048xf32>
    linalg.fill ins(%cst : f32) outs(%c : memref<2048xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<2048xf32>) outs(%c : memref<2048xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %b : memref<2048xf32>
    %d = memref.alloc() : memref<256xf32>
    %as = memref.subview %a[0] [256] [1] : memref<2048xf32> to memref<256xf32, strided<[1]>>
    %cs = memref.subview %c[0] [256] [1] : memref<2048xf32> to memref<256xf32, strided<[1]>>
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%as, %cs : memref<256xf32, strided<[1]>>, memref<256xf32, strided<[1]>>) outs(%d : memref<256xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %0 = arith.addf %x, %y : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %a : memref<2048xf32>
    memref.dealloc %c : memref<2048xf32>
    return %d : memref<256xf32>
  }
}
