#!/usr/bin/python3
"""Export PyTorch networks to MLIR linalg-on-tensors text.

Pipeline: nn.Module (random weights, eval mode) -> functorch `make_fx` of a
function whose parameters are explicit inputs (`functional_call`), wrapped in
`functionalize` so in-place aten ops become value semantics -> one lowering
function per aten op (the `LOWERINGS` table below) -> MLIR text. Training
steps (networks.train_step_fn: forward, loss, functorch backward, SGD update)
trace in training mode and decompose the few ops in TRAIN_DECOMPOSITIONS.

Conventions of the emitted `func.func @forward`:
  * the input(s) come first, then every floating-point parameter and buffer
    (weights, biases, batch-norm statistics) in `named_parameters()` /
    `named_buffers()` order: no large constants in the IR;
  * outputs are returned; batch 1 (except the training steps, which return
    the loss and the updated parameters);
  * ops are named linalg ops where one exists (conv_2d_nchw_fchw,
    depthwise_conv_2d_nchw_chw, conv_2d_ngchw_fgchw, matmul, batch_matmul,
    pooling_nchw_max / _sum, fill, transpose), `linalg.generic` for
    elementwise, broadcast and reductions, `tensor.pad`, `tensor.concat`,
    `tensor.collapse_shape` / `expand_shape`, `tensor.extract_slice`;
  * aten view ops (t, transpose, permute, expand, unsqueeze of a broadcast) are
    not materialised: consumers that take an indexing map (elementwise
    generics, matmul) read through them, other consumers copy them once;
  * batch norm (eval) is one per-channel affine `linalg.generic`; in training
    mode (batch statistics) a mean and a variance reduction, the inverse std
    per channel and one affine generic;
  * bilinear upsampling is a `linalg.generic` that gathers with
    `tensor.extract` (PyTorch's align_corners=False/True formulas).

An aten op without a lowering raises `UnsupportedOp` naming the op.

Usage: export.py --list | export.py NAME... --out-dir DIR
"""

import argparse
import math
import operator
import os
import struct
import sys

import torch
from functorch import functionalize, make_fx
from torch.nn.utils.stateless import functional_call

aten = torch.ops.aten


class UnsupportedOp(Exception):
    """Raised for an aten op (or an op variant) the exporter cannot lower."""


# ===----------------------------------------------------------------------===#
# Values and MLIR text helpers
# ===----------------------------------------------------------------------===#


def ttype(shape, elt="f32"):
    if not shape:
        return f"tensor<{elt}>"
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{elt}>"


def fconst(v):
    """An f32 literal MLIR accepts (hex for inf/nan)."""
    v = float(v)
    if math.isinf(v) or math.isnan(v):
        return "0x%08X" % struct.unpack(">I", struct.pack(">f", v))[0]
    return "%.9e" % v


def amap(rank, exprs):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(exprs)})>"


def ident(rank):
    return [f"d{i}" for i in range(rank)]


class Val:
    """A tensor: the SSA value `ssa` of type `base` viewed as `shape`.

    `dims[j]` says how underlying dim j is indexed by the logical (viewed)
    dims: an int is a logical dim index, None means the underlying dim has
    size 1 and is broadcast (indexed by constant 0). An identity view has
    dims == [0..rank-1] and base == shape.
    """

    def __init__(self, ssa, shape, base=None, dims=None):
        self.ssa = ssa
        self.shape = tuple(int(d) for d in shape)
        self.base = tuple(base) if base is not None else self.shape
        self.dims = list(dims) if dims is not None else list(range(len(self.shape)))

    @property
    def rank(self):
        return len(self.shape)

    def is_identity(self):
        return self.base == self.shape and self.dims == list(range(self.rank))

    def exprs(self, loop_of_logical):
        """Indexing expressions into the base for the given logical->loop map."""
        return ["0" if d is None else f"d{loop_of_logical[d]}" for d in self.dims]

    def permuted(self, perm):
        """View with logical dim i = old logical dim perm[i]."""
        inv = {p: i for i, p in enumerate(perm)}
        return Val(self.ssa, [self.shape[p] for p in perm], self.base,
                   [None if d is None else inv[d] for d in self.dims])

    def broadcast_to(self, shape):
        """Numpy broadcasting view of self to `shape`."""
        shape = tuple(shape)
        off = len(shape) - self.rank
        if off < 0:
            raise UnsupportedOp(f"cannot broadcast {self.shape} to {shape}")
        new_dims = []
        for d in self.dims:
            if d is None:
                new_dims.append(None)
            elif self.shape[d] == shape[d + off]:
                new_dims.append(d + off)
            elif self.shape[d] == 1:
                new_dims.append(None)
            else:
                raise UnsupportedOp(f"cannot broadcast {self.shape} to {shape}")
        return Val(self.ssa, shape, self.base, new_dims)


class Scalar:
    """A Python number used as an operand of an elementwise op."""

    def __init__(self, value):
        self.value = float(value)


class Body:
    """Builds the block of a linalg.generic: SSA names are module-unique."""

    def __init__(self, em):
        self.em = em
        self.lines = []

    def op(self, text, ty="f32"):
        name = self.em.fresh("v")
        self.lines.append(f"{name} = {text} : {ty}")
        return name

    def raw(self, text):
        name = self.em.fresh("v")
        self.lines.append(f"{name} = {text}")
        return name

    def const(self, v):
        return self.op(f"arith.constant {fconst(v)}")

    def bin(self, opname, a, b):
        return self.op(f"arith.{opname} {a}, {b}")

    def add(self, a, b): return self.bin("addf", a, b)
    def sub(self, a, b): return self.bin("subf", a, b)
    def mul(self, a, b): return self.bin("mulf", a, b)
    def div(self, a, b): return self.bin("divf", a, b)
    def max(self, a, b): return self.bin("maximumf", a, b)
    def min(self, a, b): return self.bin("minimumf", a, b)
    def exp(self, a): return self.op(f"math.exp {a}")
    def log(self, a): return self.op(f"math.log {a}")
    def sqrt(self, a): return self.op(f"math.sqrt {a}")
    def neg(self, a): return self.op(f"arith.negf {a}")


# ===----------------------------------------------------------------------===#
# The emitter
# ===----------------------------------------------------------------------===#


