#!/usr/bin/env python3
# ===- run_fuzz.py - differential fuzzing of --memsched-schedule -----------===#
#
# For each of --count programs (program seeds --seed, --seed + 1, ...):
#   1. generate it with random_program.py and check it verifies with mlir-opt;
#   2. schedule it: memsched-opt --memsched-schedule=count-alignment-padding;
#   3. run the original and the scheduled program under mlir-runner -O0 with
#      the counting allocator (--memsched-test-harness, fill seed = program
#      seed, --memsched-test-lower-to-llvm);
#   4. require: every `memsched-hash` line identical (results and memref
#      arguments), measured peak of the scheduled program == the peak of its
#      #memsched.certificate, and scheduled measured peak <= original measured
#      peak. For a body of several blocks (a `// blocks:` header line): both
#      programs also run with the branch conditions flipped, the peak must
#      equal the certificate's at the largest over the runs when every block
#      ran in one of them (else: not above it), and a body the generator
#      made path-dependent must be refused and left unchanged. For a
#      program with buffers in other memory spaces (a `// memory spaces:`
#      header line): the schedule runs with memory-space= drawn from the
#      seed; per function, space and block the scheduled peak as written
#      (--memsched-print-lifetimes) must not be above the original's, the
#      certificates' `spaces` must be the scheduled bodies', and the total
#      may exceed the original's only for a lower peak of the space the
#      schedule minimised (README.md, "spaces").
# A failing program's files are kept in <keep-dir>/seed-<seed>/ (with a
# reason.txt); the last line printed is exactly `N passed, M failed`; the exit
# code is 1 when M > 0, 77 when mlir-runner is missing (nothing was run), 2 on
# a usage or setup error.
#
# Usage: run_fuzz.py --count N --seed S [--build-dir build] [--jobs 2]
#                    [--keep-dir DIR] [--min-ops A --max-ops B] [-v]
#                    [--memory-space random|none|default|1|workgroup]
#                    [--strict-total]
#
# ===-----------------------------------------------------------------------===#

import argparse
import concurrent.futures
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "random_program.py")

CERT_RE = re.compile(
    r"^\s*func\.func @f\(.*#memsched\.certificate<peak = (\d+), "
    r"lower_bound = (\d+)", re.M)
PEAK_RE = re.compile(r"^memsched-measured-peak=(\d+)", re.M)
HASH_RE = re.compile(r"^memsched-hash .*$", re.M)
REMARK_RE = re.compile(r"memsched-schedule: peak (\d+) -> (\d+) bytes")
# --split's remarks: a function it rewrote (pads absorbed, channel chains run
# by groups), one it left as it was after trying (the scheduled peak would
# have risen), each chain split ("N ops run by G groups of K channel(s) (of
# C)") and each chain it refused.
SPLIT_FUNC_RE = re.compile(r"memsched-split: '[\w$.]+': ([^\n]*), peak as "
                           r"written \d+ -> \d+ bytes")
SPLIT_UNDONE_RE = re.compile(r"memsched-split: '[\w$.]+' left as it is: "
                             r"split \(([^\n]*?)\), ")
SPLIT_CHAIN_RE = re.compile(r"memsched-split: (\d+) ops run by (\d+) groups "
                            r"of (\d+) channels? \(of (\d+)\)")
SPLIT_REFUSED_RE = re.compile(r"memsched-split: channel chain left as it is: "
                              r"([^\n]*)")
# The split's scheduled peak and the bound no split without recomputation
# goes below (absent when the split recomputes: outside that family): the
# bound may not be above the peak the split reached.
SPLIT_BOUND_RE = re.compile(r"memsched-split: '([\w$.]+)': [^\n]*scheduled "
                            r"(\d+) bytes; no split without recomputation "
                            r"peaks below (\d+) bytes(?! \(this split "
                            r"recomputes)")
FEATURES_RE = re.compile(r"^// features: (.*)$", re.M)
LOC_RE = re.compile(r'loc\("[^"]*":(\d+):\d+\)$')
OPNAME_RE = re.compile(r'^(?:%[^=]*= )?"?([A-Za-z_][\w.]*)')
FUNC_RE = re.compile(r"^  func\.func (?:private |public )?@([\w$.]+)")
# Ops that carry no memory effect of their own and move with their users
# (views, constants, index and pointer arithmetic): their moves alone do not
# count as a reorder.
MOVABLE_PREFIXES = ("arith.", "affine.", "index.")
MOVABLE_OPS = {
    "memref.subview", "memref.expand_shape", "memref.collapse_shape",
    "memref.cast", "memref.reinterpret_cast", "memref.transpose",
    "memref.view", "memref.get_global", "memref.extract_strided_metadata",
    "memref.memory_space_cast",
    "memref.extract_aligned_pointer_as_index", "llvm.inttoptr",
    "llvm.ptrtoint", "llvm.getelementptr", "llvm.mlir.addressof",
    "llvm.mlir.constant",
}


def top_level_order(text):
    """{function: [(source line, op name)]}: the top-level ops of every
    function body in the order printed, from output printed with
    --mlir-print-debuginfo --mlir-print-local-scope (each op's location is
    the line it started on in the input)."""
    funcs, cur, pending = {}, None, None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), []) \
                if line.rstrip().endswith("{") else None
            pending = None
            continue
        if cur is None:
            continue
        if line.startswith("  }"):
            cur = None
            continue
        if not line.startswith("    ") or line[4] == " ":
            continue
        body = line[4:].rstrip()
        if body.startswith("^"):
            continue
        loc = LOC_RE.search(body)
        if body.startswith("}"):
            if loc and pending:
                cur.append((int(loc.group(1)), pending))
                pending = None
            continue
        name = OPNAME_RE.match(body)
        name = name.group(1) if name else "?"
        if loc:
            cur.append((int(loc.group(1)), name))
        else:
            pending = name
    return funcs


VIEW_DEF_RE = re.compile(
    r"^\s*(%[\w]+) = memref\.(?:subview|cast|expand_shape|collapse_shape|"
    r"reinterpret_cast|transpose|view|memory_space_cast) (%[\w]+)")
SELECT_DEF_RE = re.compile(
    r"^\s*(%[\w]+) = arith\.select %[\w]+, (%[\w]+), (%[\w]+) : memref")
DEALLOC_RE = re.compile(r"^\s*memref\.dealloc (%[\w]+)")
SSA_RE = re.compile(r"%[\w]+")
DEFS_RE = re.compile(r"^\s*((?:%[\w]+(?::\d+)?)(?:\s*,\s*%[\w]+(?::\d+)?)*)"
                     r"\s*=")
LABEL_RE = re.compile(r"^\s*\^([\w.$-]+)\s*(?:\((.*)\))?\s*:\s*$")


def strip_loc(line):
    return re.sub(r"\sloc\(.*$", "", line)


def successors(body):
    """[(block name, [operand SSA])] of a terminator's text."""
    out = []
    for m in re.finditer(r"\^([\w.$-]+)", body):
        ops, i = [], m.end()
        if i < len(body) and body[i] == "(":
            depth, j = 0, i
            while j < len(body):
                depth += {"(": 1, ")": -1}.get(body[j], 0)
                if depth == 0:
                    break
                j += 1
            ops = SSA_RE.findall(body[i + 1:j].split(":")[0])
        out.append((m.group(1), ops))
    return out


