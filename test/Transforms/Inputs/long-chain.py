# Writes a function whose body holds a chain of N side-effect free ops (each
# using the previous one) feeding an allocation size, and a chain of N nodes
# updating one buffer in place: every walk of the analysis and the planner
# must be iterative to handle it.
import sys

n = int(sys.argv[1])
print("func.func @long(%out: memref<4xf32>) {")
print("  %c0 = arith.constant 0 : index")
print("  %c1 = arith.constant 1 : index")
print("  %one = arith.constant 1.0 : f32")
print("  %v0 = arith.addi %c0, %c0 : index")
for i in range(1, n):
    print("  %%v%d = arith.addi %%v%d, %%c0 : index" % (i, i - 1))
print("  %%s = arith.addi %%v%d, %%c1 : index" % (n - 1))
print("  %m = affine.min affine_map<(d0) -> (d0, 4)>(%s)")
print("  %a = memref.alloc(%m) : memref<?xf32>")
print("  %t = memref.alloc() : memref<4xf32>")
print("  linalg.fill ins(%one : f32) outs(%t : memref<4xf32>)")
for i in range(n):
    print("  linalg.add ins(%t, %t : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)")
print("  linalg.fill ins(%one : f32) outs(%a : memref<?xf32>)")
print("  linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)")
print("  memref.dealloc %t : memref<4xf32>")
print("  memref.dealloc %a : memref<?xf32>")
print("  return")
print("}")
