#!/usr/bin/env python3
# ===- arena_fuzz.py - differential fuzzing of --memsched-plan-arena ------===#
#
# For each of --count programs (program seeds --seed, --seed + 1, ...):
#   1. generate it (random_program.py, by default with --calls --aliases;
#      or, with --training, remat_fuzz.py's training-like program with
#      writes through aliases; without bodies of several blocks, which
#      arenas are not planned for, unless --blocks) and check it verifies
#      with mlir-opt;
#   2. schedule it: memsched-opt --memsched-schedule=count-alignment-padding
#      --memsched-verify (memory-space= as run_fuzz.py draws it);
#   3. place its buffers in each arena mode of --modes (default alloc,
#      argument and global): --memsched-plan-arena="count-alignment-padding
#      arena=MODE" --memsched-verify, as test/Integration/arena-run.sh does;
#   4. run the original, the scheduled program and every placed program
#      under mlir-runner -O0 with the counting allocator (run_fuzz.py's
#      harness: --memsched-test-harness with the program seed as fill seed,
#      --memsched-test-lower-to-llvm) and require:
#      - every `memsched-hash` line and every other printed line (addresses
#        and the allocator's counts aside) equal to the original's;
#      - the scheduled program's measured peak equal to its certificate's
#        `peak` (not above it when some block may not have run);
#      - a placed @f with an arena: its measured peak the certificate's
#        `arena` minus what the counting allocator does not see: nothing
#        for arena=alloc and arena=argument (the public @f keeps its
#        signature and allocates the arena its private callees take: an
#        arena argument on @f is a failure); for arena=global the arenas
#        of @f and of the functions it reaches (static memory).
# A failing check is a failure of its stage (`schedule`, `alloc`,
# `argument`, `global`) and of a class: `output` (outputs differ), `crash`
# (mlir-runner killed by a signal, e.g. SIGSEGV), `run` (it failed
# otherwise), `peak` (measured peak against the certificate), `align` (a
# view of an arena with vector elements at an offset, or in an arena,
# aligned less than the vector's natural alignment: checked on the text,
# since whether the run crashes depends on where the arena lands), `tool`
# (memsched-opt failed: the pass or --memsched-verify), `timeout`. A
# failing program's files are kept in <keep-dir>/seed-<seed>/ with
# reason.txt and repro.sh (the commands that show it); the summary gives
# per stage the programs passed and failed and per class the seeds.
# The last line is exactly `N passed, M failed`; exit code 1 when M > 0,
# 77 when mlir-runner is missing, 2 on a setup error.
#
# Usage: arena_fuzz.py --count N --seed S [--modes alloc,argument,global]
#                      [--training] [--no-aliases] [--alias-form F]
#                      [--calls] [--without G] [--only G] [--avoid B]
#                      [--build-dir build] [--jobs 2] [--keep-dir DIR] [-v]
#
# ===-----------------------------------------------------------------------===#

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import remat_fuzz  # noqa: E402  (training-like programs)
import run_fuzz as rf  # noqa: E402  (tools, harness runs, headers)

GENERATOR = os.path.join(HERE, "random_program.py")
MODES = ["alloc", "argument", "global"]
ARENA_CERT_RE = re.compile(r"peak_with_arena = (\d+), arena_size = (\d+)")
PEAK_CERT_RE = re.compile(r"#memsched\.certificate<peak = (\d+)")
GLOBAL_ARENA_RE = re.compile(
    r"^\s*memref\.global \"private\" @([\w$.]+) : memref<(\d+)xi8> = "
    r"uninitialized \{[^}]*memsched\.arena", re.M)
EXIT_RE = re.compile(r"failed \(exit (-?\d+)\)")
VIEW_RE = re.compile(r"memref\.view (%[\w]+)\[(%[\w]+)\]\[[^\]]*\] : "
                     r"memref<\d+xi8> to memref<[^>]*?vector<([\dx]+)x"
                     r"(f|i|bf)(\d+)>")
ARENA_ALIGN_RE = re.compile(r"(%[\w]+) = memref\.(?:alloc|get_global)[^\n]*")


