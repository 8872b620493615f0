#!/usr/bin/env python3
"""How --memsched-schedule fares on upstream MLIR's bufferization tests.

  python3 bench/upstream_units.py [--dir /tmp/upstream-tests]
                                  [--memsched-opt build/bin/memsched-opt]
                                  [--mlir-opt /usr/lib/llvm-22/bin/mlir-opt]
                                  [--jobs 2] [--list REASON-substring]

What it measures. Every .mlir file under --dir is split into units at the
lines that are exactly `// -----` (as `mlir-opt --split-input-file` does).
Each unit is lowered to memrefs with deallocations by upstream mlir-opt:

  * a tensor-level unit (a `tensor<` type outside comments -- in a func.func
    signature or as an op's type -- or a `tensor.empty` /
    `bufferization.to_tensor` / `bufferization.alloc_tensor` op) goes through
      --one-shot-bufferize="bufferize-function-boundaries
          allow-return-allocs-from-loops
          function-boundary-type-conversion=identity-layout-map"
      --buffer-deallocation-pipeline --convert-bufferization-to-memref
  * any other unit (the memref-level inputs of the deallocation tests) goes
    through --buffer-deallocation-pipeline --convert-bufferization-to-memref

(always with --allow-unregistered-dialect). A unit the pipeline rejects (a
non-zero exit: test inputs that are meant to fail, ops the installed MLIR
no longer parses, ...) counts as "pipeline fails". The pipeline's output is
then run through

  memsched-opt --allow-unregistered-dialect --memsched-schedule=remarks
               --mlir-print-op-on-diagnostic=false -o /dev/null

(60 s timeout for each tool). Upstream mlir-opt may know ops (its test
dialect: test.buffer_based, test.copy, ...) that memsched-opt does not and
print them in their custom form, which memsched-opt cannot parse; such a
unit is lowered again with --mlir-print-op-generic, so memsched-opt sees
those ops as unregistered ones (shown as "printed generic" by --list).
Every function then gets an outcome from its remark:
"scheduled" (`memsched-schedule: peak ...`), "scheduled over ranges"
(`memsched-schedule: over N in [lo, hi]: peak ...`, dynamic sizes
scheduled over their ranges, docs/dynamic.md), the reason after
"left unchanged: " (normalised: value and symbol names stripped, cut at the
first ':' or ';', so that reasons group; reasons naming a "dynamic
dimension" are grouped as "dynamic sizes"), or "crash" / "timeout" /
"memsched-opt fails (exit N)" for the whole unit. A unit is "left unchanged" when one of its functions that
allocates (memref.alloc/alloca/realloc, gpu.alloc after the pipeline) is,
and is classified by the first such function's reason; a unit whose
allocating functions are all scheduled is "scheduled"; a unit with no
allocating function after the pipeline is "no allocations". An allocating
function without any remark (e.g. memsched only warned that the body is not
bufferized) is reported as "no remark", with the warning if there is one.

The table printed has one row per outcome: the number of units and two
examples (`file:N`, N counting units from 1 in the file). --list SUBSTRING
prints every unit whose outcome contains SUBSTRING, with the remark and the
op it points at (the line of the pipeline's output).

The test files are not part of this repository (they are upstream LLVM's,
under its license) and are not to be committed here: fetch them separately
into --dir, keeping their paths below llvm-project, e.g.
  mlir/test/Dialect/Bufferization/Transforms/OwnershipBasedBufferDeallocation/*.mlir
  mlir/test/Dialect/Bufferization/Transforms/one-shot-*bufferize*.mlir
  mlir/test/Integration/Dialect/Linalg/CPU/test-*.mlir (tensor inputs)
Needs only Python 3, mlir-opt and memsched-opt.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 60

ONE_SHOT = ("--one-shot-bufferize=bufferize-function-boundaries "
            "allow-return-allocs-from-loops "
            "function-boundary-type-conversion=identity-layout-map")
DEALLOC = ["--buffer-deallocation-pipeline", "--convert-bufferization-to-memref"]

DIAG_RE = re.compile(r"^(.*?):(\d+):(\d+): (remark|warning|error): (.*)$")
FUNC_RE = re.compile(r'^\s*(?:func\.func\s+(?:(?:private|public|nested)\s+)?@("[^"]*"|[\w$.\-]+)'
                     r'|"func\.func"\(\).*\bsym_name = "([^"]*)")')
ALLOC_RE = re.compile(r"\b(?:memref\.(?:alloc|alloca|realloc)|gpu\.alloc)\b")
UNCHANGED_RE = re.compile(r"memsched-schedule: '([^']*)' left unchanged: (.*)$")


# --- Splitting and classifying the inputs -----------------------------------

def split_units(text):
    """The units of a file, split at lines that are exactly `// -----`."""
    units, current = [], []
    for line in text.splitlines(keepends=True):
        if line.rstrip("\r\n") == "// -----":
            units.append("".join(current))
            current = []
        else:
            current.append(line)
    units.append("".join(current))
    return units


def strip_comments(text):
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def is_tensor_level(unit):
    """A `tensor<` type outside comments (in a func signature or as an op's
    type) or a tensor.empty / bufferization.to_tensor / alloc_tensor op."""
    code = strip_comments(unit)
    return bool(re.search(r"tensor<|\btensor\.empty\b|"
                          r"\bbufferization\.(?:to_tensor|alloc_tensor)\b", code))


# --- Running the tools -------------------------------------------------------

def run(cmd):
    """(returncode, stdout, stderr); returncode None on a timeout."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def functions_of(ir):
    """[(name, first line, last line, allocates)] of the functions in `ir`
    (1-based lines; a function runs until the next func.func)."""
    lines = ir.splitlines()
    starts = [(i + 1, (m.group(1) or m.group(2)).strip('"')) for i, l in enumerate(lines)
              for m in [FUNC_RE.match(l)] if m]
    funcs = []
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] - 1 if k + 1 < len(starts) else len(lines)
        body = "\n".join(lines[start - 1:end])
        funcs.append((name, start, end, bool(ALLOC_RE.search(body))))
    return funcs


