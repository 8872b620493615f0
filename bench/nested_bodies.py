#!/usr/bin/env python3
# A function of N scf.if ops, each branch body with two temporaries it
# allocates up front (memsched reorders every body), all accumulating into
# one argument: the scaling of loop and branch bodies scheduled on their
# own, and of dependences on one argument.
#   python3 bench/nested_bodies.py N > nested.mlir
#   memsched-opt nested.mlir --memsched-schedule --memsched-certify -o /dev/null
import sys

T = "memref<64xf32>"


def generate(n, out):
    out.write(f"// bench/nested_bodies.py {n}\n")
    out.write(f"func.func @f(%c: i1, %x: {T}, %out: {T}) {{\n")
    for i in range(n):
        out.write(f"""  scf.if %c {{
    %a{i} = memref.alloc() : {T}
    %b{i} = memref.alloc() : {T}
    linalg.exp ins(%x : {T}) outs(%a{i} : {T})
    linalg.exp ins(%x : {T}) outs(%b{i} : {T})
    linalg.add ins(%a{i}, %out : {T}, {T}) outs(%out : {T})
    memref.dealloc %a{i} : {T}
    linalg.add ins(%b{i}, %out : {T}, {T}) outs(%out : {T})
    memref.dealloc %b{i} : {T}
  }}
""")
    out.write("  return\n}\n")


if __name__ == "__main__":
    generate(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, sys.stdout)
