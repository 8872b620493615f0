#!/usr/bin/env python3
"""Differential fuzzing of --memsched-schedule on dynamic sizes (docs/dynamic.md).

  python3 test/Fuzz/dynamic_fuzz.py --count 200 --seed 1 [--build-dir build] [-j 2]

Each seed writes a random function @f whose buffers are sized by an index
argument %n with a random declared range (`memsched.range`; one program in
five without an upper end): buffers of K x n floats (memref<?xKxf32>) and
static ones, written by fills and by linalg.generic ops that read element 0
of up to two earlier buffers, emitted in a random topological order, freed
at their last use or at the end; one buffer in four is then updated by an
scf.for whose body allocates a temporary sized by %n (or static), reads the
buffer into it and writes it back (memory nested in an op that depends on
the size). Then, for the program:

  1. `memsched-opt --memsched-schedule --memsched-verify` must succeed (the
     certificate, its `peak_expr` and `lower_bound_expr` included, checks);
  2. `--memsched-schedule --memsched-plan-arena --memsched-verify` must
     succeed (the arena's placement proved at every size, its size function
     checked);
  3. the original, the scheduled and the planned program run under
     mlir-runner with the counting allocator at three sizes in the range
     (its ends, or its lower end and two sizes above it, and one in
     between): the outputs must be identical, the scheduled peak measured
     never above the original's, equal to `peak_expr` at that size and not
     below `lower_bound_expr`; the planned one equal to the memory the
     plan-arena remark gives at that size (plus up to the 16 bytes an
     aligned arena costs the allocator where it is live) and never above
     the scheduled one but for those 16.

A failing program is kept in --keep-dir with the reason. Deterministic in the
seeds. Needs memsched-opt, mlir-runner and the runtime library of the build;
exits with 1 when a program fails, 77 without mlir-runner.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def gen_program(seed):
    """Returns (mlir text, lo, hi or None)."""
    r = random.Random(seed)
    lo = r.randint(1, 6)
    hi = None if r.random() < 0.2 else lo + r.randint(0, 40)
    nbuf = r.randint(3, 12)
    # Each buffer: ("dyn", K) -> memref<?xKxf32> (4*K*n bytes) or
    # ("static", M) -> memref<Mxf32>.
    bufs = []
    for _ in range(nbuf):
        if r.random() < 0.6:
            bufs.append(("dyn", r.choice([1, 2, 4, 8, 16])))
        else:
            bufs.append(("static", r.choice([4, 16, 64, 256])))
    # Producers: buffer i reads up to two earlier buffers (a fill if none).
    reads = []
    for i in range(nbuf):
        k = r.choice([0, 1, 1, 2]) if i else 0
        reads.append(sorted(set(r.randrange(i) for _ in range(k))) if i else [])
    outputs = {"dyn": r.randrange(nbuf), "static": r.randrange(nbuf)}

    def ty(b):
        kind, k = bufs[b]
        return "memref<?x%dxf32>" % k if kind == "dyn" else "memref<%dxf32>" % k

    def rank(t):
        return 2 if t.startswith("memref<?x") else 1

    def zero_map(src_rank, dst_rank):
        dims = ", ".join("d%d" % d for d in range(dst_rank))
        return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(["0"] * src_rank))

    def ident(rk):
        dims = ", ".join("d%d" % d for d in range(rk))
        return "affine_map<(%s) -> (%s)>" % (dims, dims)

    def generic(ins, out_val, out_ty, lines):
        ork = rank(out_ty)
        maps = [zero_map(rank(t), ork) for _, t in ins] + [ident(ork)]
        iters = ", ".join(['"parallel"'] * ork)
        args = ", ".join("%%x%d: f32" % j for j in range(len(ins)))
        args = (args + ", " if args else "") + "%acc: f32"
        lines.append("  linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                     % (", ".join(maps), iters))
        if ins:
            lines.append("      ins(%s : %s)" % (", ".join(v for v, _ in ins),
                                                 ", ".join(t for _, t in ins)))
        lines.append("      outs(%s : %s) {" % (out_val, out_ty))
        lines.append("  ^bb0(%s):" % args)
        # The output's old contents are never read (a new buffer's are not
        # initialised).
        acc = "%quarter"
        for j in range(len(ins)):
            lines.append("    %%m%d = arith.mulf %%x%d, %%half : f32" % (j, j))
            lines.append("    %%s%d = arith.addf %%m%d, %s : f32" % (j, j, acc))
            acc = "%%s%d" % j
        lines.append("    %%r = arith.addf %s, %%quarter : f32" % acc)
        lines.append("    linalg.yield %r : f32")
        lines.append("  }")

    rng_text = "%d, %d" % (lo, hi if hi is not None else -1)
    lines = ["func.func @f(%%n: index {memsched.range = array<i64: %s>}, "
             "%%od: memref<?x4xf32>, %%os: memref<16xf32>) {" % rng_text,
             "  %half = arith.constant 0.5 : f32",
             "  %quarter = arith.constant 0.25 : f32",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %c2 = arith.constant 2 : index"]
    last_use = {}
    order = list(range(nbuf))
    # A random topological order: buffer i after what it reads.
    emitted, pending = [], set(order)
    while pending:
        ready = [i for i in pending if all(j in emitted for j in reads[i])]
        i = r.choice(sorted(ready))
        emitted.append(i)
        pending.remove(i)
    body = []
    loops = 0
    for pos, i in enumerate(emitted):
        kind, k = bufs[i]
        size = "(%n)" if kind == "dyn" else "()"
        body.append(("alloc", i, "  %%b%d = memref.alloc%s : %s" % (i, size, ty(i))))
        g = []
        generic([("%%b%d" % j, ty(j)) for j in reads[i]], "%%b%d" % i, ty(i), g)
        body.append(("op", i, "\n".join(g)))
        for j in reads[i]:
            last_use[j] = len(body) - 1
        last_use.setdefault(i, len(body) - 1)
        last_use[i] = max(last_use[i], len(body) - 1)
        # Now and then a loop updates the new buffer through a temporary of
        # the loop body, sized by %n (or static): memory nested in an op
        # that depends on the size.
        if r.random() < 0.25:
            tk = r.choice([1, 2, 4, 8])
            tty = "memref<?x%dxf32>" % tk if r.random() < 0.8 else "memref<%dxf32>" % (4 * tk)
            tsize = "(%n)" if tty.startswith("memref<?") else "()"
            t = "%%t%d" % loops
            g = ["  scf.for %%l%d = %%c0 to %%c2 step %%c1 {" % loops,
                 "  %s = memref.alloc%s : %s" % (t, tsize, tty)]
            generic([("%%b%d" % i, ty(i))], t, tty, g)
            generic([(t, tty)], "%%b%d" % i, ty(i), g)
            g += ["  memref.dealloc %s : %s" % (t, tty), "  }"]
            body.append(("op", i, "\n".join(g)))
            last_use[i] = len(body) - 1
            loops += 1
    # The outputs read one buffer each, at the end.
    for kind, out, oty in (("dyn", "%od", "memref<?x4xf32>"),
                           ("static", "%os", "memref<16xf32>")):
        b = outputs[kind]
        g = []
        generic([("%%b%d" % b, ty(b))], out, oty, g)
        body.append(("op", None, "\n".join(g)))
        last_use[b] = len(body) - 1
    # Deallocations: right after the last use or at the end.
    at_end = []
    out_lines = []
    for idx, (_, _, text) in enumerate(body):
        out_lines.append(text)
        for i in range(nbuf):
            if last_use.get(i) == idx:
                if r.random() < 0.5:
                    out_lines.append("  memref.dealloc %%b%d : %s" % (i, ty(i)))
                else:
                    at_end.append(i)
    for i in at_end:
        out_lines.append("  memref.dealloc %%b%d : %s" % (i, ty(i)))
    lines += out_lines + ["  return", "}"]
    return "\n".join(lines) + "\n", lo, hi


def driver(sizes):
    """@main: for each size, outputs outside the count, @f, the measured peak
    and the outputs' sums."""
    lines = ["func.func private @memsched_counter_reset()",
             "func.func private @memsched_counter_print()",
             "func.func private @printF32(f32)",
             "func.func private @printNewline()",
             "func.func @run(%n: index) {",
             "  %zero = arith.constant 0.0 : f32",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %c4 = arith.constant 4 : index",
             "  %c16 = arith.constant 16 : index",
             "  %od = memref.alloca(%n) : memref<?x4xf32>",
             "  %os = memref.alloca() : memref<16xf32>",
             "  linalg.fill ins(%zero : f32) outs(%od : memref<?x4xf32>)",
             "  linalg.fill ins(%zero : f32) outs(%os : memref<16xf32>)",
             "  func.call @memsched_counter_reset() : () -> ()",
             "  func.call @f(%n, %od, %os) : (index, memref<?x4xf32>, memref<16xf32>) -> ()",
             "  func.call @memsched_counter_print() : () -> ()",
             "  %sd = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f32 {",
             "    %v = memref.load %od[%i, %c0] : memref<?x4xf32>",
             "    %w = arith.addf %a, %v : f32",
             "    scf.yield %w : f32",
             "  }",
             "  %ss = memref.load %os[%c0] : memref<16xf32>",
             "  func.call @printF32(%sd) : (f32) -> ()",
             "  func.call @printNewline() : () -> ()",
             "  func.call @printF32(%ss) : (f32) -> ()",
             "  func.call @printNewline() : () -> ()",
             "  return",
             "}",
             "func.func @main() {"]
    for k, n in enumerate(sizes):
        lines.append("  %%n%d = arith.constant %d : index" % (k, n))
        lines.append("  func.call @run(%%n%d) : (index) -> ()" % k)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def evaluate(expr, n):
    return eval(expr.replace("^", "**").replace("arg0", "(%d)" % n),
                {"max": max, "__builtins__": {}})


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(seed, args):
    prog, lo, hi = gen_program(seed)
    if hi is None:
        sizes = [lo, lo + 7, lo + 50]
    else:
        sizes = sorted({lo, hi, (lo + hi) // 2})
    opt = os.path.join(args.build_dir, "bin", "memsched-opt")
    runtime = os.path.join(args.build_dir, "lib", "libmemsched_runtime.so")
    runner_utils = os.path.join(args.mlir_lib_dir, "libmlir_c_runner_utils.so")
    work = tempfile.mkdtemp(prefix="dynfuzz-")
    problems = []
    try:
        path = os.path.join(work, "f.mlir")
        with open(path, "w") as f:
            f.write(prog + driver(sizes))
        rc, sched, err = run([opt, path, "--memsched-schedule",
                              "--memsched-verify"])
        if rc:
            problems.append("schedule or verify failed:\n" + err)
            return seed, problems, None
        m = re.search(r'func\.func @f\(.*peak_expr = "([^"]*)", '
                      r'lower_bound_expr = "([^"]*)"', sched)
        # A program whose buffers all came out static has a certificate
        # of constants.
        static = re.search(r"func\.func @f\(.*#memsched\.certificate<peak = "
                           r"(\d+), lower_bound = (\d+)", sched)
        if m:
            peak_expr, bound_expr = m.group(1), m.group(2)
        elif static and "memref.alloc(%n)" not in prog:
            peak_expr, bound_expr = static.group(1), static.group(2)
        else:
            problems.append("no certificate with expressions on @f:\n" +
                            sched[:2000])
            return seed, problems, None
        # The scheduled body placed in an arena for the whole range.
        rc, planned_ir, err = run([opt, path, "--memsched-schedule",
                                   "--memsched-plan-arena=remarks",
                                   "--memsched-verify"])
        if rc:
            problems.append("plan-arena or verify failed:\n" + err)
            return seed, problems, None
        mem = re.search(r"'f': .*; memory (max\([^)]*\)|[^ ]+) bytes, never "
                        r"more than without it", err)
        memory_expr = mem.group(1) if mem else None
        outs = {}
        for what, extra in (("original", []),
                            ("scheduled", ["--memsched-schedule=certify=0"]),
                            ("planned", ["--memsched-schedule",
                                         "--memsched-plan-arena"])):
            rc, low, err = run([opt, path] + extra +
                               ["--memsched-test-lower-to-llvm"])
            if rc:
                problems.append("%s: lowering failed:\n%s" % (what, err))
                return seed, problems, None
            rc, out, err = run([os.path.join(args.llvm_bin, "mlir-runner"),
                                "-e", "main",
                                "-entry-point-result=void", "-O2",
                                "-shared-libs=%s,%s" % (runtime, runner_utils)],
                               stdin=low)
            if rc:
                problems.append("%s: run failed:\n%s" % (what, err))
                return seed, problems, None
            outs[what] = out.split("\n")
        peaks = {w: [int(x) for x in re.findall(r"measured-peak=(\d+)",
                                                "\n".join(o))]
                 for w, o in outs.items()}
        values = {w: [l for l in o if "measured-peak" not in l]
                  for w, o in outs.items()}
        if values["original"] != values["scheduled"]:
            problems.append("outputs differ: %s against %s" %
                            (values["original"], values["scheduled"]))
        if values["original"] != values["planned"]:
            problems.append("planned outputs differ: %s against %s" %
                            (values["original"], values["planned"]))
        # Planned: the memory expression at each size, plus up to the 16
        # bytes the generic allocation function asks more for the 16-byte
        # aligned arena (added to the moments the arena is live, which may
        # make one of them the peak); never above the unplanned body but
        # for those 16.
        for n, unplanned, planned in zip(sizes, peaks["scheduled"],
                                         peaks["planned"]):
            if memory_expr is not None:
                expected = evaluate(memory_expr, n)
                if not 0 <= planned - expected <= 16:
                    problems.append("n=%d: planned measured %d, memory %s "
                                    "gives %d" % (n, planned, memory_expr,
                                                  expected))
            if planned > unplanned + 16:
                problems.append("n=%d: planned measured %d above the "
                                "unplanned %d" % (n, planned, unplanned))
        for n, before, after in zip(sizes, peaks["original"],
                                    peaks["scheduled"]):
            expected = evaluate(peak_expr, n)
            bound = evaluate(bound_expr, n)
            if after > before:
                problems.append("n=%d: scheduled peak %d above the original %d"
                                % (n, after, before))
            if after != expected:
                problems.append("n=%d: measured %d, peak_expr %s gives %d" %
                                (n, after, peak_expr, expected))
            if bound > after:
                problems.append("n=%d: lower_bound_expr %s gives %d above the "
                                "measured %d" % (n, bound_expr, bound, after))
        # Reordered: @f's body differs from the input printed the same way.
        rc, plain, _ = run([opt, path])

        def body_of(text):
            return text.split("func.func @f(")[1].split("\n", 1)[1].split(
                "\n  }\n")[0]

        reordered = rc == 0 and body_of(plain) != body_of(sched)
        return seed, problems, (reordered, memory_expr is not None)
    finally:
        if problems:
            dest = os.path.join(args.keep_dir, "dyn-%d" % seed)
            os.makedirs(dest, exist_ok=True)
            shutil.copy(os.path.join(work, "f.mlir"), dest)
            with open(os.path.join(dest, "reason.txt"), "w") as f:
                f.write("\n".join(problems) + "\n")
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--build-dir", default="build")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                   help="where mlir-runner is")
    p.add_argument("--mlir-lib-dir", default="/usr/lib/llvm-22/lib",
                   help="where libmlir_c_runner_utils.so is")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--keep-dir", default="fuzz-failures")
    args = p.parse_args()
    if not os.path.exists(os.path.join(args.llvm_bin, "mlir-runner")):
        print("dynamic fuzz: no mlir-runner in %s: nothing run" % args.llvm_bin)
        return 77
    failed = reordered = arenas = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check, s, args)
                   for s in range(args.seed, args.seed + args.count)]
        for fut in futures:
            seed, problems, changed = fut.result()
            if problems:
                failed += 1
                print("seed %d FAILED: %s" % (seed, problems[0].splitlines()[0]))
            elif changed:
                reordered += changed[0]
                arenas += changed[1]
    print("dynamic fuzz: %d programs (seeds %d-%d), %d failed, %d changed by "
          "the schedule, %d given an arena sized over the range"
          % (args.count, args.seed, args.seed + args.count - 1, failed,
             reordered, arenas))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