class Emitter:
    def __init__(self):
        self.lines = []
        self.counter = 0

    def fresh(self, prefix="t"):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, text):
        self.lines.append("    " + text)

    # --- basic tensors ------------------------------------------------------
    def empty(self, shape):
        name = self.fresh()
        self.emit(f"{name} = tensor.empty() : {ttype(shape)}")
        return name

    def fill(self, value, shape):
        e = self.empty(shape)
        c = self.fresh("c")
        self.emit(f"{c} = arith.constant {fconst(value)} : f32")
        name = self.fresh()
        self.emit(f"{name} = linalg.fill ins({c} : f32) outs({e} : {ttype(shape)}) -> {ttype(shape)}")
        return Val(name, shape)

    def generic(self, out_shape, inputs, body_fn, iterators=None, loop_rank=None,
                out_exprs=None, init=None, in_exprs=None):
        """Emit a linalg.generic.

        inputs: list of Val viewed in the loop space (first len(out_shape) loops
        are the output dims unless out_exprs given); body_fn(body, in_args,
        out_arg) returns the yielded value name. init: Val used as outs (else a
        fresh tensor.empty).
        """
        loop_rank = loop_rank if loop_rank is not None else len(out_shape)
        iterators = iterators or ["parallel"] * loop_rank
        out_exprs = out_exprs if out_exprs is not None else ident(len(out_shape))
        maps, ins = [], []
        for k, v in enumerate(inputs):
            if in_exprs is not None and in_exprs[k] is not None:
                maps.append(amap(loop_rank, in_exprs[k]))
            else:
                maps.append(amap(loop_rank, v.exprs(list(range(v.rank)))))
            ins.append(v)
        maps.append(amap(loop_rank, out_exprs))
        out = init.ssa if init is not None else self.empty(out_shape)
        body = Body(self)
        in_args = [self.fresh("in") for _ in ins]
        out_arg = self.fresh("out")
        result = body_fn(body, in_args, out_arg)
        name = self.fresh()
        its = ", ".join(f'"{i}"' for i in iterators)
        ins_txt = ""
        if ins:
            ins_txt = (" ins(" + ", ".join(v.ssa for v in ins) + " : "
                       + ", ".join(ttype(v.base) for v in ins) + ")")
        self.emit(f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                  f"iterator_types = [{its}]}}{ins_txt} outs({out} : {ttype(out_shape)}) {{")
        args = ", ".join(f"{a}: f32" for a in in_args + [out_arg])
        self.lines.append(f"    ^bb0({args}):")
        for line in body.lines:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {result} : f32")
        self.emit(f"}} -> {ttype(out_shape)}")
        return Val(name, out_shape)

    def materialize(self, v):
        """A Val with an identity view (copies transposes/broadcasts once)."""
        if v.is_identity():
            return v
        perm_only = None not in v.dims and len(v.dims) == v.rank and v.base == tuple(
            v.shape[d] for d in v.dims)
        if perm_only:
            # base dim j is logical dim dims[j]: logical = transpose(base, perm)
            # with perm[i] = base dim holding logical dim i.
            perm = [v.dims.index(i) for i in range(v.rank)]
            e = self.empty(v.shape)
            name = self.fresh()
            self.emit(f"{name} = linalg.transpose ins({v.ssa} : {ttype(v.base)}) "
                      f"outs({e} : {ttype(v.shape)}) permutation = {perm}")
            return Val(name, v.shape)
        return self.generic(v.shape, [v], lambda b, i, o: i[0])

    def reshape(self, v, shape):
        """Reshape via collapse_shape / expand_shape (one of each at most)."""
        v = self.materialize(v)
        src, dst = list(v.shape), [int(d) for d in shape]
        if src == dst:
            return v
        if math.prod(src) != math.prod(dst):
            raise UnsupportedOp(f"reshape {src} -> {dst}: element counts differ")
        groups = _reassociation(src, dst)
        if groups is not None and len(src) >= len(dst):
            return self.collapse(v, dst, groups)
        if groups is not None:
            return self.expand(v, dst, groups)
        # General case: expand to a common refinement of both shapes, then
        # collapse; when there is none, go through the flat 1-D shape.
        try:
            mid = _common_refinement(src, dst)
        except UnsupportedOp:
            mid = [math.prod(src)]
            v = self.collapse(v, mid, [list(range(len(src)))])
            return self.expand(v, dst, [list(range(len(dst)))])
        v = self.expand(v, mid, _reassociation(mid, src)) if mid != src else v
        return self.collapse(v, dst, _reassociation(mid, dst)) if mid != dst else v

    def collapse(self, v, dst, groups):
        if not dst:
            groups = []
        name = self.fresh()
        self.emit(f"{name} = tensor.collapse_shape {v.ssa} {groups} : "
                  f"{ttype(v.shape)} into {ttype(dst)}")
        return Val(name, dst)

    def expand(self, v, dst, groups):
        name = self.fresh()
        if not v.shape:
            groups = []
        self.emit(f"{name} = tensor.expand_shape {v.ssa} {groups} output_shape {list(dst)} : "
                  f"{ttype(v.shape)} into {ttype(dst)}")
        return Val(name, dst)

    def pad(self, v, low, high, value):
        v = self.materialize(v)
        if not any(low) and not any(high):
            return v
        shape = [s + lo + hi for s, lo, hi in zip(v.shape, low, high)]
        c = self.fresh("c")
        self.emit(f"{c} = arith.constant {fconst(value)} : f32")
        name = self.fresh()
        idx = ", ".join(self.fresh("i") + ": index" for _ in shape)
        self.emit(f"{name} = tensor.pad {v.ssa} low{list(low)} high{list(high)} {{")
        self.lines.append(f"    ^bb0({idx}):")
        self.emit(f"  tensor.yield {c} : f32")
        self.emit(f"}} : {ttype(v.shape)} to {ttype(shape)}")
        return Val(name, shape)

    def reduce(self, v, axes, init, combine, pre=None):
        """Reduce v over `axes` (no keepdim); pre(body, x) maps the element first."""
        v_shape = v.shape
        axes = sorted(a % v.rank for a in axes) if v.rank else []
        keep = [d for d in range(v.rank) if d not in axes]
        out_shape = [v_shape[d] for d in keep]
        # loops: kept dims first, then reduced dims
        order = keep + axes
        loop_of_logical = {d: order.index(d) for d in range(v.rank)}
        in_exprs = v.exprs(loop_of_logical)
        acc = self.fill(init, out_shape)

        def body(b, i, o):
            x = pre(b, i[0]) if pre else i[0]
            return combine(b, x, o)
        return self.generic(out_shape, [v], body, loop_rank=v.rank,
                            iterators=["parallel"] * len(keep) + ["reduction"] * len(axes),
                            out_exprs=ident(len(keep)), init=acc, in_exprs=[in_exprs])

    def keepdim(self, v, full_shape, axes):
        axes = sorted(a % len(full_shape) for a in axes)
        shape = [1 if d in axes else s for d, s in enumerate(full_shape)]
        return self.reshape(v, shape)


def _reassociation(src, dst):
    """Reassociation (groups of indices of the longer shape) that turns the
    longer of src/dst into the shorter one, or None if it is not a pure
    collapse. Unit dims join the group that follows them (or the last one).
    """
    long, short = (src, dst) if len(src) >= len(dst) else (dst, src)
    if not short:
        return [] if all(d == 1 for d in long) else None
    groups, i = [], 0
    for k, s in enumerate(short):
        g, p = [], 1
        while i < len(long):
            if g and p == s and (k < len(short) - 1 or long[i] != 1):
                break
            p *= long[i]
            g.append(i)
            i += 1
            if p > s:
                return None
        if p != s or not g:
            return None
        groups.append(g)
    return groups if i == len(long) else None


def _common_refinement(a, b):
    """Shortest shape that both a and b are collapses of (prime splitting)."""
    out, i, j = [], 0, 0
    a, b = list(a), list(b)
    ca, cb = (a[0] if a else 1), (b[0] if b else 1)
    while i < len(a) and j < len(b):
        g = math.gcd(ca, cb)
        if g == 1 and (ca != 1 or cb != 1):
            raise UnsupportedOp(f"reshape {a} -> {b} is not a split/merge")
        out.append(g)
        ca //= g
        cb //= g
        if ca == 1:
            i += 1
            ca = a[i] if i < len(a) else 1
        if cb == 1:
            j += 1
            cb = b[j] if j < len(b) else 1
    return out


# ===----------------------------------------------------------------------===#
# Elementwise helpers
# ===----------------------------------------------------------------------===#


def broadcast_shape(*shapes):
    r = max(len(s) for s in shapes)
    out = []
    for k in range(r):
        ds = {s[k - r + len(s)] for s in shapes if k - r + len(s) >= 0} - {1}
        if len(ds) > 1:
            raise UnsupportedOp(f"incompatible broadcast {shapes}")
        out.append(ds.pop() if ds else 1)
    return tuple(out)


def elementwise(em, operands, fn, out_shape=None):
    """fn(body, [operand names or scalar constants]) -> result.

    Tensors are read through their views; scalars become body constants.
    """
    tens = [o for o in operands if isinstance(o, Val)]
    shape = tuple(out_shape) if out_shape is not None else broadcast_shape(*[t.shape for t in tens])
    views = [t.broadcast_to(shape) for t in tens]

    def body(b, ins, out):
        it = iter(ins)
        args = [b.const(o.value) if isinstance(o, Scalar) else next(it) for o in operands]
        return fn(b, args)
    return em.generic(shape, views, body)


def as_operand(x):
    if isinstance(x, Val):
        return x
    if isinstance(x, (int, float, bool)):
        return Scalar(x)
    raise UnsupportedOp(f"operand {x!r} is not a tensor or number")


# ===----------------------------------------------------------------------===#
# Lowerings: one function per aten op. Each takes (em, args, kwargs, node).
# ===----------------------------------------------------------------------===#

LOWERINGS = {}


def lowers(*ops):
    def reg(fn):
        for op in ops:
            LOWERINGS[op] = fn
        return fn
    return reg


def _binary(fn):
    def lower(em, args, kwargs, node):
        a, b = as_operand(args[0]), as_operand(args[1])
        alpha = kwargs.get("alpha", args[2] if len(args) > 2 else 1)
        if alpha != 1:
            if isinstance(b, Scalar):
                b = Scalar(b.value * alpha)
            else:
                return elementwise(em, [a, b, Scalar(alpha)],
                                   lambda bd, x: fn(bd, x[0], bd.mul(x[1], x[2])))
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            raise UnsupportedOp(f"{node.target}: both operands are scalars")
        return elementwise(em, [a, b], lambda bd, x: fn(bd, x[0], x[1]))
    return lower


LOWERINGS[aten.add.Tensor] = _binary(lambda b, x, y: b.add(x, y))
LOWERINGS[aten.add.Scalar] = LOWERINGS[aten.add.Tensor]
LOWERINGS[aten.sub.Tensor] = _binary(lambda b, x, y: b.sub(x, y))
LOWERINGS[aten.sub.Scalar] = LOWERINGS[aten.sub.Tensor]
LOWERINGS[aten.rsub.Scalar] = _binary(lambda b, x, y: b.sub(y, x))
LOWERINGS[aten.mul.Tensor] = _binary(lambda b, x, y: b.mul(x, y))
LOWERINGS[aten.mul.Scalar] = LOWERINGS[aten.mul.Tensor]
LOWERINGS[aten.div.Tensor] = _binary(lambda b, x, y: b.div(x, y))
LOWERINGS[aten.div.Scalar] = LOWERINGS[aten.div.Tensor]


def _unary(fn):
    def lower(em, args, kwargs, node):
        return elementwise(em, [args[0]], lambda b, x: fn(b, x[0], args, kwargs))
    return lower


def _relu(b, x, *_):
    return b.max(x, b.const(0.0))


def _hardtanh(b, x, args, kwargs):
    lo = args[1] if len(args) > 1 else kwargs.get("min_val", -1.0)
    hi = args[2] if len(args) > 2 else kwargs.get("max_val", 1.0)
    return b.min(b.max(x, b.const(lo)), b.const(hi))


def _hardsigmoid(b, x, *_):
    t = b.min(b.max(b.add(x, b.const(3.0)), b.const(0.0)), b.const(6.0))
    return b.div(t, b.const(6.0))


def _hardswish(b, x, *_):
    return b.mul(x, _hardsigmoid(b, x))


def _sigmoid(b, x, *_):
    return b.div(b.const(1.0), b.add(b.const(1.0), b.exp(b.neg(x))))


def _silu(b, x, *_):
    return b.mul(x, _sigmoid(b, x))


def _tanh(b, x, *_):
    # tanh(x) = 1 - 2 / (exp(2x) + 1): math.tanh has no direct LLVM lowering.
    e = b.exp(b.mul(x, b.const(2.0)))
    return b.sub(b.const(1.0), b.div(b.const(2.0), b.add(e, b.const(1.0))))


