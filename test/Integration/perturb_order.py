#!/usr/bin/env python3
"""Reorder the ops of a linalg-on-tensors function (bench/models/*.tensor.mlir)
into another valid order, breadth first.

On tensors every op is pure, so SSA def-use is the only dependency and any
topological order of it computes the same values. This prints the module with
the body of @forward in Kahn's order with a FIFO queue: an op runs as soon as
its operands exist, in the order they became ready. Ops without operands
(constants, tensor.empty) are printed right before their first user. So every
op that needs nothing but those (the linalg.fill of each convolution's and
matmul's init) comes first, each holding its buffer from the start, and
parallel branches (inception, residual shortcuts, dense connections) are
interleaved op by op instead of one after the other.

The result is bufferized like the shipped corpus (with
--optimize-allocation-liveness) and gives memsched an input whose op order,
not just its deallocation placement, is worse than the exported one.

Reads the pretty-printed form: body ops indented by four spaces, nested
regions deeper (`^bb` and `}` lines at four spaces continue the op).

Usage: perturb_order.py [--func NAME] FILE > OUT
"""

import argparse
import re
import sys
from collections import deque

VALUE = re.compile(r"%[\w$.-]+")
RESULTS = re.compile(r"^((?:%[\w$.-]+(?::\d+)?)(?:, %[\w$.-]+(?::\d+)?)*) = ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--func", default="forward")
    a = ap.parse_args()
    lines = open(a.file).read().split("\n")
    head = next(i for i, l in enumerate(lines)
                if re.match(r"^  func\.func (?:private )?@" + re.escape(a.func) + r"\(", l))
    end = next(i for i in range(head + 1, len(lines)) if lines[i].startswith("  }"))
    ops = []
    for line in lines[head + 1:end]:
        if line.startswith("     ") or line[4] in "}^":
            ops[-1].append(line)
        else:
            ops.append([line])
    *body, ret = ops
    if not ret[0].strip().startswith("return"):
        sys.exit("error: the body does not end with return")

    defined = {}
    for i, op in enumerate(body):
        m = RESULTS.match(op[0].strip())
        if m:
            for r in m.group(1).split(", "):
                defined[r.split(":")[0]] = i
    preds = []
    for i, op in enumerate(body):
        uses = {defined[v] for v in VALUE.findall("\n".join(op)) if v in defined}
        uses.discard(i)
        if any(u > i for u in uses):
            sys.exit(f"error: op {i} uses a value defined later")
        preds.append(uses)
    users = [[] for _ in body]
    for i, p in enumerate(preds):
        for u in sorted(p):
            users[u].append(i)

    leaves = {i for i, p in enumerate(preds) if not p}
    remaining = [len(p - leaves) for p in preds]
    placed = set()
    order = []

    def place(i):
        # Operand-free ops go right before their first user.
        for p in sorted(preds[i]):
            if p in leaves and p not in placed:
                placed.add(p)
                order.append(p)
        placed.add(i)
        order.append(i)

    queue = deque(i for i in range(len(body)) if i not in leaves and remaining[i] == 0)
    while queue:
        i = queue.popleft()
        place(i)
        for u in users[i]:
            if u not in leaves:
                remaining[u] -= 1
                if remaining[u] == 0:
                    queue.append(u)
    order = sorted(leaves - placed) + order  # unused leaves first, in order
    if sorted(order) != list(range(len(body))):
        sys.exit("error: not every op was placed")

    out = lines[:head + 1]
    for i in order:
        out += body[i]
    out += ret + lines[end:]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
