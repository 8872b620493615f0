#!/usr/bin/python3
"""Check the exporter (and the bufferization pipeline) against PyTorch.

For each named model: fill every argument with the same deterministic values
in PyTorch and in MLIR, run torch on the model definition, run the MLIR
program under mlir-runner, and compare every output element.

  * --level memref (default): run the committed `<name>.mlir` (memref IR
    after one-shot-bufferize + buffer-deallocation-pipeline +
    optimize-allocation-liveness), so the deallocations placed by the pipeline
    are executed too;
  * --level tensor: bufferize `<name>.tensor.mlir` here (no deallocation).

The values of argument k are v[i] = a + b * ((i*7919 + k*104729) mod 2001 - 1000)/1000
over the flat (row-major) index i, computed with the same f32 operations on
both sides; (a, b) keep activations in range: b = 1/sqrt(fan_in) for weights,
a = 1 for batch-norm variances and scales. A wrapper @main allocates and fills
the arguments, calls @forward and prints each result with printMemrefF32.

Usage: check_export.py NAME... [--level memref|tensor] [--tol 1e-3] [-O 0..3]
Exit status 1 if any model's max abs difference exceeds --tol (relative to
max(1, max |torch output|)).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import export  # noqa: E402
import networks  # noqa: E402

LLVM = "/usr/lib/llvm-22"
MLIR_OPT = f"{LLVM}/bin/mlir-opt"
MLIR_RUNNER = f"{LLVM}/bin/mlir-runner"
SHARED_LIBS = f"{LLVM}/lib/libmlir_c_runner_utils.so,{LLVM}/lib/libmlir_runner_utils.so"
BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")
TO_LLVM = ["--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
           "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-arith-to-llvm",
           "--convert-index-to-llvm", "--finalize-memref-to-llvm", "--convert-func-to-llvm",
           "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]


def arg_affine(name, shape):
    """(a, b) of the fill formula for an argument."""
    if name.endswith("running_var"):
        return 1.0, 0.5
    if name.endswith("weight") and len(shape) == 1:  # batch/layer norm scale
        return 1.0, 0.25
    if len(shape) >= 2 and name not in ("input", "target") and not name.startswith("input"):
        fan_in = int(np.prod(shape[1:]))
        return 0.0, float(1.0 / np.sqrt(fan_in))
    if len(shape) == 1 and name != "input":
        return 0.0, 0.1
    return 0.0, 1.0


def fill_values(k, shape, a, b):
    n = int(np.prod(shape)) if shape else 1
    flat = np.arange(n, dtype=np.int64)
    m = (flat * 7919 + k * 104729) % 2001
    t = (m.astype(np.float32) - np.float32(1000.0)) / np.float32(1000.0)
    v = t * np.float32(b) + np.float32(a)
    return v.astype(np.float32).reshape(shape)


def mtype(shape):
    return "memref<" + "".join(f"{d}x" for d in shape) + "f32>"


def fill_mlir(k, shape, a, b, lines):
    """Emit alloc + fill of argument k; returns its SSA name."""
    r = len(shape)
    name = f"%arg{k}"
    lines.append(f"    {name} = memref.alloc() : {mtype(shape)}")
    dims = ", ".join(f"d{i}" for i in range(r))
    its = ", ".join(['"parallel"'] * r)
    lines.append(f"    linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>], "
                 f"iterator_types = [{its}]}} outs({name} : {mtype(shape)}) {{")
    lines.append(f"    ^bb0(%o{k}: f32):")
    body = ["%z = arith.constant 0 : i64"]
    acc = "%z"
    stride = 1
    for d in reversed(range(r)):
        body += [f"%i{d} = linalg.index {d} : index",
                 f"%j{d} = arith.index_cast %i{d} : index to i64",
                 f"%s{d} = arith.constant {stride} : i64",
                 f"%p{d} = arith.muli %j{d}, %s{d} : i64",
                 f"%q{d} = arith.addi {acc}, %p{d} : i64"]
        acc = f"%q{d}"
        stride *= shape[d]
    body += ["%c7919 = arith.constant 7919 : i64",
             f"%ck = arith.constant {k * 104729} : i64",
             "%c2001 = arith.constant 2001 : i64",
             f"%h1 = arith.muli {acc}, %c7919 : i64",
             "%h2 = arith.addi %h1, %ck : i64",
             "%h3 = arith.remsi %h2, %c2001 : i64",
             "%f1 = arith.sitofp %h3 : i64 to f32",
             "%c1000 = arith.constant 1.000000e+03 : f32",
             "%f2 = arith.subf %f1, %c1000 : f32",
             "%f3 = arith.divf %f2, %c1000 : f32",
             f"%cb = arith.constant {export.fconst(b)} : f32",
             f"%ca = arith.constant {export.fconst(a)} : f32",
             "%f4 = arith.mulf %f3, %cb : f32",
             "%f5 = arith.addf %f4, %ca : f32",
             "linalg.yield %f5 : f32"]
    lines += ["      " + line for line in body]
    lines.append("    }")
    return name


def forward_signature(text):
    m = re.search(r"func\.func @forward\((.*?)\)\s*->\s*\(?(.*?)\)?\s*(attributes|\{)", text, re.S)
    args = re.findall(r"memref<([0-9x]*)f32>", m.group(1))
    res = re.findall(r"memref<([0-9x]*)f32>", m.group(2))
    parse = lambda s: [int(d) for d in s.split("x") if d]  # noqa: E731
    return [parse(a) for a in args], [parse(r) for r in res]


def build_main(arg_shapes, res_shapes, arg_names):
    lines = ["  func.func private @printMemrefF32(memref<*xf32>)",
             "  func.func @main() {"]
    names = []
    for k, (shape, nm) in enumerate(zip(arg_shapes, arg_names)):
        a, b = arg_affine(nm, shape)
        names.append(fill_mlir(k, shape, a, b, lines))
    rt = ", ".join(mtype(s) for s in res_shapes)
    outs = ", ".join(f"%r{i}" for i in range(len(res_shapes)))
    at = ", ".join(mtype(s) for s in arg_shapes)
    lines.append(f"    {outs} = call @forward({', '.join(names)}) : ({at}) -> ({rt})")
    for i, s in enumerate(res_shapes):
        lines.append(f"    %u{i} = memref.cast %r{i} : {mtype(s)} to memref<*xf32>")
        lines.append(f"    call @printMemrefF32(%u{i}) : (memref<*xf32>) -> ()")
    lines.append("    return\n  }")
    return "\n".join(lines) + "\n"


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed:\n{p.stderr[:4000]}")
    return p.stdout


def parse_printed(out):
    chunks = out.split("Unranked Memref")[1:]
    vals = []
    for c in chunks:
        data = c.split("data =", 1)[1]
        nums = re.findall(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
        vals.append(np.array([float(x) for x in nums], dtype=np.float64))
    return vals


def check(name, level, tol, keep=None, opt=0):
    spec = networks.SPECS[name]
    fn, arg_names, inputs, _ = spec.build()
    shapes = [list(t.shape) for t in inputs]
    values = [torch.from_numpy(fill_values(k, s, *arg_affine(nm, s)))
              for k, (s, nm) in enumerate(zip(shapes, arg_names))]
    with torch.no_grad():
        ref = fn(*values)
    refs = [r.detach().numpy().astype(np.float64).ravel()
            for r in (ref if isinstance(ref, (tuple, list)) else [ref])]

    with tempfile.TemporaryDirectory() as tmp:
        if level == "memref":
            text = open(os.path.join(HERE, f"{name}.mlir")).read()
        else:
            text = run([MLIR_OPT, os.path.join(HERE, f"{name}.tensor.mlir"), BUFFERIZE])
        arg_shapes, res_shapes = forward_signature(text)
        assert arg_shapes == shapes, (arg_shapes, shapes)
        text = text.rstrip()
        assert text.endswith("}")
        text = text[:-1] + build_main(arg_shapes, res_shapes, arg_names) + "}\n"
        src = os.path.join(tmp, "check.mlir")
        open(src, "w").write(text)
        if keep:
            open(keep, "w").write(text)
        llvm = os.path.join(tmp, "check.llvm.mlir")
        t0 = time.time()
        run([MLIR_OPT, src] + TO_LLVM + ["-o", llvm])
        t1 = time.time()
        out = run([MLIR_RUNNER, llvm, "-e", "main", "-entry-point-result=void", f"-O{opt}",
                   f"-shared-libs={SHARED_LIBS}"])
        t2 = time.time()
    got = parse_printed(out)
    assert len(got) == len(refs), f"{len(got)} printed outputs, {len(refs)} expected"
    worst, rmax = 0.0, 0.0
    for g, r in zip(got, refs):
        assert g.size == r.size, f"printed {g.size} values, expected {r.size}"
        worst = max(worst, float(np.max(np.abs(g - r))) if r.size else 0.0)
        rmax = max(rmax, float(np.max(np.abs(r))) if r.size else 0.0)
    ok = worst <= tol * max(1.0, rmax)
    scale = rmax
    first = ", ".join("%.6g" % x for x in refs[0][:4])
    print(f"{name:32s} level={level} outputs={len(refs)} elems={sum(r.size for r in refs)} "
          f"max|torch|={scale:.4g} max_abs_diff={worst:.3g} "
          f"lower={t1 - t0:.1f}s run(-O{opt})={t2 - t1:.1f}s torch[0][:4]=[{first}] "
          f"{'OK' if ok else 'MISMATCH'}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--level", choices=["memref", "tensor"], default="memref")
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("--keep", help="write the checked module (with @main) to this file")
    ap.add_argument("-O", dest="opt", type=int, default=0, choices=[0, 1, 2, 3],
                    help="mlir-runner optimisation level (default 0: at -O2 LLVM's JIT "
                         "compile of the one large @forward dominates the time)")
    opts = ap.parse_args()
    ok = True
    for name in opts.names or list(networks.SPECS):
        try:
            ok &= check(name, opts.level, opts.tol, opts.keep, opts.opt)
        except (RuntimeError, AssertionError) as e:
            print(f"{name}: FAILED: {e}", flush=True)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
