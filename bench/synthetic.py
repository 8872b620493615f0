#!/usr/bin/env python3
"""Writes a synthetic lowered (memref) MLIR function for scaling benchmarks.

The function has about N compute ops in layers: each op reads one or two
buffers of earlier layers (sometimes a long skip back) and writes a fresh
buffer of a random size; every buffer is deallocated right after its last
reader, as `optimize-allocation-liveness` leaves it. The ops are linalg.add /
linalg.copy on static subviews, so the file parses and verifies with
mlir-opt and memsched-opt.

  bench/synthetic.py --ops 10000 --seed 1 > layered-10000.mlir
"""
import argparse
import random
import sys


def generate(num_ops, seed, out):
    rng = random.Random(seed)
    w = out.write
    w("// Synthetic layered memref program: bench/synthetic.py --ops %d --seed %d\n"
      % (num_ops, seed))
    w("func.func @synthetic(%x: memref<1024xf32> {llvm.noalias}, "
      "%out: memref<16xf32> {llvm.noalias}) {\n")
    sizes = {}          # buffer name -> elements
    last_use = {}       # buffer name -> index of the op that reads it last
    ops = []            # (name, inputs)
    prev_layer = ["x"]
    older = []
    sizes["x"] = 1024
    while len(ops) < num_ops:
        width = rng.randint(1, 4)
        layer = []
        for _ in range(width):
            if len(ops) >= num_ops:
                break
            k = 1 if rng.random() < 0.5 else 2
            ins = [rng.choice(prev_layer) for _ in range(k)]
            if older and rng.random() < 0.1:
                ins[-1] = rng.choice(older[-64:])
            ins = sorted(set(ins), key=ins.index)
            name = "b%d" % len(ops)
            sizes[name] = rng.choice([16, 64, 256, 1024, 4096])
            ops.append((name, ins))
            layer.append(name)
        older.extend(prev_layer)
        prev_layer = layer
    for i, (name, ins) in enumerate(ops):
        for b in ins:
            last_use[b] = i
    # The last layer feeds the output.
    final = [name for name, _ in ops if name not in last_use]

    sv_id = [0]

    def view(buf, n):
        sv_id[0] += 1
        v = "%%v%d" % sv_id[0]
        src = "%" + buf
        w("  %s = memref.subview %s[0] [%d] [1] : memref<%dxf32> to "
          "memref<%dxf32, strided<[1]>>\n" % (v, src, n, sizes[buf], n))
        return v, "memref<%dxf32, strided<[1]>>" % n

    for i, (name, ins) in enumerate(ops):
        w("  %%%s = memref.alloc() : memref<%dxf32>\n" % (name, sizes[name]))
        n = min([sizes[name]] + [sizes[b] for b in ins])
        views = [view(b, n) for b in ins]
        dst = view(name, n)
        if len(views) == 1:
            w("  linalg.copy ins(%s : %s) outs(%s : %s)\n"
              % (views[0][0], views[0][1], dst[0], dst[1]))
        else:
            w("  linalg.add ins(%s, %s : %s, %s) outs(%s : %s)\n"
              % (views[0][0], views[1][0], views[0][1], views[1][1], dst[0], dst[1]))
        for b in ins:
            if b != "x" and last_use[b] == i:
                w("  memref.dealloc %%%s : memref<%dxf32>\n" % (b, sizes[b]))
    for name in final:
        v = view(name, 16)
        w("  linalg.add ins(%%out, %s : memref<16xf32>, %s) outs(%%out : memref<16xf32>)\n"
          % (v[0], v[1]))
        w("  memref.dealloc %%%s : memref<%dxf32>\n" % (name, sizes[name]))
    w("  return\n}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    generate(a.ops, a.seed, sys.stdout)


if __name__ == "__main__":
    main()
