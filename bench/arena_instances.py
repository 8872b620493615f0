#!/usr/bin/env python3
"""Writes a dynamic storage allocation instance as CSV (id,lower,upper,size),
lifetimes half-open [lower, upper), for memsched-arena.

  bench/arena_instances.py --buffers 300 --seed 1 [--kind random|layered|tiling] > inst.csv

random:  lifetimes of random start and length over a horizon of about
         buffers / 4 steps, sizes log-uniform over 64 B .. 64 KiB;
layered: the activations of a deep network: most buffers live one or two
         steps, some (skip connections) many, sizes of a few channel widths;
tiling:  a perfect tiling: the rectangle of --buffers time steps by
         1,048,576 bytes cut in two, piece by piece (the largest first, in
         time or in bytes, at a random point, bytes in 1 KiB units), into
         --buffers pieces, each a buffer; every time step is covered
         exactly, so a placement without a gap exists and the optimum
         arena is 1,048,576 bytes, the ideal.
Deterministic in --seed.

  bench/arena_instances.py --table [--build-dir build] [--seeds 1-5]
                           [--sizes 150,300,500] [--scaling 100000]

plans the instance set (random, layered and tiling, each size and seed, plus one
layered instance of --scaling buffers) with the default options through the
unit test binary (its disabled ArenaPlannerBench test, which reports the
work) and prints a Markdown table: arena, bound, gap, optimal, work,
seconds.

  bench/arena_instances.py --compare FILE.csv... [--build-dir build]

plans each CSV file with memsched-arena (default options) and with TFLite
Micro's greedy by size and the allocation-order first fit alone
(`--heuristic`), and prints a Markdown table: buffers, ideal, the arena of
each, memsched's bound and whether it is proved, and memsched's seconds.
With `--tilings 150,300,500 --seeds 1-5` instead of files, the perfect
tilings of those sizes (their optimum is the ideal). With `--fit-budget N`,
two more columns: whether memsched fits the instance into its capacity
(`memsched-arena --capacity C --work-budget N`; C is the number in a file
name `NAME.C.csv`, as the MiniMalloc files carry it, or a tiling's ideal)
and its seconds.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile


def write_instance(out, n, seed, kind):
    r = random.Random(seed)
    out.write("id,lower,upper,size\n")
    if kind == "random":
        horizon = max(4, n // 4)
        for i in range(n):
            lo = r.randrange(horizon)
            hi = min(horizon, lo + 1 + int(r.expovariate(1.0 / 6)))
            size = int(64 * 2 ** (r.random() * 10)) // 16 * 16 + 16
            out.write("b%d,%d,%d,%d\n" % (i, lo, hi, size))
    elif kind == "tiling":
        write_tiling(out, n, r)
    else:
        widths = [r.choice([16, 32, 64, 128]) * 1024 for _ in range(4)]
        t = 0
        for i in range(n):
            life = 1 + (r.randrange(12) if r.random() < 0.15 else r.randrange(2))
            out.write("b%d,%d,%d,%d\n" % (i, t, t + life + 1, r.choice(widths)))
            t += 1 if r.random() < 0.7 else 0


TILING_BYTES = 1 << 20
TILING_UNIT = 1024


def write_tiling(out, n, r):
    """Cuts [0, n) x [0, TILING_BYTES) into n rectangles: always the one of
    largest area (time steps x units), across its longer side relative to
    the whole (time / n against bytes / TILING_BYTES), at a random point."""
    units = TILING_BYTES // TILING_UNIT
    pieces = [(0, n, 0, units)]  # time [t0, t1), units [m0, m1)
    while len(pieces) < n:
        k = max(range(len(pieces)),
                key=lambda i: ((pieces[i][1] - pieces[i][0]) *
                               (pieces[i][3] - pieces[i][2]), -i))
        t0, t1, m0, m1 = pieces[k]
        can_time, can_bytes = t1 - t0 >= 2, m1 - m0 >= 2
        if not can_time and not can_bytes:
            break
        by_time = can_time and (not can_bytes or
                                (t1 - t0) * units >= (m1 - m0) * n)
        if by_time:
            c = r.randrange(t0 + 1, t1)
            parts = [(t0, c, m0, m1), (c, t1, m0, m1)]
        else:
            c = r.randrange(m0 + 1, m1)
            parts = [(t0, t1, m0, c), (t0, t1, c, m1)]
        pieces[k:k + 1] = parts
    r.shuffle(pieces)
    for i, (t0, t1, m0, m1) in enumerate(pieces):
        out.write("b%d,%d,%d,%d\n" % (i, t0, t1, (m1 - m0) * TILING_UNIT))


def parse_range(text):
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def table(args):
    binary = os.path.join(args.build_dir, "unittests", "MemSchedGraphTests")
    if not os.path.exists(binary):
        sys.exit("no %s: build the MemSchedGraphTests target" % binary)
    sizes = [int(s) for s in args.sizes.split(",")]
    seeds = parse_range(args.seeds)
    cases = [(kind, n, s) for kind in ("random", "layered", "tiling")
             for n in sizes for s in seeds]
    if args.scaling:
        cases.append(("layered", args.scaling, 1))
    print("| kind | buffers | seed | heuristic | arena | bound | gap | optimal | work | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, n, seed in cases:
            path = os.path.join(tmp, "%s-%d-%d.csv" % (kind, n, seed))
            with open(path, "w") as f:
                write_instance(f, n, seed, kind)
            env = dict(os.environ, MEMSCHED_ARENA_BENCH=path)
            out = subprocess.run(
                [binary, "--gtest_also_run_disabled_tests",
                 "--gtest_filter=ArenaPlannerBench.*"],
                env=env, capture_output=True, text=True)
            m = re.search(r"arena-bench .*", out.stdout)
            if out.returncode or not m:
                sys.exit("%s failed:\n%s%s" % (path, out.stdout, out.stderr))
            v = dict(kv.split("=", 1) for kv in m.group(0).split()[1:])
            arena, bound = int(v["arena"]), int(v["bound"])
            gap = 100.0 * (arena - bound) / bound if bound else 0.0
            print("| %s | %d | %d | %s | %s | %s | %.2f%% | %s | %s | %s |" % (
                kind, n, seed, v["heuristic"], arena, bound, gap,
                v["optimal"], v["work"], v["seconds"]))
            sys.stdout.flush()


def summary_of(binary, path, extra):
    out = subprocess.run([binary, path, "--summary", "-o", os.devnull] + extra,
                         capture_output=True, text=True)
    m = re.search(r"arena=.*", out.stderr)
    if out.returncode or not m:
        sys.exit("memsched-arena %s failed:\n%s" % (path, out.stderr))
    return dict(kv.split("=", 1) for kv in m.group(0).split())


def compare(args, files):
    binary = os.path.join(args.build_dir, "bin", "memsched-arena")
    if not os.path.exists(binary):
        sys.exit("no %s: build the memsched-arena target" % binary)
    fit = args.fit_budget > 0
    print("| instance | buffers | ideal | greedy by size | first fit | memsched | bound | proved | seconds |"
          + (" fits the capacity | seconds |" if fit else ""))
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
          + (" --- | ---: |" if fit else ""))
    for name, path, capacity in files:
        with open(path) as f:
            buffers = sum(1 for line in f if line.strip()) - 1
        greedy = summary_of(binary, path, ["--heuristic", "greedy-by-size"])
        first = summary_of(binary, path, ["--heuristic", "first-fit-by-start"])
        ours = summary_of(binary, path, [])
        row = "| %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            name, buffers, ours["ideal"], greedy["arena"], first["arena"],
            ours["arena"], ours["lower_bound"], ours["optimal"],
            ours["seconds"])
        if fit:
            if capacity is None:
                row += " - | - |"
            else:
                fitted = summary_of(binary, path, [
                    "--capacity", str(capacity),
                    "--work-budget", str(args.fit_budget)])
                row += " %s (%s) | %s |" % (fitted["fits"], capacity,
                                            fitted["seconds"])
        print(row)
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--buffers", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=["random", "layered", "tiling"],
                    default="random")
    ap.add_argument("--table", action="store_true",
                    help="plan the instance set and print a Markdown table")
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--seeds", default="1-5", help="with --table: FIRST-LAST")
    ap.add_argument("--sizes", default="150,300,500", help="with --table")
    ap.add_argument("--scaling", type=int, default=100000,
                    help="with --table: buffers of one more layered instance (0: none)")
    ap.add_argument("--compare", nargs="*", metavar="FILE",
                    help="compare memsched with greedy by size and first fit on these CSV files")
    ap.add_argument("--fit-budget", type=int, default=0,
                    help="with --compare: also fit each instance into its capacity with this work budget")
    ap.add_argument("--tilings", default=None,
                    help="with --compare and no files: tilings of these sizes (--seeds)")
    args = ap.parse_args()
    if args.table:
        table(args)
        return
    if args.compare is not None:
        if args.compare:
            files = []
            for p in args.compare:
                m = re.search(r"\.(\d+)\.csv$", p)
                files.append((os.path.basename(p), p,
                              int(m.group(1)) if m else None))
            compare(args, files)
            return
        if not args.tilings:
            ap.error("--compare needs files or --tilings")
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for n in [int(x) for x in args.tilings.split(",")]:
                for seed in parse_range(args.seeds):
                    path = os.path.join(tmp, "tiling-%d-%d.csv" % (n, seed))
                    with open(path, "w") as f:
                        write_instance(f, n, seed, "tiling")
                    files.append(("tiling %d/%d" % (n, seed), path, TILING_BYTES))
            compare(args, files)
        return
    if args.buffers is None:
        ap.error("--buffers is required (or --table)")
    write_instance(sys.stdout, args.buffers, args.seed, args.kind)


if __name__ == "__main__":
    main()
