#!/usr/bin/env python3
"""Minimum peak of a memsched scheduling graph by a plain exhaustive search.

An independent check of memsched's exact search: this script shares no code
with it. It reads a graph written by `memsched-opt
--memsched-schedule=graph-dir=D` (D/<function>.graph.json) and uses only the
memory model of the format (docs/user-guide.md): a buffer is live from its
first toucher to its last (from the start when live_in, to the end when
live_out); the memory while a node runs is its transient bytes plus the
buffers live then; an order's peak is the maximum over its nodes.

The search decides, for a target T, whether some valid order keeps every node
below T: a depth-first search over executed sets (down-closed sets of nodes),
each set visited once, a node added only when its memory stays below T. One
rule prunes: when a ready node v runs below T and frees at least the bytes it
starts (started <= ended below), v is the only successor of the set tried.
Proof: take an order from the set that stays below T and move v to its front
(valid: v is ready). The nodes v overtook run with the buffers v starts live
earlier (at most `started` more) and those v ends (all of their touchers ran)
already freed (`ended` less; a buffer v both starts and ends counts in both
and is live at none of them, either way), so they stay below T; v itself
runs below T by the condition, and the nodes after v see the same executed
sets. No other reduction, bound or dominance rule: a set is dropped only when
visited before, so "no order below T" means every executed set reachable
below T under the rule was enumerated. A bisection between a proved bound
and the peak of the best order found (the program order first) then finds
the optimum. The same search can run on the reversed graph
(edges reversed, live_in and live_out swapped: the reversed order of an order
has the same memory at every node), which can need far fewer sets; --direction
both alternates the two with doubling budgets.

  graph_exact.py GRAPH [--budget STATES] [--direction forward|reverse|both]

Prints `optimum=P states=S` when proved, or `undecided bound=L best=P
states=S` when the budget ran out (exit code 2); with --below T, whether
some order stays below T (`found peak=P` or `none-below=T`).
"""

import argparse
import json
import sys


class Graph:
    def __init__(self, doc, reverse=False):
        self.n = len(doc["nodes"])
        self.transient = [node.get("transient", 0) for node in doc["nodes"]]
        pred = [0] * self.n
        succ = [[] for _ in range(self.n)]
        for a, b in doc["edges"]:
            if reverse:
                a, b = b, a
            if a != b:
                pred[b] |= 1 << a
                succ[a].append(b)
        self.pred, self.succ = pred, succ
        # Buffers: (size, toucher mask, live_in, live_out). A buffer without
        # toucher is live throughout when live_in and live_out, else never.
        self.constant = 0
        self.buffers = []
        self.touches = [[] for _ in range(self.n)]
        for buf in doc["buffers"]:
            size = buf["size"]
            li, lo = buf.get("live_in", False), buf.get("live_out", False)
            if reverse:
                li, lo = lo, li
            if not buf["touchers"]:
                if li and lo:
                    self.constant += size
                continue
            if size == 0:
                continue
            mask = 0
            for t in buf["touchers"]:
                mask |= 1 << t
            k = len(self.buffers)
            self.buffers.append((size, mask, li, lo))
            for t in set(buf["touchers"]):
                self.touches[t].append(k)

    def step(self, done, live, v):
        """Memory while v runs after the set `done`, and the live bytes
        between steps afterwards."""
        after = done | (1 << v)
        started = ended = 0
        for k in self.touches[v]:
            size, mask, li, lo = self.buffers[k]
            if not li and not mask & done:
                started += size
            if not lo and not mask & ~after:
                ended += size
        return live + started + self.transient[v], live + started - ended

    def start(self):
        live = self.constant
        for size, mask, li, lo in self.buffers:
            if li:
                live += size
        ready = 0
        for v in range(self.n):
            if not self.pred[v]:
                ready |= 1 << v
        return live, ready

    def peak(self, order):
        done, peak = 0, 0
        live, _ = self.start()
        for v in order:
            mem, live = self.step(done, live, v)
            peak = max(peak, mem)
            done |= 1 << v
        return peak


def below(graph, target, budget):
    """An order with every node below target, [] when there is none, or None
    when the budget ran out first; and the sets visited."""
    full = (1 << graph.n) - 1
    live0, ready0 = graph.start()
    seen = {0}
    # Each entry: (executed set, live bytes, ready mask, order so far).
    stack = [(0, live0, ready0, ())]
    states = 0
    while stack:
        done, live, ready, order = stack.pop()
        states += 1
        if states > budget:
            return None, states
        children = []
        forced = None
        r = ready
        while r:
            low = r & -r
            v = low.bit_length() - 1
            r ^= low
            mem, live2 = graph.step(done, live, v)
            if mem < target and live2 <= live:
                forced = v
                break
        r = ready if forced is None else 1 << forced
        while r:
            low = r & -r
            v = low.bit_length() - 1
            r ^= low
            after = done | low
            if after in seen:
                continue
            mem, live2 = graph.step(done, live, v)
            if mem >= target:
                continue
            if after == full:
                return list(order) + [v], states
            seen.add(after)
            ready2 = ready ^ low
            for w in graph.succ[v]:
                if not graph.pred[w] & ~after:
                    ready2 |= 1 << w
            children.append((live2, v, after, ready2))
        # Least live memory popped first.
        children.sort(reverse=True)
        for live2, v, after, ready2 in children:
            stack.append((after, live2, ready2, order + (v,)))
    return [], states


def trivial_bound(graph):
    """No order runs a node with less than its transient bytes, the buffers
    it touches and the buffers live throughout."""
    return max((graph.constant + graph.transient[v] +
                sum(graph.buffers[k][0] for k in graph.touches[v])
                for v in range(graph.n)), default=graph.constant)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graph")
    parser.add_argument("--budget", type=int, default=2000000,
                        help="executed sets the search may visit in all")
    parser.add_argument("--direction", choices=("forward", "reverse", "both"),
                        default="both")
    parser.add_argument("--below", type=int, default=0,
                        help="only decide whether some order stays below this")
    args = parser.parse_args()
    doc = json.load(open(args.graph))
    graphs = {d: Graph(doc, reverse=(d == "reverse"))
              for d in ("forward", "reverse")}
    if args.below:
        d = "reverse" if args.direction == "reverse" else "forward"
        order, states = below(graphs[d], args.below, args.budget)
        if order is None:
            print(f"undecided states={states}")
            return 2
        if order:
            print(f"found peak={graphs[d].peak(order)} states={states}")
        else:
            print(f"none-below={args.below} states={states} direction={d}")
        return 0
    # Bisection between a proved bound `lo` (no order below it) and the peak
    # `best` of an order found, each step decided in one direction or the
    # other, with budgets doubling when both run out.
    forward = graphs["forward"]
    best = forward.peak(range(forward.n))
    lo = trivial_bound(forward)
    directions = ["forward", "reverse"] if args.direction == "both" else [args.direction]
    spent, chunk = 0, 10000 if args.direction == "both" else args.budget
    while lo < best:
        target = (lo + best + 1) // 2
        decided = False
        for d in directions:
            share = min(chunk, args.budget - spent)
            if share <= 0:
                break
            order, states = below(graphs[d], target, share)
            spent += states
            if order is None:
                continue
            if order:
                best = graphs[d].peak(order)
            else:
                lo = target
            decided = True
            break
        if not decided:
            if spent >= args.budget:
                print(f"undecided bound={lo} best={best} states={spent}")
                return 2
            chunk *= 2
    print(f"optimum={best} states={spent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
