#!/usr/bin/env python3
# ===- remat_fuzz.py - differential fuzzing of --memsched-rematerialize ---===#
#
# For each seed: a random program (random_program.py, single-block bodies:
# `--without blocks`, unless --blocks; or, with --training, a training-like program of this
# script: a forward chain whose results a backward chain reads again, with
# hazards), rewritten by
#   memsched-opt --memsched-rematerialize="bytes=0 max-extra-compute=-1"
# (recompute as much as lowers the peak, at any compute), then the program
# and the rewrite run under mlir-runner with the counting allocator
# (test/Integration/differential.sh with DIFF_PASS): the outputs must be
# bit-identical and the rewrite's measured peak equal to its certificate's.
#
#   python3 test/Fuzz/remat_fuzz.py --count N --seed S [--training]
#                                   [--calls] [--classic] [--blocks]
#                                   [--build-dir build] [-j 2]
#
# With --check-bound, each program is also rewritten at 0.8 of its
# scheduled peak within max-extra-compute=0.1 and at bytes=0 within the
# same limit: when the first says no recomputation within the limit goes
# below B bytes (or gives B for those memsched can make), both plans'
# peaks must be at least B (each is such a recomputation).
#
# Prints one line per failure (with the command that reproduces it) and a
# summary: programs, passed, failed, rewritten (certificate with remat_ops).
# Exit status 1 when any failed.
#
# ===----------------------------------------------------------------------===#
import argparse
import concurrent.futures
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def training_like(seed, path, blocks=False):
    """A forward chain of elementwise ops whose results a backward chain
    reads again (what recomputation is for), with random hazards: writes to
    the arguments (inputs of producers) between the forward and the
    backward ops, in-place second writers, reads through subviews, ops that
    read three buffers."""
    rng = random.Random(seed)
    T = "memref<64xf32>"
    lines = [f"func.func @f(%x: {T}, %w: {T}, %out: {T}) {{"]
    bufs = []
    fwd = rng.randint(3, 9)
    args = ["%x", "%w"]

    def pick(pool):
        return rng.choice(pool)

    for i in range(fwd):
        name = f"%a{i}"
        lines.append(f"  {name} = memref.alloc() : {T}")
        src = pick(bufs[-2:] + args) if bufs and rng.random() < 0.8 else pick(args + bufs)
        kind = rng.choice(["exp", "add", "mul", "copy"])
        if kind == "exp":
            lines.append(f"  linalg.exp ins({src} : {T}) outs({name} : {T})")
        elif kind == "copy":
            lines.append(f"  linalg.copy ins({src} : {T}) outs({name} : {T})")
        else:
            other = pick(args + bufs)
            lines.append(f"  linalg.{kind} ins({src}, {other} : {T}, {T}) outs({name} : {T})")
        if rng.random() < 0.2:
            # A second writer (in place): the producer chain has two ops.
            lines.append(f"  linalg.add ins({name}, {pick(args)} : {T}, {T}) outs({name} : {T})")
        bufs.append(name)
        if rng.random() < 0.15:
            # An input overwritten: later clones reading it must be refused.
            tgt = pick(args)
            lines.append(f"  linalg.copy ins({pick(bufs)} : {T}) outs({tgt} : {T})")
    grads = []
    prev = bufs[-1]
    for k in range(rng.randint(2, fwd + 1)):
        name = f"%g{k}"
        lines.append(f"  {name} = memref.alloc() : {T}")
        act = pick(bufs)
        if rng.random() < 0.3:
            view = f"%v{k}"
            lines.append(f"  {view} = memref.subview {act}[0] [64] [1] : {T} to memref<64xf32, strided<[1]>>")
            lines.append(f"  linalg.mul ins({prev}, {view} : {T}, memref<64xf32, strided<[1]>>) outs({name} : {T})")
        else:
            lines.append(f"  linalg.mul ins({prev}, {act} : {T}, {T}) outs({name} : {T})")
        if rng.random() < 0.2:
            lines.append(f"  linalg.add ins({name}, {pick(bufs)} : {T}, {T}) outs({name} : {T})")
        grads.append(name)
        prev = name
        if rng.random() < 0.1:
            lines.append(f"  linalg.fill ins(%cst : f32) outs({pick(args)} : {T})")
    lines.append(f"  linalg.add ins({prev}, {pick(bufs)} : {T}, {T}) outs(%out : {T})")
    for b in bufs + grads:
        lines.append(f"  memref.dealloc {b} : {T}")
    if blocks:
        # The step in one branch of a cf.cond_br (taken: the condition is
        # a constant), a small step of its own in the other.
        step = lines[1:]
        lines = lines[:1] + ["  %taken = arith.constant true",
                             "  cf.cond_br %taken, ^step, ^other", "^step:"]
        lines += step + ["  cf.br ^done", "^other:",
                         f"  %o = memref.alloc() : {T}",
                         f"  linalg.exp ins(%x : {T}) outs(%o : {T})",
                         f"  linalg.add ins(%o, %w : {T}, {T}) outs(%out : {T})",
                         f"  memref.dealloc %o : {T}",
                         "  cf.br ^done", "^done:"]
    lines.append("  return\n}")
    body = "\n".join(lines)
    if "%cst" in body:
        body = body.replace("{\n", "{\n  %cst = arith.constant 0.5 : f32\n", 1)
    with open(path, "w") as f:
        f.write(f"// remat_fuzz.py training-like seed {seed}\n" + body + "\n")


