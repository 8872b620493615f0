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
#                                   [--aliases] [--alias-form F]
#                                   [--build-dir build] [-j 2]
#
# With --aliases, writes to buffers through aliases (scf.for iter_args,
# extract_strided_metadata + reinterpret_cast, arith.select, subviews,
# buffers of vectors; recursion through func.call_indirect only when named
# with --alias-form) between their producers and their later readers: with
# --training 1-4 per program on forward buffers recomputation would clone
# (the summary counts the programs where it does so in the program without
# them), otherwise random_program.py --aliases. --write-program FILE writes
# the program of --seed and exits.
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


def training_like(seed, path, blocks=False, aliases=()):
    """A forward chain of elementwise ops whose results a backward chain
    reads again (what recomputation is for), with random hazards: writes to
    the arguments (inputs of producers) between the forward and the
    backward ops, in-place second writers, reads through subviews, ops that
    read three buffers. `aliases`: forms of writes through aliases of
    forward buffers placed between their producers and their backward
    readers (insert_aliases; none: the program of the seed as before)."""
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
    consts, frees, helpers, written = [], [], [], []
    if aliases:
        consts, frees, helpers, written = insert_aliases(lines, bufs, seed,
                                                         aliases, T)
    for b in bufs + grads:
        lines.append(f"  memref.dealloc {b} : {T}")
    for b, t in frees:
        lines.append(f"  memref.dealloc {b} : {t}")
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
    lines[1:1] = consts
    lines.append("  return\n}")
    lines += helpers
    body = "\n".join(lines)
    if "%cst" in body:
        body = body.replace("{\n", "{\n  %cst = arith.constant 0.5 : f32\n", 1)
    with open(path, "w") as f:
        f.write(f"// remat_fuzz.py training-like seed {seed}\n" +
                (f"// written through aliases: {' '.join(written)}\n"
                 if aliases else "") + body + "\n")


# Forms of the writes through aliases of --aliases (README.md, "Aliases"):
# the training-like program gets 1-3 of them, each writing a forward
# buffer between its producer and its last (backward) reader. The
# recursion form only with --alias-form recursion (memsched does not see
# recursion through func.call_indirect: the certificate then counts one
# activation, see the README).
ALIAS_FORMS = ["iter-args", "metadata", "select", "subview", "vector",
               "recursion"]
DEFAULT_ALIAS_FORMS = [f for f in ALIAS_FORMS if f != "recursion"]