LOWERINGS[aten.relu.default] = _unary(_relu)
LOWERINGS[aten.hardtanh.default] = _unary(_hardtanh)
LOWERINGS[aten.hardsigmoid.default] = _unary(_hardsigmoid)
LOWERINGS[aten.hardswish.default] = _unary(_hardswish)
LOWERINGS[aten.sigmoid.default] = _unary(_sigmoid)
LOWERINGS[aten.silu.default] = _unary(_silu)
LOWERINGS[aten.tanh.default] = _unary(_tanh)
LOWERINGS[aten.neg.default] = _unary(lambda b, x, *_: b.neg(x))
LOWERINGS[aten.exp.default] = _unary(lambda b, x, *_: b.exp(x))
LOWERINGS[aten.sqrt.default] = _unary(lambda b, x, *_: b.sqrt(x))
LOWERINGS[aten.rsqrt.default] = _unary(lambda b, x, *_: b.div(b.const(1.0), b.sqrt(x)))


@lowers(aten.threshold_backward.default)
def lower_threshold_backward(em, args, kwargs, node):
    grad, x, thr = args[0], args[1], float(args[2])

    def fn(b, v):
        c = b.op(f"arith.cmpf ule, {v[1]}, {v[2]}", "f32")
        return b.op(f"arith.select {c}, {v[3]}, {v[0]}", "f32")
    return elementwise(em, [grad, x, Scalar(thr), Scalar(0.0)], fn)


@lowers(aten.hardtanh_backward.default)
def lower_hardtanh_backward(em, args, kwargs, node):
    # PyTorch: grad_input = (x <= min || x >= max) ? 0 : grad.
    grad, x, lo, hi = args[0], args[1], float(args[2]), float(args[3])

    def fn(b, v):
        c1 = b.op(f"arith.cmpf ole, {v[1]}, {v[2]}", "f32")
        c2 = b.op(f"arith.cmpf oge, {v[1]}, {v[3]}", "f32")
        c = b.op(f"arith.ori {c1}, {c2}", "i1")
        return b.op(f"arith.select {c}, {v[4]}, {v[0]}", "f32")
    return elementwise(em, [grad, x, Scalar(lo), Scalar(hi), Scalar(0.0)], fn)


# --- views and shapes ---------------------------------------------------------


@lowers(aten.t.default)
def lower_t(em, args, kwargs, node):
    v = args[0]
    return v.permuted([1, 0]) if v.rank == 2 else v


@lowers(aten.transpose.int)
def lower_transpose(em, args, kwargs, node):
    v, a, b = args[0], args[1] % args[0].rank, args[2] % args[0].rank
    perm = list(range(v.rank))
    perm[a], perm[b] = perm[b], perm[a]
    return v.permuted(perm)


@lowers(aten.permute.default)
def lower_permute(em, args, kwargs, node):
    v = args[0]
    return v.permuted([p % v.rank for p in args[1]])


@lowers(aten.expand.default)
def lower_expand(em, args, kwargs, node):
    v, sizes = args[0], list(args[1])
    off = len(sizes) - v.rank
    shape = [v.shape[i - off] if s == -1 else s for i, s in enumerate(sizes)]
    return v.broadcast_to(shape)


@lowers(aten.view.default, aten._reshape_alias.default, aten._unsafe_view.default,
        aten.reshape.default, aten.view_copy.default)
def lower_view(em, args, kwargs, node):
    v, sizes = args[0], list(args[1])
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        sizes[sizes.index(-1)] = math.prod(v.shape) // known
    return em.reshape(v, sizes)


@lowers(aten.unsqueeze.default)
def lower_unsqueeze(em, args, kwargs, node):
    v, d = args[0], args[1] % (args[0].rank + 1)
    return em.reshape(v, list(v.shape[:d]) + [1] + list(v.shape[d:]))


@lowers(aten.squeeze.dim)
def lower_squeeze(em, args, kwargs, node):
    v, d = args[0], args[1] % max(args[0].rank, 1)
    if v.shape[d] != 1:
        return v
    return em.reshape(v, list(v.shape[:d]) + list(v.shape[d + 1:]))


@lowers(aten.clone.default, aten.detach.default, aten.alias.default,
        aten.lift_fresh_copy.default, aten.dropout.default)
def lower_identity(em, args, kwargs, node):
    return args[0]