def function_bodies(text):
    """For every function with a body: (name, blocks), a block being
    {"name", "args", "lines": [(line, at_top)], "succs"}; lines keep their
    text (locations stripped); the first block is the entry block."""
    funcs, blocks, top = [], None, None
    for line in text.splitlines():
        m = re.match(r"^(\s*)func\.func (?:private |public )?@([\w$.]+)",
                     line)
        if m:
            top = None
            if line.rstrip().endswith("{"):
                top = len(m.group(1)) + 2
                blocks = [{"name": None, "args": [], "lines": [],
                           "succs": []}]
                funcs.append((m.group(2), blocks))
            continue
        if top is None or not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        stripped = line.strip()
        # The body's block labels are printed left of its ops (the labels
        # of a nested region, e.g. linalg.generic's ^bb0, at their level).
        if indent < top and stripped.startswith("^"):
            lab = LABEL_RE.match(stripped.split("//")[0].rstrip())
            if lab:
                args = re.findall(r"(%[\w]+)\s*:", lab.group(2) or "")
                blocks.append({"name": lab.group(1), "args": args,
                               "lines": [], "succs": []})
                continue
        if indent < top:
            top = None
            continue
        body = strip_loc(line)
        at_top = indent == top
        blocks[-1]["lines"].append((body, at_top))
        if at_top and "^" in body and not stripped.startswith("^"):
            blocks[-1]["succs"] = successors(body)
    return funcs


def use_after_dealloc(text):
    """The first line of a function that uses a buffer, or a view of it,
    after a top-level memref.dealloc of it, or None. Views (and selects) are
    followed at the top level of the body, buffers through the block
    arguments they are passed as; uses are looked for at any depth. Across
    blocks a buffer counts as freed when it is freed on every path to the
    block (exact within a block; a deallocation of a value that may be one
    of several buffers frees none of them)."""
    for _, blocks in function_bodies(text):
        by_name = {b["name"]: b for b in blocks if b["name"] is not None}
        preds = {id(b): [] for b in blocks}
        for b in blocks:
            for s, _ in b["succs"]:
                if s in by_name:
                    preds[id(by_name[s])].append(b)
        roots = {}

        def rootsof(v):
            return roots.get(v, frozenset([v]))

        for _ in range(len(blocks) + 2):
            changed = False
            for b in blocks:
                for body, at_top in b["lines"]:
                    if not at_top:
                        continue
                    v = VIEW_DEF_RE.match(body)
                    new = None
                    if v:
                        dst, new = v.group(1), rootsof(v.group(2))
                    s = SELECT_DEF_RE.match(body)
                    if s:
                        dst, new = s.group(1), rootsof(s.group(2)) | \
                            rootsof(s.group(3))
                    if new is not None and roots.get(dst) != new:
                        roots[dst] = new
                        changed = True
                for sname, ops in b["succs"]:
                    succ = by_name.get(sname)
                    if succ is None:
                        continue
                    for arg, op in zip(succ["args"], ops):
                        new = roots.get(arg, frozenset()) | rootsof(op)
                        if roots.get(arg) != new:
                            roots[arg] = new
                            changed = True
            if not changed:
                break

        def transfer(b, state, report):
            state = set(state)
            for body, at_top in b["lines"]:
                d = DEFS_RE.match(body)
                defined = set(SSA_RE.findall(d.group(1))) if d else set()
                for u in SSA_RE.findall(body):
                    if u in defined:
                        continue
                    rs = rootsof(u)
                    if report and rs and rs <= state:
                        return "%s (freed before on every path)" % \
                            body.strip()[:160]
                dm = DEALLOC_RE.match(body)
                if dm and at_top and len(rootsof(dm.group(1))) == 1:
                    state |= rootsof(dm.group(1))
                state -= defined
            return None if report else state

        out = {id(b): None for b in blocks}

        def entry_state(i, b):
            """Buffers freed on every path into b (None: no path known)."""
            if i == 0:
                return set()
            ins = [out[id(p)] for p in preds[id(b)] if out[id(p)] is not None]
            return set.intersection(*ins) if ins else None

        for _ in range(2 * len(blocks) + 2):
            changed = False
            for i, b in enumerate(blocks):
                inn = entry_state(i, b)
                if inn is None:
                    continue
                o = transfer(b, inn, False)
                if o != out[id(b)]:
                    out[id(b)] = o
                    changed = True
            if not changed:
                break
        for i, b in enumerate(blocks):
            inn = entry_state(i, b)
            if inn is None:
                continue
            bad = transfer(b, inn, True)
            if bad:
                return bad
    return None


def order_changed(text):
    """Whether the schedule moved an op with effects (an allocation, a
    deallocation, a compute op, a loop, a call, a load or store) relative to
    another one in some function: their source lines are then out of
    order."""
    for ops in top_level_order(text).values():
        lines = [ln for ln, name in ops if name not in MOVABLE_OPS and
                 not name.startswith(MOVABLE_PREFIXES)]
        if any(a > b for a, b in zip(lines, lines[1:])):
            return True
    return False


class Tools:
    def __init__(self, args):
        self.opt = os.path.join(args.build_dir, "bin", "memsched-opt")
        self.runtime = os.path.join(args.build_dir, "lib",
                                    "libmemsched_runtime.so")
        self.llvm_bin = args.llvm_bin
        self.mlir_opt = os.path.join(args.llvm_bin, "mlir-opt")
        self.runner = args.mlir_runner or os.path.join(args.llvm_bin,
                                                       "mlir-runner")
        self.c_runner_utils = os.path.join(args.mlir_lib_dir,
                                           "libmlir_c_runner_utils.so")
        # printMemrefF32 (programs made with --calls).
        self.runner_utils = os.path.join(args.mlir_lib_dir,
                                         "libmlir_runner_utils.so")
        self.timeout = args.timeout


class Failure(Exception):
    pass


def run(cmd, tools, stdin=None, what=""):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           timeout=tools.timeout)
    except subprocess.TimeoutExpired:
        raise Failure("%s timed out after %ds: %s" % (what, tools.timeout,
                                                      " ".join(cmd)))
    except OSError as e:
        raise Failure("%s could not run: %s: %s" % (what, " ".join(cmd), e))
    if p.returncode != 0:
        raise Failure("%s failed (exit %d): %s\n%s" % (
            what, p.returncode, " ".join(cmd), p.stderr[-4000:]))
    return p


def execute(tools, mlir, func, fill_seed, out_path, what):
    lowered = run([tools.opt, mlir,
                   "--memsched-test-harness=func=%s seed=%d" % (func,
                                                                fill_seed),
                   "--memsched-test-lower-to-llvm"], tools,
                  what=what + ": harness/lowering").stdout
    libs = [tools.runtime, tools.c_runner_utils]
    if "printMemrefF32" in lowered or "verifyMemRef" in lowered:
        libs.append(tools.runner_utils)
    p = run([tools.runner, "-e", "main", "-entry-point-result=void", "-O0",
             "-shared-libs=" + ",".join(libs)],
            tools, stdin=lowered, what=what + ": mlir-runner")
    with open(out_path, "w") as f:
        f.write(p.stdout)
    peak = PEAK_RE.search(p.stdout)
    hashes = HASH_RE.findall(p.stdout)
    if not peak or not hashes:
        raise Failure("%s: no measured peak or hash lines in the output" % what)
    return int(peak.group(1)), hashes, normalize(p.stdout)