def one(seed, args, tools, work):
    d = os.path.join(work, str(seed))
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "program.mlir")
    if args.training:
        gen = ["(training-like)", "seed", str(seed)]
        training_like(seed, prog, blocks=args.blocks)
    else:
        gen = [sys.executable, os.path.join(ROOT, "test", "Fuzz", "random_program.py"),
               "--seed", str(seed), "-o", prog]
        if not args.blocks:
            gen[-2:-2] = ["--without", "blocks"]
        if args.calls:
            gen.append("--calls")
        if args.classic:
            gen.append("--classic")
        subprocess.run(gen, check=True, capture_output=True)
    env = dict(os.environ, DIFF_PASS="memsched-rematerialize",
               PATH=tools["path"])
    with open(prog) as f:
        several = re.search(r"^\s*\^\w+:", f.read(), re.M) is not None
    # A body with several blocks: the run takes one path, which need not be
    # the one that peaks (outputs identical, measured peak at most the
    # certificate's).
    if several:
        env["DIFF_PEAK"] = "at-most"
    cmd = ["bash", os.path.join(ROOT, "test", "Integration", "differential.sh"),
           tools["runtime"], tools["libdir"], "mlir-runner", prog, "f",
           os.path.join(d, "out"), "bytes=0", "max-extra-compute=-1"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=args.timeout)
    rewritten = False
    sched = os.path.join(d, "out.sched.mlir")
    if os.path.exists(sched):
        with open(sched) as f:
            rewritten = "remat_ops" in f.read()
    ok = p.returncode == 0 and "outputs identical" in p.stdout
    log = (p.stdout + p.stderr)[-600:]
    if ok and args.check_bound:
        problem = check_bound(prog, tools, args)
        if problem:
            ok, log = False, problem
    return (seed, ok, rewritten, several, log, " ".join(gen), cmd)


# (function, bound) of every bound checked (appended from the workers).
BOUNDS_CHECKED = []


