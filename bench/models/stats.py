#!/usr/bin/python3
"""Print a Markdown table of the memref corpus: per model, the top-level ops
of @forward (terminator excluded), allocs, deallocs, copies, the bytes
allocated, and the peak of the program as the pipeline left it (running sum
of memref.alloc / memref.dealloc sizes in program order; returned buffers stay
live to the end; function arguments are not counted).

Reads the pretty-printed output of mlir-opt (function body ops are indented by
exactly four spaces, nested regions deeper), as written by generate.sh.

Usage: stats.py [NAME...]
"""

import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = re.compile(r"^    (?!\}|\^)(\S.*)$")
ALLOC = re.compile(r"^(%[\w$.-]+) = memref\.alloc\(\).*: memref<([0-9x]*)(f32|f64|f16|i\d+)>")
DEALLOC = re.compile(r"^memref\.dealloc (%[\w$.-]+) ")
BYTES = {"f32": 4, "f64": 8, "f16": 2}


def stats(path):
    ops = allocs = deallocs = copies = total = live = peak = 0
    sizes = {}
    in_func = False
    for line in open(path):
        if line.startswith("  func.func @forward"):
            in_func = True
            continue
        if in_func and line.startswith("  }"):
            break
        m = TOP.match(line) if in_func else None
        if not m:
            continue
        op = m.group(1)
        if op.startswith("return"):
            continue
        ops += 1
        a = ALLOC.match(op)
        if a:
            dims = [int(d) for d in a.group(2).split("x") if d]
            elt = BYTES.get(a.group(3), int(a.group(3)[1:]) // 8 if a.group(3)[0] == "i" else 4)
            b = math.prod(dims) * elt
            sizes[a.group(1)] = b
            allocs += 1
            total += b
            live += b
            peak = max(peak, live)
            continue
        d = DEALLOC.match(op)
        if d:
            deallocs += 1
            live -= sizes.get(d.group(1), 0)
            continue
        if op.startswith("memref.copy"):
            copies += 1
    return ops, allocs, deallocs, copies, total, peak


def input_size(path):
    for line in open(path):
        m = re.search(r"@forward\(%\w+: memref<([0-9x]+)f32>", line)
        if m:
            return m.group(1).rstrip("x")
    return "?"


def main():
    names = sys.argv[1:] or sorted(f[:-5] for f in os.listdir(HERE)
                                  if f.endswith(".mlir") and not f.endswith(".tensor.mlir"))
    print("| model | input | ops | allocs | deallocs | copies | allocated MB | peak MB (as placed) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for n in names:
        p = os.path.join(HERE, f"{n}.mlir")
        ops, a, d, c, total, peak = stats(p)
        print(f"| {n} | {input_size(p)} | {ops} | {a} | {d} | {c} | "
              f"{total / 1e6:.2f} | {peak / 1e6:.2f} |")


if __name__ == "__main__":
    main()