# @f left unchanged with one of these documented reasons is not a failure
# (the outputs must still agree): what memsched declines by design.
DECLINED_RE = re.compile(r"memsched-schedule: 'f' left unchanged: ([^\n]*)")
DECLINED_ANY_RE = re.compile(
    r"memsched-schedule: '([\w$.]+)' left unchanged: ([^\n]*)")
DECLINED = [
    "has no byte size in the data layout",   # a memref of memrefs
    "may be one of several buffers",         # memref.dealloc of arith.select
]
# Why memsched refuses a body of several blocks (README.md, "blocks"): a
# program the generator marks `refusal` must be refused with one of them, a
# program it does not mark must not be.
BLOCK_REFUSALS = [
    "may be one of several buffers",   # dealloc of a block argument
    "runs again in a loop of blocks",  # allocation re-run while allocated
    "not allocated on any path to it",
]
# `// blocks: N, coverage C, flip yes|no, refusal R, function F` in the
# header of a program with several blocks (random_program.py).
BLOCKS_RE = re.compile(r"^// blocks: (\d+), coverage (\w+), flip (\w+), "
                       r"refusal ([\w-]+), function ([\w$.]+)$", re.M)
# The constant every data-dependent branch condition is xor-ed with; the
# driver runs the programs a second time with it true.
FLIP_TEXT = "arith.constant {memsched_fuzz.flip} false"


def function_text(text, name):
    """The lines of function @name (locations kept), or None."""
    lines, inside, indent = [], False, None
    for line in text.splitlines():
        m = re.match(r"^(\s*)func\.func (?:private |public )?@([\w$.]+)\(",
                     line)
        if m and m.group(2) == name:
            inside, indent = True, m.group(1)
        if inside:
            lines.append(line.rstrip())
            if re.match(r"^%s\}(?: loc\(.*\))?$" % indent, line.rstrip()):
                return lines
    return lines or None


def check_unchanged(tools, prog, sched_loc_text, name, work, problems):
    """A function memsched left unchanged must print as the original does
    (both with --mlir-print-debuginfo --mlir-print-local-scope)."""
    orig_loc = os.path.join(work, "program-loc.mlir")
    run([tools.opt, prog, "--mlir-print-debuginfo", "--mlir-print-local-scope",
         "-o", orig_loc], tools, what="memsched-opt (printing the program)")
    with open(orig_loc) as f:
        before = function_text(f.read(), name)
    after = function_text(sched_loc_text, name)
    if before != after:
        first = next((i for i, (a, b) in enumerate(zip(before or [],
                                                       after or []))
                      if a != b), None)
        problems.append("@%s was refused (left unchanged) but differs from "
                        "the program%s" % (
                            name, "" if first is None else
                            " from its line %d: %s" % (
                                first + 1, after[first].strip()[:160])))


# Memory spaces (random_program.py group `spaces`): the header line of a
# program that allocates outside the default space, the values the driver
# picks `memory-space=` from (None: the option left out), and what
# --memsched-print-lifetimes prints per function and space.
SPACES_HEADER_RE = re.compile(r"^// memory spaces: (.*)$", re.M)
WORKGROUP = "#gpu.address_space<workgroup>"
MEMORY_SPACE_CHOICES = [None, "default", "1", WORKGROUP]
LIFETIMES_FUNC_RE = re.compile(r"^// ---- memsched lifetimes: @([\w$.]+) ----$")
SPACE_LINE_RE = re.compile(r"^space=(\S+) (.*)$")
CERT_LINE_RE = re.compile(r"^\s*func\.func (?:private |public )?@([\w$.]+)\(.*"
                          r"#memsched\.certificate<(.*)$")
CERT_SPACE_RE = re.compile(r"#memsched\.space<(?:memory_space = (.+?), )?"
                           r"peak = (\d+), lower_bound = (\d+)>")


def pick_memory_space(seed, args):
    """The `memory-space=` option of the schedule run of a program with
    buffers in other memory spaces: --memory-space, or drawn from the seed
    (so a rerun of the seed picks the same)."""
    if args.memory_space != "random":
        return {"none": None, "workgroup": WORKGROUP}.get(
            args.memory_space, args.memory_space)
    return random.Random(seed * 7919 + 17).choice(MEMORY_SPACE_CHOICES)


def schedule_options(memory_space):
    opts = "count-alignment-padding remarks=1"
    if memory_space is not None:
        opts += " memory-space=" + memory_space
    return opts


def space_peaks(tools, path, what):
    """{function: {space: (peak, [peak of block k]) or the reason it is
    unsupported}} from --memsched-print-lifetimes (with the schedule's size
    model); functions allocating only in the default space are left out."""
    out = run([tools.opt, path,
               "--memsched-print-lifetimes=count-alignment-padding",
               "-o", os.devnull], tools,
              what="memsched-opt --memsched-print-lifetimes of the " +
              what).stdout
    peaks, cur = {}, None
    for line in out.splitlines():
        m = LIFETIMES_FUNC_RE.match(line)
        if m:
            cur = m.group(1)
            continue
        m = SPACE_LINE_RE.match(line)
        if m and cur is not None:
            rest = m.group(2)
            p = re.match(r"peak-as-written=(\d+)((?: \^bb\d+=\d+)*)$", rest)
            if p:
                blocks = [int(x) for x in re.findall(r"=(\d+)", p.group(2))]
                val = (int(p.group(1)), blocks)
            else:
                val = rest  # "unsupported: ..."
            peaks.setdefault(cur, {})[m.group(1)] = val
    return peaks


def certificate_spaces(text):
    """{function: {space: (peak, lower_bound)} or None}: the `spaces` field
    of every function's certificate (the default space named `default`;
    None when the certificate has none)."""
    out = {}
    for line in text.splitlines():
        m = CERT_LINE_RE.match(line)
        if not m:
            continue
        out[m.group(1)] = None if "spaces = [" not in m.group(2) else {
            sp or "default": (int(pk), int(lb))
            for sp, pk, lb in CERT_SPACE_RE.findall(m.group(2))}
    return out