def first_line(err):
    lines = [l for l in err.splitlines() if DIAG_RE.match(l)] or err.splitlines() or [""]
    return re.sub(r"^\S*/(unit|lowered)\.mlir:", r"\1.mlir:", lines[0].strip())


def normalise(reason):
    if "dynamic dimension" in reason:
        return "dynamic sizes"
    if "dynamic sizes" in reason:  # drop the sizes and bytes named
        reason = re.sub(r"\s*\([^)]*\)", "", reason)
    reason = re.sub(r"@[\w$.\-]+", "@F", reason)
    reason = re.sub(r"%[\w$.\-#]+", "%V", reason)
    reason = re.sub(r"'[a-zA-Z_][\w$\-]*'(?= )", "'F'", reason)  # bare names
    return re.split(r"[:;]", reason, 1)[0].strip()


def process(job):
    """Lower one unit and run memsched-opt on it. Returns a dict with the
    unit's outcome, its functions' outcomes and the remarks."""
    path, index, unit, args = job
    res = {"path": path, "index": index, "funcs": [], "remarks": []}
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "unit.mlir")
        low = os.path.join(tmp, "lowered.mlir")
        with open(src, "w") as f:
            f.write(unit)
        res["level"] = "tensor" if is_tensor_level(unit) else "memref"
        passes = ([ONE_SHOT] if res["level"] == "tensor" else []) + DEALLOC
        for generic in (False, True):
            rc, _, err = run([args.mlir_opt, "--allow-unregistered-dialect", src]
                             + passes + ["-o", low]
                             + (["--mlir-print-op-generic"] if generic else []))
            if rc != 0:
                res["outcome"] = "pipeline fails"
                res["detail"] = "timeout" if rc is None else first_line(err)
                return res
            with open(low) as f:
                ir = f.read()
            rc, _, err = run([args.memsched_opt, "--allow-unregistered-dialect",
                              "--memsched-schedule=remarks",
                              "--mlir-print-op-on-diagnostic=false", low, "-o", "/dev/null"])
            # mlir-opt prints ops of dialects memsched-opt does not have
            # (upstream's test dialect) in their custom form: print generic.
            if generic or rc != 1 or "not found for custom op" not in err:
                break
        res["generic"] = generic
    if rc is None:
        res["outcome"] = "timeout"
        return res
    if rc < 0:
        res["outcome"] = "crash"
        res["detail"] = "signal %d" % -rc
        return res
    irlines = ir.splitlines()
    funcs = functions_of(ir)

    def func_at(line):
        for name, start, end, _ in funcs:
            if start <= line <= end:
                return name
        return None

    outcome, warned = {}, {}  # function name -> (outcome, remark, op)
    for line in err.splitlines():
        m = DIAG_RE.match(line)
        if not m:
            continue
        lineno, kind, text = int(m.group(2)), m.group(4), m.group(5)
        op = ("line %d: %s" % (lineno, irlines[lineno - 1].strip())
              if 0 < lineno <= len(irlines) else "")
        res["remarks"].append((kind, text, op))
        u = UNCHANGED_RE.search(text)
        if u:
            outcome.setdefault(u.group(1), (normalise(u.group(2)), text, op))
        elif "memsched-schedule: peak" in text:
            outcome.setdefault(func_at(lineno), ("scheduled", text, op))
        elif re.search(r"memsched-schedule: over .*: peak", text):
            outcome.setdefault(func_at(lineno),
                               ("scheduled over ranges", text, op))
        elif kind == "warning":
            warned.setdefault(func_at(lineno), (
                "no remark (warning: %s)" % normalise(text.split(": ", 1)[-1]), text, op))
    for name, _, _, allocates in funcs:
        res["funcs"].append((name, allocates) + outcome.get(
            name, warned.get(name, ("no remark", "", ""))))
    allocating = [f for f in res["funcs"] if f[1]]
    if rc != 0:
        res["outcome"] = "memsched-opt fails (exit %d)" % rc
        res["detail"] = first_line(err)
    elif not allocating:
        res["outcome"] = "no allocations"
    else:
        done = ("scheduled", "scheduled over ranges")
        refused = [f for f in allocating if f[2] not in done]
        ranged = any(f[2] == done[1] for f in allocating)
        res["outcome"] = refused[0][2] if refused else done[ranged]
        res["first"] = refused[0] if refused else None
    return res


