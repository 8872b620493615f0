#!/usr/bin/env python3
"""Writes lowered (memref) MLIR programs of a given size for scaling
benchmarks, in four families:

  bench/scale_programs.py --family F --ops N [--seed S] > prog.mlir

  synthetic  bench/synthetic.py: layers of 1-4 ops, each reading one or two
             buffers of the layer before (sometimes a skip up to 64 layers
             back), buffers of random sizes; no op every order runs in the
             same place.
  layered    a residual network: stages of blocks, each block two ops
             (a -> b) and an add of the block's input; the stage's width
             (buffer size) changes every 16 blocks. A chain: most ops are
             articulation points of the dependence graph.
  inception  blocks of four branches of depths 1, 2, 3 and 2 whose last
             ops write slices of the block's concatenation buffer, which the
             first ops of the next block's branches read whole; branch
             buffers of different sizes.
  branchy    N/4 scf.if bodies (bench/nested_bodies.py): each body has two
             temporaries memsched reorders; all accumulate into one
             argument.

Each compute op is a linalg.add or linalg.copy on static subviews, so the
file parses and verifies with mlir-opt and memsched-opt; every buffer is
freed right after its last reader, as optimize-allocation-liveness leaves
it. N counts the compute ops (the allocations and deallocations come on
top: about 3 N ops in all, 2.5 N for inception).
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Writer:
    def __init__(self, out):
        self.out = out
        self.views = 0
        self.sizes = {}

    def w(self, text):
        self.out.write(text)

    def alloc(self, name, n):
        self.sizes[name] = n
        self.w("  %%%s = memref.alloc() : memref<%dxf32>\n" % (name, n))

    def free(self, name):
        self.w("  memref.dealloc %%%s : memref<%dxf32>\n" %
               (name, self.sizes[name]))

    def view(self, name, n, offset=0):
        self.views += 1
        v = "%%v%d" % self.views
        t = "memref<%dxf32, strided<[1], offset: %d>>" % (n, offset)
        self.w("  %s = memref.subview %%%s[%d] [%d] [1] : memref<%dxf32> to "
               "%s\n" % (v, name, offset, n, self.sizes[name], t))
        return v, t

    def op(self, ins, out, n, out_offset=0):
        """out[out_offset:out_offset+n] = sum of ins[0:n] (a copy for one)."""
        views = [self.view(b, n) for b in ins]
        dst = self.view(out, n, out_offset)
        if len(views) == 1:
            self.w("  linalg.copy ins(%s : %s) outs(%s : %s)\n" %
                   (views[0][0], views[0][1], dst[0], dst[1]))
        else:
            self.w("  linalg.add ins(%s, %s : %s, %s) outs(%s : %s)\n" %
                   (views[0][0], views[1][0], views[0][1], views[1][1],
                    dst[0], dst[1]))


def layered(num_ops, seed, out):
    rng = random.Random(seed)
    g = Writer(out)
    g.w("// Residual network: bench/scale_programs.py --family layered "
        "--ops %d --seed %d\n" % (num_ops, seed))
    g.w("func.func @layered(%x: memref<4096xf32> {llvm.noalias}, "
        "%out: memref<16xf32> {llvm.noalias}) {\n")
    g.sizes["x"] = 4096
    g.sizes["out"] = 16
    ops = 0
    cur = "x"
    block = 0
    width = 1024
    while ops + 3 <= num_ops:
        if block % 16 == 0:
            width = rng.choice([256, 512, 1024, 2048, 4096])
        n = min(width, g.sizes[cur])
        a, b, r = "a%d" % block, "b%d" % block, "r%d" % block
        g.alloc(a, width)
        g.op([cur], a, n)
        g.alloc(b, width * rng.choice([1, 2]))
        g.op([a], b, n)
        g.free(a)
        g.alloc(r, width)
        g.op([b, cur], r, n)
        g.free(b)
        if cur != "x":
            g.free(cur)
        cur = r
        ops += 3
        block += 1
    v = g.view(cur, 16)
    g.w("  linalg.add ins(%%out, %s : memref<16xf32>, %s) outs(%%out : "
        "memref<16xf32>)\n" % (v[0], v[1]))
    if cur != "x":
        g.free(cur)
    g.w("  return\n}\n")


def inception(num_ops, seed, out):
    rng = random.Random(seed)
    g = Writer(out)
    g.w("// Inception-like blocks: bench/scale_programs.py --family "
        "inception --ops %d --seed %d\n" % (num_ops, seed))
    g.w("func.func @inception(%x: memref<4096xf32> {llvm.noalias}, "
        "%out: memref<16xf32> {llvm.noalias}) {\n")
    g.sizes["x"] = 4096
    depths = [1, 2, 3, 2]
    per_block = sum(depths)
    ops = 0
    cur = "x"
    block = 0
    while ops + per_block <= num_ops:
        slices = [rng.choice([128, 256, 512]) for _ in depths]
        cat = "c%d" % block
        total = sum(slices)
        g.alloc(cat, total)
        offset = 0
        for i, (depth, part) in enumerate(zip(depths, slices)):
            prev = cur
            for d in range(depth - 1):
                t = "t%d_%d_%d" % (block, i, d)
                # (A branch's first op reads the whole block input, as a
                # convolution does: each block depends on every branch of
                # the block before.)
                size = rng.choice([256, 512, 1024, 2048])
                if d == 0:
                    size = max(size, g.sizes[cur])
                g.alloc(t, size)
                g.op([prev], t, min(g.sizes[t], g.sizes[prev]))
                if prev != cur:
                    g.free(prev)
                prev = t
            g.op([prev], cat, min(part, g.sizes[prev]), offset)
            if prev != cur:
                g.free(prev)
            offset += part
        if cur != "x":
            g.free(cur)
        cur = cat
        ops += per_block
        block += 1
    v = g.view(cur, 16)
    g.w("  linalg.add ins(%%out, %s : memref<16xf32>, %s) outs(%%out : "
        "memref<16xf32>)\n" % (v[0], v[1]))
    if cur != "x":
        g.free(cur)
    g.w("  return\n}\n")


def main():
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--family", required=True,
                   choices=["synthetic", "layered", "inception", "branchy"])
    p.add_argument("--ops", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.family == "synthetic":
        import synthetic
        synthetic.generate(a.ops, a.seed, sys.stdout)
    elif a.family == "layered":
        layered(a.ops, a.seed, sys.stdout)
    elif a.family == "inception":
        inception(a.ops, a.seed, sys.stdout)
    else:
        import nested_bodies
        nested_bodies.generate(max(1, a.ops // 4), sys.stdout)


if __name__ == "__main__":
    main()