def check_spaces(before, after, certs, problems, may_rise=False):
    """Per function and memory space: the peak as written of the scheduled
    program not above the original's, in every block too (unless
    `may_rise`: --split-all-bands); the certificate's `spaces` entries
    those of the scheduled body. Returns the spaces whose peak went down in
    some function."""
    lowered = set()
    for func in sorted(set(before) | set(after)):
        b, a = before.get(func, {}), after.get(func, {})
        if set(b) != set(a):
            problems.append("@%s allocates in the memory spaces %s in the "
                            "program but %s in the scheduled program" % (
                                func, sorted(b), sorted(a)))
            continue
        for sp in b:
            if isinstance(b[sp], str) or isinstance(a[sp], str):
                if not isinstance(b[sp], str):
                    problems.append("@%s, memory space %s: supported in the "
                                    "program, not in the scheduled program "
                                    "(%s)" % (func, sp, a[sp]))
                continue
            (pb, bb), (pa, ba) = b[sp], a[sp]
            if pa > pb and not may_rise:
                problems.append("@%s, memory space %s: peak as written %d "
                                "in the scheduled program > %d in the "
                                "program" % (func, sp, pa, pb))
            elif pa < pb:
                lowered.add(sp)
            if len(bb) == len(ba):
                for k, (x, y) in enumerate(zip(bb, ba)):
                    if y > x and not may_rise:
                        problems.append(
                            "@%s, memory space %s: peak as written of ^bb%d "
                            "%d in the scheduled program > %d in the "
                            "program" % (func, sp, k, y, x))
            elif bb or ba:
                problems.append("@%s: %d blocks in the program, %d in the "
                                "scheduled program" % (func, len(bb),
                                                       len(ba)))
    for func, entries in sorted(certs.items()):
        lt = after.get(func)
        if entries is None:
            if lt is not None:
                problems.append("the certificate of @%s has no `spaces` "
                                "field though it allocates in %s" % (
                                    func, sorted(lt)))
            continue
        if lt is None:
            problems.append("the certificate of @%s has `spaces` %s, but "
                            "--memsched-print-lifetimes sees no buffer "
                            "outside the default space" % (func, entries))
            continue
        if set(entries) != set(lt):
            problems.append("the certificate of @%s names the memory spaces "
                            "%s, the body allocates in %s" % (
                                func, sorted(entries), sorted(lt)))
            continue
        for sp, (pk, lb) in sorted(entries.items()):
            if isinstance(lt[sp], str):
                continue
            if pk != lt[sp][0]:
                problems.append("the certificate of @%s: memory space %s "
                                "peak %d, the scheduled body's peak as "
                                "written %d" % (func, sp, pk, lt[sp][0]))
            if lb > pk:
                problems.append("the certificate of @%s: memory space %s "
                                "lower bound %d > peak %d" % (func, sp, lb,
                                                              pk))
    return lowered


SPACE_REMARK_RE = re.compile(
    r"^[^\n]*?:(\d+):\d+: remark: memsched-schedule: peak (\d+) -> (\d+) "
    r"bytes[^\n]*?; (memory space [^\n]*)$", re.M)
SPACE_REMARK_PART_RE = re.compile(
    r"memory space (\S+): (\d+) -> (\d+) bytes, lower bound \d+ bytes"
    r"( \(minimised\))?")


def check_space_remarks(prog_text, stderr, problems):
    """The schedule's remarks of the functions with buffers in other memory
    spaces: each space's peak before and after, and the space minimised.
    The total (all spaces together) may go up only for a lower peak of the
    minimised space: a function of one block whose total went up while
    that space's peak did not go down is a problem (the order as written
    was better in both). Returns the functions whose total went up for a
    lower peak of the minimised space, or in a body of several blocks
    (where a block's trade shows in the body's total)."""
    lines = prog_text.splitlines()
    traded = []
    for m in SPACE_REMARK_RE.finditer(stderr):
        line = int(m.group(1))
        fm = re.match(r"^\s*func\.func (?:private |public )?@([\w$.]+)",
                      lines[line - 1]) if 0 < line <= len(lines) else None
        func = fm.group(1) if fm else "?(line %d)" % line
        before, after = int(m.group(2)), int(m.group(3))
        if after <= before:
            continue
        parts = SPACE_REMARK_PART_RE.findall(m.group(4))
        mini = [(sp, int(a), int(b)) for sp, a, b, t in parts if t]
        # (The generator prints the labels of the body's blocks at column
        # 0, those of the regions of its ops indented.)
        several_blocks = any(re.match(r"^\^bb\d+", l) for l in
                             function_text(prog_text, func) or [])
        if several_blocks or (mini and mini[0][2] < mini[0][1]):
            traded.append("@%s %d -> %d (%s)" % (
                func, before, after, ", ".join(
                    "%s %s -> %s%s" % (sp, a, b, " minimised" if t else "")
                    for sp, a, b, t in parts)))
            continue
        problems.append(
            "@%s: the schedule raised the peak of all memory spaces together "
            "(%d -> %d bytes) without lowering the peak of the space it "
            "minimised (%s); the order as written was better: %s" % (
                func, before, after,
                "%s %d -> %d" % mini[0] if mini else "none marked",
                m.group(0).split("remark: ", 1)[-1]))
    return traded


def normalize(stdout):
    """The output without what may differ between two correct orders: the
    peak, and the addresses printMemrefF32 prints."""
    out = []
    for line in stdout.splitlines():
        line = re.sub(r"^memsched-measured-peak=\d+",
                      "memsched-measured-peak=*", line)
        line = re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = *", line)
        out.append(line)
    return out


ARENA_RE = re.compile(
    r"^\s*func\.func @f\(.*#memsched\.certificate<.*peak_with_arena = (\d+), "
    r"arena_size = (\d+)", re.M)


def strip_counts(lines):
    """The output without the allocator's counts (an arena replaces many
    allocations by one)."""
    return [l for l in lines if not l.startswith("memsched-measured-peak=")]


def check_arena(args, tools, work, sched, seed, orig_hashes, orig_out, info,
                exact=True):
    """The scheduled program with its buffers placed in arenas
    (--memsched-plan-arena=arena=MODE, which may reorder again): it must pass
    --memsched-verify, compute what the original computes, and, for @f with
    an arena, measure the certificate's arena."""
    planned = os.path.join(work, "planned.mlir")
    p = run([tools.opt, sched,
             "--memsched-plan-arena=count-alignment-padding arena=%s" %
             args.arena, "--memsched-verify",
             "--mlir-print-op-on-diagnostic=false", "-o", planned], tools,
            what="memsched-opt --memsched-plan-arena --memsched-verify")
    with open(planned) as f:
        text = f.read()
    m = ARENA_RE.search(text)
    if m:
        info["arena"] = True
    if args.arena != "alloc":
        # The harness calls @f with its original arguments only.
        return
    peak, hashes, out = execute(tools, planned, "f", seed,
                                os.path.join(work, "planned.out"), "planned")
    problems = []
    if hashes != orig_hashes:
        problems.append("outputs of the program with arenas differ from the "
                        "original's (see original.out, planned.out)")
    elif strip_counts(out) != strip_counts(orig_out):
        problems.append("printed output of the program with arenas differs "
                        "(see original.out, planned.out)")
    # (exact: every block ran; otherwise the block reaching the arena's
    # peak may not have run.)
    if m and (peak != int(m.group(1)) if exact else peak > int(m.group(1))):
        problems.append("measured peak of the program with arenas %d %s "
                        "certificate arena %s" % (peak, "!=" if exact else ">",
                                                  m.group(1)))
    if problems:
        raise Failure("\n".join(problems))


def count_split(stderr, info):
    """What --split did, from its remarks: info["split_pads"], ["split_
    chains"] (in functions it rewrote), ["split_undone"] (chains of
    functions it restored), ["split_groups"] ((groups, channels per group,
    channels) of each chain split, also of restored functions) and
    ["split_refused"] (refusal remarks)."""
    def total(pattern, texts):
        return sum(int(n) for t in texts for n in re.findall(pattern, t))
    kept = SPLIT_FUNC_RE.findall(stderr)
    info["split_pads"] = total(r"(\d+) pads? absorbed", kept)
    info["split_chains"] = total(r"(\d+) chains? run by channel groups",
                                 kept)
    info["split_undone"] = total(r"(\d+) chains? run by channel groups",
                                 SPLIT_UNDONE_RE.findall(stderr))
    info["split_groups"] = [(int(g), int(k), int(c)) for _, g, k, c in
                            SPLIT_CHAIN_RE.findall(stderr)]
    info["split_refused"] = SPLIT_REFUSED_RE.findall(stderr)
    info["split_bands"] = total(r"(\d+) segments? run by row bands", kept)
    info["split_inplace"] = total(r"(\d+) ops? in place", kept)


