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
the arguments (through a helper on a flat view of each), calls @forward and
prints each result with printMemrefF32.

Training steps (loss, *updated params from input, target, *params): the
printed new parameters (6 significant digits) show lr * gradient only to about
1e-5, so @main also prints each update new - old (computed in f32, exact for
close values), compared with PyTorch's within --utol of the largest update.

Usage: check_export.py NAME... [--level memref|tensor] [--tol 1e-3] [--utol 1e-3] [-O 0..3]
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


def fill_body(k, idx, a, b):
    """The fill formula on the flat index `idx`; k (the i64 k * 104729), a and
    b (f32) are SSA names."""
    return ["%c7919 = arith.constant 7919 : i64",
            "%c2001 = arith.constant 2001 : i64",
            f"%h1 = arith.muli {idx}, %c7919 : i64",
            f"%h2 = arith.addi %h1, {k} : i64",
            "%h3 = arith.remsi %h2, %c2001 : i64",
            "%f1 = arith.sitofp %h3 : i64 to f32",
            "%c1000 = arith.constant 1.000000e+03 : f32",
            "%f2 = arith.subf %f1, %c1000 : f32",
            "%f3 = arith.divf %f2, %c1000 : f32",
            f"%f4 = arith.mulf %f3, {b} : f32",
            f"%f5 = arith.addf %f4, {a} : f32",
            "linalg.yield %f5 : f32"]


# Helpers called by @main on flat (1-D, dynamic) views of the arguments and
# results: one loop each instead of one loop nest per argument, which keeps
# the JIT compile time of @main small for training steps (a hundred
# arguments).
HELPERS = """  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @fill_arg(%m: memref<?xf32>, %k: i64, %a: f32, %b: f32) {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m : memref<?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = arith.index_cast %i : index to i64
""" + "".join(f"      {line}\n" for line in fill_body("%k", "%j", "%a", "%b")) + """    }
    return
  }
  func.func private @delta(%r: memref<?xf32>, %p: memref<?xf32>, %d: memref<?xf32>) {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r, %p : memref<?xf32>, memref<?xf32>) outs(%d : memref<?xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    }
    return
  }
"""


def flat_view(name, shape, tag, lines):
    """A memref<?xf32> view of the contiguous memref `name`."""
    n = int(np.prod(shape))
    src = name
    if len(shape) > 1:
        groups = [list(range(len(shape)))]
        lines.append(f"    %fl{tag} = memref.collapse_shape {name} {groups} : "
                     f"{mtype(shape)} into memref<{n}xf32>")
        src = f"%fl{tag}"
    lines.append(f"    %dy{tag} = memref.cast {src} : memref<{n}xf32> to memref<?xf32>")
    return f"%dy{tag}"


def fill_mlir(k, shape, a, b, lines):
    """Emit alloc + fill of argument k; returns its SSA name."""
    r = len(shape)
    name = f"%arg{k}"
    lines.append(f"    {name} = memref.alloc() : {mtype(shape)}")
    if r >= 1:
        flat = flat_view(name, shape, f"a{k}", lines)
        lines.append(f"    %ka{k} = arith.constant {k * 104729} : i64")
        lines.append(f"    %aa{k} = arith.constant {export.fconst(a)} : f32")
        lines.append(f"    %ba{k} = arith.constant {export.fconst(b)} : f32")
        lines.append(f"    call @fill_arg({flat}, %ka{k}, %aa{k}, %ba{k}) : "
                     "(memref<?xf32>, i64, f32, f32) -> ()")
        return name
    lines.append(f"    linalg.generic {{indexing_maps = [affine_map<() -> ()>], "
                 f"iterator_types = []}} outs({name} : {mtype(shape)}) {{")
    lines.append(f"    ^bb0(%o{k}: f32):")
    lines += ["      " + line for line in
              ["%z = arith.constant 0 : i64", f"%ck = arith.constant {k * 104729} : i64",
               f"%cb = arith.constant {export.fconst(b)} : f32",
               f"%ca = arith.constant {export.fconst(a)} : f32"]
              + fill_body("%ck", "%z", "%ca", "%cb")]
    lines.append("    }")
    return name


def forward_signature(text):
    m = re.search(r"func\.func @forward\((.*?)\)\s*->\s*\(?(.*?)\)?\s*(attributes|\{)", text, re.S)
    args = re.findall(r"memref<([0-9x]*)f32>", m.group(1))
    res = re.findall(r"memref<([0-9x]*)f32>", m.group(2))
    parse = lambda s: [int(d) for d in s.split("x") if d]  # noqa: E731
    return [parse(a) for a in args], [parse(r) for r in res]