def remat_remark(prog, tools, options, args):
    opt = os.path.join(tools["path"].split(os.pathsep)[0], "memsched-opt")
    p = subprocess.run([opt, prog, "--memsched-rematerialize=" + options + " remarks",
                        "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
                       capture_output=True, text=True, timeout=args.timeout)
    return p.returncode, p.stderr


def reached_peaks(remarks):
    # Per function: the peak a remark reports at its end.
    peaks = {}
    for m in re.finditer(r"'(\w+)' (?:peak \d+ -> (\d+) bytes|peaks at (\d+) bytes)",
                         remarks):
        peaks[m.group(1)] = int(m.group(2) or m.group(3))
    return peaks


def check_bound(prog, tools, args):
    """The bound on plans within max-extra-compute=0.1 against two plans."""
    rc, first = remat_remark(prog, tools, "bytes=0 max-extra-compute=0.1", args)
    if rc != 0:
        return "check-bound: pass failed at bytes=0:\n" + first[-400:]
    at_zero = reached_peaks(first)
    problems = []
    for func, peak in at_zero.items():
        budget = int(peak * 0.8)
        rc, out = remat_remark(prog, tools,
                               "bytes=%d max-extra-compute=0.1" % budget, args)
        if rc != 0:
            return "check-bound: pass failed:\n" + out[-400:]
        line = next((l for l in out.splitlines() if "'%s'" % func in l), "")
        m = (re.search(r"each peaks at (\d+) bytes or more", line) or
             re.search(r"for those memsched can make.* (\d+) bytes", line))
        if not m:
            continue
        bound = int(m.group(1))
        BOUNDS_CHECKED.append((func, bound))
        reached = reached_peaks(line).get(func, bound)
        if bound > reached or bound > peak:
            problems.append("check-bound: '%s': bound %d above a plan's peak "
                            "(%d at the budget %d, %d at bytes=0)" %
                            (func, bound, reached, budget, peak))
    return "\n".join(problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", action="store_true")
    ap.add_argument("--training", action="store_true",
                    help="training-like programs of this script (forward "
                         "results read again by a backward chain, with "
                         "hazards) instead of random_program.py's")
    ap.add_argument("--blocks", action="store_true",
                    help="bodies with several blocks too: random_program.py's "
                         "blocks; with --training, the step in one branch of "
                         "a cf.cond_br (a run takes one path: measured peak "
                         "at most the certificate's)")
    ap.add_argument("--classic", action="store_true",
                    help="the generator's first constructs only (plain "
                         "dataflow: most recomputable buffers)")
    ap.add_argument("--check-bound", action="store_true",
                    help="also check the bound on plans within "
                         "max-extra-compute against the plans made")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--min-rewritten", type=int, default=0,
                    help="fail unless at least this many programs were "
                         "rewritten (the campaign must exercise the pass)")
    ap.add_argument("--keep-dir", default=None,
                    help="copy failing cases here")
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    runtime = [p for p in glob.glob(os.path.join(build, "**", "libmemsched_runtime.so"),
                                    recursive=True) if "package" not in p]
    if not runtime:
        print("remat_fuzz.py: libmemsched_runtime.so not found", file=sys.stderr)
        return 2
    if not shutil.which("mlir-runner", path="/usr/lib/llvm-22/bin"):
        print("remat_fuzz.py: mlir-runner not found: skipped")
        return 77
    # A snapshot of the tools: a rebuild during the run does not disturb it.
    work = tempfile.mkdtemp(prefix="remat-fuzz-")
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir)
    shutil.copy2(os.path.join(build, "bin", "memsched-opt"), bindir)
    tools = {"runtime": runtime[0], "libdir": "/usr/lib/llvm-22/lib",
             "path": bindir + os.pathsep + "/usr/lib/llvm-22/bin" + os.pathsep +
                     os.environ.get("PATH", "")}
    failed, rewritten, severalRewritten = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, args.seed + i, args, tools, work)
                   for i in range(args.count)]
        for fut in concurrent.futures.as_completed(futures):
            seed, ok, rw, several, log, gen, cmd = fut.result()
            rewritten += rw
            severalRewritten += rw and several
            if not ok:
                failed.append(seed)
                print(f"FAIL seed {seed}: {log.strip()}\n  generate: {gen}\n"
                      f"  then: DIFF_PASS=memsched-rematerialize {' '.join(cmd)}")
                if args.keep_dir:
                    shutil.copytree(os.path.join(work, str(seed)),
                                    os.path.join(args.keep_dir, str(seed)),
                                    dirs_exist_ok=True)
    print(f"remat_fuzz: {args.count} programs, {args.count - len(failed)} passed, "
          f"{len(failed)} failed, {rewritten} rewritten with recomputations"
          + (f" ({severalRewritten} of them with several blocks)"
             if args.blocks else "")
          + (f"; {len(BOUNDS_CHECKED)} bounds checked "
             f"({sum(1 for _, b in BOUNDS_CHECKED if b) } nonzero)"
             if args.check_bound else ""))
    shutil.rmtree(work, ignore_errors=True)
    if rewritten < args.min_rewritten:
        print(f"remat_fuzz: only {rewritten} programs rewritten, "
              f"--min-rewritten {args.min_rewritten} needs more")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