def check_program(seed, args, tools):
    """Returns (ok, message, info)."""
    work = tempfile.mkdtemp(prefix="memsched-fuzz-%d-" % seed,
                            dir=args.tmp_dir)
    prog = os.path.join(work, "program.mlir")
    sched = os.path.join(work, "scheduled.mlir")
    sched_loc = os.path.join(work, "scheduled-loc.mlir")
    info = {"reordered": False, "features": []}
    try:
        gen = [sys.executable, GENERATOR, "--seed", str(seed), "--min-ops",
               str(args.min_ops), "--max-ops", str(args.max_ops), "-o", prog]
        gen += generator_flags(args)
        run(gen, tools, what="generator")
        with open(prog) as f:
            prog_text = f.read()
        m = FEATURES_RE.search(prog_text)
        info["features"] = m.group(1).split(", ") if m else []
        blk = BLOCKS_RE.search(prog_text)
        spaced = SPACES_HEADER_RE.search(prog_text)
        memory_space = None
        if spaced:
            # Buffers in other memory spaces: minimise one of them (or the
            # default space, or leave the choice to memsched).
            memory_space = pick_memory_space(seed, args)
            info["spaces"] = spaced.group(1).split()
            info["memory_space"] = memory_space or "(unset)"
        info["schedule"] = "--memsched-schedule=" + \
            schedule_options(memory_space)
        run([tools.mlir_opt, prog, "-o", os.devnull], tools,
            what="mlir-opt verification of the generated program")
        # (The split gets the schedule's size model and memory space: the
        # peaks it must not raise are the ones the schedule minimises.)
        split_pass = info["schedule"].replace(
            "--memsched-schedule=", "--memsched-split=")
        if args.split_extra:
            split_pass += " max-extra-compute=%g" % args.split_extra
        if args.split_all_bands:
            split_pass += " test-all-bands"
        info["passes"] = ([split_pass] if args.split else []) + \
            [info["schedule"]]
        p = run([tools.opt, prog] + info["passes"] + [
                 "--mlir-print-debuginfo", "--mlir-print-local-scope",
                 "--mlir-print-op-on-diagnostic=false", "-o", sched_loc] +
                (["--mlir-disable-threading"] if "callee-peak" in args.avoid
                 else []), tools,
                what="memsched-opt --memsched-schedule")
        lower = any(int(b) < int(a) for a, b in REMARK_RE.findall(p.stderr))
        if args.split:
            count_split(p.stderr, info)
            for func, peak, bound in SPLIT_BOUND_RE.findall(p.stderr):
                if int(bound) > int(peak):
                    raise Failure("the split of @%s peaks at %s bytes, below "
                                  "its bound over all splits (%s bytes)"
                                  % (func, peak, bound))
            info["split_bounds"] = len(SPLIT_BOUND_RE.findall(p.stderr))
        with open(sched_loc) as f:
            sched_loc_text = f.read()
        moved = order_changed(sched_loc_text)
        info["reordered"] = lower or moved
        bad = use_after_dealloc(prog_text)
        if bad:
            raise Failure("generator bug: the program uses a buffer after "
                          "freeing it: " + bad)
        bad = use_after_dealloc(sched_loc_text) \
            if "view-after-dealloc" not in args.avoid else None
        if bad:
            raise Failure("the scheduled program uses a buffer after "
                          "freeing it: " + bad)
        info["how"] = "peak" if lower else "order" if moved else ""
        # The scheduled program must pass --memsched-verify (the copy
        # without locations is the one kept and run).
        run([tools.opt, sched_loc, "--memsched-verify", "-o", sched], tools,
            what="memsched-opt --memsched-verify of the scheduled program")
        with open(sched) as f:
            sched_text = f.read()
        cert = CERT_RE.search(sched_text)
        problems = []
        traded = []
        lowered = set()
        if spaced:
            traded = check_space_remarks(prog_text, p.stderr, problems)
            info["traded"] = traded
            # No memory space's peak may go up, in any function or block;
            # the certificates' `spaces` are the scheduled bodies'.
            lowered = check_spaces(
                space_peaks(tools, prog, "program"),
                space_peaks(tools, sched, "scheduled program"),
                certificate_spaces(sched_text), problems,
                may_rise=args.split_all_bands)
            info["space_lowered"] = sorted(lowered)
        refusals = dict(DECLINED_ANY_RE.findall(p.stderr))
        accepted = list(DECLINED)
        if "recursion-call_indirect" in info["features"]:
            # A helper that calls itself (random_program.py, alias form
            # `recursion`): its callers' memory has no bound the analysis
            # can see (README.md, "Calls and recursion").
            accepted.append("recursive call: ")
        coverage = "all"
        if blk:
            nblocks, coverage, flip, refusal, bfunc = blk.groups()
            info["blocks"] = coverage
            why = refusals.get(bfunc)
            any_refusal = why is not None and any(
                r in why for r in BLOCK_REFUSALS)
            # (A deallocation of an arith.select is refused with the words
            # of a block argument's.)
            block_refusal = any_refusal and not (
                "may be one of several buffers" in why and
                "select-dealloc" in info["features"])
            if refusal == "loop" and \
                    "freed-in-scf.if-on-back-edge" in info["features"]:
                # The loop's buffer is freed under the condition of the
                # branch back (`scf.if %c { dealloc }`, `cf.cond_br %c, back,
                # exit`): memsched counts that free on the back edge, so the
                # loop is accepted (and the buffer kept on the way out).
                refusal = "none"
            if refusal == "path":
                # A buffer freed on one way into a block only: memsched
                # counts it as allocated after the join (the union over the
                # paths), so the certificate is an upper bound that a run
                # need not reach, and its bound is the model's.
                refusal = "none"
                coverage = "union"
                info["blocks"] = "union"
            if refusal != "none":
                info["blocks"] = "refused"
                if not any_refusal:
                    problems.append(
                        "memsched did not refuse @%s, whose allocated "
                        "buffers at a block's entry depend on the path "
                        "(generator: refusal %s)%s" % (
                            bfunc, refusal, "" if why is None else
                            "; its remark: " + why))
                accepted += BLOCK_REFUSALS
            if bfunc != "f":
                # A caller of a body of several blocks counts the body's
                # largest block peak while the call runs; it is left
                # unchanged when the body returns a buffer it allocates
                # (a refused body gives its own reason, accepted above).
                accepted.append("has several blocks and a buffer it "
                                "allocates is still allocated")
            if refusal == "none" and block_refusal:
                problems.append("memsched refused @%s, a body of blocks "
                                "whose allocated buffers do not depend on "
                                "the path: %s" % (bfunc, why))
            if why is not None:
                # Left unchanged means left unchanged.
                check_unchanged(tools, prog, sched_loc_text, bfunc, work,
                                problems)
            else:
                bc = re.search(
                    r"^\s*func\.func (?:private )?@%s\(.*"
                    r"#memsched\.certificate<([^\n]*?)>[,}]" % re.escape(bfunc),
                    sched_text, re.M)
                k = re.search(r"\bblock = (\d+)", bc.group(1)) if bc else None
                if bc is None:
                    problems.append("no certificate on @%s" % bfunc)
                elif k is None or int(k.group(1)) >= int(nblocks):
                    problems.append("the certificate of @%s (%d blocks) has "
                                    "no valid `block` field: %s" % (
                                        bfunc, int(nblocks), bc.group(1)))
        declined = DECLINED_RE.search(p.stderr)
        if declined and not any(r in declined.group(1) for r in accepted):
            declined = None
        if not cert and not declined:
            raise Failure("\n".join(problems + [
                "no #memsched.certificate in the scheduled program "
                "(function left unchanged as unsupported?)\n" +
                p.stderr[-2000:]]))
        if declined:
            info["declined"] = declined.group(1)
            if not blk or blk.group(5) != "f":
                check_unchanged(tools, prog, sched_loc_text, "f", work,
                                problems)
        else:
            cert_peak, cert_bound = int(cert.group(1)), int(cert.group(2))
        # The runs: one, or with a flipped branch condition two (the
        # program and the scheduled program flipped alike).
        runs = [("original", prog, "scheduled", sched)]
        if blk and blk.group(3) == "yes":
            if prog_text.count(FLIP_TEXT) != 1 or \
                    sched_text.count(FLIP_TEXT) != 1:
                raise Failure("\n".join(problems + [
                    "the flipped constant (%s) is not once in the program "
                    "and once in the scheduled program" % FLIP_TEXT]))
            flipped = []
            for path, text in ((prog, prog_text), (sched, sched_text)):
                fp = path.replace(".mlir", "-flipped.mlir")
                with open(fp, "w") as f:
                    f.write(text.replace(FLIP_TEXT, FLIP_TEXT[:-5] + "true"))
                flipped.append(fp)
            runs.append(("original-flipped", flipped[0],
                         "scheduled-flipped", flipped[1]))
        orig_peaks, sched_peaks = [], []
        for oname, opath, sname, spath in runs:
            orig_peak, orig_hashes, orig_out = execute(
                tools, opath, "f", seed, os.path.join(work, oname + ".out"),
                oname)
            sched_peak, sched_hashes, sched_out = execute(
                tools, spath, "f", seed, os.path.join(work, sname + ".out"),
                sname)
            if not orig_peaks:
                first_hashes, first_out = orig_hashes, orig_out
            orig_peaks.append(orig_peak)
            sched_peaks.append(sched_peak)
            if orig_hashes != sched_hashes:
                diff = [("  %s:  %s\n  %s: %s" % (oname, a, sname, b))
                        for a, b in zip(orig_hashes, sched_hashes) if a != b]
                if len(orig_hashes) != len(sched_hashes):
                    diff.append("  (%d vs %d hash lines)" % (
                        len(orig_hashes), len(sched_hashes)))
                problems.append("outputs differ:\n" + "\n".join(diff))
            elif (strip_counts(orig_out) != strip_counts(sched_out)
                  if args.split else orig_out != sched_out):
                # (--split removes allocations: the allocator's counts
                # differ by design.)
                first = next((i for i, (a, b) in enumerate(zip(orig_out,
                                                               sched_out))
                              if a != b), min(len(orig_out), len(sched_out)))
                problems.append("printed output differs from line %d "
                                "(see %s.out, %s.out)" % (first + 1, oname,
                                                          sname))
            if sched_peak > orig_peak and not args.strict_total and (
                    traded or (args.split and spaced and lowered)):
                # Minimising one memory space may cost memory in all of
                # them together (README.md, "spaces"): allowed when the
                # remarks show that trade.
                info["total_raised"] = "%d -> %d" % (orig_peak, sched_peak)
            elif sched_peak > orig_peak and not args.split_all_bands:
                # (test-all-bands: the bands need not lower the peak.)
                problems.append("scheduled measured peak %d > original "
                                "measured peak %d%s" % (
                                    sched_peak, orig_peak,
                                    " (%s)" % sname if len(runs) > 1 else ""))
        orig_hashes, orig_out = first_hashes, first_out
        if declined:
            # @f is left as it is; its callees may have been scheduled.
            cert_peak = max(sched_peaks)
            cert_bound = 0
        # Every block runs (coverage all), or runs in one of the two flipped
        # runs (flip): the block reaching the certified peak ran, so the
        # largest measured peak is the certificate's, and no bound exceeds
        # it. Otherwise (partial) the peak block may not have run.
        full = coverage in ("all", "flip")
        if full and max(sched_peaks) != cert_peak:
            problems.append("measured peak of the scheduled program %s != "
                            "certificate peak %d" % (
                                "/".join(map(str, sched_peaks)), cert_peak))
        elif not full and max(sched_peaks) > cert_peak:
            problems.append("measured peak of the scheduled program %s > "
                            "certificate peak %d" % (
                                "/".join(map(str, sched_peaks)), cert_peak))
        info["eq_checked"] = full and not declined and bool(blk)
        # The program as written is a valid order of the scheduled one
        # unless --split rewrote ops or a callee's order traded the total
        # for a lower peak of one space (a call then needs other memory).
        valid = [max(sched_peaks)]
        if not args.split and "total_raised" not in info:
            valid.append(max(orig_peaks))
        if full and cert_bound > min(valid) and not args.split_all_bands:
            problems.append("certificate lower bound %d > measured peak %d of "
                            "a valid order" % (cert_bound, min(valid)))
        orig_peak, sched_peak = max(orig_peaks), max(sched_peaks)
        info.update(orig_peak=orig_peak, sched_peak=sched_peak,
                    cert_peak=cert_peak)
        if problems:
            raise Failure("\n".join(problems))
        if args.arena:
            check_arena(args, tools, work, sched, seed, orig_hashes, orig_out,
                        info, exact=coverage == "all")
    except Exception as e:  # noqa: BLE001 - a driver error fails this program
        if not isinstance(e, Failure):
            e = Failure("run_fuzz.py internal error (a driver bug):\n" +
                        traceback.format_exc())
        kept = os.path.join(args.keep_dir, "seed-%d" % seed)
        if os.path.exists(kept):
            shutil.rmtree(kept)
        os.makedirs(args.keep_dir, exist_ok=True)
        if info.get("memory_space"):
            e = Failure("%s\n(memory spaces: %s; scheduled with "
                        "memory-space=%s)" % (e, " ".join(info["spaces"]),
                                              info["memory_space"]))
        with open(os.path.join(work, "reason.txt"), "w") as f:
            f.write(str(e) + "\n")
            f.write("schedule: memsched-opt program.mlir '%s'\n" %
                    info.get("schedule", ""))
        shutil.move(work, kept)
        return False, str(e), info, kept
    if args.keep_all:
        kept = os.path.join(args.keep_dir, "pass-seed-%d" % seed)
        os.makedirs(args.keep_dir, exist_ok=True)
        if os.path.exists(kept):
            shutil.rmtree(kept)
        shutil.move(work, kept)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return True, "", info, None


