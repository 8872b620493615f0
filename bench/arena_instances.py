#!/usr/bin/env python3
"""Writes a dynamic storage allocation instance as CSV (id,lower,upper,size),
lifetimes half-open [lower, upper), for memsched-arena.

  bench/arena_instances.py --buffers 300 --seed 1 [--kind random|layered] > inst.csv

random:  lifetimes of random start and length over a horizon of about
         buffers / 4 steps, sizes log-uniform over 64 B .. 64 KiB;
layered: the activations of a deep network: most buffers live one or two
         steps, some (skip connections) many, sizes of a few channel widths.
Deterministic in --seed.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--buffers", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=["random", "layered"], default="random")
    args = ap.parse_args()
    r = random.Random(args.seed)
    n = args.buffers
    print("id,lower,upper,size")
    if args.kind == "random":
        horizon = max(4, n // 4)
        for i in range(n):
            lo = r.randrange(horizon)
            hi = min(horizon, lo + 1 + int(r.expovariate(1.0 / 6)))
            size = int(64 * 2 ** (r.random() * 10)) // 16 * 16 + 16
            print("b%d,%d,%d,%d" % (i, lo, hi, size))
    else:
        widths = [r.choice([16, 32, 64, 128]) * 1024 for _ in range(4)]
        t = 0
        for i in range(n):
            life = 1 + (r.randrange(12) if r.random() < 0.15 else r.randrange(2))
            print("b%d,%d,%d,%d" % (i, t, t + life + 1, r.choice(widths)))
            t += 1 if r.random() < 0.7 else 0


if __name__ == "__main__":
    main()