def insert_aliases(lines, bufs, seed, forms, T):
    """Inserts writes through aliases into the training-like body `lines`
    (the function line first, no deallocations yet), from a random stream
    of their own (the program is otherwise the one of the same seed
    without them). Returns (lines to add at the top, buffers to free at
    the end as (name, type), helper functions)."""
    rng = random.Random(seed * 1000037 + 0xA11A5)
    consts = ["  %c0 = arith.constant 0 : index",
              "  %c1 = arith.constant 1 : index",
              "  %c2 = arith.constant 2 : index",
              "  %c3 = arith.constant 3 : index",
              "  %ak = arith.constant 0.375 : f32",
              "  %az = arith.constant 0.0 : f32"]
    frees, helpers = [], []

    def idx_of(pred):
        return [i for i, l in enumerate(lines) if pred(l)]

    def uses(name, l):
        return re.search(re.escape(name) + r"\b", l) is not None

    def window(name):
        """(first position after the last write of `name`, position of its
        last reader) or None."""
        writes = idx_of(lambda l: "outs(%s " % name in l)
        reads = idx_of(lambda l: uses(name, l) and
                       re.search(r"ins\([^)]*" + re.escape(name) + r"\b", l))
        if not writes or not reads or reads[-1] <= writes[-1]:
            return None
        return writes[-1] + 1, reads[-1]

    def first_write(name):
        w = idx_of(lambda l: "outs(%s " % name in l)
        return w[0] if w else len(lines)

    def inputs_before(pos, exclude):
        """The arguments and the buffers written before line `pos`."""
        return ["%x", "%w"] + [b for b in bufs if b not in exclude and
                               first_write(b) < pos]

    def region(kinds=("top", "execute_region", "if", "for")):
        kind = rng.choice(kinds)
        if kind == "execute_region":
            return kind, ["  scf.execute_region {"], ["    scf.yield", "  }"]
        if kind == "if":
            return kind, ["  scf.if %true {"], ["  }"]
        if kind == "for":
            return (kind, ["  scf.for %%r%d = %%c0 to %%c1 step %%c1 {" % n],
                    ["  }"])
        return kind, [], []

    def indent(block, by):
        return [" " * by + l for l in block]

    def write(view, vt, pos, exclude):
        """A write of `view` (of type vt, 64 elements or a part)."""
        kind = rng.choice(["add", "add", "fill", "mul"])
        if kind == "fill":
            return ["  linalg.fill ins(%%ak : f32) outs(%s : %s)" % (view, vt)]
        if vt != T:
            # (Parts: the same part of an argument.)
            return ["  linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
                kind if kind != "mul" else "add", view, view, vt, vt, view,
                vt)]
        src = rng.choice(inputs_before(pos, exclude))
        return ["  linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
            kind, view, src, vt, T, view, vt)]

    inserts = []   # (position, lines)
    tail = []      # lines after the last compute line
    need_true = False
    targets = [b for b in bufs if window(b) is not None]
    # The backward chain starts at %g0: buffers read there are what
    # recomputation frees early, and a write after the forward chain sits
    # between the producer and those late readers (mostly chosen so).
    bwd = idx_of(lambda l: l.startswith("  %g0 = "))[0]

    def recomputable(name):
        """No input of the ops writing `name` is written after them (so
        recomputation may clone them for a late reader)."""
        writes = idx_of(lambda l: "outs(%s " % name in l)
        for i in writes:
            ins = re.findall(r"%\w+", lines[i].split("ins(")[1].split(":")[0])
            for v in ins:
                if v != name and any("outs(%s " % v in l
                                     for l in lines[i + 1:]):
                    return False
        return True

    def reads(name):
        return idx_of(lambda l: re.search(r"ins\([^)]*" + re.escape(name) +
                                          r"\b", l) is not None)

    def idle(name):
        """The longest stretch of ops between two reads of `name` (after
        its last write): what recomputation frees it for."""
        r = [window(name)[0] - 1] + [i for i in reads(name)
                                     if i >= window(name)[0]]
        return max(b - a for a, b in zip(r, r[1:]))

    late = [b for b in targets if window(b)[1] >= bwd]
    # Mostly buffers recomputation can clone (their inputs stay as they
    # are) and long idle before a late reader: recomputation then frees
    # them and clones their producers for the late readers, and the write
    # through an alias is what it must not lose.
    late = [b for b in late if recomputable(b)] or late
    late.sort(key=lambda b: -idle(b))
    written = []   # the buffers written through an alias
    for n in range(rng.randint(1, 4)):
        if not targets:
            break
        r = rng.random()
        b = rng.choice(late[:2] if late and r < 0.5 else
                       late if late and r < 0.85 else targets)
        if b not in written:
            written.append(b)
        lo, hi = window(b)
        first = min([i for i in reads(b) if i >= lo] or [hi])
        if rng.random() < 0.5:
            # Right after the producer, before its first reader: the idle
            # stretch before the late readers stays as it was.
            hi = first
        elif hi >= bwd and rng.random() < 0.6:
            lo = max(lo, bwd)
        pos = rng.randint(lo, hi)
        form = rng.choice(forms)
        block = []
        if form == "iter-args":
            kind = rng.choice(["linalg", "store", "fill"])
            block.append("  %%it%d = scf.for %%i%d = %%c0 to %%c%d step %%c1 "
                         "iter_args(%%xa%d = %s) -> (%s) {" % (
                             n, n, rng.randint(1, 3), n, b, T))
            if kind == "linalg":
                block += indent(write("%%xa%d" % n, T, pos, [b]), 2)
            elif kind == "store":
                block.append("    memref.store %%ak, %%xa%d[%%i%d] : %s" % (
                    n, n, T))
            else:
                block.append("    linalg.fill ins(%%ak : f32) outs(%%xa%d : "
                             "%s)" % (n, T))
            block += ["    scf.yield %%xa%d : %s" % (n, T), "  }"]
            if rng.random() < 0.3:
                # A read of the loop's result too.
                block.append("  linalg.add ins(%%it%d, %%w : %s, %s) outs("
                             "%%out : %s)" % (n, T, T, T))
        elif form == "metadata":
            kind, head, end = region(("execute_region",) * 3 +
                                     ("top", "if", "for"))
            need_true |= kind == "if"
            size = rng.choice([8, 16, 32, 64])
            off = rng.randint(0, 64 - size)
            vt = "memref<%dxf32, strided<[1], offset: %d>>" % (size, off) \
                if off else "memref<%dxf32, strided<[1]>>" % size
            body = ["  %%mb%d, %%mo%d, %%ms%d, %%mt%d = "
                    "memref.extract_strided_metadata %s : %s -> memref<f32>, "
                    "index, index, index" % (n, n, n, n, b, T),
                    "  %%rc%d = memref.reinterpret_cast %%mb%d to offset: [%d],"
                    " sizes: [%d], strides: [1] : memref<f32> to %s" % (
                        n, n, off, size, vt)]
            body += write("%%rc%d" % n, vt, pos, [b])
            block = head + (indent(body, 2) if head else body) + end
        elif form == "select":
            kind, head, end = region()
            need_true |= kind == "if"
            others = [o for o in bufs if o != b and window(o) is not None
                      and window(o)[0] <= pos]
            two = others and rng.random() < 0.5
            other = rng.choice(others) if two else b
            body = ["  %%se%d = memref.load %%x[%%c%d] : %s" % (
                        n, rng.randint(0, 3), T),
                    "  %%sc%d = arith.cmpf olt, %%se%d, %%az : f32" % (n, n),
                    "  %%sel%d = arith.select %%sc%d, %s, %s : %s" % (
                        n, n, b, other, T)]
            body += write("%%sel%d" % n, T, pos, [b, other])
            block = head + (indent(body, 2) if head else body) + end
        elif form == "subview":
            kind, head, end = region(("top", "top", "execute_region", "if",
                                      "for"))
            need_true |= kind == "if"
            size = rng.choice([8, 16, 32, 48])
            off = rng.randint(0, 64 - size)
            vt = "memref<%dxf32, strided<[1], offset: %d>>" % (size, off) \
                if off else "memref<%dxf32, strided<[1]>>" % size
            body = ["  %%sv%d = memref.subview %s[%d] [%d] [1] : %s to %s" % (
                n, b, off, size, T, vt)]
            body += write("%%sv%d" % n, vt, pos, [b])
            block = head + (indent(body, 2) if head else body) + end
        elif form == "vector":
            # A vector copy of b made after b's producer, read back late
            # into a buffer added to the output at the end.
            L = rng.choice([4, 8, 16, 16])
            K = 64 // L
            vt = "vector<%dxf32>" % L
            t = "memref<%dx%s>" % (K, vt)
            vb, vr = "%%vb%d" % n, "%%vr%d" % n
            block = ["  %s = memref.alloc() : %s" % (vb, t),
                     "  %%vz%d = arith.constant dense<0.0> : %s" % (n, vt),
                     "  scf.for %%k%d = %%c0 to %%vk%d step %%c1 {" % (n, n),
                     "    %%kb%d = arith.muli %%k%d, %%vl%d : index" % (n, n, n),
                     "    %%vv%d = scf.for %%j%d = %%c0 to %%vl%d step %%c1 "
                     "iter_args(%%acc%d = %%vz%d) -> (%s) {" % (
                         n, n, n, n, n, vt),
                     "      %%p%d = arith.addi %%kb%d, %%j%d : index" % (n, n, n),
                     "      %%e%d = memref.load %s[%%p%d] : %s" % (n, b, n, T),
                     "      %%j32_%d = arith.index_cast %%j%d : index to i32" % (
                         n, n),
                     "      %%in%d = llvm.insertelement %%e%d, %%acc%d[%%j32_%d "
                     ": i32] : %s" % (n, n, n, n, vt),
                     "      scf.yield %%in%d : %s" % (n, vt),
                     "    }",
                     "    memref.store %%vv%d, %s[%%k%d] : %s" % (n, vb, n, t),
                     "  }"]
            read = ["  %s = memref.alloc() : %s" % (vr, T),
                    "  scf.for %%q%d = %%c0 to %%vk%d step %%c1 {" % (n, n),
                    "    %%qb%d = arith.muli %%q%d, %%vl%d : index" % (n, n, n),
                    "    %%qv%d = memref.load %s[%%q%d] : %s" % (n, vb, n, t),
                    "    scf.for %%u%d = %%c0 to %%vl%d step %%c1 {" % (n, n),
                    "      %%u32_%d = arith.index_cast %%u%d : index to i32" % (
                        n, n),
                    "      %%ue%d = llvm.extractelement %%qv%d[%%u32_%d : i32] "
                    ": %s" % (n, n, n, vt),
                    "      %%up%d = arith.addi %%qb%d, %%u%d : index" % (n, n, n),
                    "      memref.store %%ue%d, %s[%%up%d] : %s" % (n, vr, n, T),
                    "    }",
                    "  }",
                    "  memref.dealloc %s : %s" % (vb, t)]
            for c in ("%%vk%d = arith.constant %d : index" % (n, K),
                      "%%vl%d = arith.constant %d : index" % (n, L)):
                consts.append("  " + c)
            inserts.append((pos, block))
            block = None
            inserts.append((rng.randint(pos, len(lines)), read))
            tail.append("  linalg.add ins(%%out, %s : %s, %s) outs(%%out : %s)"
                        % (vr, T, T, T))
            frees.append((vr, T))
        else:  # recursion
            name = "@rec%d" % n
            ft = "(index, %s) -> ()" % T
            helpers.append("\n".join([
                "func.func private %s(%%n: index, %%a: %s) {" % (name, T),
                "  %c0 = arith.constant 0 : index",
                "  %c1 = arith.constant 1 : index",
                "  %t = memref.alloc() : " + T,
                "  linalg.copy ins(%%a : %s) outs(%%t : %s)" % (T, T),
                "  linalg.add ins(%%a, %%t : %s, %s) outs(%%a : %s)" % (T, T, T),
                "  %more = arith.cmpi sgt, %n, %c0 : index",
                "  scf.if %more {",
                "    %n1 = arith.subi %n, %c1 : index",
                "    %%fn = func.constant %s : %s" % (name, ft),
                "    func.call_indirect %%fn(%%n1, %%a) : %s" % ft,
                "  }",
                "  linalg.mul ins(%%a, %%t : %s, %s) outs(%%a : %s)" % (T, T, T),
                "  memref.dealloc %t : " + T,
                "  return", "}"]))
            block = ["  func.call %s(%%c%d, %s) : %s" % (
                name, rng.randint(1, 3), b, ft)]
        if block is not None:
            inserts.append((pos, block))
    if need_true:
        consts.append("  %true = arith.constant true")
    # Later positions first (an insertion moves the lines after it); at
    # one position the one drawn first stays first.
    order = sorted(range(len(inserts)), key=lambda k: (-inserts[k][0], -k))
    for k in order:
        pos, block = inserts[k]
        lines[pos:pos] = block
    lines += tail
    return consts, frees, helpers, written