# --- Main ----------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="/tmp/upstream-tests")
    ap.add_argument("--memsched-opt", default=os.path.join(ROOT, "build", "bin", "memsched-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", metavar="REASON-substring",
                    help="print every unit whose outcome contains this")
    args = ap.parse_args()
    for tool in (args.memsched_opt, args.mlir_opt):
        if not os.access(tool, os.X_OK):
            sys.exit("not executable: " + tool)

    jobs = []
    for dirpath, _, files in sorted(os.walk(args.dir)):
        for name in sorted(files):
            if name.endswith(".mlir"):
                path = os.path.join(dirpath, name)
                with open(path) as f:
                    units = split_units(f.read())
                rel = os.path.relpath(path, args.dir)
                jobs += [(rel, i + 1, u, args) for i, u in enumerate(units)]
    if not jobs:
        sys.exit("no .mlir files under " + args.dir)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(process, jobs))

    groups = collections.OrderedDict()
    for r in results:
        groups.setdefault(r["outcome"], []).append(r)
    order = sorted(groups, key=lambda k: (k != "scheduled", k != "pipeline fails", -len(groups[k]), k))

    # Examples name a file by its base name when that is unambiguous.
    base = collections.Counter(os.path.basename(p) for p in {r["path"] for r in results})

    def where(r):
        name = os.path.basename(r["path"])
        return "%s:%d" % (name if base[name] == 1 else r["path"], r["index"])

    print("%d units in %d files (%d tensor-level, %d memref-level)" % (
        len(results), len({r["path"] for r in results}),
        sum(r["level"] == "tensor" for r in results),
        sum(r["level"] == "memref" for r in results)))
    print()
    width = max(len(k) for k in order)
    print("%-*s  %5s  %s" % (width, "outcome", "units", "examples"))
    print("%s  %s  %s" % ("-" * width, "-" * 5, "-" * 8))
    for k in order:
        print("%-*s  %5d  %s" % (width, k, len(groups[k]),
                                 ", ".join(where(r) for r in groups[k][:2])))

    if args.list is not None:
        print()
        for r in results:
            if args.list not in r["outcome"]:
                continue
            print("%s  [%s%s]  %s" % (where(r), r["level"],
                                       ", printed generic" if r.get("generic") else "",
                                       r["outcome"]))
            if r.get("detail"):
                print("    " + r["detail"])
            for name, allocates, outcome, remark, op in r["funcs"]:
                if allocates and outcome not in ("scheduled", "scheduled over ranges"):
                    print("    @%s: %s" % (name, remark or outcome))
                    if op:
                        print("      at " + op)


if __name__ == "__main__":
    main()