def delta_mlir(i, res, arg, shape, lines):
    """Emit %d{i} = res - arg (elementwise, f32) and print it."""
    lines.append(f"    %d{i} = memref.alloc() : {mtype(shape)}")
    fr, fa, fd = (flat_view(v, shape, f"{t}{i}", lines)
                  for v, t in ((res, "r"), (arg, "p"), (f"%d{i}", "d")))
    lines.append(f"    call @delta({fr}, {fa}, {fd}) : "
                 "(memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()")
    lines.append(f"    %e{i} = memref.cast %d{i} : {mtype(shape)} to memref<*xf32>")
    lines.append(f"    call @printMemrefF32(%e{i}) : (memref<*xf32>) -> ()")


def build_main(arg_shapes, res_shapes, arg_names, deltas=()):
    """deltas: (result index, argument index) pairs whose difference
    result - argument is printed after the results (training steps: the
    parameter updates, exact in f32 since new and old parameter are close)."""
    lines = [HELPERS + "  func.func @main() {"]
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
    for i, k in deltas:
        delta_mlir(i, f"%r{i}", names[k], res_shapes[i], lines)
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


def check(name, level, tol, keep=None, opt=0, utol=1e-3):
    spec = networks.SPECS[name]
    fn, arg_names, inputs, _ = spec.build()
    shapes = [list(t.shape) for t in inputs]
    values = [torch.from_numpy(fill_values(k, s, *arg_affine(nm, s)))
              for k, (s, nm) in enumerate(zip(shapes, arg_names))]
    with torch.no_grad():
        ref = fn(*values)
    ref = list(ref) if isinstance(ref, (tuple, list)) else [ref]
    refs = [r.detach().numpy().astype(np.float64).ravel() for r in ref]
    # Training step (loss, *new params) from (input, target, *params): also
    # compare the updates new - old (lr * gradient), which the printed new
    # parameters (6 significant digits) show only to about 1e-5 absolute.
    deltas = [(i, i + 1) for i in range(1, len(ref))] if spec.train else []
    upd_refs = [(ref[i].detach() - values[k]).numpy().astype(np.float64).ravel()
                for i, k in deltas]

    with tempfile.TemporaryDirectory() as tmp:
        if level == "memref":
            text = open(os.path.join(HERE, f"{name}.mlir")).read()
        else:
            text = run([MLIR_OPT, os.path.join(HERE, f"{name}.tensor.mlir"), BUFFERIZE])
        arg_shapes, res_shapes = forward_signature(text)
        assert arg_shapes == shapes, (arg_shapes, shapes)
        text = text.rstrip()
        assert text.endswith("}")
        text = text[:-1] + build_main(arg_shapes, res_shapes, arg_names, deltas) + "}\n"
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
    n_out = len(refs) + len(upd_refs)
    assert len(got) == n_out, f"{len(got)} printed outputs, {n_out} expected"

    def compare(gots, rs):
        worst, rmax = 0.0, 0.0
        for g, r in zip(gots, rs):
            assert g.size == r.size, f"printed {g.size} values, expected {r.size}"
            worst = max(worst, float(np.max(np.abs(g - r))) if r.size else 0.0)
            rmax = max(rmax, float(np.max(np.abs(r))) if r.size else 0.0)
        return worst, rmax
    worst, rmax = compare(got[:len(refs)], refs)
    ok = worst <= tol * max(1.0, rmax)
    scale = rmax
    upd = ""
    if upd_refs:
        uworst, umax = compare(got[len(refs):], upd_refs)
        uok = uworst <= utol * umax
        ok &= uok
        upd = (f" updates: max|torch|={umax:.3g} max_abs_diff={uworst:.3g} "
               f"(rel {uworst / umax:.2g}{'' if uok else ' > --utol'})")
    first = ", ".join("%.6g" % x for x in refs[0][:4])
    print(f"{name:32s} level={level} outputs={len(refs)} elems={sum(r.size for r in refs)} "
          f"max|torch|={scale:.4g} max_abs_diff={worst:.3g}{upd} "
          f"lower={t1 - t0:.1f}s run(-O{opt})={t2 - t1:.1f}s torch[0][:4]=[{first}] "
          f"{'OK' if ok else 'MISMATCH'}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--level", choices=["memref", "tensor"], default="memref")
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("--utol", type=float, default=1e-3,
                    help="training steps: tolerance on the parameter updates, relative to "
                         "the largest update")
    ap.add_argument("--keep", help="write the checked module (with @main) to this file")
    ap.add_argument("-O", dest="opt", type=int, default=0, choices=[0, 1, 2, 3],
                    help="mlir-runner optimisation level (default 0: at -O2 LLVM's JIT "
                         "compile of the one large @forward dominates the time)")
    opts = ap.parse_args()
    ok = True
    for name in opts.names or list(networks.SPECS):
        try:
            ok &= check(name, opts.level, opts.tol, opts.keep, opts.opt, opts.utol)
        except (RuntimeError, AssertionError) as e:
            print(f"{name}: FAILED: {e}", flush=True)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