def main():
    p = argparse.ArgumentParser(
        description="Differential fuzzing of memsched-opt --memsched-schedule")
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--seed", type=int, default=1,
                   help="first program seed (programs use seed .. "
                        "seed+count-1)")
    p.add_argument("--build-dir", default="build")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--keep-dir", default="fuzz-failures",
                   help="where failing programs are kept (default "
                        "./fuzz-failures)")
    p.add_argument("--keep-all", action="store_true",
                   help="also keep the files of passing programs")
    p.add_argument("--tmp-dir", default=None,
                   help="parent of the per-program work directories")
    p.add_argument("--min-ops", type=int, default=10)
    p.add_argument("--max-ops", type=int, default=60)
    p.add_argument("--calls", action="store_true",
                   help="generate func.call to helpers and printMemrefF32 "
                        "(random_program.py --calls)")
    p.add_argument("--avoid", action="append", default=[],
                   help="leave out the trigger of a known bug "
                        "(random_program.py --avoid)")
    p.add_argument("--classic", action="store_true",
                   help="programs without the constructs added after the "
                        "first version (random_program.py --classic); they "
                        "are on by default")
    p.add_argument("--without", action="append", default=[],
                   help="leave out one group of the new constructs "
                        "(random_program.py --without)")
    p.add_argument("--chain", type=int, default=0, metavar="N",
                   help="add a chain of N nested views to every program "
                        "(random_program.py --chain)")
    p.add_argument("--only", action="append", default=[],
                   help="of the new constructs, only this group "
                        "(random_program.py --only)")
    p.add_argument("--pads", action="store_true",
                   help="also materialised pads (random_program.py --pads)")
    p.add_argument("--yields", action="store_true",
                   help="also buffers loops and branches hand out "
                        "(random_program.py --yields)")
    p.add_argument("--chains", action="store_true",
                   help="also channel chains (random_program.py --chains), "
                        "what --split runs by groups of channels")
    p.add_argument("--split", action="store_true",
                   help="run --memsched-split before --memsched-schedule "
                        "(pads absorbed, channel chains run by groups: the "
                        "outputs must not change); the summary counts what "
                        "it did")
    p.add_argument("--split-extra", type=float, default=0.0,
                   help="with --split: its max-extra-compute (row bands "
                        "whose halos recompute rows; default 0)")
    p.add_argument("--split-all-bands", action="store_true",
                   help="with --split: test-all-bands (every row-band "
                        "segment found run by bands, whatever the peak: "
                        "the outputs must not change; the peak may rise)")
    p.add_argument("--aliases", action="store_true",
                   help="also writes through aliases (random_program.py "
                        "--aliases; off by default)")
    p.add_argument("--alias-form", action="append", default=[],
                   help="only this form of --aliases (random_program.py "
                        "--alias-form)")
    p.add_argument("--arena", choices=["alloc", "argument", "global"],
                   help="also place the scheduled program's buffers with "
                        "--memsched-plan-arena=arena=MODE and check it: "
                        "--memsched-verify; with alloc, run it too (same "
                        "outputs, measured peak = certificate arena)")
    p.add_argument("--memory-space", default="random",
                   choices=["random", "none", "default", "1", "workgroup"],
                   help="the memory-space= option of the schedule run of "
                        "programs with buffers in other memory spaces "
                        "(group spaces): drawn from the seed (default), "
                        "left out, or this space")
    p.add_argument("--strict-total", action="store_true",
                   help="fail a program with buffers in other memory spaces "
                        "whose measured peak (all spaces together) is above "
                        "the original's also when the schedule lowered the "
                        "peak of the space it minimised")
    p.add_argument("--require-reordered", type=float, default=None,
                   metavar="FRACTION",
                   help="fail the run when fewer than this share of the "
                        "programs were reordered by --memsched-schedule "
                        "(peak lowered, or ops with effects moved)")
    p.add_argument("--timeout", type=int, default=120,
                   help="seconds per tool invocation")
    p.add_argument("--llvm-bin", default=os.environ.get(
        "LLVM_BIN", "/usr/lib/llvm-22/bin"))
    p.add_argument("--mlir-runner", default=os.environ.get("MLIR_RUNNER"))
    p.add_argument("--mlir-lib-dir", default=os.environ.get(
        "MLIR_LIB_DIR", "/usr/lib/llvm-22/lib"))
    p.add_argument("-v", "--verbose", action="store_true",
                   help="one line per program")
    args = p.parse_args()
    args.keep_dir = os.path.abspath(args.keep_dir)
    return with_tools(args, "run_fuzz.py", "memsched-fuzz-tools-",
                      lambda tools: run_all(args, tools))