@lowers(aten.slice.Tensor)
def lower_slice(em, args, kwargs, node):
    v = em.materialize(args[0])
    dim = (args[1] if len(args) > 1 else 0) % v.rank
    start = args[2] if len(args) > 2 and args[2] is not None else 0
    end = args[3] if len(args) > 3 and args[3] is not None else v.shape[dim]
    step = args[4] if len(args) > 4 else 1
    n = v.shape[dim]
    start, end = max(min(start + n if start < 0 else start, n), 0), max(min(end + n if end < 0 else end, n), 0)
    size = max(0, (end - start + step - 1) // step)
    return _extract_slice(em, v, dim, start, size, step)


def _extract_slice(em, v, dim, start, size, step=1, drop=False):
    offs = [0] * v.rank
    sizes = list(v.shape)
    strides = [1] * v.rank
    offs[dim], sizes[dim], strides[dim] = start, size, step
    out = list(sizes)
    if drop:
        del out[dim]
    name = em.fresh()
    em.emit(f"{name} = tensor.extract_slice {v.ssa}{offs}{sizes}{strides} : "
            f"{ttype(v.shape)} to {ttype(out)}")
    return Val(name, out)


@lowers(aten.slice_backward.default)
def lower_slice_backward(em, args, kwargs, node):
    # Zeros of the input's shape with the gradient inserted at the slice
    # (a strided tensor.insert_slice when step > 1).
    go, sizes, dim, start, end, step = args[:6]
    sizes = [int(d) for d in sizes]
    dim %= len(sizes)
    if list(go.shape) == sizes:
        return go
    go = em.materialize(go)
    n = sizes[dim]
    start = max(min(start + n if start < 0 else start, n), 0)
    z = em.fill(0.0, sizes)
    offs, strides = [0] * len(sizes), [1] * len(sizes)
    offs[dim], strides[dim] = start, step
    name = em.fresh()
    em.emit(f"{name} = tensor.insert_slice {go.ssa} into {z.ssa}{offs} {list(go.shape)} "
            f"{strides} : {ttype(go.shape)} into {ttype(sizes)}")
    return Val(name, sizes)


@lowers(aten.select.int)
def lower_select(em, args, kwargs, node):
    v = em.materialize(args[0])
    dim = args[1] % v.rank
    idx = args[2] % v.shape[dim]
    return _extract_slice(em, v, dim, idx, 1, drop=True)


@lowers(aten.split.Tensor, aten.split_with_sizes.default)
def lower_split(em, args, kwargs, node):
    v = em.materialize(args[0])
    dim = (args[2] if len(args) > 2 else 0) % v.rank
    if isinstance(args[1], int):
        sizes = [min(args[1], v.shape[dim] - s) for s in range(0, v.shape[dim], args[1])]
    else:
        sizes = list(args[1])
    outs, start = [], 0
    for s in sizes:
        outs.append(_extract_slice(em, v, dim, start, s))
        start += s
    return outs


@lowers(aten.constant_pad_nd.default)
def lower_constant_pad(em, args, kwargs, node):
    v, pads = args[0], list(args[1])
    value = float(args[2]) if len(args) > 2 else 0.0
    low, high = [0] * v.rank, [0] * v.rank
    for k in range(len(pads) // 2):  # pads run from the last dim backwards
        d = v.rank - 1 - k
        low[d], high[d] = pads[2 * k], pads[2 * k + 1]
    if min(low + high) < 0:
        # Negative padding crops (the backward of a pad): extract_slice first.
        v = em.materialize(v)
        offs = [max(-lo, 0) for lo in low]
        sizes = [s + min(lo, 0) + min(hi, 0) for s, lo, hi in zip(v.shape, low, high)]
        name = em.fresh()
        em.emit(f"{name} = tensor.extract_slice {v.ssa}{offs}{sizes}{[1] * v.rank} : "
                f"{ttype(v.shape)} to {ttype(sizes)}")
        v = Val(name, sizes)
        low, high = [max(lo, 0) for lo in low], [max(hi, 0) for hi in high]
    return em.pad(v, low, high, value)


@lowers(aten.cat.default)
def lower_cat(em, args, kwargs, node):
    vals = [em.materialize(v) for v in args[0] if math.prod(v.shape) > 0]
    dim = (args[1] if len(args) > 1 else kwargs.get("dim", 0)) % vals[0].rank
    if len(vals) == 1:
        return vals[0]
    shape = list(vals[0].shape)
    shape[dim] = sum(v.shape[dim] for v in vals)
    name = em.fresh()
    em.emit(f"{name} = tensor.concat dim({dim}) " + ", ".join(v.ssa for v in vals)
            + " : (" + ", ".join(ttype(v.shape) for v in vals) + f") -> {ttype(shape)}")
    return Val(name, shape)


# --- creation -------------------------------------------------------------------


@lowers(aten.ones_like.default, aten.zeros_like.default)
def lower_fill_like(em, args, kwargs, node):
    v = 1.0 if node.target == aten.ones_like.default else 0.0
    return em.fill(v, args[0].shape)


@lowers(aten.full.default)
def lower_full(em, args, kwargs, node):
    return em.fill(float(args[1]), list(args[0]))


@lowers(aten.scalar_tensor.default)
def lower_scalar_tensor(em, args, kwargs, node):
    return em.fill(float(args[0]), [])


# --- reductions -------------------------------------------------------------


def _sum(em, v, dims, keepdim):
    dims = list(range(v.rank)) if dims is None or len(dims) == 0 else [d % v.rank for d in dims]
    r = em.reduce(v, dims, 0.0, lambda b, x, acc: b.add(x, acc))
    return em.keepdim(r, v.shape, dims) if keepdim else r


@lowers(aten.sum.dim_IntList)
def lower_sum_dim(em, args, kwargs, node):
    keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    return _sum(em, args[0], args[1], keep)


@lowers(aten.sum.default)
def lower_sum(em, args, kwargs, node):
    return _sum(em, args[0], None, False)


@lowers(aten.mean.dim)
def lower_mean(em, args, kwargs, node):
    v = args[0]
    dims = [d % v.rank for d in args[1]]
    keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    n = math.prod(v.shape[d] for d in dims)
    s = _scale_in_place(em, _sum(em, v, dims, False), 1.0 / n)
    return em.keepdim(s, v.shape, dims) if keep else s


def _scale_in_place(em, v, factor):
    """v * factor written into v's own buffer (v must be a fresh value)."""
    def body(b, i, o):
        return b.mul(o, b.const(factor))
    return em.generic(v.shape, [], body, init=v)


def _softmax_parts(em, x, dim):
    dim = dim % x.rank
    m = em.keepdim(em.reduce(x, [dim], -math.inf, lambda b, a, acc: b.max(a, acc)), x.shape, [dim])
    return dim, m


@lowers(aten._softmax.default)
def lower_softmax(em, args, kwargs, node):
    x = args[0]
    dim, m = _softmax_parts(em, x, args[1])
    e = elementwise(em, [x, m], lambda b, v: b.exp(b.sub(v[0], v[1])))
    s = em.keepdim(_sum(em, e, [dim], False), x.shape, [dim])
    return em.generic(x.shape, [s.broadcast_to(x.shape)],
                      lambda b, i, o: b.div(o, i[0]), init=e)


@lowers(aten._log_softmax.default)
def lower_log_softmax(em, args, kwargs, node):
    x = args[0]
    dim, m = _softmax_parts(em, x, args[1])
    mb = m.broadcast_to(x.shape)
    order = [d for d in range(x.rank) if d != dim] + [dim]
    lol = {d: order.index(d) for d in range(x.rank)}
    acc = em.fill(0.0, [x.shape[d] for d in range(x.rank) if d != dim])
    s = em.generic(acc.shape, [x, mb], lambda b, i, o: b.add(b.exp(b.sub(i[0], i[1])), o),
                   loop_rank=x.rank, iterators=["parallel"] * (x.rank - 1) + ["reduction"],
                   out_exprs=ident(x.rank - 1), init=acc,
                   in_exprs=[x.exprs(lol), mb.exprs(lol)])
    s = em.keepdim(s, x.shape, [dim])
    return elementwise(em, [x, m, s], lambda b, v: b.sub(b.sub(v[0], v[1]), b.log(v[2])))


@lowers(aten._log_softmax_backward_data.default)
def lower_log_softmax_backward(em, args, kwargs, node):
    grad, out, dim = args[0], args[1], args[2] % args[0].rank
    s = em.keepdim(_sum(em, grad, [dim], False), grad.shape, [dim])
    return elementwise(em, [grad, out, s], lambda b, v: b.sub(v[0], b.mul(b.exp(v[1]), v[2])))


@lowers(aten._softmax_backward_data.default)
def lower_softmax_backward(em, args, kwargs, node):
    grad, out, dim = args[0], args[1], args[2] % args[0].rank
    gy = elementwise(em, [grad, out], lambda b, v: b.mul(v[0], v[1]))
    s = em.keepdim(_sum(em, gy, [dim], False), grad.shape, [dim])
    return elementwise(em, [gy, out, s], lambda b, v: b.sub(v[0], b.mul(v[1], v[2])))


@lowers(aten.native_layer_norm.default)
def lower_layer_norm(em, args, kwargs, node):
    x, nshape, w, b, eps = args
    axes = list(range(x.rank - len(nshape), x.rank))
    n = math.prod(nshape)
    mean = em.keepdim(_scale_in_place(em, _sum(em, x, axes, False), 1.0 / n), x.shape, axes)
    mb = mean.broadcast_to(x.shape)
    order = [d for d in range(x.rank) if d not in axes] + axes
    lol = {d: order.index(d) for d in range(x.rank)}
    acc = em.fill(0.0, [x.shape[d] for d in range(x.rank) if d not in axes])

    def sq(bd, i, o):
        d = bd.sub(i[0], i[1])
        return bd.add(bd.mul(d, d), o)
    var = em.generic(acc.shape, [x, mb], sq, loop_rank=x.rank,
                     iterators=["parallel"] * (x.rank - len(axes)) + ["reduction"] * len(axes),
                     out_exprs=ident(x.rank - len(axes)), init=acc,
                     in_exprs=[x.exprs(lol), mb.exprs(lol)])
    var = em.keepdim(var, x.shape, axes)
    ops = [x, mean, var] + ([w] if w is not None else []) + ([b] if b is not None else [])

    def norm(bd, v):
        r = bd.div(bd.sub(v[0], v[1]),
                   bd.sqrt(bd.add(bd.mul(v[2], bd.const(1.0 / n)), bd.const(eps))))
        k = 3
        if w is not None:
            r = bd.mul(r, v[k])
            k += 1
        if b is not None:
            r = bd.add(r, v[k])
        return r
    out = elementwise(em, ops, norm, out_shape=x.shape)
    if not any(u.target is operator.getitem and u.args[1] != 0 for u in node.users):
        return [out, None, None]
    # The saved mean and rstd (keepdim shapes), read by native_layer_norm_backward.
    rstd = elementwise(em, [var], lambda bd, v: bd.div(bd.const(1.0), bd.sqrt(
        bd.add(bd.mul(v[0], bd.const(1.0 / n)), bd.const(eps)))))
    return [out, mean, rstd]


@lowers(aten.native_batch_norm.default)
def lower_batch_norm(em, args, kwargs, node):
    x, w, b, rm, rv, training, momentum, eps = args
    if training:
        return _batch_norm_train(em, x, w, b, rm, rv, eps)
    c = x.shape[1]
    per_ch = lambda v: Val(v.ssa, x.shape, v.base, [1])  # noqa: E731
    ops = [x, per_ch(rm), per_ch(rv)]
    if w is not None:
        ops.append(per_ch(w))
    if b is not None:
        ops.append(per_ch(b))
    assert all(o.base == (c,) for o in ops[1:])

    def body(bd, i, o):
        r = bd.div(bd.sub(i[0], i[1]), bd.sqrt(bd.add(i[2], bd.const(eps))))
        k = 3
        if w is not None:
            r = bd.mul(r, i[k])
            k += 1
        if b is not None:
            r = bd.add(r, i[k])
        return r
    return [em.generic(x.shape, ops, body), None, None]


def _per_channel(v, x):
    """A [C] tensor viewed as broadcast along every dim of x but dim 1."""
    assert v.base == (x.shape[1],) and v.is_identity()
    return Val(v.ssa, x.shape, v.base, [1])


def _channel_reduce(em, x, others, fn):
    """[C] = sum over every dim of x but 1 of fn(body, x elt, other elts):
    one reduction generic; `others` are read through their views."""
    axes = [0] + list(range(2, x.rank))
    lol = {d: ([1] + axes).index(d) for d in range(x.rank)}
    acc = em.fill(0.0, [x.shape[1]])
    ins = [x] + list(others)
    return em.generic(acc.shape, ins, lambda b, i, o: b.add(fn(b, i), o), loop_rank=x.rank,
                      iterators=["parallel"] + ["reduction"] * (x.rank - 1),
                      out_exprs=ident(1), init=acc, in_exprs=[v.exprs(lol) for v in ins])


def _batch_norm_train(em, x, w, b, rm, rv, eps):
    """Training-mode batch norm (batch statistics, biased variance): mean and
    variance reductions over N, H, W, the inverse std per channel, then one
    affine generic. Returns (out, save_mean, save_invstd) as aten does."""
    if rm is not None or rv is not None:
        raise UnsupportedOp("aten.native_batch_norm with training=True and running "
                            "statistics (their update is not lowered): use "
                            "track_running_stats=False")
    c = x.shape[1]
    n = math.prod(x.shape) // c
    mean = _scale_in_place(em, _channel_reduce(em, x, [], lambda bd, i: i[0]), 1.0 / n)
    mb = _per_channel(mean, x)

    def sq(bd, i):
        d = bd.sub(i[0], i[1])
        return bd.mul(d, d)
    var = _channel_reduce(em, x, [mb], sq)
    invstd = elementwise(em, [var], lambda bd, v: bd.div(bd.const(1.0), bd.sqrt(
        bd.add(bd.mul(v[0], bd.const(1.0 / n)), bd.const(eps)))))
    ops = [x, mb, _per_channel(invstd, x)]
    ops += [_per_channel(v, x) for v in (w, b) if v is not None]

    def body(bd, v):
        r = bd.mul(bd.sub(v[0], v[1]), v[2])
        k = 3
        if w is not None:
            r = bd.mul(r, v[k])
            k += 1
        if b is not None:
            r = bd.add(r, v[k])
        return r
    return [elementwise(em, ops, body, out_shape=x.shape), mean, invstd]


@lowers(aten.native_batch_norm_backward.default)
def lower_batch_norm_backward(em, args, kwargs, node):
    """Training mode (PyTorch's CPU formula): with k = dot * invstd^2 / n,
    grad_in = (go - sum_go / n - (x - mean) * k) * invstd * w, where
    sum_go = sum(go), dot = sum(go * (x - mean)) over N, H, W;
    grad_w = dot * invstd, grad_b = sum_go."""
    go, x, w, rm, rv, mean, invstd, train, eps, mask = args
    if not train:
        raise UnsupportedOp("aten.native_batch_norm_backward in eval mode")
    c = x.shape[1]
    n = math.prod(x.shape) // c
    mb, ib = _per_channel(mean, x), _per_channel(invstd, x)
    sum_go = _channel_reduce(em, go, [], lambda bd, i: i[0])
    dot = _channel_reduce(em, go, [x, mb], lambda bd, i: bd.mul(i[0], bd.sub(i[1], i[2])))
    results = [None, None, None]
    if mask[0]:
        ops = [go, x, mb, ib, _per_channel(dot, x), _per_channel(sum_go, x)]
        ops += [_per_channel(w, x)] if w is not None else []

        def body(bd, v):
            k = bd.mul(bd.mul(bd.mul(v[4], v[3]), v[3]), bd.const(1.0 / n))
            dx = bd.mul(bd.sub(v[1], v[2]), k)
            gm = bd.mul(v[5], bd.const(1.0 / n))
            scale = bd.mul(v[3], v[6]) if w is not None else v[3]
            return bd.mul(bd.sub(bd.sub(v[0], gm), dx), scale)
        results[0] = elementwise(em, ops, body, out_shape=x.shape)
    if mask[1]:
        results[1] = elementwise(em, [dot, invstd], lambda bd, v: bd.mul(v[0], v[1]))
    if mask[2]:
        results[2] = sum_go
    return results


# --- matmul ---------------------------------------------------------------------


def _matmul(em, a, b, init, batch=False):
    """init += a @ b, reading a and b through transposed views when possible."""
    r = 3 + batch
    # loops: (batch,) m, n, k
    B = ["d0"] if batch else []
    s = 1 if batch else 0
    m, n, k = f"d{s}", f"d{s + 1}", f"d{s + 2}"
    maps = []
    ops = []
    for v, log in ((a, B + [m, k]), (b, B + [k, n])):
        # batch_matmul needs the batch dim in front; broadcasts are copied.
        if None in v.dims or (batch and v.dims[0] != 0):
            v = em.materialize(v)
        maps.append(amap(r, [log[d] for d in v.dims]))
        ops.append(v)
    maps.append(amap(r, B + [m, n]))
    op = "linalg.batch_matmul" if batch else "linalg.matmul"
    name = em.fresh()
    plain = all(x.is_identity() for x in ops)
    mtxt = "" if plain else f" indexing_maps = [{', '.join(maps)}]"
    em.emit(f"{name} = {op}{mtxt} ins({ops[0].ssa}, {ops[1].ssa} : {ttype(ops[0].base)}, "
            f"{ttype(ops[1].base)}) outs({init.ssa} : {ttype(init.shape)}) -> {ttype(init.shape)}")
    return Val(name, init.shape)


@lowers(aten.mm.default)
def lower_mm(em, args, kwargs, node):
    a, b = args
    return _matmul(em, a, b, em.fill(0.0, [a.shape[0], b.shape[1]]))


@lowers(aten.bmm.default)
def lower_bmm(em, args, kwargs, node):
    a, b = args
    return _matmul(em, a, b, em.fill(0.0, [a.shape[0], a.shape[1], b.shape[2]]), batch=True)


@lowers(aten.addmm.default)
def lower_addmm(em, args, kwargs, node):
    bias, a, b = args[:3]
    beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
    if beta != 1 or alpha != 1:
        raise UnsupportedOp("aten.addmm with beta/alpha != 1")
    shape = [a.shape[0], b.shape[1]]
    init = em.materialize(bias.broadcast_to(shape))
    return _matmul(em, a, b, init)


# --- convolution and pooling ------------------------------------------------


def _conv_out(h, k, s, p, d):
    return (h + 2 * p - d * (k - 1) - 1) // s + 1


def _attr2(v):
    return f"dense<{list(v)}> : tensor<2xi64>" if v[0] != v[1] else f"dense<{v[0]}> : tensor<2xi64>"


@lowers(aten.convolution.default)
def lower_convolution(em, args, kwargs, node):
    x, w, bias, stride, padding, dilation, transposed, out_pad, groups = args
    if transposed:
        raise UnsupportedOp("aten.convolution with transposed=True")
    if x.rank != 4:
        raise UnsupportedOp(f"aten.convolution on rank-{x.rank} input (only 2-D convs)")
    w = em.materialize(w)
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    ho = _conv_out(h, kh, stride[0], padding[0], dilation[0])
    wo = _conv_out(wd, kw, stride[1], padding[1], dilation[1])
    out_shape = [n, f, ho, wo]
    # Drop kernel taps that read only padding (exact): a dilated conv with
    # padding >= dilation on a small map (DeepLab's ASPP) would otherwise pad
    # its input to many times its size.
    th = _live_taps(h, ho, kh, stride[0], padding[0], dilation[0])
    tw = _live_taps(wd, wo, kw, stride[1], padding[1], dilation[1])
    low = [padding[0] - th[0] * dilation[0], padding[1] - tw[0] * dilation[1]]
    kh, kw = th[1] - th[0], tw[1] - tw[0]
    if (kh, kw) != tuple(w.shape[2:]):
        name = em.fresh()
        em.emit(f"{name} = tensor.extract_slice {w.ssa}[0, 0, {th[0]}, {tw[0]}] "
                f"[{f}, {cg}, {kh}, {kw}] [1, 1, 1, 1] : {ttype(w.shape)} to "
                f"{ttype([f, cg, kh, kw])}")
        w = Val(name, [f, cg, kh, kw])
    need = [(ho - 1) * stride[0] + dilation[0] * (kh - 1) + 1,
            (wo - 1) * stride[1] + dilation[1] * (kw - 1) + 1]
    high = [max(need[0] - h - low[0], 0), max(need[1] - wd - low[1], 0)]
    xp = em.pad(x, [0, 0] + low, [0, 0] + high, 0.0)
    if bias is not None:
        init = em.materialize(Val(bias.ssa, out_shape, bias.base, [1]))
    else:
        init = em.fill(0.0, out_shape)
    attrs = f"{{dilations = {_attr2(dilation)}, strides = {_attr2(stride)}}}"
    name = em.fresh()
    if groups == 1:
        em.emit(f"{name} = linalg.conv_2d_nchw_fchw {attrs} ins({xp.ssa}, {w.ssa} : "
                f"{ttype(xp.shape)}, {ttype(w.shape)}) outs({init.ssa} : {ttype(out_shape)}) "
                f"-> {ttype(out_shape)}")
        return Val(name, out_shape)
    if groups == c and f == c and cg == 1:
        wc = em.collapse(w, [c, kh, kw], [[0, 1], [2], [3]])
        em.emit(f"{name} = linalg.depthwise_conv_2d_nchw_chw {attrs} ins({xp.ssa}, {wc.ssa} : "
                f"{ttype(xp.shape)}, {ttype(wc.shape)}) outs({init.ssa} : {ttype(out_shape)}) "
                f"-> {ttype(out_shape)}")
        return Val(name, out_shape)
    g = groups
    xg = em.expand(xp, [n, g, c // g] + list(xp.shape[2:]), [[0], [1, 2], [3], [4]])
    wg = em.expand(w, [g, f // g, cg, kh, kw], [[0, 1], [2], [3], [4]])
    ig = em.expand(init, [n, g, f // g, ho, wo], [[0], [1, 2], [3], [4]])
    em.emit(f"{name} = linalg.conv_2d_ngchw_fgchw {attrs} ins({xg.ssa}, {wg.ssa} : "
            f"{ttype(xg.shape)}, {ttype(wg.shape)}) outs({ig.ssa} : {ttype(ig.shape)}) "
            f"-> {ttype(ig.shape)}")
    return em.collapse(Val(name, ig.shape), out_shape, [[0], [1, 2], [3], [4]])


def _live_taps(size, out, k, s, p, d):
    """[first, last+1) of the kernel taps that read at least one input element
    (not only padding) for some output position; all taps if trimming would
    need negative padding."""
    live = [i for i in range(k)
            if any(0 <= o * s + i * d - p < size for o in range(out))]
    if not live or p - live[0] * d < 0:
        return 0, k
    return live[0], live[-1] + 1


@lowers(aten.convolution_backward.default)
def lower_convolution_backward(em, args, kwargs, node):
    go, x, w, bias_sizes, stride, padding, dilation, transposed, out_pad, groups, mask = args
    depthwise = groups != 1 and groups == x.shape[1] == w.shape[0] and w.shape[1] == 1
    if transposed or (groups != 1 and not depthwise) or x.rank != 4 \
            or list(dilation) != [1, 1]:
        raise UnsupportedOp("aten.convolution_backward: only 2-D, groups=1 or depthwise, "
                            "dilation=1, non-transposed convolutions")
    go, x, w = em.materialize(go), em.materialize(x), em.materialize(w)
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    _, _, ho, wo = go.shape
    results = [None, None, None]
    if depthwise:
        return _depthwise_conv_backward(em, go, x, w, stride, padding, mask)
    if mask[0]:
        # grad_input = conv(zero-dilate-and-pad(grad_out), flip(w)^T), stride 1.
        low = [kh - 1 - padding[0], kw - 1 - padding[1]]
        if min(low) < 0:
            raise UnsupportedOp("aten.convolution_backward with padding >= kernel size")
        dil = _dilate_and_pad(em, go, [h + kh - 1, wd + kw - 1], low, stride)
        wf = em.generic([c, f, kh, kw], [w], lambda b, i, o: i[0],
                        in_exprs=[["d1", "d0", f"{kh - 1} - d2", f"{kw - 1} - d3"]])
        gi = em.fill(0.0, [n, c, h, wd])
        name = em.fresh()
        em.emit(f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, "
                f"strides = dense<1> : tensor<2xi64>}} ins({dil.ssa}, {wf.ssa} : "
                f"{ttype(dil.shape)}, {ttype(wf.shape)}) outs({gi.ssa} : {ttype(gi.shape)}) "
                f"-> {ttype(gi.shape)}")
        results[0] = Val(name, gi.shape)
    if mask[1]:
        # grad_weight[f,c,i,j] = sum_{n,y,x} go[n,f,y,x] * xpad[n,c,y*s+i,x*s+j]
        xp = em.pad(x, [0, 0, padding[0], padding[1]], [0, 0, padding[0], padding[1]], 0.0)
        acc = em.fill(0.0, [f, c, kh, kw])
        s0, s1 = stride
        results[1] = em.generic(
            acc.shape, [go, xp], lambda b, i, o: b.add(b.mul(i[0], i[1]), o),
            loop_rank=7, iterators=["parallel"] * 4 + ["reduction"] * 3,
            out_exprs=ident(4), init=acc,
            in_exprs=[["d4", "d0", "d5", "d6"],
                      ["d4", "d1", f"d5 * {s0} + d2", f"d6 * {s1} + d3"]])
    if mask[2]:
        results[2] = _sum(em, go, [0, 2, 3], False)
    return results


def _dilate_and_pad(em, go, size, low, stride):
    """grad_out with stride-1 zeros inserted between elements and padded to
    `size` (H, W), low padding `low`: zeros + a strided tensor.insert_slice;
    grad_out itself when that is the identity (stride 1, no padding)."""
    n, f, ho, wo = go.shape
    if list(stride) == [1, 1] and list(low) == [0, 0] and list(size) == [ho, wo]:
        return go
    z = em.fill(0.0, [n, f] + list(size))
    name = em.fresh()
    em.emit(f"{name} = tensor.insert_slice {go.ssa} into {z.ssa}[0, 0, {low[0]}, {low[1]}]"
            f" [{n}, {f}, {ho}, {wo}] [1, 1, {stride[0]}, {stride[1]}] : "
            f"{ttype(go.shape)} into {ttype(z.shape)}")
    return Val(name, z.shape)


def _depthwise_conv_backward(em, go, x, w, stride, padding, mask):
    """convolution_backward of a depthwise conv (groups = channels, one filter
    per channel): the same as groups=1 per channel, with depthwise ops."""
    n, c, h, wd = x.shape
    _, _, kh, kw = w.shape
    _, _, ho, wo = go.shape
    results = [None, None, None]
    if mask[0]:
        # grad_input = depthwise conv(zero-dilate-and-pad(grad_out), flip(w)), stride 1.
        low = [kh - 1 - padding[0], kw - 1 - padding[1]]
        if min(low) < 0:
            raise UnsupportedOp("aten.convolution_backward with padding >= kernel size")
        dil = _dilate_and_pad(em, go, [h + kh - 1, wd + kw - 1], low, stride)
        wf = em.generic([c, kh, kw], [w], lambda b, i, o: i[0],
                        in_exprs=[["d0", "0", f"{kh - 1} - d1", f"{kw - 1} - d2"]])
        gi = em.fill(0.0, [n, c, h, wd])
        name = em.fresh()
        em.emit(f"{name} = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : "
                f"tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} ins({dil.ssa}, {wf.ssa} : "
                f"{ttype(dil.shape)}, {ttype(wf.shape)}) outs({gi.ssa} : {ttype(gi.shape)}) "
                f"-> {ttype(gi.shape)}")
        results[0] = Val(name, gi.shape)
    if mask[1]:
        # grad_weight[c,0,i,j] = sum_{n,y,x} go[n,c,y,x] * xpad[n,c,y*s+i,x*s+j]
        xp = em.pad(x, [0, 0, padding[0], padding[1]], [0, 0, padding[0], padding[1]], 0.0)
        acc = em.fill(0.0, [c, kh, kw])
        s0, s1 = stride
        gw = em.generic(
            acc.shape, [go, xp], lambda b, i, o: b.add(b.mul(i[0], i[1]), o),
            loop_rank=6, iterators=["parallel"] * 3 + ["reduction"] * 3,
            out_exprs=ident(3), init=acc,
            in_exprs=[["d3", "d0", "d4", "d5"],
                      ["d3", "d0", f"d4 * {s0} + d1", f"d5 * {s1} + d2"]])
        results[1] = em.expand(gw, [c, 1, kh, kw], [[0, 1], [2], [3]])
    if mask[2]:
        results[2] = _sum(em, go, [0, 2, 3], False)
    return results


def _pool_geometry(h, k, s, p, d, ceil):
    if ceil:
        out = -(-(h + 2 * p - d * (k - 1) - 1) // s) + 1
        if (out - 1) * s >= h + p:
            out -= 1
    else:
        out = (h + 2 * p - d * (k - 1) - 1) // s + 1
    need = (out - 1) * s + d * (k - 1) + 1
    return out, max(need - h - p, 0)


def _pool(em, x, kind, kernel, stride, padding, dilation, ceil, pad_value, init):
    n, c, h, w = x.shape
    ho, hi_h = _pool_geometry(h, kernel[0], stride[0], padding[0], dilation[0], ceil)
    wo, hi_w = _pool_geometry(w, kernel[1], stride[1], padding[1], dilation[1], ceil)
    xp = em.pad(x, [0, 0, padding[0], padding[1]], [0, 0, hi_h, hi_w], pad_value)
    out_shape = [n, c, ho, wo]
    acc = em.fill(init, out_shape)
    win = em.empty(list(kernel))
    name = em.fresh()
    em.emit(f"{name} = linalg.pooling_nchw_{kind} {{dilations = {_attr2(dilation)}, "
            f"strides = {_attr2(stride)}}} ins({xp.ssa}, {win} : {ttype(xp.shape)}, "
            f"{ttype(kernel)}) outs({acc.ssa} : {ttype(out_shape)}) -> {ttype(out_shape)}")
    return Val(name, out_shape)


@lowers(aten.max_pool2d_with_indices.default)
def lower_max_pool(em, args, kwargs, node):
    x = args[0]
    kernel = list(args[1])
    stride = list(args[2]) if len(args) > 2 and args[2] else kernel
    padding = list(args[3]) if len(args) > 3 else [0, 0]
    dilation = list(args[4]) if len(args) > 4 else [1, 1]
    ceil = args[5] if len(args) > 5 else False
    used = False
    for user in node.users:
        if user.target is not operator.getitem:
            raise UnsupportedOp("aten.max_pool2d_with_indices: output used as a tuple")
        used |= user.args[1] != 0
    out = _pool(em, x, "max", kernel, stride, padding, dilation, ceil, -math.inf, -math.inf)
    if not used:
        return [out, None]
    return [out, _max_pool_indices(em, x, out, kernel, stride, padding, dilation)]


def _max_pool_indices(em, x, m, kernel, stride, padding, dilation):
    """The indices output of max_pool2d_with_indices, as f32 (exact below 2^24):
    the flat index h*W+w into the input plane of the first (row-major) window
    element equal to the window max m, as PyTorch's CPU kernel picks it."""
    n, c, h, w = x.shape
    if h * w >= 1 << 24:
        raise UnsupportedOp("aten.max_pool2d_with_indices: plane too large for f32 indices")
    _, _, ho, wo = m.shape
    hi_h = max((ho - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1 - h - padding[0], 0)
    hi_w = max((wo - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1 - w - padding[1], 0)
    xp = em.pad(x, [0, 0, padding[0], padding[1]], [0, 0, hi_h, hi_w], -math.inf)
    acc = em.fill(math.inf, m.shape)

    def body(b, i, o):
        def coord(loop, win, s, d, p):
            a = b.raw(f"linalg.index {loop} : index")
            k = b.raw(f"linalg.index {win} : index")
            a = b.op(f"arith.index_cast {a}", "index to i32")
            k = b.op(f"arith.index_cast {k}", "index to i32")
            a = b.op(f"arith.muli {a}, {b.op(f'arith.constant {s}', 'i32')}", "i32")
            k = b.op(f"arith.muli {k}, {b.op(f'arith.constant {d}', 'i32')}", "i32")
            r = b.op(f"arith.addi {a}, {k}", "i32")
            return b.op(f"arith.subi {r}, {b.op(f'arith.constant {p}', 'i32')}", "i32")
        row = coord(2, 4, stride[0], dilation[0], padding[0])
        col = coord(3, 5, stride[1], dilation[1], padding[1])
        flat = b.op(f"arith.muli {row}, {b.op(f'arith.constant {w}', 'i32')}", "i32")
        flat = b.op(f"arith.addi {flat}, {col}", "i32")
        fidx = b.op(f"arith.sitofp {flat}", "i32 to f32")
        eq = b.op(f"arith.cmpf oeq, {i[0]}, {i[1]}", "f32")
        cand = b.op(f"arith.select {eq}, {fidx}, {b.const(math.inf)}", "f32")
        return b.min(cand, o)
    s0, s1 = stride
    d0, d1 = dilation
    # The window operand (unread, as the pooling ops' second operand) gives
    # the window loops their bounds.
    win = Val(em.empty(list(kernel)), list(kernel))
    return em.generic(m.shape, [xp, m, win], body, loop_rank=6,
                      iterators=["parallel"] * 4 + ["reduction"] * 2,
                      out_exprs=ident(4), init=acc,
                      in_exprs=[["d0", "d1", f"d2 * {s0} + d4 * {d0}", f"d3 * {s1} + d5 * {d1}"],
                                ["d0", "d1", "d2", "d3"], ["d4", "d5"]])


@lowers(aten.max_pool2d_with_indices_backward.default)
def lower_max_pool_backward(em, args, kwargs, node):
    go, x, kernel, stride, padding, dilation, ceil, idx = args
    kernel = list(kernel)
    stride = list(stride) or kernel
    n, c, h, w = x.shape
    _, _, ho, wo = go.shape
    if stride != kernel or any(padding) or list(dilation) != [1, 1] \
            or ho * kernel[0] != h or wo * kernel[1] != w:
        raise UnsupportedOp("aten.max_pool2d_with_indices_backward: only non-overlapping "
                            "windows (stride = kernel) that tile the input, no padding")
    kh, kw = kernel
    # Each input element is in exactly one window: grad_input viewed as
    # [n, c, ho, kh, wo, kw] is grad_out where the window's index names it.
    lol = {0: 0, 1: 1, 2: 2, 3: 4}

    def body(b, i, o):
        def pos(out_loop, win_loop, k):
            a = b.raw(f"linalg.index {out_loop} : index")
            r = b.raw(f"linalg.index {win_loop} : index")
            a = b.op(f"arith.index_cast {a}", "index to i32")
            r = b.op(f"arith.index_cast {r}", "index to i32")
            a = b.op(f"arith.muli {a}, {b.op(f'arith.constant {k}', 'i32')}", "i32")
            return b.op(f"arith.addi {a}, {r}", "i32")
        flat = b.op(f"arith.muli {pos(2, 3, kh)}, {b.op(f'arith.constant {w}', 'i32')}", "i32")
        flat = b.op(f"arith.addi {flat}, {pos(4, 5, kw)}", "i32")
        fidx = b.op(f"arith.sitofp {flat}", "i32 to f32")
        eq = b.op(f"arith.cmpf oeq, {i[1]}, {fidx}", "f32")
        return b.op(f"arith.select {eq}, {i[0]}, {b.const(0.0)}", "f32")
    g = em.generic([n, c, ho, kh, wo, kw], [go, idx], body,
                   in_exprs=[go.exprs(lol), idx.exprs(lol)])
    return em.collapse(g, [n, c, h, w], [[0], [1], [2, 3], [4, 5]])


def _unpool_mean(em, go, x_shape, divisor):
    """Backward of an average pool whose windows tile the input (stride =
    kernel, no padding): grad_out[n, c, y, x] / divisor broadcast to each
    window, as [n, c, ho, kh, wo, kw] collapsed to the input shape."""
    n, c, ho, wo = go.shape
    kh, kw = x_shape[2] // ho, x_shape[3] // wo
    g = em.generic([n, c, ho, kh, wo, kw], [go], lambda b, i, o: b.div(i[0], b.const(divisor)),
                   in_exprs=[go.exprs({0: 0, 1: 1, 2: 2, 3: 4})])
    return em.collapse(g, list(x_shape), [[0], [1], [2, 3], [4, 5]])


@lowers(aten.avg_pool2d_backward.default)
def lower_avg_pool_backward(em, args, kwargs, node):
    go, x, kernel, stride, padding, ceil, include_pad, divisor = args[:8]
    kernel = list(kernel)
    stride = list(stride) or kernel
    n, c, h, w = x.shape
    _, _, ho, wo = go.shape
    if stride != kernel or any(padding) or ho * kernel[0] != h or wo * kernel[1] != w:
        raise UnsupportedOp("aten.avg_pool2d_backward: only non-overlapping windows "
                            "(stride = kernel) that tile the input, no padding")
    return _unpool_mean(em, go, x.shape, divisor or kernel[0] * kernel[1])


@lowers(aten._adaptive_avg_pool2d_backward.default)
def lower_adaptive_avg_pool_backward(em, args, kwargs, node):
    go, x = args[:2]
    ho, wo = go.shape[2:]
    if x.shape[2] % ho or x.shape[3] % wo:
        raise UnsupportedOp("aten._adaptive_avg_pool2d_backward with non-divisible sizes")
    return _unpool_mean(em, go, x.shape, (x.shape[2] // ho) * (x.shape[3] // wo))


@lowers(aten.avg_pool2d.default)
def lower_avg_pool(em, args, kwargs, node):
    x = args[0]
    kernel = list(args[1])
    stride = list(args[2]) if len(args) > 2 and args[2] else kernel
    padding = list(args[3]) if len(args) > 3 else [0, 0]
    ceil = args[4] if len(args) > 4 else False
    include_pad = args[5] if len(args) > 5 else True
    divisor = args[6] if len(args) > 6 else None
    if ceil or (any(padding) and not include_pad):
        raise UnsupportedOp("aten.avg_pool2d with ceil_mode or count_include_pad=False")
    s = _pool(em, x, "sum", kernel, stride, padding, [1, 1], False, 0.0, 0.0)
    return _scale_in_place(em, s, 1.0 / (divisor or kernel[0] * kernel[1]))


@lowers(aten._adaptive_avg_pool2d.default)
def lower_adaptive_avg_pool(em, args, kwargs, node):
    x, out = args[0], list(args[1])
    if out == [1, 1]:
        return em.keepdim(_scale_in_place(em, _sum(em, x, [2, 3], False),
                                          1.0 / (x.shape[2] * x.shape[3])), x.shape, [2, 3])
    h, w = x.shape[2:]
    if h % out[0] or w % out[1]:
        raise UnsupportedOp("aten._adaptive_avg_pool2d with non-divisible sizes")
    k = [h // out[0], w // out[1]]
    s = _pool(em, x, "sum", k, k, [0, 0], [1, 1], False, 0.0, 0.0)
    return _scale_in_place(em, s, 1.0 / (k[0] * k[1]))


@lowers(aten.upsample_bilinear2d.vec, aten.upsample_nearest2d.vec)
def lower_upsample(em, args, kwargs, node):
    x = em.materialize(args[0])
    nearest = node.target == aten.upsample_nearest2d.vec
    if nearest:
        size, scales = args[1], args[2]
        align = False
    else:
        size, align, scales = args[1], args[2], args[3]
    n, c, h, w = x.shape
    if size is None:
        size = [int(math.floor(h * scales[0])), int(math.floor(w * scales[1]))]
    oh, ow = size
    # PyTorch's scale: input/output size (or 1/scale_factor when given).
    def scale(i, o, k):
        if align:
            return (i - 1) / (o - 1) if o > 1 else 0.0
        if scales is not None:
            return 1.0 / scales[k]
        return i / o
    sh, sw = scale(h, oh, 0), scale(w, ow, 1)

    def body(b, ins, out):
        def coord(dim, sc, insize):
            i = b.raw(f"linalg.index {dim} : index")
            ii = b.op(f"arith.index_cast {i}", "index to i32")
            fi = b.op(f"arith.sitofp {ii}", "i32 to f32")
            if nearest:
                src = b.mul(fi, b.const(sc))
                i0 = b.op(f"arith.fptosi {src}", "f32 to i32")
                i0 = b.op(f"arith.minsi {i0}, {b.op(f'arith.constant {insize - 1}', 'i32')}", "i32")
                return [b.op(f"arith.index_cast {i0}", "i32 to index")], None
            if align:
                src = b.mul(fi, b.const(sc))
            else:
                src = b.max(b.sub(b.mul(b.add(fi, b.const(0.5)), b.const(sc)), b.const(0.5)),
                            b.const(0.0))
            i0 = b.op(f"arith.fptosi {src}", "f32 to i32")
            f0 = b.op(f"arith.sitofp {i0}", "i32 to f32")
            lam = b.sub(src, f0)
            one = b.op("arith.constant 1", "i32")
            hi = b.op(f"arith.constant {insize - 1}", "i32")
            i1 = b.op(f"arith.minsi {b.op(f'arith.addi {i0}, {one}', 'i32')}, {hi}", "i32")
            return [b.op(f"arith.index_cast {i0}", "i32 to index"),
                    b.op(f"arith.index_cast {i1}", "i32 to index")], lam
        n_i = b.raw("linalg.index 0 : index")
        c_i = b.raw("linalg.index 1 : index")
        hs, lh = coord(2, sh, h)
        ws, lw = coord(3, sw, w)
        tt = ttype(x.shape)
        def at(hh, ww):
            return b.raw(f"tensor.extract {x.ssa}[{n_i}, {c_i}, {hh}, {ww}] : {tt}")
        if nearest:
            return at(hs[0], ws[0])
        one = b.const(1.0)
        top = b.add(b.mul(at(hs[0], ws[0]), b.sub(one, lw)), b.mul(at(hs[0], ws[1]), lw))
        bot = b.add(b.mul(at(hs[1], ws[0]), b.sub(one, lw)), b.mul(at(hs[1], ws[1]), lw))
        return b.add(b.mul(top, b.sub(one, lh)), b.mul(bot, lh))
    return em.generic([n, c, oh, ow], [], body)


@lowers(aten.upsample_bilinear2d_backward.vec)
def lower_upsample_bilinear_backward(em, args, kwargs, node):
    """The adjoint of the bilinear gather, separably: with W[o, i] the weight
    of input row i in output row o (the forward's formula: 1 - lambda at i0,
    lambda at i1), grad_in = Wh^T . grad_out . Ww, as two reduction generics
    (over the output columns, then rows) that compute the weights from
    linalg.index."""
    go, out_size, in_size, align, scales = args[:5]
    go = em.materialize(go)
    n, c, h, w = [int(d) for d in in_size]
    oh, ow = go.shape[2:]

    def scale(i, o, k):
        if align:
            return (i - 1) / (o - 1) if o > 1 else 0.0
        if scales is not None:
            return 1.0 / scales[k]
        return i / o
    sh, sw = scale(h, oh, 0), scale(w, ow, 1)

    def weight(b, o_loop, i_loop, sc, insize):
        """W[o, i] as the forward computes lambda (same f32 operations)."""
        o = b.raw(f"linalg.index {o_loop} : index")
        oi = b.op(f"arith.index_cast {o}", "index to i32")
        fo = b.op(f"arith.sitofp {oi}", "i32 to f32")
        if align:
            src = b.mul(fo, b.const(sc))
        else:
            src = b.max(b.sub(b.mul(b.add(fo, b.const(0.5)), b.const(sc)), b.const(0.5)),
                        b.const(0.0))
        i0 = b.op(f"arith.fptosi {src}", "f32 to i32")
        lam = b.sub(src, b.op(f"arith.sitofp {i0}", "i32 to f32"))
        one = b.op("arith.constant 1", "i32")
        hi = b.op(f"arith.constant {insize - 1}", "i32")
        i1 = b.op(f"arith.minsi {b.op(f'arith.addi {i0}, {one}', 'i32')}, {hi}", "i32")
        i = b.raw(f"linalg.index {i_loop} : index")
        ii = b.op(f"arith.index_cast {i}", "index to i32")
        zero = b.const(0.0)
        at0 = b.op(f"arith.cmpi eq, {ii}, {i0}", "i32")
        at1 = b.op(f"arith.cmpi eq, {ii}, {i1}", "i32")
        w0 = b.op(f"arith.select {at0}, {b.sub(b.const(1.0), lam)}, {zero}", "f32")
        w1 = b.op(f"arith.select {at1}, {lam}, {zero}", "f32")
        return b.add(w0, w1)
    # t[n, c, y, j] = sum_x go[n, c, y, x] * Ww[x, j]   (loops n, c, y, j, x)
    acc = em.fill(0.0, [n, c, oh, w])
    t = em.generic(acc.shape, [go], lambda b, i, o: b.add(b.mul(i[0], weight(b, 4, 3, sw, w)), o),
                   loop_rank=5, iterators=["parallel"] * 4 + ["reduction"],
                   out_exprs=ident(4), init=acc, in_exprs=[["d0", "d1", "d2", "d4"]])
    # gi[n, c, i, j] = sum_y Wh[y, i] * t[n, c, y, j]   (loops n, c, i, j, y)
    acc = em.fill(0.0, [n, c, h, w])
    return em.generic(acc.shape, [t], lambda b, i, o: b.add(b.mul(i[0], weight(b, 4, 2, sh, h)), o),
                      loop_rank=5, iterators=["parallel"] * 4 + ["reduction"],
                      out_exprs=ident(4), init=acc, in_exprs=[["d0", "d1", "d4", "d3"]])


@lowers(aten.mse_loss.default)
def lower_mse_loss(em, args, kwargs, node):
    a, b = args[0], args[1]
    red = args[2] if len(args) > 2 else 1
    d = elementwise(em, [a, b], lambda bd, v: bd.mul(bd.sub(v[0], v[1]), bd.sub(v[0], v[1])))
    if red == 0:
        return d
    s = _sum(em, d, None, False)
    return _scale_in_place(em, s, 1.0 / math.prod(a.shape)) if red == 1 else s


# ===----------------------------------------------------------------------===#
# Tracing and export
# ===----------------------------------------------------------------------===#


# Decomposed at trace time in training steps (into sum reductions and
# elementwise aten ops that have lowerings): the layer norm backward. (The
# layer norm forward keeps its lowering, which also returns the saved mean and
# rstd when the backward reads them; batch norm in training mode and its
# backward have lowerings: decomposed, each batch norm became ~30 generics.)
TRAIN_DECOMPOSITIONS = [aten.native_layer_norm_backward]


def trace(fn, example_inputs, decompositions=None):
    """make_fx + functionalize: an aten graph with value semantics.
    decompositions: aten ops (packets) to decompose with torch._decomp."""
    kw = {}
    if decompositions:
        import torch._decomp
        kw["decomposition_table"] = torch._decomp.get_decompositions(decompositions)
    g = make_fx(functionalize(fn, remove="mutations"), **kw)(*example_inputs)
    g.graph.eliminate_dead_code()
    g.recompile()
    return g


def inference_fn(model):
    """(fn(x..., *params), param names, param tensors) for an eval-mode model."""
    model.eval()
    named = [(n, t) for n, t in list(model.named_parameters()) + list(model.named_buffers())
             if t.is_floating_point()]
    names = [n for n, _ in named]

    def fn(*tensors):
        k = len(tensors) - len(names)
        out = functional_call(model, dict(zip(names, tensors[k:])), tuple(tensors[:k]))
        if isinstance(out, dict):
            out = out["out"]
        return out
    return fn, names, [t.detach() for _, t in named]


def to_mlir(gm, arg_names, source=""):
    """Lower a traced GraphModule to the text of a module with @forward."""
    em = Emitter()
    env = {}
    sig = []
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(arg_names):
        raise ValueError(f"{len(placeholders)} placeholders but {len(arg_names)} names")
    for node, nm in zip(placeholders, arg_names):
        t = _meta(node)
        if t is None:
            raise UnsupportedOp(f"placeholder {node.name} has no tensor metadata")
        if t.dtype != torch.float32:
            raise UnsupportedOp(f"argument {nm} has dtype {t.dtype} (only float32)")
        ssa = "%" + _ssa_name(nm)
        env[node] = Val(ssa, t.shape)
        sig.append(f"{ssa}: {ttype(t.shape)}")

    def load(a):
        if isinstance(a, torch.fx.Node):
            return env[a]
        if isinstance(a, (list, tuple)):
            return type(a)(load(x) for x in a)
        return a

    outputs = None
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            continue
        if node.op == "output":
            outputs = load(node.args[0])
            continue
        if node.op == "get_attr":
            t = getattr(gm, node.target)
            if t.numel() != 1:
                raise UnsupportedOp(f"constant tensor {node.target} of shape {tuple(t.shape)}")
            env[node] = em.fill(float(t.item()), list(t.shape))
            continue
        if node.op != "call_function":
            raise UnsupportedOp(f"fx node kind {node.op} ({node.target})")
        if node.target is operator.getitem:
            env[node] = load(node.args[0])[node.args[1]]
            continue
        lower = LOWERINGS.get(node.target)
        if lower is None:
            raise UnsupportedOp(f"no lowering for aten op {node.target} (node {node.name})")
        args, kwargs = load(node.args), {k: load(v) for k, v in node.kwargs.items()}
        res = lower(em, list(args), kwargs, node)
        _check_meta(node, res)
        env[node] = res

    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    outs = [em.materialize(o) for o in outs]
    header = [f"// Generated by bench/models/export.py from {source}.",
              "// Arguments: " + ", ".join(arg_names) + "."]
    text = "\n".join(header) + "\nmodule {\n"
    text += (f"  func.func @forward({', '.join(sig)}) -> ("
             + ", ".join(ttype(o.shape) for o in outs) + ") {\n")
    text += "\n".join(em.lines) + "\n"
    text += ("    return " + ", ".join(o.ssa for o in outs) + " : "
             + ", ".join(ttype(o.shape) for o in outs) + "\n  }\n}\n")
    return text


def _meta(node):
    """Shape/dtype metadata (TensorMetadata or a tensor) of a single-output node."""
    m = node.meta.get("val", node.meta.get("tensor_meta"))
    return m if hasattr(m, "shape") and hasattr(m, "dtype") else None


def _check_meta(node, res):
    meta = _meta(node)
    if meta is not None and isinstance(res, Val):
        if tuple(meta.shape) != res.shape:
            raise AssertionError(f"{node.name}: lowered shape {res.shape} != torch {tuple(meta.shape)}")
        if meta.dtype != torch.float32:
            raise UnsupportedOp(f"{node.target} produces {meta.dtype} (only float32)")


def _ssa_name(name):
    s = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return "a_" + s if not s[:1].isalpha() else s


# ===----------------------------------------------------------------------===#
# Driver
# ===----------------------------------------------------------------------===#


def export(name, out_dir):
    import networks
    spec = {**networks.SPECS, **networks.SPECS_224}[name]
    fn, arg_names, inputs, source = spec.build()
    gm = trace(fn, inputs, TRAIN_DECOMPOSITIONS if spec.train else None)
    text = to_mlir(gm, arg_names, source)
    path = os.path.join(out_dir, f"{name}.tensor.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import networks
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--list-224", action="store_true",
                    help="the networks at 224x224 (generate.sh --224)")
    opts = ap.parse_args()
    if opts.list:
        print("\n".join(networks.SPECS))
        return 0
    if opts.list_224:
        print("\n".join(networks.SPECS_224))
        return 0
    torch.manual_seed(0)
    rc = 0
    for name in opts.names or list(networks.SPECS):
        try:
            path = export(name, opts.out_dir)
            print(f"exported {name} -> {path}")
        except UnsupportedOp as e:
            print(f"error: {name}: unsupported: {e}", file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
