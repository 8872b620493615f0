#!/usr/bin/env python3
# ===- random_program.py - random lowered memref programs ------------------===#
#
# Prints one random, valid, lowered (post-bufferization) memref program: a
# `func.func @f` over static f32 memrefs, made to stress the dependency analysis
# of --memsched-schedule. Deterministic in --seed; python3 stdlib only.
#
# The generator simulates the program while it writes it: it knows, for every
# buffer, which elements are initialised (no op ever reads memory that was not
# written, so two runs of a correct reordering hash identically), which buffer
# every view points into and which elements it covers. It does not try to know
# the dependencies: the differential run (run_fuzz.py) is the oracle.
#
# What a program holds (see README.md): memref arguments (some llvm.noalias),
# fresh allocations written by linalg.fill/copy/add/sub/mul/generic and
# memref.copy, reads of earlier buffers, in-place update chains, disjoint
# (concatenation) and overlapping slice writes through chains of views
# (subview, expand_shape, collapse_shape, cast, reinterpret_cast, transpose),
# scf.for loops (row maps, scalar load/store, accumulation, transient
# alloc/dealloc inside, iter_args ping-pong), scf.if on constant conditions
# (with and without memref results), memref.load/store of scalars, writes to
# the arguments, deallocations right after the last use or later, and
# returned buffers.
#
# Usage: random_program.py --seed N [--min-ops A] [--max-ops B] [-o FILE]
#
# ===-----------------------------------------------------------------------===#

import argparse
import itertools
import random
import sys

SHAPES_1D = [(32,), (64,), (96,), (128,), (256,), (512,), (1024,)]
SHAPES_2D = [(4, 8), (8, 8), (8, 16), (16, 8), (16, 16), (4, 32), (12, 16),
             (32, 32), (16, 64), (24, 24)]
BIG_SHAPES = [(2048,), (4096,), (64, 64), (32, 128)]


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def canonical_strides(shape):
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= d
    return list(reversed(strides))


def fmt_float(x):
    return repr(float(x)) if "e" not in repr(float(x)) else "%.6e" % x


# ===----------------------------------------------------------------------===#
# Values
# ===----------------------------------------------------------------------===#


class Root:
    """A buffer: a memref argument or an allocation of the function."""

    def __init__(self, name, shape, kind, noalias=False, align=None):
        self.name = name
        self.shape = tuple(shape)
        self.numel = prod(shape)
        self.kind = kind  # "arg" | "alloc"
        self.noalias = noalias
        self.align = align
        self.init = bytearray([1 if kind == "arg" else 0]) * self.numel
        self.live = True          # not deallocated
        self.consumed = kind == "arg"  # its data reached another buffer
        self.returned = False
        self.writable = True
        self.arena = False
        self.byte_type = None
        self.dead = False  # allocated, never accessed
        # Row lengths of 2-D views made of this buffer so far.
        self.row_strides = {shape[1]} if len(shape) == 2 else set()
        self.value = None


class Value:
    """An SSA memref value: a root or a view of one, with a static layout."""

    def __init__(self, ssa, root, shape, strides, offset, dyn=False,
                 identity=False, shift=0):
        self.ssa = ssa
        # Elements between the root's first element and this value's base
        # pointer (memref.view into a byte buffer moves the base pointer).
        self.shift = shift
        self.root = root
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.offset = offset  # actual offset (also when the type says '?')
        self.dyn = dyn
        self.identity = identity
        self._elems = None

    @property
    def type(self):
        return memref_type(self.shape, self.strides, self.offset, self.dyn,
                           self.identity)

    def elements(self):
        if self._elems is None:
            ranges = [range(n) for n in self.shape]
            self._elems = [self.shift + self.offset + sum(i * s for i, s in
                                             zip(idx, self.strides))
                           for idx in itertools.product(*ranges)]
        return self._elems

    def same_layout(self, other):
        return (self.root is other.root and self.shape == other.shape and
                self.strides == other.strides and
                self.offset + self.shift == other.offset + other.shift)


def has_identity_map(v):
    """Whether the layout of v's type is the identity map (expand_shape and
    collapse_shape then produce identity layouts): no layout, or the 1-D
    `strided<[1]>`."""
    return v.identity or (len(v.shape) == 1 and v.strides == (1,) and
                          v.offset == 0 and not v.dyn)