def vector_alignment(text, mode):
    """Views of an arena with vector elements at an offset (or in an
    arena) aligned less than the vector's natural alignment (its size
    rounded up to a power of two: what the LLVM lowering loads and stores
    it with). Static: whether the run crashes depends on where the arena
    lands. Returns a description of the first, or None."""
    aligns = {}
    for line in text.splitlines():
        # SSA names are per function: forget the previous function's.
        if "func.func" in line:
            aligns = {}
        m = re.search(r"(%[\w]+) = memref\.alloc\(\) \{alignment = (\d+)"
                      r"[^}]*memsched\.arena", line)
        if m:
            aligns[m.group(1)] = int(m.group(2))
        m = re.search(r"(%[\w]+) = memref\.get_global @([\w$.]+)", line)
        if m:
            g = re.search(r"memref\.global \"private\" @%s : [^{]*\{alignment = "
                          r"(\d+)" % re.escape(m.group(2)), text)
            if g:
                aligns[m.group(1)] = int(g.group(1))
        m = VIEW_RE.search(line)
        if not m:
            continue
        base, off, dims, _, bits = m.groups()
        o = re.match(r"%c(\d+)(?:_\d+)?$", off)
        if not o:
            continue
        size = int(bits) // 8
        for d in dims.split("x"):
            size *= int(d)
        need = 1
        while need < size:
            need *= 2
        offset = int(o.group(1))
        # An arena argument is aligned as its caller allocates it (checked
        # where that caller's own views of it are).
        arena = aligns.get(base)
        if offset % need or (arena is not None and arena < need):
            return ("%s: a view with vector elements (%d bytes, alignment %d)"
                    " at byte %d of an arena aligned to %s" % (
                        line.strip()[:200], size, need, offset,
                        arena if arena is not None else "?"))
    return None


class Failed(Exception):
    """A failed check: its stage and class (README.md, "Arenas")."""

    def __init__(self, stage, kind, msg):
        # The error lines of a tool first (its remarks can be many).
        errors = [l for l in msg.splitlines() if "error:" in l]
        if errors:
            msg = "\n".join(errors[:4]) + "\n" + msg
        Exception.__init__(self, msg)
        self.stage, self.kind = stage, kind


# ---- the signature of @f and the arena=argument wrapper ---------------------
def matching(s, i):
    """The index of the bracket closing the one at s[i]."""
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if c in pairs:
            stack.append(pairs[c])
        elif c == ">" and j > 0 and s[j - 1] == "-":
            pass  # an arrow, not a bracket
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return j
        j += 1
    raise ValueError("unbalanced: " + s[i:i + 80])


def split_top(s):
    """s split at the commas outside brackets."""
    out, depth, cur = [], 0, ""
    for k, c in enumerate(s):
        if c in "(<[{":
            depth += 1
        elif c in ")]}" or (c == ">" and not (k and s[k - 1] == "-")):
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def strip_attrs(t):
    """A type without the attribute dictionary printed after it."""
    depth = 0
    for k, c in enumerate(t):
        if c in "(<[":
            depth += 1
        elif c in ")]" or (c == ">" and not (k and t[k - 1] == "-")):
            depth -= 1
        elif c == "{" and depth == 0:
            return t[:k].strip()
    return t.strip()


def signature(text, name="f"):
    """([(argument type, is the arena)], [result types]) of @name."""
    m = re.search(r"func\.func (?:private |public )?@%s\(" % re.escape(name),
                  text)
    if not m:
        return None
    i = m.end() - 1
    j = matching(text, i)
    args = []
    for a in split_top(text[i + 1:j]):
        t = a.split(":", 1)[1]
        args.append((strip_attrs(t), "memsched.arena" in t))
    rest = text[j + 1:].lstrip()
    results = []
    if rest.startswith("->"):
        rest = rest[2:].lstrip()
        if rest.startswith("("):
            k = matching(rest, 0)
            results = [strip_attrs(r) for r in split_top(rest[1:k])]
        else:
            end = re.search(r"\s(attributes|\{)", rest)
            results = [rest[:end.start()].strip()]
    return args, results