def with_tools(args, prog, prefix, run):
    """Runs run(tools) with the tools of `args` checked and on a private
    copy of memsched-opt and the runtime, so a rebuild of the build tree
    during the run cannot mix two versions (or fail a step). Returns its
    exit code; 77 without mlir-runner, 2 on a setup error."""
    tools = Tools(args)
    if not (os.path.isfile(tools.runner) and os.access(tools.runner, os.X_OK)):
        print("%s: mlir-runner not found at %s: skipped" % (prog, tools.runner))
        return 77
    for path in (tools.opt, tools.runtime, tools.mlir_opt,
                 tools.c_runner_utils):
        if not os.path.exists(path):
            print("%s: missing %s" % (prog, path), file=sys.stderr)
            return 2
    snapshot = tempfile.mkdtemp(prefix=prefix, dir=args.tmp_dir)
    try:
        if not snapshot_tools(tools, snapshot):
            print("%s: cannot get a working copy of %s" % (prog, tools.opt),
                  file=sys.stderr)
            return 2
        return run(tools)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)


def snapshot_tools(tools, snapshot):
    opt = os.path.join(snapshot, "memsched-opt")
    runtime = os.path.join(snapshot, "libmemsched_runtime.so")
    for _ in range(20):
        try:
            shutil.copy2(tools.opt, opt)
            shutil.copy2(tools.runtime, runtime)
            p = subprocess.run([opt, "--version"], capture_output=True,
                               timeout=60)
            if p.returncode == 0:
                tools.opt, tools.runtime = opt, runtime
                return True
        except (OSError, subprocess.TimeoutExpired):
            pass
        time.sleep(3)  # a rebuild is writing the files
    return False


def generator_flags(args):
    flags = ["--calls"] if args.calls else []
    for bug in args.avoid:
        flags += ["--avoid", bug]
    if args.classic:
        flags.append("--classic")
    for group in args.without:
        flags += ["--without", group]
    for group in args.only:
        flags += ["--only", group]
    if args.chain:
        flags += ["--chain", str(args.chain)]
    if args.pads:
        flags.append("--pads")
    if args.yields:
        flags.append("--yields")
    if args.chains:
        flags.append("--chains")
    if args.aliases and not args.alias_form:
        flags.append("--aliases")
    for form in args.alias_form:
        flags += ["--alias-form", form]
    return flags