def wraps(v):
    """Whether v is a box with nested strides whose rows straddle the row grid
    of those strides (test/Fuzz/failures/overlapping-views-wrapped-rows.mlir:
    the analysis then wrongly calls overlapping boxes disjoint)."""
    if v.dyn or v.shift:
        return False
    dims = [(n, s) for n, s in zip(v.shape, v.strides) if n != 1]
    offset = v.offset
    coords = []
    for i, (n, s) in enumerate(dims):
        if s <= 0:
            return False
        if i + 1 < len(dims):
            n2, s2 = dims[i + 1]
            if s % s2 or s < n2 * s2:
                return False
        coords.append(offset // s)
        offset %= s
    if offset:
        return False
    for i in range(1, len(dims)):
        if coords[i] + dims[i][0] > dims[i - 1][1] // dims[i][1]:
            return True
    return False


def memref_type(shape, strides, offset, dyn, identity):
    elt = "x".join(str(d) for d in shape) + "xf32" if shape else "f32"
    if identity:
        return "memref<%s>" % elt
    s = ", ".join(str(x) for x in strides)
    if dyn:
        return "memref<%s, strided<[%s], offset: ?>>" % (elt, s)
    if offset == 0:
        return "memref<%s, strided<[%s]>>" % (elt, s)
    return "memref<%s, strided<[%s], offset: %d>>" % (elt, s, offset)


# ===----------------------------------------------------------------------===#
# Generator
# ===----------------------------------------------------------------------===#


class Gen:
    def __init__(self, seed, min_ops, max_ops, calls=False, avoid=()):
        self.rng = random.Random(seed)
        self.seed = seed
        # The last statement and the closing deallocations overshoot the
        # target by up to ~15 ops: aim below max_ops.
        self.target = self.rng.randint(min_ops, max(min_ops, max_ops - 12))
        self.counter = 0
        self.lines = []
        self.indent = 1
        self.top_ops = 0
        self.roots = []
        self.args = []
        self.deferred = []   # roots whose dealloc is placed later
        self.results = []    # Values returned
        self.index_consts = {}
        self.features = set()
        # Row length 2-D views should use, when set (sibling views).
        self.row_hint = None
        # Probability knobs drawn per program, so programs differ in style.
        self.p_big = self.rng.choice([0.0, 0.1, 0.25])
        self.p_defer = self.rng.choice([0.0, 0.2, 0.5])
        self.p_align = self.rng.choice([0.0, 0.3])
        self.p_fancy_view = self.rng.choice([0.3, 0.6, 0.9])
        self.p_arena = self.rng.choice([0.0, 0.0, 0.15])
        self.avoid = set(avoid)
        self.calls = calls
        self.helpers = []        # helper function texts (--calls)
        self.need_print = False  # printMemrefF32 declared

    # ---- emission helpers ------------------------------------------------
    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def emit(self, line, top_op=False):
        self.lines.append("  " * self.indent + line)
        if top_op and self.indent == 1:
            self.top_ops += 1

    def idx(self, k):
        if k not in self.index_consts:
            self.index_consts[k] = "%%c%d" % k
        return self.index_consts[k]

    def fconst(self, x):
        name = self.fresh("cst")
        self.emit("%s = arith.constant %s : f32" % (name, fmt_float(x)))
        return name

    def coef(self):
        return self.rng.choice([0.5, 0.25, 0.75, -0.5, 1.5, 0.125, -1.25, 2.0])

    # ---- views -----------------------------------------------------------
    def v_subview(self, v, offsets, sizes, steps, reduce_unit=False):
        new_off = v.offset + sum(o * s for o, s in zip(offsets, v.strides))
        shape, strides = [], []
        for sz, st, s in zip(sizes, steps, v.strides):
            if reduce_unit and sz == 1:
                continue
            shape.append(sz)
            strides.append(s * st)
        res = Value(self.fresh("sv"), v.root, shape, strides, new_off, v.dyn,
                    shift=v.shift)
        self.emit("%s = memref.subview %s[%s] [%s] [%s] : %s to %s" % (
            res.ssa, v.ssa, ", ".join(map(str, offsets)),
            ", ".join(map(str, sizes)), ", ".join(map(str, steps)), v.type,
            res.type))
        self.features.add("subview")
        return res

    def v_expand(self, v, dim, parts):
        """Expands dimension `dim` of v into `parts` (product = size)."""
        assert prod(parts) == v.shape[dim]
        shape, strides, reassoc, k = [], [], [], 0
        for d, (n, s) in enumerate(zip(v.shape, v.strides)):
            if d == dim:
                group = []
                inner = s
                sub = []
                for p in reversed(parts):
                    sub.append(inner)
                    inner *= p
                sub.reverse()
                for p, st in zip(parts, sub):
                    shape.append(p)
                    strides.append(st)
                    group.append(k)
                    k += 1
                reassoc.append(group)
            else:
                shape.append(n)
                strides.append(s)
                reassoc.append([k])
                k += 1
        identity = has_identity_map(v)
        res = Value(self.fresh("ex"), v.root, shape, strides, v.offset, v.dyn,
                    identity, shift=v.shift)
        self.emit("%s = memref.expand_shape %s %s output_shape [%s] : %s "
                  "into %s" % (res.ssa, v.ssa, str(reassoc),
                               ", ".join(map(str, shape)), v.type, res.type))
        self.features.add("expand_shape")
        return res

    def v_collapse(self, v, groups):
        shape, strides = [], []
        for g in groups:
            for a, b in zip(g, g[1:]):
                if v.strides[a] != v.strides[b] * v.shape[b]:
                    return None
            shape.append(prod(v.shape[d] for d in g))
            strides.append(v.strides[g[-1]])
        res = Value(self.fresh("co"), v.root, shape, strides, v.offset, v.dyn,
                    has_identity_map(v), shift=v.shift)
        self.emit("%s = memref.collapse_shape %s %s : %s into %s" % (
            res.ssa, v.ssa, str([list(g) for g in groups]), v.type, res.type))
        self.features.add("collapse_shape")
        return res

    def v_flat(self, v):
        if len(v.shape) == 1:
            return v
        return self.v_collapse(v, [list(range(len(v.shape)))])

    def v_transpose(self, v):
        assert len(v.shape) == 2
        res = Value(self.fresh("tr"), v.root, v.shape[::-1], v.strides[::-1],
                    v.offset, v.dyn, shift=v.shift)
        self.emit("%s = memref.transpose %s (d0, d1) -> (d1, d0) : %s to %s" % (
            res.ssa, v.ssa, v.type, res.type))
        self.features.add("transpose")
        return res

    def v_cast_dyn(self, v):
        res = Value(self.fresh("ca"), v.root, v.shape, v.strides, v.offset,
                    True, shift=v.shift)
        self.emit("%s = memref.cast %s : %s to %s" % (res.ssa, v.ssa, v.type,
                                                     res.type))
        self.features.add("cast")
        return res

    def v_reinterpret(self, v, offset, sizes, strides):
        res = Value(self.fresh("rc"), v.root, sizes, strides, offset, False,
                    shift=v.shift)
        self.emit("%s = memref.reinterpret_cast %s to offset: [%d], "
                  "sizes: [%s], strides: [%s] : %s to %s" % (
                      res.ssa, v.ssa, offset, ", ".join(map(str, sizes)),
                      ", ".join(map(str, strides)), v.type, res.type))
        self.features.add("reinterpret_cast")
        return res

    def any_alias(self, root):
        """The root, or occasionally a same-layout alias of it."""
        v = root.value
        r = self.rng.random()
        if r < 0.1 and len(v.shape) == 2:
            v = self.v_expand(self.v_collapse(v, [[0, 1]]), 0, list(v.shape))
        elif r < 0.2:
            v = self.v_cast_dyn(v)
        return v

    def make_view(self, root, shape, read):
        """A view of `root` with shape `shape`, or None. With `read`, every
        element it covers is initialised."""
        for _ in range(6):
            v = self._try_view(root, tuple(shape))
            if v is None:
                continue
            if max(v.elements()) >= root.numel or min(v.elements()) < 0:
                raise AssertionError("view out of bounds")
            if read and not all(root.init[e] for e in v.elements()):
                continue
            if "wrapped-rows" in self.avoid and wraps(v):
                continue
            return v
        return None

    def _try_view(self, root, shape):
        rng = self.rng
        n = prod(shape)
        N = root.numel
        R = root.shape
        fancy = rng.random() < self.p_fancy_view
        base = root.value
        if R == shape and (not fancy or rng.random() < 0.4):
            return self.any_alias(root) if fancy else base
        if n > N:
            return None
        strategies = []
        if n == N:
            strategies += ["reshape"] * 3
        strategies += ["slice1d"] * 3
        if len(R) == 2 and len(shape) == 2 and shape[0] <= R[0] and \
                shape[1] <= R[1]:
            strategies += ["slice2d"] * 3
        if len(R) == 2 and len(shape) == 1 and shape[0] <= R[1]:
            strategies += ["row"] * 2
        if len(shape) == 2:
            strategies += ["chain"] * (3 if fancy else 1)
            strategies += ["reinterpret2d"] * (2 if fancy else 0)
            strategies += ["transpose"] * (2 if fancy else 0)
            if shape[1] % 2 == 0 and shape[1] >= 4:
                strategies += ["detour3d"] * (1 if fancy else 0)
        else:
            strategies += ["reinterpret1d"] * (1 if fancy else 0)
        if not strategies:
            return None
        if root.arena and fancy:
            strategies += ["byteview"] * 3
        s = rng.choice(strategies)
        k_hint = self.row_hint
        if k_hint and len(shape) == 2 and shape[1] <= k_hint and \
                shape[0] * k_hint <= N:
            # Sibling views with one row length: boxes with equal strides.
            s = rng.choice(["chain", "chain", "reinterpret2d"] +
                           (["slice2d"] if len(R) == 2 and R[1] == k_hint
                            else []))
        if s == "byteview":
            off = rng.randint(0, N - n)
            res = Value(self.fresh("bv"), root, shape, canonical_strides(shape),
                        0, False, True, shift=off)
            self.emit("%s = memref.view %s[%s][] : %s to %s" % (
                res.ssa, root.name, self.idx(4 * off), root.byte_type,
                res.type))
            self.features.add("memref.view")
            return res
        if s == "reshape":
            if rng.random() < 0.3:
                return self.v_reinterpret(base, 0, list(shape),
                                          canonical_strides(shape))
            flat = self.v_flat(base)
            if len(shape) == 1:
                return flat
            return self.v_expand(flat, 0, list(shape))
        if s == "slice1d":
            flat = self.v_flat(base)
            step = 2 if (rng.random() < 0.25 and (n - 1) * 2 < N) else 1
            span = (n - 1) * step + 1
            off = rng.randint(0, N - span)
            if rng.random() < 0.5:
                off -= off % min(n, 16)
            sv = self.v_subview(flat, [off], [n], [step])
            if len(shape) == 2:
                return self.v_expand(sv, 0, list(shape))
            return sv
        if s == "slice2d":
            steps = [1, 1]
            for d in range(2):
                if rng.random() < 0.2 and (shape[d] - 1) * 2 < R[d]:
                    steps[d] = 2
            offs = [rng.randint(0, R[d] - ((shape[d] - 1) * steps[d] + 1))
                    for d in range(2)]
            return self.v_subview(base, offs, list(shape), steps)
        if s == "row":
            i = rng.randrange(R[0])
            j = rng.randint(0, R[1] - shape[0])
            return self.v_subview(base, [i, j], [1, shape[0]], [1, 1],
                                  reduce_unit=True)
        if s == "chain":
            # subview (1-D) -> expand_shape [m/k, k] -> subview [r, c]: a box
            # whose rows need not line up with the root's rows.
            r, c = shape
            ks = [k for k in range(c, min(N, 4 * c) + 1) if k >= 2]
            rng.shuffle(ks)
            # Row lengths used before on this root first: views with equal
            # strides are the ones the analysis compares box by box.
            seen = [k for k in root.row_strides if c <= k <= N]
            if seen and rng.random() < 0.7:
                ks = [rng.choice(seen)] + ks
            if k_hint and c <= k_hint:
                ks = [k_hint]
            for k in ks[:8]:
                rows_max = N // k
                if rows_max < r:
                    continue
                rows = rng.randint(r, rows_max)
                m = rows * k
                off = rng.randint(0, N - m)
                flat = self.v_flat(base)
                sv = self.v_subview(flat, [off], [m], [1])
                ex = self.v_expand(sv, 0, [rows, k])
                a = rng.randint(0, rows - r)
                b = rng.randint(0, k - c)
                wrap_from = k - c - off % k + 1
                if 0 < wrap_from <= k - c and rng.random() < 0.5:
                    # Rows of the box that straddle the root's row grid.
                    b = rng.randint(wrap_from, k - c)
                root.row_strides.add(k)
                return self.v_subview(ex, [a, b], [r, c], [1, 1])
            return None
        if s == "reinterpret2d":
            r, c = shape
            k = rng.randint(c, max(c, min(2 * c + 3, (N - c) // max(r - 1, 1))))
            seen = [k for k in root.row_strides if k >= c]
            if seen and rng.random() < 0.5:
                k = rng.choice(seen)
            if k_hint and c <= k_hint:
                k = k_hint
            span = (r - 1) * k + c
            if span > N:
                return None
            off = rng.randint(0, N - span)
            src = base
            if rng.random() < 0.5 and len(R) == 2:
                src = self.v_subview(base, [rng.randrange(R[0]), 0],
                                     [1, R[1]], [1, 1])
            root.row_strides.add(k)
            return self.v_reinterpret(src, off, [r, c], [k, 1])
        if s == "reinterpret1d":
            step = 2 if (n - 1) * 2 < N and rng.random() < 0.5 else 1
            span = (n - 1) * step + 1
            off = rng.randint(0, N - span)
            return self.v_reinterpret(base, off, [n], [step])
        if s == "transpose":
            inner = self._try_view(root, (shape[1], shape[0]))
            if inner is None or len(inner.shape) != 2:
                return None
            return self.v_transpose(inner)
        if s == "detour3d":
            inner = self._try_view(root, shape)
            if inner is None or len(inner.shape) != 2:
                return None
            e = self.v_expand(inner, 1, [2, shape[1] // 2])
            return self.v_collapse(e, [[0], [1, 2]])
        return None

    # ---- choosing operands -----------------------------------------------
    def live_roots(self, readable=False):
        out = [r for r in self.roots if r.live and not r.dead]
        if readable:
            out = [r for r in out if any(r.init)]
        return out

    def pick_input(self, shape, exclude=()):
        """A readable view of shape `shape`, preferring buffers whose data has
        not reached another buffer yet."""
        cands = [r for r in self.live_roots(readable=True)
                 if r.numel >= prod(shape) and r not in exclude]
        if not cands:
            return None
        fresh = [r for r in cands if not r.consumed]
        self.rng.shuffle(cands)
        order = fresh + cands if fresh and self.rng.random() < 0.7 else cands
        for r in order[:5]:
            v = self.make_view(r, shape, read=True)
            if v is not None:
                return v
        return None

    def pick_output(self, shape, exclude=()):
        cands = [r for r in self.live_roots()
                 if r.writable and r.numel >= prod(shape) and
                 r not in exclude]
        self.rng.shuffle(cands)
        for r in cands[:5]:
            v = self.make_view(r, shape, read=False)
            if v is not None:
                return v
        return None

    def random_shape(self, big_ok=True):
        if big_ok and self.rng.random() < self.p_big:
            return self.rng.choice(BIG_SHAPES)
        if self.rng.random() < 0.5:
            return self.rng.choice(SHAPES_1D)
        return self.rng.choice(SHAPES_2D)

    def shape_of_some_root(self):
        cands = self.live_roots(readable=True)
        if cands and self.rng.random() < 0.6:
            r = self.rng.choice(cands)
            if self.rng.random() < 0.5:
                return r.shape
            # a smaller shape that fits in it
            opts = [s for s in SHAPES_1D + SHAPES_2D if prod(s) <= r.numel]
            if opts:
                return self.rng.choice(opts)
        return self.random_shape()

    # ---- compute ops -----------------------------------------------------
    def overlaps_badly(self, out, ins):
        oe = set(out.elements())
        for v in ins:
            if v.root is not out.root:
                continue
            if v.same_layout(out):
                continue
            if oe.intersection(v.elements()):
                return True
        return False

    def mark_write(self, out, ins):
        for e in out.elements():
            out.root.init[e] = 1
        for v in ins:
            if v.root is not out.root:
                v.root.consumed = True

    def generic(self, ins, out, mode):
        """linalg.generic over ins -> out. mode: scale | axpby | accum."""
        rank = len(out.shape)
        dims = ", ".join("d%d" % i for i in range(rank))
        idmap = "affine_map<(%s) -> (%s)>" % (dims, dims)
        maps = ", ".join([idmap] * (len(ins) + 1))
        iters = ", ".join(['"parallel"'] * rank)
        ins_s = ", ".join(v.ssa for v in ins)
        ins_t = ", ".join(v.type for v in ins)
        self.emit("linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                  " ins(%s : %s) outs(%s : %s) {" % (
                      maps, iters, ins_s, ins_t, out.ssa, out.type),
                  top_op=True)
        args = ", ".join("%%in%d: f32" % i for i in range(len(ins)))
        self.emit("^bb0(%s, %%out: f32):" % args)
        self.indent += 1
        c1 = self.fresh("k")
        self.emit("%s = arith.constant %s : f32" % (c1, fmt_float(self.coef())))
        t = self.fresh("t")
        self.emit("%s = arith.mulf %%in0, %s : f32" % (t, c1))
        acc = t
        if mode == "axpby" and len(ins) > 1:
            c2 = self.fresh("k")
            self.emit("%s = arith.constant %s : f32" % (c2,
                                                        fmt_float(self.coef())))
            t2 = self.fresh("t")
            self.emit("%s = arith.mulf %%in1, %s : f32" % (t2, c2))
            acc2 = self.fresh("t")
            self.emit("%s = arith.addf %s, %s : f32" % (acc2, acc, t2))
            acc = acc2
        if mode == "accum":
            c3 = self.fresh("k")
            self.emit("%s = arith.constant %s : f32" % (c3,
                                                        fmt_float(self.coef())))
            t3 = self.fresh("t")
            self.emit("%s = arith.mulf %%out, %s : f32" % (t3, c3))
            acc3 = self.fresh("t")
            self.emit("%s = arith.addf %s, %s : f32" % (acc3, acc, t3))
            acc = acc3
        self.emit("linalg.yield %s : f32" % acc)
        self.indent -= 1
        self.emit("}")
        self.features.add("linalg.generic")

    def compute_into(self, out, allow_fill=True, in_place_ok=True):
        """Writes every element of `out` from inputs of its shape (or a
        constant). Returns False when no operands fit."""
        rng = self.rng
        shape = out.shape
        kinds = ["copy", "binary", "generic1", "generic2", "memcopy"]
        if allow_fill:
            kinds += ["fill", "fill_loaded"]
        if in_place_ok and all(out.root.init[e] for e in out.elements()):
            kinds += ["accum", "accum", "inplace_binary"]
        rng.shuffle(kinds)
        for kind in kinds:
            if kind == "fill":
                c = self.fconst(self.coef())
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    c, out.ssa, out.type), top_op=True)
                self.features.add("linalg.fill")
                self.mark_write(out, [])
                return True
            if kind == "fill_loaded":
                src = self.pick_input(shape)
                if src is None or self.overlaps_badly(out, [src]):
                    continue
                x = self.load_scalar(src)
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    x, out.ssa, out.type), top_op=True)
                self.features.add("linalg.fill")
                self.mark_write(out, [src])
                return True
            if kind in ("copy", "memcopy"):
                a = self.pick_input(shape, exclude=())
                if a is None or self.overlaps_badly(out, [a]) or \
                        a.same_layout(out):
                    continue
                if kind == "copy":
                    self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
                        a.ssa, a.type, out.ssa, out.type), top_op=True)
                    self.features.add("linalg.copy")
                elif rng.random() < 0.2:
                    # Through unranked memrefs.
                    ua, uo = self.fresh("ua"), self.fresh("uo")
                    self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                        ua, a.ssa, a.type))
                    self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                        uo, out.ssa, out.type))
                    self.emit("memref.copy %s, %s : memref<*xf32> to "
                              "memref<*xf32>" % (ua, uo), top_op=True)
                    self.features.add("memref.copy-unranked")
                else:
                    self.emit("memref.copy %s, %s : %s to %s" % (
                        a.ssa, out.ssa, a.type, out.type), top_op=True)
                    self.features.add("memref.copy")
                self.mark_write(out, [a])
                return True
            if kind == "binary":
                a = self.pick_input(shape)
                b = self.pick_input(shape)
                if a is None or b is None or self.overlaps_badly(out, [a, b]):
                    continue
                # Asymmetric: scale first (arguments hold equal data).
                op = rng.choice(["add", "sub", "mul"])
                self.emit("linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
                    op, a.ssa, b.ssa, a.type, b.type, out.ssa, out.type),
                    top_op=True)
                self.features.add("linalg." + op)
                self.mark_write(out, [a, b])
                return True
            if kind == "generic1":
                a = self.pick_input(shape)
                if a is None or self.overlaps_badly(out, [a]):
                    continue
                self.generic([a], out, "scale")
                self.mark_write(out, [a])
                return True
            if kind == "generic2":
                a = self.pick_input(shape)
                b = self.pick_input(shape)
                if a is None or b is None or self.overlaps_badly(out, [a, b]):
                    continue
                self.generic([a, b], out, "axpby")
                self.mark_write(out, [a, b])
                return True
            if kind == "accum":
                a = self.pick_input(shape)
                if a is None or self.overlaps_badly(out, [a]):
                    continue
                self.generic([a], out, "accum")
                self.mark_write(out, [a])
                self.features.add("in-place")
                return True
            if kind == "inplace_binary":
                a = self.pick_input(shape, exclude=(out.root,))
                if a is None:
                    continue
                op = rng.choice(["add", "sub", "mul"])
                self.emit("linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
                    op, out.ssa, a.ssa, out.type, a.type, out.ssa, out.type),
                    top_op=True)
                self.features.add("linalg." + op)
                self.features.add("in-place")
                self.mark_write(out, [a])
                return True
        return False

    def load_scalar(self, src):
        """memref.load of one initialised element of src; returns the SSA."""
        pos = [self.rng.randrange(n) for n in src.shape]
        x = self.fresh("x")
        self.emit("%s = memref.load %s[%s] : %s" % (
            x, src.ssa, ", ".join(self.idx(p) for p in pos), src.type),
            top_op=True)
        self.features.add("memref.load")
        return x

    # ---- allocation and deallocation -------------------------------------
    def new_alloc(self, shape, arena=None):
        if arena is None:
            arena = self.rng.random() < self.p_arena
        if arena:
            # A byte buffer seen through memref.view (an arena).
            name = self.fresh("arena")
            root = Root(name, shape, "alloc")
            root.arena = True
            root.byte_type = "memref<%dxi8>" % (root.numel * 4)
            self.emit("%s = memref.alloc() : %s" % (name, root.byte_type),
                      top_op=True)
            v = self.fresh("av")
            root.value = Value(v, root, shape, canonical_strides(shape), 0,
                               False, True)
            self.emit("%s = memref.view %s[%s][] : %s to %s" % (
                v, name, self.idx(0), root.byte_type, root.value.type))
            self.features.add("memref.view")
            self.roots.append(root)
            return root
        align = 64 if self.rng.random() < self.p_align else None
        name = self.fresh("buf")
        root = Root(name, shape, "alloc", align=align)
        root.value = Value(name, root, shape, canonical_strides(shape), 0,
                           False, True)
        attr = " {alignment = %d : i64}" % align if align else ""
        self.emit("%s = memref.alloc()%s : %s" % (name, attr,
                                                   root.value.type),
                  top_op=True)
        self.roots.append(root)
        return root

    def dealloc(self, root):
        root.live = False
        if root.arena:
            self.emit("memref.dealloc %s : %s" % (root.name, root.byte_type),
                      top_op=True)
            return
        v = root.value
        r = self.rng.random()
        if r < 0.1 and len(v.shape) == 2:
            v = self.v_collapse(v, [[0, 1]])
            self.features.add("dealloc-of-view")
        elif r < 0.15:
            v = self.v_cast_dyn(v)
            self.features.add("dealloc-of-view")
        self.emit("memref.dealloc %s : %s" % (v.ssa, v.type), top_op=True)
        root.live = False

    def retire_some(self, force=False):
        """Deallocates (now or later) buffers whose data was consumed."""
        for r in list(self.roots):
            if r.kind != "alloc" or not r.live or r.returned or \
                    r in self.deferred:
                continue
            if not r.consumed:
                continue
            if force or self.rng.random() < 0.45:
                if self.rng.random() < self.p_defer:
                    self.deferred.append(r)
                    r.writable = False
                    self.features.add("late-dealloc")
                else:
                    self.dealloc(r)
        # Flush some deferred deallocations.
        keep = []
        for r in self.deferred:
            if force or self.rng.random() < 0.3:
                self.dealloc(r)
            else:
                keep.append(r)
        self.deferred = keep

    # ---- statements ------------------------------------------------------
    def st_new_buffer(self):
        shape = self.shape_of_some_root()
        root = self.new_alloc(shape)
        if not self.compute_into(root.value, in_place_ok=False):
            self.compute_into(root.value, allow_fill=True, in_place_ok=False)
        if not all(root.init):
            c = self.fconst(self.coef())
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                c, root.value.ssa, root.value.type), top_op=True)
            self.mark_write(root.value, [])
        return True

    def st_concat(self):
        """A buffer written slice by slice (disjoint pieces that cover it),
        each piece from a temporary."""
        rng = self.rng
        two_d = rng.random() < 0.5
        pieces = rng.randint(2, 4)
        if two_d:
            cols = rng.choice([8, 16, 32])
            rows_each = [rng.choice([2, 4, 8]) for _ in range(pieces)]
            shape = (sum(rows_each), cols)
        else:
            each = [rng.choice([32, 64, 128, 256]) for _ in range(pieces)]
            shape = (sum(each),)
        if prod(shape) > 4096:
            return False
        dst = self.new_alloc(shape)
        self.features.add("concat")
        order = list(range(pieces))
        pos = 0
        slots = []
        for i in range(pieces):
            if two_d:
                slots.append(([pos, 0], [rows_each[i], cols]))
                pos += rows_each[i]
            else:
                slots.append(([pos], [each[i]]))
                pos += each[i]
        rng.shuffle(order)
        for i in order:
            offs, sizes = slots[i]
            tmp_shape = tuple(sizes)
            via_tmp = rng.random() < 0.6
            if two_d and rng.random() < 0.3:
                # Through a collapsed view and a 1-D slice.
                flat = self.v_flat(dst.value)
                sl = self.v_subview(flat, [offs[0] * cols], [prod(sizes)], [1])
                piece = self.v_expand(sl, 0, list(sizes))
            else:
                piece = self.v_subview(dst.value, offs, list(sizes),
                                       [1] * len(sizes))
            if via_tmp:
                tmp = self.new_alloc(tmp_shape)
                if not self.compute_into(tmp.value, in_place_ok=False):
                    c = self.fconst(self.coef())
                    self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                        c, tmp.value.ssa, tmp.value.type), top_op=True)
                    self.mark_write(tmp.value, [])
                if rng.random() < 0.5:
                    self.emit("memref.copy %s, %s : %s to %s" % (
                        tmp.value.ssa, piece.ssa, tmp.value.type, piece.type),
                        top_op=True)
                    self.features.add("memref.copy")
                else:
                    self.generic([tmp.value], piece, "scale")
                self.mark_write(piece, [tmp.value])
                if rng.random() < 0.7:
                    self.dealloc(tmp)
            else:
                if not self.compute_into(piece, in_place_ok=False):
                    c = self.fconst(self.coef())
                    self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                        c, piece.ssa, piece.type), top_op=True)
                    self.mark_write(piece, [])
        return True

    def st_inplace_chain(self):
        """Several ops updating one buffer (or slice) in place, in order."""
        cands = [r for r in self.live_roots(readable=True) if r.writable and
                 all(r.init)]
        if not cands:
            return False
        root = self.rng.choice(cands)
        shape = root.shape if self.rng.random() < 0.5 else None
        if shape is None:
            opts = [s for s in SHAPES_1D + SHAPES_2D
                    if prod(s) <= root.numel] or [root.shape]
            shape = self.rng.choice(opts)
        n = self.rng.randint(2, 4)
        for _ in range(n):
            out = self.make_view(root, shape, read=True)
            if out is None:
                return False
            self.compute_into(out, allow_fill=self.rng.random() < 0.3)
        self.features.add("in-place-chain")
        return True

    def st_overlapping(self):
        """Two or three writes into overlapping regions of one buffer through
        different view chains; their order matters."""
        cands = [r for r in self.live_roots() if r.writable and r.numel >= 32]
        if not cands:
            return False
        root = self.rng.choice(cands)
        shapes = [s for s in SHAPES_2D + SHAPES_1D if prod(s) * 2 <= root.numel]
        if not shapes:
            return False
        shape = self.rng.choice(shapes)
        views = []
        self.row_hint = self.pick_row_hint(root, shape)
        for _ in range(self.rng.randint(2, 3)):
            old = self.p_fancy_view
            self.p_fancy_view = 1.0
            v = self.make_view(root, shape, read=False)
            self.p_fancy_view = old
            if v is None:
                self.row_hint = None
                return False
            views.append(v)
        self.row_hint = None
        for v in views:
            if self.rng.random() < 0.5:
                # From a temporary the scheduler may want to move.
                tmp = self.new_alloc(shape)
                if not self.compute_into(tmp.value, in_place_ok=False):
                    c = self.fconst(self.coef())
                    self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                        c, tmp.value.ssa, tmp.value.type), top_op=True)
                    self.mark_write(tmp.value, [])
                self.generic([tmp.value], v, "scale")
                self.mark_write(v, [tmp.value])
                if self.rng.random() < 0.7:
                    self.dealloc(tmp)
            else:
                self.compute_into(v, in_place_ok=False)
        self.features.add("overlapping-slices")
        return True

    def st_pinned(self):
        """Ordered ops on one buffer X (op_1 .. op_k: write a view w_j of X,
        maybe also reading a view r_j of X) fed by temporaries T_j produced in
        the reverse order, the productions chained through an in-place
        scratch. Every legal order keeps all T_j live together; an order that
        breaks a dependency between the op_j frees them one by one, so a
        missed edge is exploited by the scheduler (and shows in the outputs).
        """
        rng = self.rng
        cands = [r for r in self.live_roots(readable=True) if r.writable and
                 all(r.init) and r.numel >= 64]
        if not cands:
            return False
        x = rng.choice(cands)
        shapes = [s for s in SHAPES_2D + SHAPES_1D if prod(s) * 2 <= x.numel]
        if not shapes:
            return False
        shape = rng.choice(shapes)
        k = rng.randint(2, 4)
        ops = []
        old = self.p_fancy_view
        self.p_fancy_view = 1.0
        self.row_hint = self.pick_row_hint(x, shape)
        for _ in range(k):
            w = self.make_view(x, shape, read=True)
            r = self.make_view(x, shape, read=True) if rng.random() < 0.4 \
                else None
            if w is None:
                self.p_fancy_view = old
                self.row_hint = None
                return False
            if r is not None and not r.same_layout(w) and \
                    set(r.elements()) & set(w.elements()):
                r = None
            ops.append((w, r))
        self.p_fancy_view = old
        self.row_hint = None
        scratch = self.new_alloc(shape)
        inp = self.pick_input(shape, exclude=(x,))
        if inp is not None:
            self.generic([inp], scratch.value, "scale")
            self.mark_write(scratch.value, [inp])
        else:
            c = self.fconst(self.coef())
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                c, scratch.value.ssa, scratch.value.type), top_op=True)
            self.mark_write(scratch.value, [])
        temps = [None] * k
        for j in reversed(range(k)):
            t = self.new_alloc(shape)
            self.generic([scratch.value], t.value, "scale")
            self.mark_write(t.value, [scratch.value])
            self.generic([t.value], scratch.value, "accum")
            temps[j] = t
        for j, (w, r) in enumerate(ops):
            t = temps[j]
            if r is not None:
                self.generic([t.value, r], w, "axpby")
            else:
                self.generic([t.value], w, "scale")
            self.mark_write(w, [t.value])
            self.dealloc(t)
        scratch.consumed = True
        self.features.add("pinned-reverse")
        return True

    def st_dead(self):
        """An allocation nothing touches (freed at once, later, or never)."""
        root = self.new_alloc(self.random_shape())
        root.dead = True
        self.features.add("untouched-alloc")
        if not root.arena and self.rng.random() < 0.6:
            # A view nobody uses (an arena's memref.view is one already).
            if self.rng.random() < 0.5:
                self.v_cast_dyn(root.value)
            else:
                self.v_subview(self.v_flat(root.value), [0], [8], [1])
        if self.rng.random() < 0.5:
            self.dealloc(root)
        elif "unused-alloc" in self.avoid:
            self.deferred.append(root)  # freed later, never left unused
        return True

    def st_call(self):
        """func.call of a helper defined in the module that reads one operand
        and writes another (maybe with a transient allocation inside)."""
        if not self.calls:
            return False
        rng = self.rng
        shape = self.shape_of_some_root()
        x = self.pick_input(shape)
        y = self.pick_output(shape)
        if x is None or y is None or self.overlaps_badly(y, [x]):
            return False
        accum = all(y.root.init[e] for e in y.elements()) and \
            rng.random() < 0.6
        name = "@k%d" % (len(self.helpers) + 1)
        # The helper's body, written with the same emitter.
        saved_lines, saved_indent = self.lines, self.indent
        self.lines, self.indent = [], 1
        px = Value("%x", None, x.shape, x.strides, x.offset, x.dyn, x.identity)
        py = Value("%y", None, y.shape, y.strides, y.offset, y.dyn, y.identity)
        if rng.random() < 0.4:
            t = "%tmp"
            vt = Value(t, None, shape, canonical_strides(shape), 0, False, True)
            self.emit("%s = memref.alloc() : %s" % (t, vt.type))
            self.generic([px], vt, "scale")
            self.generic([vt], py, "accum" if accum else "scale")
            self.emit("memref.dealloc %s : %s" % (t, vt.type))
            self.features.add("call-transient-alloc")
        else:
            self.generic([px], py, "accum" if accum else "scale")
        body = self.lines
        self.lines, self.indent = saved_lines, saved_indent
        # The written operand first or second (effects map to positions).
        params = [("%x", x), ("%y", y)]
        if rng.random() < 0.5:
            params.reverse()
        self.helpers.append("\n".join(
            ["func.func private %s(%s) {" % (name, ", ".join(
                "%s: %s" % (p, v.type) for p, v in params))] + body +
            ["  return", "}"]))
        self.emit("func.call %s(%s) : (%s) -> ()" % (
            name, ", ".join(v.ssa for _, v in params),
            ", ".join(v.type for _, v in params)), top_op=True)
        self.mark_write(y, [x])
        self.features.add("func.call")
        return True

    def st_print(self):
        """printMemrefF32 of a readable view: an external call, so a barrier
        with unknown effects; its output is compared too."""
        if not self.calls:
            return False
        shape = self.rng.choice([s for s in SHAPES_1D + SHAPES_2D
                                 if prod(s) <= 128])
        v = self.pick_input(shape)
        if v is None:
            return False
        u = self.fresh("u")
        self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (u, v.ssa,
                                                                v.type))
        self.emit("func.call @printMemrefF32(%s) : (memref<*xf32>) -> ()" % u,
                  top_op=True)
        self.need_print = True
        v.root.consumed = True
        self.features.add("external-call-barrier")
        return True

    def pick_row_hint(self, root, shape):
        """Sometimes a row length for all the 2-D views of a statement."""
        if len(shape) != 2 or self.rng.random() < 0.4:
            return None
        ks = [k for k in range(shape[1], 2 * shape[1] + 4)
              if shape[0] * k <= root.numel]
        return self.rng.choice(ks) if ks else None

    def st_scalar(self):
        """memref.load from one buffer, memref.store into another."""
        src_roots = self.live_roots(readable=True)
        dst_roots = [r for r in self.live_roots() if r.writable]
        if not src_roots or not dst_roots:
            return False
        src = self.rng.choice(src_roots)
        dst = self.rng.choice(dst_roots)
        sv = self.make_view(src, src.shape, read=False)
        if sv is None:
            return False
        pos = [self.rng.randrange(n) for n in sv.shape]
        lin = sv.shift + sv.offset + sum(p * s for p, s in
                                         zip(pos, sv.strides))
        if not src.init[lin]:
            return False
        x = self.fresh("x")
        self.emit("%s = memref.load %s[%s] : %s" % (
            x, sv.ssa, ", ".join(self.idx(p) for p in pos), sv.type),
            top_op=True)
        c = self.fconst(self.coef())
        y = self.fresh("y")
        self.emit("%s = arith.mulf %s, %s : f32" % (y, x, c))
        dv = dst.value
        dpos = [self.rng.randrange(n) for n in dv.shape]
        self.emit("memref.store %s, %s[%s] : %s" % (
            y, dv.ssa, ", ".join(self.idx(p) for p in dpos), dv.type),
            top_op=True)
        dlin = sum(p * s for p, s in zip(dpos, dv.strides))
        dst.init[dlin] = 1
        if dst is not src:
            src.consumed = True
        self.features.add("memref.store")
        self.features.add("memref.load")
        return True

    def st_loop(self):
        kind = self.rng.choice(["rows", "rows", "scalar", "accum", "pingpong"])
        return getattr(self, "loop_" + kind)()

    def loop_header(self, lo, hi, extra=""):
        iv = self.fresh("i")
        self.emit("scf.for %s = %s to %s step %s%s {" % (
            iv, self.idx(lo), self.idx(hi), self.idx(1), extra), top_op=True)
        self.indent += 1
        self.features.add("scf.for")
        return iv

    def loop_rows(self):
        """for i: out[i, :] = f(in[i, :]) (maybe through a transient alloc)."""
        rng = self.rng
        shape = rng.choice(SHAPES_2D)
        fresh_out = rng.random() < 0.5
        if fresh_out:
            outroot = self.new_alloc(shape)
            out = outroot.value
        else:
            out = self.pick_output(shape)
            if out is None:
                return False
        inp = self.pick_input(shape)
        if inp is None or (inp.root is out.root and
                           set(inp.elements()) & set(out.elements())):
            if fresh_out:
                # Keep the allocation meaningful.
                c = self.fconst(self.coef())
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    c, out.ssa, out.type), top_op=True)
                self.mark_write(out, [])
                return True
            return False
        R, C = shape
        lo, hi = (0, R) if fresh_out or rng.random() < 0.5 else \
            sorted(rng.sample(range(R + 1), 2))
        if lo == hi:
            hi = lo + 1
        iv = self.loop_header(lo, hi)
        rowt_in = memref_type((C,), (inp.strides[1],), 0, True, False)
        rowt_out = memref_type((C,), (out.strides[1],), 0, True, False)
        ri, ro = self.fresh("ri"), self.fresh("ro")
        self.emit("%s = memref.subview %s[%s, 0] [1, %d] [1, 1] : %s to %s" % (
            ri, inp.ssa, iv, C, inp.type, rowt_in))
        self.emit("%s = memref.subview %s[%s, 0] [1, %d] [1, 1] : %s to %s" % (
            ro, out.ssa, iv, C, out.type, rowt_out))
        vin = Value(ri, inp.root, (C,), (inp.strides[1],), 0, True)
        vout = Value(ro, out.root, (C,), (out.strides[1],), 0, True)
        if rng.random() < 0.5:
            t = self.fresh("tmp")
            tt = "memref<%dxf32>" % C
            self.emit("%s = memref.alloc() : %s" % (t, tt))
            vt = Value(t, None, (C,), (1,), 0, False, True)
            self.generic([vin], vt, "scale")
            self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
                t, tt, ro, rowt_out))
            self.emit("memref.dealloc %s : %s" % (t, tt))
            self.features.add("loop-transient-alloc")
        else:
            self.generic([vin], vout, "scale")
        self.indent -= 1
        self.emit("}")
        for i in range(lo, hi):
            for j in range(C):
                out.root.init[out.shift + out.offset + i * out.strides[0] +
                              j * out.strides[1]] = 1
        if inp.root is not out.root:
            inp.root.consumed = True
        return True

    def loop_scalar(self):
        """for i: out[i] = in[i] * c through memref.load/store."""
        n = self.rng.choice([16, 32, 64])
        inp = self.pick_input((n,))
        out = self.pick_output((n,))
        if inp is None or out is None:
            return False
        if inp.root is out.root and set(inp.elements()) & set(out.elements()) \
                and not inp.same_layout(out):
            return False
        iv = self.loop_header(0, n)
        x, y = self.fresh("x"), self.fresh("y")
        self.emit("%s = memref.load %s[%s] : %s" % (x, inp.ssa, iv, inp.type))
        c = self.fconst(self.coef())
        self.emit("%s = arith.mulf %s, %s : f32" % (y, x, c))
        self.emit("memref.store %s, %s[%s] : %s" % (y, out.ssa, iv, out.type))
        self.indent -= 1
        self.emit("}")
        self.mark_write(out, [inp])
        self.features.add("loop-load-store")
        return True

    def loop_accum(self):
        """for i: out = out * c + in (out read and written every iteration),
        optionally with a transient buffer."""
        cands = [r for r in self.live_roots(readable=True) if r.writable]
        if not cands:
            return False
        root = self.rng.choice(cands)
        opts = [s for s in SHAPES_1D + SHAPES_2D
                    if prod(s) <= root.numel] or [root.shape]
        shape = self.rng.choice(opts)
        out = self.make_view(root, shape, read=True)
        inp = self.pick_input(shape, exclude=(root,))
        if out is None or inp is None:
            return False
        self.loop_header(0, self.rng.randint(1, 3))
        nested = self.rng.random() < 0.3
        if nested:
            # A loop nest: the transient allocation sits two regions deep.
            self.loop_header(0, self.rng.randint(1, 2))
            self.features.add("scf.for-nest")
        if self.rng.random() < 0.4:
            t = self.fresh("tmp")
            vt = Value(t, None, shape, canonical_strides(shape), 0, False, True)
            self.emit("%s = memref.alloc() : %s" % (t, vt.type))
            self.generic([inp], vt, "scale")
            self.generic([vt], out, "accum")
            self.emit("memref.dealloc %s : %s" % (t, vt.type))
            self.features.add("loop-transient-alloc")
        else:
            self.generic([inp], out, "accum")
        for _ in range(2 if nested else 1):
            self.indent -= 1
            self.emit("}")
        self.mark_write(out, [inp])
        return True

    def loop_pingpong(self):
        """iter_args swap two buffers every iteration; the results alias one
        of them each, depending on the trip count."""
        shape = self.rng.choice(SHAPES_1D[:4] + SHAPES_2D[:5])
        a = self.new_alloc(shape)
        b = self.new_alloc(shape)
        for r in (a, b):
            if not self.compute_into(r.value, in_place_ok=False):
                c = self.fconst(self.coef())
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    c, r.value.ssa, r.value.type), top_op=True)
                self.mark_write(r.value, [])
        trips = self.rng.randint(1, 4)
        t = a.value.type
        res = self.fresh("pp")
        x, y = self.fresh("x"), self.fresh("y")
        iv = self.fresh("i")
        self.emit("%s:2 = scf.for %s = %s to %s step %s "
                  "iter_args(%s = %s, %s = %s) -> (%s, %s) {" % (
                      res, iv, self.idx(0), self.idx(trips), self.idx(1), x,
                      a.value.ssa, y, b.value.ssa, t, t), top_op=True)
        self.indent += 1
        vx = Value(x, None, shape, canonical_strides(shape), 0, False, True)
        vy = Value(y, None, shape, canonical_strides(shape), 0, False, True)
        self.generic([vx], vy, "accum")
        self.emit("scf.yield %s, %s : %s, %s" % (y, x, t, t))
        self.indent -= 1
        self.emit("}")
        self.features.add("scf.for-iter_args")
        # After `trips` swaps: #0 is a if trips even else b.
        r0, r1 = (a, b) if trips % 2 == 0 else (b, a)
        a.consumed = b.consumed = True
        # Use the results once (a read of each through the loop's results).
        for k, r in ((0, r0), (1, r1)):
            alias = Value("%s#%d" % (res, k), r, shape, r.value.strides, 0,
                          False, True)
            out = self.pick_output(shape, exclude=(a, b))
            if out is None:
                continue
            self.generic([alias], out, "accum" if all(
                out.root.init[e] for e in out.elements()) else "scale")
            self.mark_write(out, [alias])
        return True

    def st_if(self):
        """scf.if on a condition computed from constants."""
        rng = self.rng
        ca, cb = rng.randint(0, 9), rng.randint(0, 9)
        cond = self.fresh("cond")
        self.emit("%s = arith.cmpi slt, %s, %s : index" % (cond, self.idx(ca),
                                                          self.idx(cb)))
        taken_then = ca < cb
        self.features.add("scf.if")
        if rng.random() < 0.4:
            # Memref result selecting one of two buffers of one type.
            shape_roots = {}
            for r in self.live_roots(readable=True):
                if all(r.init):
                    shape_roots.setdefault(r.shape, []).append(r)
            pairs = [v for v in shape_roots.values() if len(v) >= 2]
            if not pairs:
                return False
            a, b = rng.sample(rng.choice(pairs), 2)
            t = a.value.type
            res = self.fresh("sel")
            self.emit("%s = scf.if %s -> (%s) {" % (res, cond, t), top_op=True)
            self.emit("  scf.yield %s : %s" % (a.value.ssa, t))
            self.emit("} else {")
            self.emit("  scf.yield %s : %s" % (b.value.ssa, t))
            self.emit("}")
            chosen = a if taken_then else b
            alias = Value(res, chosen, a.shape, a.value.strides, 0, False, True)
            self.features.add("scf.if-result")
            if rng.random() < 0.5 and chosen.writable:
                # Write through the selected alias, then read it.
                inp = self.pick_input(a.shape, exclude=(a, b))
                if inp is not None:
                    self.generic([inp], alias, "accum")
                    self.mark_write(alias, [inp])
            out = self.pick_output(a.shape, exclude=(a, b))
            if out is not None:
                self.generic([alias], out, "scale")
                self.mark_write(out, [alias])
            return True
        # Branches writing buffers; equal transient allocations in both, so
        # the computed peak does not depend on the branch taken.
        transient = rng.choice(SHAPES_1D[:4]) if rng.random() < 0.3 else None
        self.emit("scf.if %s {" % cond, top_op=True)
        self.indent += 1
        saved = None
        for branch in (True, False):
            if not branch:
                self.indent -= 1
                self.emit("} else {")
                self.indent += 1
            taken = branch == taken_then
            snapshot = [(r, bytearray(r.init), r.consumed) for r in self.roots]
            if transient:
                t = self.fresh("tmp")
                vt = Value(t, None, transient, (1,), 0, False, True)
                self.emit("%s = memref.alloc() : %s" % (t, vt.type))
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    self.fconst(self.coef()), t, vt.type))
                self.features.add("if-transient-alloc")
            for _ in range(rng.randint(1, 2)):
                shape = self.shape_of_some_root()
                out = self.pick_output(shape)
                if out is not None:
                    self.compute_into(out)
            if transient:
                self.emit("memref.dealloc %s : %s" % (t, vt.type))
            if taken:
                saved = [(r, bytearray(r.init), r.consumed) for r in self.roots]
            for r, init, consumed in snapshot:
                r.init[:] = init
                r.consumed = consumed
        for r, init, consumed in saved:
            r.init[:] = init
            r.consumed = consumed
        self.indent -= 1
        self.emit("}")
        return True

    def st_write_arg(self):
        outs = [r for r in self.args if r.writable]
        if not outs:
            return False
        root = self.rng.choice(outs)
        opts = [s for s in SHAPES_1D + SHAPES_2D
                    if prod(s) <= root.numel] or [root.shape]
        shape = root.shape if self.rng.random() < 0.4 else self.rng.choice(opts)
        out = self.make_view(root, shape, read=True)
        if out is None:
            return False
        self.features.add("write-arg")
        return self.compute_into(out, allow_fill=False)

    # ---- whole program ---------------------------------------------------
    def make_args(self):
        n = self.rng.randint(1, 4)
        for i in range(n):
            shape = self.random_shape(big_ok=False)
            name = "%%arg%d" % i
            root = Root(name, shape, "arg", noalias=self.rng.random() < 0.5)
            root.value = Value(name, root, shape, canonical_strides(shape), 0,
                               False, True)
            root.writable = self.rng.random() < 0.6
            self.roots.append(root)
            self.args.append(root)
        # Asymmetry: every argument holds the same fill pattern, so scale one
        # output by a constant early (catches swapped arguments).
        if not any(r.writable for r in self.args):
            self.args[0].writable = True
        if any(not r.noalias for r in self.args):
            self.features.add("may-alias-args")

    def body(self):
        self.make_args()
        first = [r for r in self.args if r.writable][0]
        self.generic([first.value], first.value, "scale")
        self.features.add("write-arg")
        stmts = [
            (self.st_new_buffer, 6), (self.st_concat, 2),
            (self.st_inplace_chain, 2), (self.st_overlapping, 3),
            (self.st_pinned, 2), (self.st_dead, 1), (self.st_call, 2),
            (self.st_print, 1),
            (self.st_scalar, 1), (self.st_loop, 2), (self.st_if, 1),
            (self.st_write_arg, 2),
        ]
        funcs = [f for f, w in stmts for _ in range(w)]
        guard = 0
        while self.top_ops < self.target and guard < 400:
            guard += 1
            f = self.rng.choice(funcs)
            f()
            self.retire_some()
        self.finish()

    def finish(self):
        # Buffers whose data reached nothing are returned (or folded into an
        # argument); the rest are freed.
        for r in list(self.roots):
            if r.kind != "alloc" or not r.live or r in self.deferred or \
                    r.dead:
                continue
            if not r.consumed and all(r.init):
                outs = [a for a in self.args if a.writable and
                        a.numel >= r.numel]
                if outs and self.rng.random() < 0.3:
                    a = self.rng.choice(outs)
                    out = self.make_view(a, r.shape, read=True)
                    if out is not None:
                        self.generic([r.value], out, "accum")
                        self.mark_write(out, [r.value])
                        continue
                r.returned = True
                self.results.append(r)
        if not self.results:
            # Return one computed buffer (escape by return).
            cands = [r for r in self.roots if r.kind == "alloc" and r.live and
                     all(r.init) and r not in self.deferred and not r.dead]
            if cands:
                r = self.rng.choice(cands)
                r.returned = True
                self.results.append(r)
        for r in self.roots:
            if r.kind == "alloc" and r.live and not r.returned and \
                    r not in self.deferred and r.consumed:
                self.dealloc(r)
        for r in self.deferred:
            self.dealloc(r)
        self.deferred = []
        for r in self.roots:
            if r.dead and r.live and (self.rng.random() < 0.4 or
                                      "unused-alloc" in self.avoid):
                self.dealloc(r)
        for r in self.roots:
            if r.kind == "alloc" and r.live and not r.returned:
                # Leaked: a buffer that lives to the end without escaping.
                self.features.add("leak")
        for r in self.results:
            if not all(r.init):
                raise AssertionError("returning an uninitialised buffer")

    def render(self):
        self.body()
        args = ", ".join(
            "%s: %s%s" % (r.name, r.value.type,
                          " {llvm.noalias}" if r.noalias else "")
            for r in self.args)
        res_types = ", ".join(r.value.type for r in self.results)
        out = ["// Generated by test/Fuzz/random_program.py --seed %d" %
               self.seed,
               "// top-level ops (views and constants aside): %d" %
               self.top_ops,
               "// features: " + ", ".join(sorted(self.features)),
               "func.func @f(%s)%s {" % (
                   args, " -> (%s)" % res_types if self.results else "")]
        for k in sorted(self.index_consts):
            out.append("  %s = arith.constant %d : index" % (
                self.index_consts[k], k))
        out += self.lines
        if self.results:
            out.append("  return %s : %s" % (
                ", ".join(r.value.ssa for r in self.results), res_types))
        else:
            out.append("  return")
        out.append("}")
        out += self.helpers
        if self.need_print:
            out.append("func.func private @printMemrefF32(memref<*xf32>) "
                       "attributes {llvm.emit_c_interface}")
        return "\n".join(out) + "\n"


# Bugs whose triggers --avoid can leave out: to look past an open bug for
# others, or to run a build from before its fix (all fixed now: bdd0e74,
# 689cea3).
KNOWN_BUGS = {
    "wrapped-rows": "failures/overlapping-views-wrapped-rows.mlir",
    # An allocation used by nothing (or only by unused views), never freed.
    "unused-alloc": "failures/dead-view-alloc-counted-in-peak.mlir",
}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--min-ops", type=int, default=10)
    p.add_argument("--max-ops", type=int, default=60)
    p.add_argument("--calls", action="store_true",
                   help="also emit func.call to helper functions of the module "
                        "and printMemrefF32 (an external call: a barrier)")
    p.add_argument("--avoid", action="append", default=[],
                   choices=sorted(KNOWN_BUGS),
                   help="do not generate the trigger of a known bug")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args()
    text = Gen(a.seed, a.min_ops, a.max_ops, calls=a.calls,
               avoid=a.avoid).render()
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