def reachable(text, root="f"):
    """The functions @root reaches through calls and func.constant."""
    bodies, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^\s*func\.func (?:private |public )?@([\w$.]+)\(", line)
        if m:
            cur = m.group(1)
            bodies[cur] = []
            continue
        if cur is not None:
            bodies[cur].append(line)
    seen, todo = set(), [root]
    while todo:
        f = todo.pop()
        if f in seen or f not in bodies:
            continue
        seen.add(f)
        for line in bodies[f]:
            for g in re.findall(r"(?:call|func\.constant) @([\w$.]+)", line):
                todo.append(g)
    return seen


def global_arenas(text, funcs):
    """Bytes of the arena globals of the functions `funcs`."""
    total = 0
    for sym, size in GLOBAL_ARENA_RE.findall(text):
        owner = re.sub(r"_arena(_\d+)?$", "", sym)
        if owner in funcs:
            total += int(size)
    return total


# ---- one program -------------------------------------------------------------
def classify_run(stage, e):
    """A failed harness run (run_fuzz.Failure) as a Failed of `stage`."""
    msg = str(e)
    if "timed out" in msg:
        return Failed(stage, "timeout", msg)
    m = EXIT_RE.search(msg)
    if m and int(m.group(1)) < 0:
        try:
            sig = signal.Signals(-int(m.group(1))).name
        except ValueError:
            sig = "signal %s" % m.group(1)
        return Failed(stage, "crash", "%s (%s)\n%s" % (
            msg.splitlines()[0][:300], sig, msg[-1500:]))
    return Failed(stage, "run", msg[-2000:])


def compare(stage, orig, got, names):
    """The outputs of a run against the original's."""
    _, ohashes, oout = orig
    _, hashes, out = got
    if hashes != ohashes:
        diff = ["  original: %s\n  %s: %s" % (a, stage, b)
                for a, b in zip(ohashes, hashes) if a != b]
        if len(hashes) != len(ohashes):
            diff.append("  (%d vs %d hash lines)" % (len(ohashes),
                                                     len(hashes)))
        raise Failed(stage, "output", "outputs of %s differ from the "
                     "original's (%s):\n%s" % (names, stage, "\n".join(diff)))
    if rf.strip_counts(out) != rf.strip_counts(oout):
        raise Failed(stage, "output", "printed output of %s differs from "
                     "the original's" % names)


def generate(seed, args, prog):
    if args.training:
        remat_fuzz.training_like(seed, prog, aliases=args.alias_forms)
        return ["python3", "test/Fuzz/remat_fuzz.py", "--training", "--seed",
                str(seed)] + sum((["--alias-form", f]
                                  for f in args.alias_forms), []) + \
            ["--write-program", "program.mlir"]
    gen = ["--seed", str(seed)] + generator_flags(args) + \
        ["-o", "program.mlir"]
    rf.run([sys.executable, GENERATOR] + gen[:-1] + [prog], args.tools,
           what="generator")
    return ["python3", "test/Fuzz/random_program.py"] + gen


def generator_flags(args):
    flags = ["--calls"] if args.calls else []
    if args.yields:
        flags.append("--yields")
    for bug in args.avoid:
        flags += ["--avoid", bug]
    if args.classic:
        flags.append("--classic")
    for g in args.without + ([] if args.blocks or args.only else
                             ["blocks"]):
        flags += ["--without", g]
    for g in args.only:
        flags += ["--only", g]
    if sorted(args.alias_forms) == sorted(remat_fuzz.ALIAS_FORMS):
        flags.append("--aliases")
    else:
        for f in args.alias_forms:
            flags += ["--alias-form", f]
    if (args.min_ops, args.max_ops) != (10, 60):
        flags += ["--min-ops", str(args.min_ops), "--max-ops",
                  str(args.max_ops)]
    return flags


def check_program(seed, args):
    """(seed, [Failed], info, kept directory or None)."""
    tools = args.tools
    work = tempfile.mkdtemp(prefix="memsched-arena-fuzz-%d-" % seed,
                            dir=args.tmp_dir)
    prog = os.path.join(work, "program.mlir")
    sched = os.path.join(work, "scheduled.mlir")
    info = {"arena": [], "any_arena": [], "features": []}
    failures = []
    repro = ["# seed %d (run in the source tree)" % seed]
    opt = os.path.join(args.build_dir, "bin", "memsched-opt")
    harness = ("%s {in} --memsched-test-harness='func={func} seed=%d' "
               "--memsched-test-lower-to-llvm | %s -e main "
               "-entry-point-result=void -O0 -shared-libs=%s/lib/"
               "libmemsched_runtime.so,%s,%s" % (
                   opt, seed, tools.runner, args.build_dir,
                   tools.c_runner_utils, tools.runner_utils))
    try:
        repro.append(" ".join(generate(seed, args, prog)))
        with open(prog) as f:
            text = f.read()
        m = rf.FEATURES_RE.search(text)
        info["features"] = m.group(1).split(", ") if m else []
        blk = rf.BLOCKS_RE.search(text)
        exact = not blk or blk.group(2) == "all"
        try:
            rf.run([tools.mlir_opt, prog, "-o", os.devnull], tools,
                   what="mlir-opt verification of the generated program")
        except rf.Failure as e:
            raise Failed("generator", "tool", str(e))
        memory_space = rf.pick_memory_space(seed, args) \
            if rf.SPACES_HEADER_RE.search(text) else None
        schedule = "--memsched-schedule=" + \
            rf.schedule_options(memory_space)
        repro.append("%s program.mlir '%s' --memsched-verify -o "
                     "scheduled.mlir" % (opt, schedule))
        try:
            rf.run([tools.opt, prog, schedule, "--memsched-verify",
                    "--mlir-print-op-on-diagnostic=false", "-o", sched],
                   tools, what="memsched-opt --memsched-schedule "
                   "--memsched-verify")
        except rf.Failure as e:
            raise Failed("schedule", "tool", str(e))
        try:
            orig = rf.execute(tools, prog, "f", seed,
                              os.path.join(work, "original.out"), "original")
        except rf.Failure as e:
            raise Failed("generator", "run", "the original program does not "
                         "run: " + str(e))
        repro.append(harness.replace("{in}", "program.mlir")
                     .replace("{func}", "f") + " > original.out")
        stages = [("schedule", sched, None)] + \
            [(mode, os.path.join(work, "planned-%s.mlir" % mode), mode)
             for mode in args.modes]
        for stage, path, mode in stages:
            try:
                check_stage(seed, args, stage, path, mode, sched, orig,
                            exact, info, repro, opt, harness, failures)
            except Failed as e:
                failures.append(e)
    except Failed as e:
        failures.append(e)
    except Exception:  # noqa: BLE001 - a driver error fails this program
        failures.append(Failed("driver", "bug", "arena_fuzz.py internal "
                               "error (a driver bug):\n" +
                               traceback.format_exc()))
    kept = None
    if failures or args.keep_all:
        kept = os.path.join(args.keep_dir, ("seed-%d" if failures else
                                            "pass-seed-%d") % seed)
        if os.path.exists(kept):
            shutil.rmtree(kept)
        os.makedirs(args.keep_dir, exist_ok=True)
        with open(os.path.join(work, "reason.txt"), "w") as f:
            for e in failures:
                f.write("[%s: %s] %s\n" % (e.stage, e.kind, e))
        with open(os.path.join(work, "repro.sh"), "w") as f:
            f.write("\n".join(repro) + "\n")
        shutil.move(work, kept)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return seed, failures, info, kept


def check_stage(seed, args, stage, path, mode, sched, orig, exact, info,
                repro, opt, harness, failures):
    """One stage; failures found without stopping it (the static alignment
    check) go to `failures`, the others are raised."""
    tools = args.tools
    if mode is not None:
        plan = "--memsched-plan-arena=count-alignment-padding arena=" + mode
        repro.append("%s scheduled.mlir '%s' --memsched-verify -o %s" % (
            opt, plan, os.path.basename(path)))
        try:
            rf.run([tools.opt, sched, plan, "--memsched-verify",
                    "--mlir-print-op-on-diagnostic=false", "-o", path], tools,
                   what="memsched-opt --memsched-plan-arena (%s) "
                   "--memsched-verify" % mode)
        except rf.Failure as e:
            raise Failed(stage, "tool", str(e))
    with open(path) as f:
        text = f.read()
    if mode is not None:
        bad = vector_alignment(text, mode)
        if bad:
            failures.append(Failed(stage, "align", bad))
    sig = signature(text)
    header = text[text.find("func.func @f("):]
    header = header[:header.find("\n")]
    func, run_path = "f", path
    if mode == "argument" and sig is not None and sig[0] and sig[0][-1][1]:
        raise Failed(stage, "tool", "the public @f takes an arena argument: "
                     "arena=argument changed its signature: " + header[:300])
    out = stage + ".out"
    repro.append(harness.replace("{in}", os.path.basename(run_path))
                 .replace("{func}", func) + " > " + out)
    try:
        got = rf.execute(tools, run_path, func, seed,
                         os.path.join(os.path.dirname(path), out), stage)
    except rf.Failure as e:
        raise classify_run(stage, e)
    compare(stage, orig, got, "the %s program" % (
        "scheduled" if mode is None else "arena=" + mode))
    peak = got[0]
    if mode is None:
        m = PEAK_CERT_RE.search(header)
        if m and (peak != int(m.group(1)) if exact else
                  peak > int(m.group(1))):
            raise Failed(stage, "peak", "measured peak of the scheduled "
                         "program %d %s certificate peak %s" % (
                             peak, "!=" if exact else ">", m.group(1)))
        return
    if mode is not None and ARENA_CERT_RE.search(text):
        info["any_arena"].append(mode)
    m = ARENA_CERT_RE.search(header)
    if not m:
        return
    info["arena"].append(mode)
    arena = int(m.group(1))
    if mode == "alloc":
        want, why = arena, "the certificate's arena %d" % arena
    elif mode == "argument":
        # The public @f keeps its signature: it allocates the arena its
        # private callees take.
        want, why = arena, "the certificate's arena %d" % arena
    else:
        funcs = reachable(text)
        statics = global_arenas(text, funcs)
        want = arena - statics
        why = ("the certificate's arena %d - %d bytes of arena globals of "
               "%s" % (arena, statics, ", ".join(
                   "@" + g for g in sorted(funcs))))
    if peak != want if exact else peak > want:
        raise Failed(stage, "peak", "measured peak %d of the arena=%s "
                     "program %s %d: %s" % (peak, mode,
                                            "!=" if exact else ">", want,
                                            why))


# ---- the run ---------------------------------------------------------------------
def main():
    p = argparse.ArgumentParser(
        description="Differential fuzzing of memsched-opt "
                    "--memsched-plan-arena in each arena mode")
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--seed", type=int, default=1,
                   help="first program seed (programs use seed .. "
                        "seed+count-1)")
    p.add_argument("--modes", default=",".join(MODES),
                   help="comma-separated arena modes (default: %(default)s)")
    p.add_argument("--build-dir", default="build")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--keep-dir", default="arena-fuzz-failures")
    p.add_argument("--keep-all", action="store_true")
    p.add_argument("--tmp-dir", default=None)
    p.add_argument("--training", action="store_true",
                   help="remat_fuzz.py's training-like programs (with the "
                        "writes through aliases) instead of "
                        "random_program.py's")
    p.add_argument("--no-aliases", action="store_true",
                   help="programs without writes through aliases (on by "
                        "default here)")
    p.add_argument("--alias-form", action="append", default=[],
                   help="only this form of writes through aliases "
                        "(repeatable: random_program.py --alias-form)")
    p.add_argument("--calls", action="store_true",
                   help="random_program.py --calls")
    p.add_argument("--yields", action="store_true",
                   help="random_program.py --yields (buffers loops and "
                        "branches hand out)")
    p.add_argument("--blocks", action="store_true",
                   help="bodies of several blocks too (random_program.py's "
                        "group blocks; --memsched-plan-arena leaves them "
                        "unchanged: left out by default)")
    p.add_argument("--classic", action="store_true")
    p.add_argument("--without", action="append", default=[])
    p.add_argument("--only", action="append", default=[])
    p.add_argument("--avoid", action="append", default=[])
    p.add_argument("--min-ops", type=int, default=10)
    p.add_argument("--max-ops", type=int, default=60)
    p.add_argument("--memory-space", default="random",
                   choices=["random", "none", "default", "1", "workgroup"])
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--llvm-bin", default=os.environ.get(
        "LLVM_BIN", "/usr/lib/llvm-22/bin"))
    p.add_argument("--mlir-runner", default=os.environ.get("MLIR_RUNNER"))
    p.add_argument("--mlir-lib-dir", default=os.environ.get(
        "MLIR_LIB_DIR", "/usr/lib/llvm-22/lib"))
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    args.modes = [m for m in args.modes.split(",") if m]
    bad = [m for m in args.modes if m not in MODES]
    if bad:
        p.error("unknown arena mode(s): " + ", ".join(bad))
    bad = [f for f in args.alias_form if f not in remat_fuzz.ALIAS_FORMS]
    if bad:
        p.error("unknown alias form(s): " + ", ".join(bad))
    args.alias_forms = [] if args.no_aliases else \
        sorted(set(args.alias_form)) or list(remat_fuzz.ALIAS_FORMS)
    args.keep_dir = os.path.abspath(args.keep_dir)
    args.build_dir = os.path.abspath(args.build_dir)

    def run(tools):
        args.tools = tools
        return run_all(args)
    return rf.with_tools(args, "arena_fuzz.py", "memsched-arena-fuzz-tools-",
                         run)


