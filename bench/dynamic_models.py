#!/usr/bin/env python3
"""Networks of bench/models with a dynamic batch or sequence length.

Derives, from a network's tensor program (bench/models/<name>.tensor.mlir), the
same program with one size made dynamic (`?`, declared in [LO, HI] with
`memsched.range` on the input), bufferizes it with the pipeline of
bench/models/generate.sh, and runs memsched over the range:

    memsched-opt --memsched-schedule --memsched-plan-arena --memsched-verify

It also builds the static programs at the ends of the range (the size
substituted) and runs the same passes on them, and prints, per network and
end: the certified peak over the range (peak_expr) against the static
program's certified peak, the lower bound over the range (lower_bound_expr)
against it, and the arena the size function gives against the static plan's
arena and against stacking (the static buffers planned, every dynamic buffer
above them: what compilers that plan only static sizes do).

    python3 bench/dynamic_models.py [--build-dir build] [--work DIR]

Sizes: transformer_encoder, the sequence length (every dimension of 64);
mobilenet_v2, the batch (the leading dimension of 1 of every activation).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LLVM = "/usr/lib/llvm-22/bin"
PIPELINE = [
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--buffer-deallocation-pipeline",
    "--convert-bufferization-to-memref",
    "--canonicalize",
    "--cse",
    "--optimize-allocation-liveness",
]

# name -> (how the size appears, its value in the static program, range)
NETWORKS = {
    "transformer_encoder": ("every", 64, (1, 64)),
    "mobilenet_v2": ("leading", 1, (1, 64)),
}


def rewrite_shape(dims, how, value, new):
    """The dims of a tensor type with the size replaced by `new`."""
    if how == "every":
        return [new if d == str(value) else d for d in dims]
    if len(dims) >= 2 and dims[0] == str(value):
        return [new] + dims[1:]
    return dims


def derive(text, how, value, new, dynamic):
    """The tensor program with the size `value` replaced by `new` (`?` with
    `dynamic`: tensor.empty and output_shape take the size as an SSA
    value, %dyn_n, read from the input)."""
    def shape(m):
        dims = m.group(1).split("x")
        return "tensor<" + "x".join(rewrite_shape(dims, how, value, new)) + "x" + m.group(2) + ">"

    out = []
    for line in text.splitlines():
        new_line = re.sub(r"tensor<([\dx]+)x([a-z]\w*)>", shape, line)
        if dynamic and "tensor.empty()" in new_line:
            m = re.search(r"tensor.empty\(\) : tensor<([^>]*)>", new_line)
            count = m.group(1).split("x").count("?")
            if count:
                new_line = new_line.replace(
                    "tensor.empty()", "tensor.empty(" + ", ".join(["%dyn_n"] * count) + ")")
        if "output_shape [" in new_line:
            m = re.search(r"output_shape \[([^\]]*)\]", new_line)
            dims = [d.strip() for d in m.group(1).split(",")]
            if how == "every":
                dims = [("%dyn_n" if dynamic else str(new)) if d == str(value) else d for d in dims]
            elif dims and dims[0] == str(value):
                dims[0] = "%dyn_n" if dynamic else str(new)
            new_line = new_line.replace(m.group(0), "output_shape [" + ", ".join(dims) + "]")
        out.append(new_line)
        if dynamic and line.lstrip().startswith("func.func @forward("):
            arg = re.search(r"\(%(\w+): tensor<([^>]*)>", new_line)
            dims = arg.group(2).split("x")
            index = dims.index("?")
            out.append("    %%dyn_c = arith.constant %d : index" % index)
            out.append("    %%dyn_n = tensor.dim %%%s, %%dyn_c : tensor<%s>" % (arg.group(1), arg.group(2)))
    text = "\n".join(out) + "\n"
    return text


def declare_range(text, lo, hi):
    """`memsched.range` on the input argument (one pair per dynamic dim)."""
    def add(m):
        count = m.group(2).split("x").count("?")
        pairs = ", ".join(["%d, %d" % (lo, hi)] * count)
        return "(%%%s: tensor<%s> {memsched.range = array<i64: %s>}" % (m.group(1), m.group(2), pairs)
    return re.sub(r"\(%(\w+): tensor<([^>]*)>", add, text, count=1)


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit("failed: " + " ".join(cmd[:3]))
    return r.stdout, r.stderr


def memsched(opt, program, work, name):
    """Bufferizes `program` and runs schedule + plan-arena + verify on it."""
    memref, _ = run([os.path.join(LLVM, "mlir-opt")] + PIPELINE, program)
    path = os.path.join(work, name + ".mlir")
    open(path, "w").write(memref)
    planned, remarks = run([opt, path, "--memsched-schedule",
                            "--memsched-plan-arena=remarks", "--memsched-verify",
                            "--mlir-print-op-on-diagnostic=false"])
    open(os.path.join(work, name + ".planned.mlir"), "w").write(planned)
    cert = re.search(r"func.func @forward\(.*?#memsched.certificate<(.*?)>\}", planned)
    fields = dict(re.findall(r'(\w+) = ("[^"]*"|[^,]+)', cert.group(1)))
    return fields, remarks


def evaluate(expr, n, name):
    """A `max(...)` of polynomials in one symbol `name`, at `name` = n."""
    expr = expr.strip('"')
    if expr.startswith("max(") and expr.endswith(")"):
        parts = expr[4:-1].split(",")
    else:
        parts = [expr]
    best = 0
    for p in parts:
        total = 0
        for term in p.split("+"):
            term = term.strip()
            value = 1
            for factor in term.split("*"):
                factor = factor.strip()
                if factor.startswith(name):
                    power = int(factor.split("^")[1]) if "^" in factor else 1
                    value *= n ** power
                else:
                    value *= int(factor)
            total += value
        best = max(best, total)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    opt = os.path.join(args.build_dir, "bin", "memsched-opt")
    work = args.work or tempfile.mkdtemp(prefix="memsched-dynamic-")
    os.makedirs(work, exist_ok=True)
    print("| network | size | peak (expression) | static peak | bound (expression) | static bound | arena (size function) | static arena | memory planned (expression) | static memory planned | stacking |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (how, value, (lo, hi)) in NETWORKS.items():
        text = open(os.path.join(HERE, "models", name + ".tensor.mlir")).read()
        dynamic = declare_range(derive(text, how, value, "?", True), lo, hi)
        open(os.path.join(work, name + ".dyn.tensor.mlir"), "w").write(dynamic)
        fields, remarks = memsched(opt, dynamic, work, name + ".dyn")
        symbol = re.search(r"sizes_at = \{([\w.]+) =", planned_header(work, name)).group(1)
        arena = re.search(r"arena (max\([^)]*\)|[^ ]+) bytes, given by", remarks)
        memory = re.search(r"; memory (max\([^)]*\)|[^ ]+) bytes, never more", remarks)
        stack = re.search(r"above the static ones: ([^)]*?) bytes", remarks)
        for n in (lo, hi):
            static = derive(text, how, value, str(n), False)
            sfields, _ = memsched(opt, static, work, "%s.n%d" % (name, n))
            row = [name, "%s = %d" % (symbol, n),
                   str(evaluate(fields["peak_expr"], n, symbol)), sfields["peak"],
                   str(max(evaluate(fields["lower_bound_expr"], n, symbol),
                           int(fields["lower_bound_low"]) if n == lo and "lower_bound_low" in fields else 0,
                           int(fields["lower_bound"]) if n == hi else 0)),
                   sfields["lower_bound"],
                   str(evaluate(arena.group(1), n, symbol)) if arena else "-",
                   sfields.get("arena_size", "-"),
                   str(evaluate(memory.group(1), n, symbol)) if memory else "-",
                   sfields.get("peak_with_arena", "-"),
                   str(evaluate(stack.group(1), n, symbol)) if stack else "-"]
            print("| " + " | ".join(row) + " |")
        print("<!-- %s: peak_expr %s; lower_bound_expr %s; arena %s; memory %s; "
              "stacking %s; work dir %s -->" % (
                  name, fields["peak_expr"], fields["lower_bound_expr"],
                  arena.group(1) if arena else "-",
                  memory.group(1) if memory else "-",
                  stack.group(1) if stack else "-", work))


def planned_header(work, name):
    return open(os.path.join(work, name + ".dyn.planned.mlir")).read()


if __name__ == "__main__":
    main()