LOC_LINE_RE = re.compile(r'loc\("[^"]*":(\d+):\d+\)\s*(?:\{\s*)?$')


def recomputed_buffers(path, tools, args):
    """The buffers %aN whose writers --memsched-rematerialize clones in the
    program `path` (an op printed twice with one location)."""
    opt = os.path.join(tools["path"].split(os.pathsep)[0], "memsched-opt")
    p = subprocess.run([opt, path, "--memsched-rematerialize=bytes=0 "
                        "max-extra-compute=-1 count-alignment-padding",
                        "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                       capture_output=True, text=True, timeout=args.timeout)
    if p.returncode != 0:
        return set()
    counts = {}
    for line in p.stdout.splitlines():
        m = LOC_LINE_RE.search(line)
        if m:
            counts[int(m.group(1))] = counts.get(int(m.group(1)), 0) + 1
    with open(path) as f:
        src = f.read().splitlines()
    out = set()
    for ln, n in counts.items():
        if n >= 2 and 0 < ln <= len(src):
            m = re.search(r"outs\((%a\d+) ", src[ln - 1])
            if m:
                out.add(m.group(1))
    return out


def exposed(seed, prog, tools, args, d):
    """The buffers written through aliases in `prog` that recomputation
    clones in the program of the seed without them: the writes a
    recomputation must not lose (README.md, "Aliases")."""
    with open(prog) as f:
        m = re.search(r"^// written through aliases: (.*)$", f.read(), re.M)
    if not m:
        return []
    base = os.path.join(d, "without-aliases.mlir")
    training_like(seed, base, blocks=args.blocks)
    hit = recomputed_buffers(base, tools, args)
    return sorted(set(m.group(1).split()) & hit)


def one(seed, args, tools, work):
    d = os.path.join(work, str(seed))
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "program.mlir")
    if args.training:
        gen = ["(training-like)", "seed", str(seed)]
        if args.alias_forms:
            gen += ["aliases"] + args.alias_forms
        training_like(seed, prog, blocks=args.blocks,
                      aliases=args.alias_forms)
    else:
        gen = [sys.executable, os.path.join(ROOT, "test", "Fuzz", "random_program.py"),
               "--seed", str(seed), "-o", prog]
        if not args.blocks:
            gen[-2:-2] = ["--without", "blocks"]
        if args.calls:
            gen.append("--calls")
        if args.classic:
            gen.append("--classic")
        for f in args.alias_forms:
            gen += ["--alias-form", f]
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
    hits = exposed(seed, prog, tools, args, d) \
        if args.training and args.alias_forms else []
    log = (p.stdout + p.stderr)[-600:]
    if ok and args.check_bound:
        problem = check_bound(prog, tools, args)
        if problem:
            ok, log = False, problem
    return (seed, ok, rewritten, several, log, " ".join(gen), cmd, hits)


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
    ap.add_argument("--aliases", action="store_true",
                    help="writes through aliases of buffers between their "
                         "producers and their later readers (README.md, "
                         "\"Aliases\"): with --training 1-3 per program, "
                         "otherwise random_program.py --aliases; every form "
                         "but recursion (off: the programs of every seed as "
                         "before)")
    ap.add_argument("--alias-form", action="append", default=[],
                    choices=ALIAS_FORMS,
                    help="only this form of --aliases (repeatable; implies "
                         "--aliases; recursion only when named)")
    ap.add_argument("--write-program", metavar="FILE",
                    help="write the program of --seed (with the generator "
                         "options given) to FILE and exit: to reproduce a "
                         "failure")
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
    args.alias_forms = sorted(set(args.alias_form)) or \
        (DEFAULT_ALIAS_FORMS if args.aliases else [])
    if args.write_program:
        if args.training:
            training_like(args.seed, args.write_program, blocks=args.blocks,
                          aliases=args.alias_forms)
        else:
            gen = [sys.executable, os.path.join(ROOT, "test", "Fuzz",
                                                "random_program.py"),
                   "--seed", str(args.seed), "-o", args.write_program]
            gen += [] if args.blocks else ["--without", "blocks"]
            gen += ["--calls"] if args.calls else []
            gen += ["--classic"] if args.classic else []
            for f in args.alias_forms:
                gen += ["--alias-form", f]
            subprocess.run(gen, check=True)
        return 0
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
    exposed_n = exposed_rw = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, args.seed + i, args, tools, work)
                   for i in range(args.count)]
        for fut in concurrent.futures.as_completed(futures):
            seed, ok, rw, several, log, gen, cmd, hits = fut.result()
            rewritten += rw
            exposed_n += bool(hits)
            exposed_rw += bool(hits) and rw
            severalRewritten += rw and several
            if not ok:
                failed.append(seed)
                repro = " ".join(
                    ["python3 test/Fuzz/remat_fuzz.py --seed", str(seed)] +
                    [f for f, on in (("--training", args.training),
                                     ("--blocks", args.blocks),
                                     ("--calls", args.calls),
                                     ("--classic", args.classic)) if on] +
                    (["--aliases"] if args.alias_forms == DEFAULT_ALIAS_FORMS
                     else ["--alias-form " + f for f in args.alias_forms]) +
                    ["--write-program program.mlir"])
                print(f"FAIL seed {seed}: {log.strip()}\n  generate: {gen}\n"
                      f"  (or: {repro})\n"
                      f"  then: DIFF_PASS=memsched-rematerialize {' '.join(cmd)}")
                if args.keep_dir:
                    shutil.copytree(os.path.join(work, str(seed)),
                                    os.path.join(args.keep_dir, str(seed)),
                                    dirs_exist_ok=True)
    print(f"remat_fuzz: {args.count} programs, {args.count - len(failed)} passed, "
          f"{len(failed)} failed, {rewritten} rewritten with recomputations"
          + (f" ({severalRewritten} of them with several blocks)"
             if args.blocks else "")
          + (f"; {exposed_n} with a buffer written through an alias that "
             f"recomputation clones without the alias writes ({exposed_rw} "
             f"of them rewritten)" if args.training and args.alias_forms
             else "")
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