def run_all(args, tools):
    seeds = list(range(args.seed, args.seed + args.count))
    gflags = generator_flags(args)
    if (args.min_ops, args.max_ops) != (10, 60):
        gflags += ["--min-ops", str(args.min_ops), "--max-ops",
                   str(args.max_ops)]
    print("memsched fuzz: %d programs, seeds %d..%d, %d jobs%s%s" % (
        len(seeds), seeds[0] if seeds else 0, seeds[-1] if seeds else 0,
        args.jobs, ", generator flags: " if gflags else "",
        " ".join(gflags)), flush=True)
    start = time.time()
    passed = failed = reordered = declined = arenas = 0
    blocks = {}
    spaces = {}
    features = {}
    split = {"pads": 0, "chains": 0, "undone": 0, "refused": 0,
             "chain_programs": 0, "pad_programs": 0, "generated": 0,
             "failed": 0, "one": 0, "bands": 0, "band_programs": 0,
             "band_failed": 0, "inplace": 0, "bounds": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futures = {ex.submit(check_program, s, args, tools): s for s in seeds}
        results = {}
        for fut in concurrent.futures.as_completed(futures):
            s = futures[fut]
            results[s] = fut.result()
            ok, msg, info, kept = results[s]
            if ok:
                passed += 1
            else:
                failed += 1
                print("FAIL seed=%d: %s\n  files kept in %s\n  reproduce: "
                      "python3 %s --seed %d%s -o program.mlir" % (
                          s, msg, kept, GENERATOR, s,
                          "".join(" " + f for f in gflags)),
                      flush=True)
                if info.get("schedule"):
                    print("  then: %s program.mlir %s --memsched-verify "
                          "-o scheduled.mlir" % (
                              os.path.join(args.build_dir, "bin",
                                           "memsched-opt"),
                              " ".join("'%s'" % a for a in
                                       info.get("passes",
                                                [info["schedule"]]))),
                          flush=True)
            if info.get("reordered"):
                reordered += 1
            if ok and info.get("declined"):
                declined += 1
            if ok and info.get("arena"):
                arenas += 1
            if info.get("spaces"):
                sp = spaces
                sp["programs"] = sp.get("programs", 0) + 1
                sp["failed"] = sp.get("failed", 0) + (not ok)
                sp["reordered"] = sp.get("reordered", 0) + \
                    bool(info.get("reordered"))
                sp["lowered"] = sp.get("lowered", 0) + \
                    bool(info.get("space_lowered"))
                sp["lowered-other"] = sp.get("lowered-other", 0) + bool(
                    set(info.get("space_lowered", [])) - {"default"})
                key = "option " + info.get("memory_space", "?")
                sp[key] = sp.get(key, 0) + 1
                if ok and info.get("total_raised"):
                    sp.setdefault("raised", []).append(s)
            if ok and info.get("blocks"):
                kind = info["blocks"]
                if kind != "refused" and info.get("declined"):
                    kind = "declined"
                blocks[kind] = blocks.get(kind, 0) + 1
            for f in info.get("features", []):
                features[f] = features.get(f, 0) + 1
            if "chain" in info.get("features", []):
                split["generated"] += 1
            if info.get("split_chains"):
                split["chain_programs"] += 1
                split["failed"] += not ok
            if info.get("split_pads"):
                split["pad_programs"] += 1
            split["pads"] += info.get("split_pads", 0)
            split["chains"] += info.get("split_chains", 0)
            split["undone"] += info.get("split_undone", 0)
            split["refused"] += len(info.get("split_refused", []))
            split["inplace"] += info.get("split_inplace", 0)
            split["bounds"] += info.get("split_bounds", 0)
            if info.get("split_bands"):
                split["band_programs"] += 1
                split["bands"] += info["split_bands"]
                split["band_failed"] += not ok
            if info.get("split_chains") and not info.get("split_undone"):
                split["one"] += sum(1 for g in info.get("split_groups", [])
                                    if g[1] == 1)
            if args.verbose and ok:
                print("ok seed=%d peak %d -> %d%s%s%s" % (
                    s, info["orig_peak"], info["sched_peak"],
                    " [blocks: %s]" % info["blocks"] if info.get("blocks")
                    else "",
                    " [spaces %s, memory-space=%s%s%s]" % (
                        " ".join(info["spaces"]), info["memory_space"],
                        ", lowered: " + " ".join(info["space_lowered"])
                        if info.get("space_lowered") else "",
                        ", all spaces together raised for the space "
                        "minimised: " + "; ".join(info["traded"])
                        if info.get("total_raised") else "")
                    if info.get("spaces") else "",
                    " (reordered: %s)" % ("peak lowered"
                                          if info.get("how") == "peak" else
                                          "ops moved")
                    if info["reordered"] else "") + (
                    " [split: %d pad(s) absorbed, %d chain(s) by groups%s]" %
                    (info["split_pads"], info["split_chains"],
                     "".join(" %d of %d" % (k, c) for _, k, c in
                             info["split_groups"]))
                    if info.get("split_pads") or info.get("split_chains")
                    else ""), flush=True)
    print("%d of %d programs reordered by the schedule, %d left unchanged "
          "as documented (e.g. a deallocation of a select); %.1fs" % (
              reordered, len(seeds), declined, time.time() - start))
    if blocks:
        print("%d passing programs with several blocks: %s" % (
            sum(blocks.values()), ", ".join(
                "%d %s" % (n, {"all": "all blocks ran (peak == certificate)",
                               "flip": "all blocks ran in one of the two "
                                       "flipped runs (peak == certificate)",
                               "partial": "some block may not have run "
                                          "(peak <= certificate)",
                               "union": "a buffer freed on one way into a "
                                        "block (peak <= certificate)",
                               "refused": "refused as the generator "
                                          "expected",
                               "declined": "left unchanged for another "
                                           "documented reason"}.get(k, k))
                for k, n in sorted(blocks.items()))))
    if spaces:
        print("%d programs with buffers in other memory spaces (%d failed): "
              "%d reordered, %d with a space's peak as written lowered (%d "
              "of them a space other than the default); memory-space=: %s" % (
                  spaces["programs"], spaces["failed"], spaces["reordered"],
                  spaces["lowered"], spaces["lowered-other"], ", ".join(
                      "%s %d" % (k[7:], n) for k, n in sorted(spaces.items())
                      if k.startswith("option "))))
        if spaces.get("raised"):
            print("%d of them with a measured peak (all spaces together) "
                  "above the original's, for a lower peak of the space "
                  "minimised (accepted): seeds %s" % (
                      len(spaces["raised"]),
                      " ".join(map(str, sorted(spaces["raised"])))))
    if args.verbose:
        print("features (programs): " + ", ".join(
            "%s=%d" % kv for kv in sorted(features.items())))
    status = 1 if failed else 0
    if args.require_reordered is not None and seeds and \
            reordered < args.require_reordered * len(seeds):
        print("FAIL: only %d of %d programs (%.0f%%) were reordered by "
              "--memsched-schedule; --require-reordered %g needs at least "
              "%d: is the scheduler still reordering?" % (
                  reordered, len(seeds), 100.0 * reordered / len(seeds),
                  args.require_reordered,
                  math.ceil(args.require_reordered * len(seeds) - 1e-9)),
              flush=True)
        status = 1
    if args.split:
        print("split: %d programs with a channel chain run by groups "
              "(%d failed; %d chains, %d of them by groups of 1 channel; "
              "%d programs generated with --chains' chains), %d with a pad "
              "absorbed (%d pads); %d chains split then restored (the "
              "scheduled peak would rise), %d chains refused with a "
              "remark" % (
                  split["chain_programs"], split["failed"], split["chains"],
                  split["one"], split["generated"], split["pad_programs"],
                  split["pads"], split["undone"], split["refused"]))
        print("split: %d programs with a segment run by row bands (%d "
              "failed; %d segments), %d ops written in place; %d split "
              "functions at or above their bound over all splits" % (
                  split["band_programs"], split["band_failed"],
                  split["bands"], split["inplace"], split["bounds"]))
    if args.arena:
        print("%d programs with @f planned into an arena (arena=%s)" % (
            arenas, args.arena))
    print("%d passed, %d failed" % (passed, failed))
    return status


if __name__ == "__main__":
    sys.exit(main())