def run_all(args):
    seeds = list(range(args.seed, args.seed + args.count))
    gflags = generator_flags(args)
    print("memsched arena fuzz: %d programs, seeds %d..%d, %d jobs, modes "
          "%s, %s%s" % (
              len(seeds), seeds[0] if seeds else 0, seeds[-1] if seeds else 0,
              args.jobs, ",".join(args.modes),
              "training-like programs" if args.training else
              "random_program.py", (" " + " ".join(gflags)) if gflags and
              not args.training else (" aliases: " + " ".join(
                  args.alias_forms) if args.training else "")), flush=True)
    start = time.time()
    stages = ["schedule"] + args.modes
    failed_by = {s: 0 for s in stages}
    arenas = {m: 0 for m in args.modes}
    any_arenas = {m: 0 for m in args.modes}
    classes = {}
    passed = failed = 0
    features = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futures = [ex.submit(check_program, s, args) for s in seeds]
        for fut in concurrent.futures.as_completed(futures):
            seed, failures, info, kept = fut.result()
            for m in info["arena"]:
                arenas[m] += 1
            for m in info["any_arena"]:
                any_arenas[m] += 1
            for f in info["features"]:
                features[f] = features.get(f, 0) + 1
            if not failures:
                passed += 1
                if args.verbose:
                    print("ok seed=%d (arena in: %s)" % (
                        seed, ", ".join(info["arena"]) or "none"),
                        flush=True)
                continue
            failed += 1
            for st in set(e.stage for e in failures):
                if st in failed_by:
                    failed_by[st] += 1
            for e in failures:
                classes.setdefault((e.stage, e.kind), []).append(seed)
            print("FAIL seed=%d: %s\n  files kept in %s (repro.sh: the "
                  "commands)" % (seed, "\n  ".join(
                      "[%s: %s] %s" % (e.stage, e.kind,
                                       str(e).strip()[:700])
                      for e in failures), kept), flush=True)
    print("%.1fs" % (time.time() - start))
    n = len(seeds)
    for st in stages:
        print("%-9s %d passed, %d failed%s" % (
            st + ":", n - failed_by[st], failed_by[st],
            "" if st == "schedule" else
            " (@f placed in an arena in %d, some function in %d)" % (
                arenas[st], any_arenas[st])))
    for (st, kind), ss in sorted(classes.items()):
        ss.sort()
        print("  %s: %s: %d programs: seeds %s%s" % (
            st, kind, len(ss), " ".join(map(str, ss[:12])),
            " ..." if len(ss) > 12 else ""))
    if args.verbose:
        print("features (programs): " + ", ".join(
            "%s=%d" % kv for kv in sorted(features.items())))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
