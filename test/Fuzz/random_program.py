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
# New constructs (on unless --classic; groups can be left out with
# --without/--only): memory reached through !llvm.ptr (extract_aligned_pointer_
# as_index, inttoptr, getelementptr, llvm.load/store) mixed with linalg ops on
# the same buffer; llvm.mlir.global loads/stores; memref.global through
# memref.get_global, also passed to callees and, in a wrapped body, as an
# argument; callees reaching the whole buffer from a slice (extract_strided_
# metadata + reinterpret_cast, or a pointer); loaded scalars and call results
# feeding dynamic allocation sizes (affine.min) and arith.select between
# memrefs (read, written, deallocated); calls of runtime functions; zero-stride
# and huge read-only views, very wide row strides; scf.while and
# scf.execute_region; a memref of memrefs; huge dead allocations; the body
# called by a wrapper @f with overlapping views of its arguments; bodies of
# several blocks (cf.br sequences, cf.cond_br diamonds on run-time
# conditions, loops of blocks, memrefs passed as block arguments, and rarely
# a shape memsched must refuse; a `// blocks:` header line tells run_fuzz.py
# which blocks run); allocations in memory space 1 or
# #gpu.address_space<workgroup> (group `spaces`: every use, view, helper
# signature and block argument typed alike, memref.memory_space_cast to the
# default space for runtime functions, results copied to the default space;
# a `// memory spaces:` header line tells run_fuzz.py).
#
# Off by default, with --aliases (or --alias-form F): writes to a buffer
# through aliases of it between its producer and its later readers
# (ALIAS_FORMS: scf.for iter_args, extract_strided_metadata +
# reinterpret_cast of the base, arith.select of the buffer with itself or
# with another one, subviews, buffers of vectors, recursion through
# func.call_indirect), drawn from a random stream of their own: without the
# flag every seed gives the program it gave before.
#
# Usage: random_program.py --seed N [--calls] [--classic] [--without G]
#                          [--only G] [--avoid BUG] [--chain N]
#                          [--aliases] [--alias-form F]
#                          [--min-ops A] [--max-ops B] [-o FILE]
#
# ===-----------------------------------------------------------------------===#

import argparse
import itertools
import random
import re
import sys

SHAPES_1D = [(32,), (64,), (96,), (128,), (256,), (512,), (1024,)]
SHAPES_2D = [(4, 8), (8, 8), (8, 16), (16, 8), (16, 16), (4, 32), (12, 16),
             (32, 32), (16, 64), (24, 24)]
BIG_SHAPES = [(2048,), (4096,), (64, 64), (32, 128)]
# The memory spaces of group `spaces` besides the default one.
WORKGROUP = "#gpu.address_space<workgroup>"


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
        # Memory this root lives in (new constructs): another root when two
        # roots alias (arguments of the wrapped body that are overlapping
        # views of one harness buffer, a global also passed as an argument),
        # with smap[e] the element of `storage` holding local element e.
        self.storage = self
        self.smap = None
        self.gsym = None        # memref.global: its symbol
        self.alloc_ssa = name   # the allocation (a dynamic one: not `value`)
        self.alloc_type = None  # its type when it is not value.type
        self.early_ptr = None   # (!llvm.ptr SSA, element) made at the top
        # Memory space of an allocation (group `spaces`): None (default),
        # "1" or "#gpu.address_space<workgroup>".
        self.space = None


class AliasRoot(Root):
    """Another SSA value of a root's whole buffer, still usable after the
    root was passed as a block argument (group `blocks`): the value the
    buffer had before. It lives, is written and initialised with the root;
    it is never freed or returned itself."""

    def __init__(self, target, value):
        self.target = target
        Root.__init__(self, value.ssa, target.shape, "alias")
        self.init = target.init
        self.consumed = True
        self.storage = target.storage
        self.smap = target.smap
        self.gsym = target.gsym
        self.space = target.space
        self.value = Value(value.ssa, self, value.shape, value.strides,
                           value.offset, value.dyn, value.identity,
                           shift=value.shift)

    live = property(lambda self: self.target.live, lambda self, v: None)
    writable = property(lambda self: self.target.writable,
                        lambda self, v: None)


class Value:
    """An SSA memref value: a root or a view of one, with a static layout."""

    def __init__(self, ssa, root, shape, strides, offset, dyn=False,
                 identity=False, shift=0, space=None):
        self.ssa = ssa
        # Memory space of the type (group `spaces`): None for the root's
        # (the default space without a root), "" for the default space of a
        # memref.memory_space_cast of a buffer in another space.
        self._space = space
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
    def space(self):
        if self._space is not None:
            return self._space
        return self.root.space if self.root is not None else None

    @property
    def type(self):
        return memref_type(self.shape, self.strides, self.offset, self.dyn,
                           self.identity, self.space)

    def elements(self):
        if self._elems is None:
            ranges = [range(n) for n in self.shape]
            self._elems = [self.shift + self.offset + sum(i * s for i, s in
                                             zip(idx, self.strides))
                           for idx in itertools.product(*ranges)]
        return self._elems

    def selems(self):
        """The elements of the root's storage this value covers."""
        m = self.root.smap
        return self.elements() if m is None else [m[e] for e in
                                                  self.elements()]

    def same_layout(self, other):
        return (self.root is other.root and self.shape == other.shape and
                self.strides == other.strides and
                self.offset + self.shift == other.offset + other.shift)


class LLVMGlobal:
    """An llvm.mlir.global array of f32, reached through
    llvm.mlir.addressof (always fully initialised)."""

    def __init__(self, sym, n):
        self.sym = sym
        self.n = n
        self.decl = None


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


def memref_type(shape, strides, offset, dyn, identity, space=None):
    """The type of a static f32 memref; `space`: its memory space (None or
    "" for the default space; group `spaces`)."""
    elt = "x".join(str(d) for d in shape) + "xf32" if shape else "f32"
    sp = ", %s" % space if space else ""
    if identity:
        return "memref<%s%s>" % (elt, sp)
    s = ", ".join(str(x) for x in strides)
    if dyn:
        return "memref<%s, strided<[%s], offset: ?>%s>" % (elt, s, sp)
    if offset == 0:
        return "memref<%s, strided<[%s]>%s>" % (elt, s, sp)
    return "memref<%s, strided<[%s], offset: %d>%s>" % (elt, s, offset, sp)


def unranked_type(space):
    return "memref<*xf32%s>" % (", %s" % space if space else "")


# ===----------------------------------------------------------------------===#
# Generator
# ===----------------------------------------------------------------------===#


class Gen:
    def __init__(self, seed, min_ops, max_ops, calls=False, avoid=(),
                 classic=False, without=(), flags="", chain=0,
                 only_blocks=False, only_spaces=False, aliases=(),
                 pads=False, chains=False, yields=False):
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
        # The constructs added after the first version (README.md, "new
        # constructs"); --classic leaves them out and then draws exactly the
        # random numbers the first version drew (same program per seed).
        self.new = not classic
        self.chain = chain
        self.without = set(without)
        self.flags = flags
        self.in_body = True      # emitting the body (not a helper)
        self.count_ops = True
        self.globals = []        # memref.global roots
        self.llvm_globals = []   # LLVMGlobal
        self.decls = {}          # external declarations: name -> text
        self.wrapper = None      # wrapper @f text pieces (wrapped body)
        self.wrapper_results = []  # (SSA, type) the wrapper returns
        self.body_name = "@f"
        self.pending_select_deallocs = []
        self.n_hash = 0
        self.size_arg = None
        # Multi-block bodies (group `blocks`). Their random numbers come from
        # a stream of their own: a program that gets no block construct
        # (p_block 0) is the program of the same seed without the group.
        self.blocks_on = self.new and "blocks" not in self.without
        self.brng = random.Random(seed * 1000003 + 0xB10C)
        self.p_block = 0.0
        if self.blocks_on:
            self.p_block = self.brng.choice(
                [0.0, 0.1, 0.2, 0.3] if only_blocks is False else
                [0.1, 0.2, 0.3])
        # A "blocky" program frees every buffer on every path (no leaks, no
        # untouched allocation left allocated) and gets at least one block
        # construct.
        self.blocky = self.p_block > 0
        self.multi_block = False   # a block construct was emitted
        self.nblocks = 0           # block labels ^bb1 ...
        self.cur_block = 0         # the block being emitted (0: entry)
        self.dom = frozenset([0])  # the blocks dominating it (and itself)
        self.ctx = None            # innermost arm / loop body context
        self.blk_depth = 0         # nesting of block constructs
        self.data_depth = 0        # arms of data-dependent branches open
        self.loop_ivs = []         # (iv SSA, trip count) of block loops
        self.view_cache = []       # (Value, block) views made at the top
        self.prologue = []         # lines at the top of the entry block
        self.cond_loads = []       # f32 SSA loaded there from arguments
        self.flip = None           # the i1 constant the driver flips
        self.coverage = "all"      # all | flip | partial (README.md)
        self.expect_refusal = None
        self.block_kinds = []
        self.funcs = []
        # Memory spaces (group `spaces`): some allocations (a share p_space
        # of them) get memory space 1 or #gpu.address_space<workgroup>. The
        # decisions come from a stream of their own and draw nothing from
        # self.rng: a program with p_space 0, or without the group, is the
        # program of the same seed without it.
        self.spaces_on = self.new and "spaces" not in self.without
        self.srng = random.Random(seed * 1000033 + 0x5BACE)
        self.p_space = 0.0
        self.space_choices = []
        self.spaces_used = []    # spaces allocated in, in order of first use
        if self.spaces_on:
            self.p_space = self.srng.choice(
                [0.0, 0.25, 0.35, 0.5] if not only_spaces else
                [0.25, 0.35, 0.5])
            self.space_choices = self.srng.choice(
                [["1"], [WORKGROUP], ["1", WORKGROUP], ["1", WORKGROUP]])
        # Loop bodies with several transient buffers allocated up front
        # (group `nested`): memsched reorders such a body on its own. A
        # stream of its own too: without the group, or when it draws no
        # such loop, the program is the one of the same seed without it.
        self.nested_on = self.new and "nested" not in self.without
        self.nrng = random.Random(seed * 998244353 + 0x4E57)
        self.p_nested = (self.nrng.choice([0.0, 0.5, 0.9]) if self.nested_on
                         else 0.0)
        # Writes through aliases (--aliases, README.md "Aliases"): off by
        # default. A stream of its own, which the alias statements also use
        # for every helper they call (st_alias swaps it in): without
        # --aliases nothing draws from it and every seed gives the program
        # it gave before; with it, a program that draws no alias statement
        # is that program too.
        self.alias_forms = sorted(aliases)
        # Materialised pads (--pads): a stream of their own, so programs
        # without the flag stay those of their seeds.
        self.prng = random.Random(seed * 1000003 + 0x9AD5)
        self.p_pad = self.prng.choice([0.1, 0.2, 0.3]) if pads else 0.0
        # Buffers loops and branches hand out (--yields): a stream of its
        # own too.
        self.yrng = random.Random(seed * 1000003 + 0x71E1D)
        self.p_yield = self.yrng.choice([0.15, 0.25, 0.35]) if yields else 0.0
        # Channel chains (--chains): a stream of their own too.
        self.crng = random.Random(seed * 1000003 + 0xC4A1)
        self.p_chain = self.crng.choice([0.15, 0.25, 0.35]) if chains \
            else 0.0
        self.ch = None           # the chain being emitted (st_chain)
        self.arng = random.Random(seed * 1000037 + 0xA11A5)
        self.p_alias = (self.arng.choice([0.15, 0.25, 0.4])
                        if self.alias_forms else 0.0)
        self.vec_pending = []    # vector buffers not read yet (form vector)
        if self.new:
            rng = self.rng
            self.p_ptr = rng.choice([0.0, 0.3, 0.6])
            self.p_early_ptr = rng.choice([0.0, 0.5])
            self.p_bcast = rng.choice([0.0, 0.1, 0.25])
            self.p_wide = rng.choice([0.0, 0.2])
            self.p_global = rng.choice([0.0, 0.5, 0.8])
            self.p_fresh_global = rng.choice([0.2, 0.5])
            self.p_wrap = rng.choice([0.0, 0.3, 0.6])
            self.p_int_addr = rng.choice([0.0, 0.25])
            w = self.without
            if "ptr" in w:
                self.p_ptr = self.p_early_ptr = 0.0
            if "bcast" in w:
                self.p_bcast = 0.0
            if "wide" in w:
                self.p_wide = 0.0
            if "wrapper" in w:
                self.p_wrap = 0.0
            if "globals" in w:
                self.p_global = 0.0

    # ---- emission helpers ------------------------------------------------
    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def emit(self, line, top_op=False):
        self.lines.append("  " * self.indent + line)
        if top_op and self.indent == 1 and self.count_ops:
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

    # ---- memory spaces (group `spaces`) ------------------------------------
    def pick_space(self, kind="alloc"):
        """The memory space of a new allocation: None (default) or one of
        the program's spaces (drawn from self.srng only)."""
        if not self.p_space or self.srng.random() >= self.p_space:
            return None
        sp = self.srng.choice(self.space_choices)
        self.use_space(sp, kind)
        return sp

    def use_space(self, sp, kind="alloc"):
        if not sp:
            return
        if sp not in self.spaces_used:
            self.spaces_used.append(sp)
        self.features.add("space-" + ("workgroup" if sp == WORKGROUP
                                      else sp))
        self.features.add("space-" + kind)

    def prefer_spaced(self, groups):
        """groups of roots of one type; often only those in another memory
        space when there are some (a memref result or select of that
        type)."""
        if not self.p_space:
            return groups
        spaced = [g for g in groups if g[0].space]
        if spaced and self.srng.random() < 0.7:
            self.features.add("space-pair")
            return spaced
        return groups

    def to_default(self, v):
        """v itself, or for a value in another memory space a
        memref.memory_space_cast of it to the default space (an alias: the
        runtime functions take default-space memrefs)."""
        if not v.space:
            return v
        c = self.fresh("msc")
        res = Value(c, v.root, v.shape, v.strides, v.offset, v.dyn,
                    v.identity, shift=v.shift, space="")
        self.emit("%s = memref.memory_space_cast %s : %s to %s" % (
            c, v.ssa, v.type, res.type))
        self.features.add("memory_space_cast")
        return res

    # ---- views -----------------------------------------------------------
    def v_subview(self, v, offsets, sizes, steps, reduce_unit=False):
        """reduce_unit: drop every unit dimension (True) or those of the
        given indices (a tuple)."""
        new_off = v.offset + sum(o * s for o, s in zip(offsets, v.strides))
        shape, strides = [], []
        for d, (sz, st, s) in enumerate(zip(sizes, steps, v.strides)):
            if sz == 1 and (reduce_unit is True or
                            (reduce_unit and d in reduce_unit)):
                continue
            shape.append(sz)
            strides.append(s * st)
        res = Value(self.fresh("sv"), v.root, shape, strides, new_off, v.dyn,
                    shift=v.shift, space=v.space)
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
                    identity, shift=v.shift, space=v.space)
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
                    has_identity_map(v), shift=v.shift, space=v.space)
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
                    v.offset, v.dyn, shift=v.shift, space=v.space)
        self.emit("%s = memref.transpose %s (d0, d1) -> (d1, d0) : %s to %s" % (
            res.ssa, v.ssa, v.type, res.type))
        self.features.add("transpose")
        return res

    def v_cast_dyn(self, v):
        res = Value(self.fresh("ca"), v.root, v.shape, v.strides, v.offset,
                    True, shift=v.shift, space=v.space)
        self.emit("%s = memref.cast %s : %s to %s" % (res.ssa, v.ssa, v.type,
                                                     res.type))
        self.features.add("cast")
        return res

    def v_reinterpret(self, v, offset, sizes, strides):
        res = Value(self.fresh("rc"), v.root, sizes, strides, offset, False,
                    shift=v.shift, space=v.space)
        self.emit("%s = memref.reinterpret_cast %s to offset: [%d], "
                  "sizes: [%s], strides: [%s] : %s to %s" % (
                      res.ssa, v.ssa, offset, ", ".join(map(str, sizes)),
                      ", ".join(map(str, strides)), v.type, res.type))
        self.features.add("reinterpret_cast")
        return res

    def any_alias(self, root):
        """The root, or occasionally a same-layout alias of it."""
        v = self.base_value(root)
        r = self.rng.random()
        if r < 0.1 and len(v.shape) == 2:
            v = self.v_expand(self.v_collapse(v, [[0, 1]]), 0, list(v.shape))
        elif r < 0.2:
            v = self.v_cast_dyn(v)
        return v

    def make_view(self, root, shape, read, bcast_ok=False):
        """A view of `root` with shape `shape`, or None. With `read`, every
        element it covers is initialised; with `bcast_ok` (a view only read)
        it may have zero strides."""
        cache = self.multi_block and self.in_body and self.indent == 1
        if cache and self.rng.random() < 0.35:
            # A view made before, maybe in an earlier block that dominates
            # this one (a view of a live-in buffer).
            old = [(v, b) for v, b in self.view_cache if v.root is root and
                   v.shape == tuple(shape) and b in self.dom and
                   (not read or all(root.init[e] for e in v.elements()))]
            if old:
                v, b = self.rng.choice(old)
                self.features.add("view-from-earlier-block"
                                  if b != self.cur_block else "view-reused")
                return self.maybe_space_cast(v)
        for _ in range(6):
            if bcast_ok and self.new and self.rng.random() < self.p_bcast:
                v = self._try_bcast(root, tuple(shape))
            else:
                v = self._try_view(root, tuple(shape))
            if v is None:
                continue
            if max(v.elements()) >= root.numel or min(v.elements()) < 0:
                raise AssertionError("view out of bounds")
            if read and not all(root.init[e] for e in v.elements()):
                continue
            if "wrapped-rows" in self.avoid and wraps(v):
                continue
            if cache and v.ssa != root.value.ssa and \
                    len(set(v.elements())) == len(v.elements()):
                self.view_cache.append((v, self.cur_block))
            return self.maybe_space_cast(v)
        return None

    def maybe_space_cast(self, v):
        """Sometimes a view of a buffer in another memory space is used
        through a memref.memory_space_cast to the default space."""
        if v.space and self.srng.random() < 0.12:
            self.features.add("space-cast-view")
            return self.to_default(v)
        return v

    def _try_view(self, root, shape):
        rng = self.rng
        n = prod(shape)
        N = root.numel
        R = root.shape
        fancy = rng.random() < self.p_fancy_view
        base = self.base_value(root)
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
        if self.new and len(shape) == 2 and self.rng.random() < self.p_wide:
            strategies += ["wide"] * 4
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
                return self.v_reinterpret(base, -base.shift, list(shape),
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
            # (Only the row dimension is dropped: a row of one element
            # stays 1-D.)
            return self.v_subview(base, [i, j], [1, shape[0]], [1, 1],
                                  reduce_unit=(0,))
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
            return self.v_reinterpret(src, off - base.shift, [r, c], [k, 1])
        if s == "reinterpret1d":
            step = 2 if (n - 1) * 2 < N and rng.random() < 0.5 else 1
            span = (n - 1) * step + 1
            off = rng.randint(0, N - span)
            return self.v_reinterpret(base, off - base.shift, [n], [step])
        if s == "wide":
            # Row strides far wider than the rows; a single row takes a huge
            # stride (only row 0 is ever addressed).
            r, c = shape
            if r == 1:
                k = rng.choice([1 << 20, 1 << 40, 3 << 50])
            else:
                kmax = (N - c) // (r - 1)
                if kmax < c:
                    return None
                k = rng.randint(max(c, kmax - 3), kmax)
            span = (r - 1) * k + c if r > 1 else c
            off = rng.randint(0, N - span)
            self.features.add("wide-row-stride")
            return self.v_reinterpret(base, off - base.shift, [r, c], [k, 1])
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

    def pick_input(self, shape, exclude=(), bcast_ok=True):
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
            v = self.make_view(r, shape, read=True, bcast_ok=bcast_ok)
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
                if self.alias_overlap(v, out):
                    return True
                continue
            if v.same_layout(out):
                if self.global_inplace(v, out):
                    return True
                continue
            if oe.intersection(v.elements()):
                return True
        return False

    def global_inplace(self, a, b):
        """With --avoid global-inplace: a and b are two different values
        covering the same elements of a memref.global."""
        return "global-inplace" in self.avoid and a.root is b.root and \
            a.root.kind == "global" and a.ssa != b.ssa

    @staticmethod
    def alias_overlap(a, b):
        """Whether views of two roots that share storage (aliases) cover
        common elements other than element for element."""
        if a.root is None or b.root is None or a.root is b.root or \
                a.root.storage is not b.root.storage:
            return False
        sa, sb = a.selems(), b.selems()
        return sa != sb and bool(set(sa) & set(sb))

    def partial_overlap(self, a, b):
        """a and b share elements without being the same layout (one op
        must not read one and write the other)."""
        if a.root is b.root:
            if a.same_layout(b):
                return self.global_inplace(a, b)
            return bool(set(a.elements()) & set(b.elements()))
        return self.alias_overlap(a, b)

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
        init = all(out.root.init[e] for e in out.elements())
        if in_place_ok and init:
            kinds += ["accum", "accum", "inplace_binary"]
        if self.new and (self.p_ptr > 0 or self.calls or
                         "scalar-loops" not in self.without):
            kinds += ["mech", "mech"]
        rng.shuffle(kinds)
        for kind in kinds:
            if kind == "mech":
                # Scalar loops, pointers, helper calls (pick_mech).
                a = self.pick_input(shape)
                if a is None or self.overlaps_badly(out, [a]):
                    continue
                mode = "accum" if in_place_ok and init and \
                    rng.random() < 0.5 else "scale"
                self.update(out, [a], mode, self.pick_mech(out, 0))
                self.mark_write(out, [a])
                return True
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
                    ta, to = unranked_type(a.space), unranked_type(out.space)
                    self.emit("%s = memref.cast %s : %s to %s" % (
                        ua, a.ssa, a.type, ta))
                    self.emit("%s = memref.cast %s : %s to %s" % (
                        uo, out.ssa, out.type, to))
                    self.emit("memref.copy %s, %s : %s to %s" % (
                        ua, uo, ta, to), top_op=True)
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
    def new_alloc(self, shape, arena=None, space_of=None):
        """space_of: a root whose memory space the allocation takes (two
        buffers of one type); otherwise the space is drawn (pick_space)."""
        if arena is None:
            arena = self.rng.random() < self.p_arena
        if space_of is not None:
            space = space_of.space
            self.use_space(space)
        else:
            space = self.pick_space()
        if arena:
            # A byte buffer seen through memref.view (an arena).
            name = self.fresh("arena")
            root = Root(name, shape, "alloc")
            root.arena = True
            root.space = space
            root.byte_type = "memref<%dxi8%s>" % (
                root.numel * 4, ", %s" % space if space else "")
            self.emit("%s = memref.alloc() : %s" % (name, root.byte_type),
                      top_op=True)
            v = self.fresh("av")
            root.value = Value(v, root, shape, canonical_strides(shape), 0,
                               False, True)
            self.emit("%s = memref.view %s[%s][] : %s to %s" % (
                v, name, self.idx(0), root.byte_type, root.value.type))
            self.features.add("memref.view")
            self.roots.append(root)
            self.maybe_early_ptr(root)
            return root
        align = 64 if self.rng.random() < self.p_align else None
        name = self.fresh("buf")
        root = Root(name, shape, "alloc", align=align)
        root.space = space
        root.value = Value(name, root, shape, canonical_strides(shape), 0,
                           False, True)
        attr = " {alignment = %d : i64}" % align if align else ""
        self.emit("%s = memref.alloc()%s : %s" % (name, attr,
                                                   root.value.type),
                  top_op=True)
        self.roots.append(root)
        self.maybe_early_ptr(root)
        return root

    def dealloc(self, root):
        root.live = False
        if root.arena:
            self.emit("memref.dealloc %s : %s" % (root.name, root.byte_type),
                      top_op=True)
            return
        v = root.value
        if getattr(root, "owned_flag", None):
            # A loop's or branch's result: freed under the flag it returns
            # next to it (the result itself, which dominates the rest, as
            # the deallocation pipeline frees it).
            rank = len(root.shape)
            rtype = memref_type(root.shape, canonical_strides(root.shape), 0,
                                False, True)
            base = self.fresh("ybase")
            meta = ", ".join([base, self.fresh("yoff")] +
                             [self.fresh("ysz") for _ in range(rank)] +
                             [self.fresh("yst") for _ in range(rank)])
            self.emit("%s = memref.extract_strided_metadata %s : %s -> "
                      "memref<f32>, %s" % (meta, root.name, rtype,
                                           ", ".join(["index"] *
                                                     (1 + 2 * rank))))
            if self.yrng.random() < 0.3:
                # As before --bufferization-lower-deallocations.
                self.emit("bufferization.dealloc (%s : memref<f32>) if (%s)"
                          % (base, root.owned_flag), top_op=True)
                self.features.add("bufferization.dealloc")
                return
            self.emit("scf.if %s {" % root.owned_flag, top_op=True)
            self.emit("  memref.dealloc %s : memref<f32>" % base)
            self.emit("}")
            return
        if self.p_yield and not root.arena and root.alloc_type is None and \
                not (self.wrapper and self.new) and \
                self.yrng.random() < 0.15:
            # bufferization.dealloc under a constant true condition.
            tr = self.fresh("true")
            self.emit("%s = arith.constant true" % tr)
            self.emit("bufferization.dealloc (%s : %s) if (%s)" % (
                v.ssa, v.type, tr), top_op=True)
            self.features.add("bufferization.dealloc")
            return
        if self.wrapper and self.new:
            # memsched: an allocation of a callee must be freed by a
            # memref.dealloc of the allocation itself (one of a view leaves
            # the caller unsupported), and @body is one.
            self.emit("memref.dealloc %s : %s" % (
                root.alloc_ssa, root.alloc_type or v.type), top_op=True)
            return
        if root.alloc_type is not None and self.rng.random() < 0.5:
            self.emit("memref.dealloc %s : %s" % (root.alloc_ssa,
                                                  root.alloc_type),
                      top_op=True)
            return
        if self.multi_block and self.in_body and self.indent == 1 and \
                self.rng.random() < 0.3:
            # Through a view of the whole buffer made in this block or one
            # above it.
            full = [w for w, b in self.view_cache if w.root is root and
                    b in self.dom and w.shift == v.shift and
                    w.elements() == v.elements()]
            if full:
                w = self.rng.choice(full)
                self.emit("memref.dealloc %s : %s" % (w.ssa, w.type),
                          top_op=True)
                self.features.add("dealloc-of-view-from-earlier-block")
                return
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
        local = self.ctx_local()
        for r in list(self.roots):
            if r.kind != "alloc" or not r.live or r.returned or \
                    r in self.deferred:
                continue
            if not r.consumed:
                continue
            if local is not None and id(r) not in local:
                # Allocated outside the arm or loop body being emitted.
                continue
            if force or self.rng.random() < 0.45:
                if self.rng.random() < self.p_defer:
                    self.deferred.append(r)
                    r.writable = False
                    self.features.add("late-dealloc")
                else:
                    self.dealloc(r)
        if self.pending_select_deallocs and self.rng.random() < 0.4:
            self.flush_select_deallocs()
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
        self.produce(self.new_alloc(shape))
        return True

    def produce(self, root):
        """Writes all of a new buffer: computed from others, the rest
        filled with a constant."""
        if not self.compute_into(root.value, in_place_ok=False):
            self.compute_into(root.value, allow_fill=True, in_place_ok=False)
        if not all(root.init):
            c = self.fconst(self.coef())
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                c, root.value.ssa, root.value.type), top_op=True)
            self.mark_write(root.value, [])

    def st_pad(self):
        """A materialised pad, as bufferized tensor.pad: a buffer computed
        (sometimes updated in place), a larger buffer filled with a
        constant (linalg.fill or linalg.map), the first copied into an
        interior view of the second; the first freed right after the copy
        (what --memsched-split absorbs), or still read later."""
        prng = self.prng
        shape = list(self.rng.choice(SHAPES_2D) if prng.random() < 0.7
                     else self.rng.choice(SHAPES_1D))
        lo = [prng.randint(0, 2) for _ in shape]
        hi = [prng.randint(0, 2) for _ in shape]
        if not any(lo) and not any(hi):
            hi[-1] = 1
        padded = [d + a + b for d, a, b in zip(shape, lo, hi)]
        early = prng.random() < 0.3  # the padded buffer allocated first
        if early:
            pad = self.new_alloc(padded, arena=False)
        x = self.new_alloc(shape, arena=False,
                           space_of=pad if early else None)
        self.produce(x)
        if prng.random() < 0.4:
            # Updated in place (an activation after the producer).
            self.generic([x.value], x.value, "scale")
            self.features.add("pad-in-place")
        if not early:
            pad = self.new_alloc(padded, arena=False, space_of=x)
        c = self.fconst(self.prng.choice([0.0, -1.5, 2.0]))
        if prng.random() < 0.5:
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                c, pad.value.ssa, pad.value.type), top_op=True)
        else:
            self.emit("linalg.map outs(%s : %s)" % (pad.value.ssa,
                                                  pad.value.type),
                      top_op=True)
            self.emit("  (%s: f32) {" % self.fresh("init"))
            self.emit("    linalg.yield %s : f32" % c)
            self.emit("  }")
            self.features.add("pad-map-fill")
        self.mark_write(pad.value, [])
        inner = self.v_subview(pad.value, lo, shape, [1] * len(shape))
        self.emit("memref.copy %s, %s : %s to %s" % (
            x.value.ssa, inner.ssa, x.value.type, inner.type), top_op=True)
        self.mark_write(inner, [x.value])
        self.features.add("pad")
        if prng.random() < 0.8:
            self.dealloc(x)
        else:
            self.features.add("pad-source-kept")
        return True

    # ---- channel chains (--chains) -----------------------------------------
    # What --memsched-split runs by groups of channels (docs/split.md,
    # "Channel groups"): linalg ops and memref.copy of one block linked by
    # intermediate buffers of C channels (allocated and freed in the block,
    # used only by such ops), every op running over the channels with one
    # loop. Decisions come from self.crng; operands from the usual pickers.
    def ch_shape(self, lay, n):
        return (self.ch.C, n) if lay == "cn" else (n, self.ch.C)

    @staticmethod
    def ch_ix(lay, c, n):
        """The indexing map results of a buffer of layout `lay` for channel
        expression c and position expression n."""
        return [c, n] if lay == "cn" else [n, c]

    def ch_new(self, lay, n):
        """A new intermediate (in the chain's memory space)."""
        ch = self.ch
        shape = self.ch_shape(lay, n)
        name = self.fresh("ch")
        root = Root(name, shape, "alloc")
        root.space = ch.space
        root.value = Value(name, root, shape, canonical_strides(shape), 0,
                           False, True)
        attr = " {alignment = 64 : i64}" if self.crng.random() < 0.15 else ""
        self.emit("%s = memref.alloc()%s : %s" % (name, attr, root.value.type),
                  top_op=True)
        root.lay, root.n = lay, n
        ch.live.append(root)
        ch.count += 1
        return root

    def ch_free(self, root):
        self.emit("memref.dealloc %s : %s" % (root.name, root.value.type),
                  top_op=True)
        root.live = False
        self.ch.live.remove(root)

    def ch_retire(self, old):
        """old is no longer the current intermediate: freed now, or left
        for the end of the chain."""
        if old.live and self.crng.random() < 0.7:
            self.ch_free(old)

    def ch_generic(self, iters, ins, outs, body):
        """linalg.generic over loops d0.. (`iters` their types); ins, outs:
        [(Value, [map results])]; body(in args, out args) emits the region
        and returns the yielded values."""
        dims = ", ".join("d%d" % i for i in range(len(iters)))
        maps = ", ".join("affine_map<(%s) -> (%s)>" % (dims, ", ".join(e))
                         for _, e in ins + outs)
        head = "linalg.generic {indexing_maps = [%s], iterator_types = [%s]}" \
            % (maps, ", ".join('"%s"' % t for t in iters))
        if ins:
            head += " ins(%s : %s)" % (", ".join(v.ssa for v, _ in ins),
                                       ", ".join(v.type for v, _ in ins))
        head += " outs(%s : %s) {" % (", ".join(v.ssa for v, _ in outs),
                                      ", ".join(v.type for v, _ in outs))
        self.emit(head, top_op=True)
        a = ["%%in%d" % i for i in range(len(ins))]
        o = ["%%out%d" % i for i in range(len(outs))]
        self.emit("^bb0(%s):" % ", ".join("%s: f32" % x for x in a + o))
        self.indent += 1
        ys = body(a, o)
        self.emit("linalg.yield %s : %s" % (", ".join(ys),
                                            ", ".join(["f32"] * len(ys))))
        self.indent -= 1
        self.emit("}")
        self.features.add("linalg.generic")

    def b_const(self, x):
        c = self.fresh("k")
        self.emit("%s = arith.constant %s : f32" % (c, fmt_float(x)))
        return c

    def b_op(self, op, a, b):
        t = self.fresh("t")
        self.emit("%s = arith.%s %s, %s : f32" % (t, op, a, b))
        return t

    def b_coef(self):
        return self.crng.choice([0.5, 0.25, 0.75, -0.5, 1.5, 0.125, -1.25])

    def b_axpb(self, args, out=None):
        """sum of k_i * args[i] (plus out * k when given)."""
        acc = None
        for x in args + ([out] if out else []):
            t = self.b_op("mulf", x, self.b_const(self.b_coef()))
            acc = t if acc is None else self.b_op("addf", acc, t)
        return acc

    def b_clamp(self, x):
        lo = self.b_const(self.crng.choice([0.0, -1.0, -4.0]))
        hi = self.b_const(self.crng.choice([6.0, 2.0, 16.0]))
        return self.b_op("minimumf", self.b_op("maximumf", x, lo), hi)

    def ch_read(self, shape, group):
        """An external operand of `shape` the chain reads (whole or by
        group), or None."""
        v = self.pick_input(shape)
        if v is not None:
            self.ch.reads.append((v, group))
        return v

    def ch_write_fill(self, v):
        c = self.fconst(self.crng.choice([0.0, 0.0, 1.0, -0.5]))
        self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
            c, v.ssa, v.type), top_op=True)
        self.features.add("linalg.fill")

    def ch_loops(self):
        """Loop positions (c, n) of a two-loop op: either order."""
        return (0, 1) if self.crng.random() < 0.6 else (1, 0)

    def ch_produce(self):
        """The first intermediate, written whole (channel by channel)."""
        cr, ch = self.crng, self.ch
        lay, N, C = ch.lay, ch.N, ch.C
        kinds = ["bcast", "bcast", "group", "group", "matmul", "matmul",
                 "copy", "fill_accum"]
        cr.shuffle(kinds)
        for kind in kinds + ["fill"]:
            if kind == "bcast":
                x = self.ch_read((N,), False)
                if x is None:
                    continue
                b = self.ch_read((C,), True) if cr.random() < 0.6 else None
                t = self.ch_new(lay, N)
                ci, ni = self.ch_loops()
                c, n = "d%d" % ci, "d%d" % ni
                ins = [(x, [n])] + ([(b, [c])] if b else [])
                self.ch_generic(["parallel"] * 2, ins,
                                [(t.value, self.ch_ix(lay, c, n))],
                                lambda a, o: [self.b_axpb(a)])
                self.features.add("chain-produce-bcast")
                return t
            if kind == "group":
                lay2 = cr.choice(["cn", "nc"])
                x = self.ch_read(self.ch_shape(lay2, N), True)
                if x is None:
                    continue
                t = self.ch_new(lay, N)
                ci, ni = self.ch_loops()
                c, n = "d%d" % ci, "d%d" % ni
                clamp = cr.random() < 0.4
                self.ch_generic(
                    ["parallel"] * 2, [(x, self.ch_ix(lay2, c, n))],
                    [(t.value, self.ch_ix(lay, c, n))],
                    lambda a, o: [self.b_clamp(self.b_axpb(a)) if clamp
                                  else self.b_axpb(a)])
                self.features.add("chain-produce-group")
                return t
            if kind == "copy":
                x = self.ch_read(self.ch_shape(lay, N), True)
                if x is None:
                    continue
                t = self.ch_new(lay, N)
                if cr.random() < 0.5:
                    self.emit("memref.copy %s, %s : %s to %s" % (
                        x.ssa, t.name, x.type, t.value.type), top_op=True)
                    self.features.add("memref.copy")
                else:
                    self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
                        x.ssa, x.type, t.name, t.value.type), top_op=True)
                    self.features.add("linalg.copy")
                self.features.add("chain-produce-copy")
                return t
            if kind == "matmul":
                # t[c, n] = sum_k w[c, k] x[k, n] (a 1x1 convolution).
                K = cr.choice([2, 3, 4, 8])
                w = self.ch_read((C, K), True)
                x = self.ch_read((K, N), False)
                if w is None or x is None:
                    continue
                t = self.ch_new(lay, N)
                self.ch_write_fill(t.value)
                if lay == "cn" and cr.random() < 0.5:
                    self.emit("linalg.matmul ins(%s, %s : %s, %s) outs(%s : "
                              "%s)" % (w.ssa, x.ssa, w.type, x.type, t.name,
                                       t.value.type), top_op=True)
                    self.features.add("linalg.matmul")
                else:
                    self.ch_generic(
                        ["parallel", "parallel", "reduction"],
                        [(w, ["d0", "d2"]), (x, ["d2", "d1"])],
                        [(t.value, self.ch_ix(lay, "d0", "d1"))],
                        lambda a, o: [self.b_op("addf", o[0], self.b_op(
                            "mulf", a[0], a[1]))])
                self.features.add("chain-produce-matmul")
                return t
            if kind == "fill_accum":
                shape = cr.choice([(C,), (N,), self.ch_shape(lay, N)])
                x = self.ch_read(shape, shape != (N,))
                if x is None:
                    continue
                t = self.ch_new(lay, N)
                self.ch_write_fill(t.value)
                ci, ni = self.ch_loops()
                c, n = "d%d" % ci, "d%d" % ni
                e = [c] if shape == (C,) else [n] if shape == (N,) else \
                    self.ch_ix(lay, c, n)
                self.ch_generic(["parallel"] * 2, [(x, e)],
                                [(t.value, self.ch_ix(lay, c, n))],
                                lambda a, o: [self.b_axpb(a, o[0])])
                self.features.add("chain-produce-fill-accum")
                return t
            if kind == "fill":
                t = self.ch_new(lay, N)
                self.ch_write_fill(t.value)
                return t
        return None

    def ch_middle(self, cur):
        """One op on the current intermediate; returns the new current
        one."""
        cr, ch = self.crng, self.ch
        lay, N, C = cur.lay, cur.n, ch.C
        kind = cr.choice(["inplace", "inplace", "outplace", "outplace",
                          "binary", "transpose", "copy", "pad", "pad",
                          "window"])
        ci, ni = self.ch_loops()
        c, n = "d%d" % ci, "d%d" % ni
        if kind == "inplace":
            if cr.random() < 0.5:
                self.ch_generic(["parallel"] * 2, [],
                                [(cur.value, self.ch_ix(lay, c, n))],
                                lambda a, o: [self.b_clamp(o[0])])
            else:
                self.ch_generic(["parallel"] * 2,
                                [(cur.value, self.ch_ix(lay, c, n))],
                                [(cur.value, self.ch_ix(lay, c, n))],
                                lambda a, o: [self.b_axpb(a)])
            self.features.add("chain-inplace")
            return cur
        if kind == "binary":
            other = None
            if cr.random() < 0.6:
                other = self.ch_read(self.ch_shape(lay, N), True)
            other = other or cur.value
            op = cr.choice(["add", "sub", "mul", "max"])
            self.emit("linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (
                op, cur.name, other.ssa, cur.value.type, other.type, cur.name,
                cur.value.type), top_op=True)
            self.features.add("linalg." + op)
            self.features.add("chain-inplace")
            return cur
        if kind in ("outplace", "transpose", "copy"):
            lay2 = lay if kind == "copy" else \
                ("nc" if lay == "cn" else "cn") if kind == "transpose" else \
                cr.choice([lay, lay, "cn", "nc"])
            u = self.ch_new(lay2, N)
            if kind == "transpose":
                self.emit("linalg.transpose ins(%s : %s) outs(%s : %s) "
                          "permutation = [1, 0]" % (
                              cur.name, cur.value.type, u.name, u.value.type),
                          top_op=True)
                self.features.add("linalg.transpose")
            elif kind == "copy":
                self.emit("memref.copy %s, %s : %s to %s" % (
                    cur.name, u.name, cur.value.type, u.value.type),
                    top_op=True)
                self.features.add("memref.copy")
            else:
                ins = [(cur.value, self.ch_ix(lay, c, n))]
                if cr.random() < 0.5:
                    shape = cr.choice([(C,), (N,)])
                    b = self.ch_read(shape, shape == (C,))
                    if b is not None:
                        ins.append((b, [c] if shape == (C,) else [n]))
                clamp = cr.random() < 0.5
                self.ch_generic(["parallel"] * 2, ins,
                                [(u.value, self.ch_ix(lay2, c, n))],
                                lambda a, o: [self.b_clamp(self.b_axpb(a))
                                              if clamp else self.b_axpb(a)])
            self.features.add("chain-" + kind)
            self.ch_retire(cur)
            return u
        # A pad along N (what --memsched-split absorbs), and sometimes a
        # window over it: a depthwise 1-D convolution.
        window = kind == "window" or cr.random() < 0.4
        K = cr.choice([2, 3, 3, 5]) if window else None
        tot = K - 1 if window else cr.randint(1, 4)
        lo = cr.randint(0, tot)
        p = self.ch_new(lay, N + tot)
        if cr.random() < 0.7:
            self.ch_write_fill(p.value)
        else:
            self.emit("linalg.map outs(%s : %s)" % (p.name, p.value.type),
                      top_op=True)
            self.emit("  (%s: f32) {" % self.fresh("init"))
            self.emit("    linalg.yield %s : f32" % self.fconst(
                cr.choice([0.0, -1.5, 2.0])))
            self.emit("  }")
        sv = self.v_subview(p.value, self.ch_ix(lay, 0, lo),
                            self.ch_shape(lay, N), [1, 1])
        if cr.random() < 0.7:
            self.emit("memref.copy %s, %s : %s to %s" % (
                cur.name, sv.ssa, cur.value.type, sv.type), top_op=True)
        else:
            self.ch_generic(["parallel"] * 2,
                            [(cur.value, self.ch_ix(lay, c, n))],
                            [(sv, self.ch_ix(lay, c, n))],
                            lambda a, o: [self.b_axpb(a)])
        self.features.add("chain-pad")
        if cr.random() < 0.85:
            self.ch_free(cur)
        if not window:
            return p
        # Weights per channel (read by group) or the same for all (read
        # whole); some operand must give the window loop its bound.
        w = self.ch_read((C, K), True) if cr.random() < 0.7 else None
        we = ["d0", "d2"]
        if w is None:
            w, we = self.ch_read((K,), False), ["d2"]
        if w is None:
            return p
        d = self.ch_new(lay, N)
        self.ch_write_fill(d.value)
        self.ch_generic(
            ["parallel", "parallel", "reduction"],
            [(p.value, self.ch_ix(lay, "d0", "d1 + d2")), (w, we)],
            [(d.value, self.ch_ix(lay, "d0", "d1"))],
            lambda a, o: [self.b_op("addf", o[0], self.b_op(
                "mulf", a[0], a[1]))])
        self.features.add("chain-window")
        self.ch_retire(p)
        return d

    def ch_target(self, shape, alloc_shape=None):
        """A buffer the chain writes: a view of a live buffer (an argument
        without llvm.noalias or a global makes memsched refuse), or a new
        allocation (in self.roots) of alloc_shape if given."""
        r = self.crng.random()
        if r < 0.3:
            v = self.pick_output(shape)
            if v is not None:
                return v
        shape = alloc_shape or shape
        if r < 0.6:
            return self.new_alloc(shape).value
        # An allocation of nothing but its shape (no arena, no pointer made
        # of it up front: what memsched takes as the chain's own).
        name = self.fresh("buf")
        root = Root(name, shape, "alloc")
        root.space = self.pick_space()
        root.value = Value(name, root, shape, canonical_strides(shape), 0,
                           False, True)
        self.emit("%s = memref.alloc() : %s" % (name, root.value.type),
                  top_op=True)
        self.roots.append(root)
        return root.value

    def ch_consume_group(self, cur):
        """A consumer writing an external buffer channel by channel."""
        cr, ch = self.crng, self.ch
        lay, N = cur.lay, cur.n
        lay2 = cr.choice([lay, lay, "cn", "nc"])
        shape = self.ch_shape(lay2, N)
        out = None
        same = [v for v, g in ch.reads if g and v.shape == shape and
                v.root.writable and v.root.kind != "global" and
                len(set(v.elements())) == len(v.elements())]
        if same and cr.random() < 0.3:
            # The buffer the chain reads by group, written through the same
            # value (memsched accepts that: a group writes its channels).
            out = cr.choice(same)
            self.features.add("chain-write-what-it-reads")
        else:
            out = self.ch_target(shape)
        ci, ni = self.ch_loops()
        c, n = "d%d" % ci, "d%d" % ni
        init = all(out.root.init[e] for e in out.elements())
        if lay2 == lay and cr.random() < 0.3 and \
                not self.overlaps_badly(out, [cur.value]):
            self.emit("memref.copy %s, %s : %s to %s" % (
                cur.name, out.ssa, cur.value.type, out.type), top_op=True)
            self.features.add("memref.copy")
        else:
            accum = init and cr.random() < 0.4
            self.ch_generic(["parallel"] * 2,
                            [(cur.value, self.ch_ix(lay, c, n))],
                            [(out, self.ch_ix(lay2, c, n))],
                            lambda a, o: [self.b_axpb(
                                a, o[0] if accum else None)])
        self.mark_write(out, [])
        for v, _ in ch.reads:
            if v.root is not out.root:
                v.root.consumed = True
        self.features.add("chain-consume-group")

    def ch_consume_reduce(self, cur):
        """A consumer summing over the channels into an external buffer,
        the channel loop its outermost reduction (or, for refusals, not)."""
        cr, ch = self.crng, self.ch
        lay, N, C = cur.lay, cur.n, ch.C
        kind = cr.choice(["nc", "nc", "cn", "mm", "mm", "sum"] +
                         (["inner", "inner-sum"] if cr.random() < 0.3 else []))
        M = cr.choice([2, 4, 8])
        K = cr.choice([2, 3])
        oshape = {"mm": (M, N), "sum": (1,), "inner-sum": (1,)}.get(kind,
                                                                    (N,))
        w = None
        if kind == "mm":
            w = self.ch_read((M, C), True)
        elif kind == "inner":
            w = self.ch_read((C, K), True)
        elif cr.random() < 0.7:
            w = self.ch_read((C,), True)
        if kind in ("mm", "inner") and w is None:
            kind, oshape = "nc", (N,)
        # (A new buffer for a sum has 8 elements, the first one written:
        # the other statements have no views of a shape (1,).)
        o = self.ch_target(oshape, (8,) if oshape == (1,) else None)
        init = all(o.root.init[e] for e in o.elements())
        if not init or cr.random() < 0.8:
            self.ch_write_fill(o)
        if kind == "mm" and lay == "cn" and cr.random() < 0.5:
            self.emit("linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s)" % (
                w.ssa, cur.name, w.type, cur.value.type, o.ssa, o.type),
                top_op=True)
            self.features.add("linalg.matmul")
        else:
            if kind == "mm":
                iters = ["parallel", "parallel", "reduction"]
                c, n, ins_w, oe = "d2", "d1", ["d0", "d2"], ["d0", "d1"]
            elif kind == "nc":
                iters, c, n, oe = ["parallel", "reduction"], "d1", "d0", ["d0"]
            elif kind == "cn":
                iters, c, n, oe = ["reduction", "parallel"], "d0", "d1", ["d1"]
            elif kind == "sum":
                iters, c, n, oe = ["reduction", "reduction"], "d0", "d1", ["0"]
            elif kind == "inner-sum":
                # The channel loop inside another reduction: not run by
                # groups (a group would add its terms out of order).
                iters, c, n, oe = ["reduction", "reduction"], "d1", "d0", ["0"]
            else:  # inner
                iters = ["reduction", "parallel", "reduction"]
                c, n, ins_w, oe = "d2", "d1", ["d2", "d0"], ["d1"]
            if len(o.shape) == 0:
                oe = []  # a rank-0 view of the sum's buffer
            ins = [(cur.value, self.ch_ix(lay, c, n))]
            if w is not None:
                ins.append((w, ins_w if kind in ("mm", "inner") else [c]))
            self.ch_generic(
                iters, ins, [(o, oe)],
                lambda a, o_: [self.b_op("addf", o_[0], self.b_op(
                    "mulf", a[0], a[1] if len(a) > 1 else
                    self.b_const(self.b_coef())))])
        self.mark_write(o, [])
        for v, _ in ch.reads:
            if v.root is not o.root:
                v.root.consumed = True
        self.features.add("chain-reduce")
        self.features.add("chain-reduce-" + kind)

    def ch_interleave(self):
        """Between two ops of the chain: an op on an operand the chain reads
        (memsched must not move the chain past it), or another statement."""
        cr, ch = self.crng, self.ch
        ext = [v for v, _ in ch.reads if v.root.writable and
               v.root.kind != "global" and
               len(set(v.elements())) == len(v.elements())]
        if ext and cr.random() < 0.5:
            v = cr.choice(ext)
            self.generic([v], v, "scale")
            self.mark_write(v, [v])
            self.features.add("chain-interleaved-write")
            return
        f = cr.choice([self.st_new_buffer, self.st_write_arg,
                       self.st_inplace_chain, self.st_scalar, self.st_print,
                       self.st_call])
        f()
        self.features.add("chain-interleaved")

    def ch_escape(self, cur, how):
        """An intermediate used by an op no chain can hold (memsched cannot
        split through it)."""
        cr = self.crng
        if how == "call" and self.calls:
            y = self.new_alloc(cur.value.shape)
            name = self.helper_name("chk")
            saved = self.push_func()
            px = self.param("%x", cur.value)
            py = self.param("%y", y.value)
            self.generic([px], py, "scale")
            self.pop_func(saved, "func.func private %s(%%x: %s, %%y: %s) {" % (
                name, px.type, py.type))
            self.emit("func.call %s(%s, %s) : (%s, %s) -> ()" % (
                name, cur.name, y.value.ssa, cur.value.type, y.value.type),
                top_op=True)
            self.mark_write(y.value, [])
            self.features.add("func.call")
            self.features.add("chain-escape-call")
            return
        if how == "partial":
            # A subview of some of the channels.
            C2 = cr.randint(1, self.ch.C - 1)
            c0 = cr.randint(0, self.ch.C - C2)
            lay, N = cur.lay, cur.n
            sv = self.v_subview(cur.value, self.ch_ix(lay, c0, 0),
                                self.ch_ix(lay, C2, N), [1, 1])
            y = self.new_alloc(sv.shape)
            self.generic([sv], y.value, "scale")
            self.mark_write(y.value, [])
            self.features.add("chain-escape-partial")
            return
        pos = [cr.randrange(k) for k in cur.value.shape]
        x = self.fresh("x")
        self.emit("%s = memref.load %s[%s] : %s" % (
            x, cur.name, ", ".join(self.idx(k) for k in pos), cur.value.type),
            top_op=True)
        y = self.new_alloc((cr.choice([8, 32]),))
        self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
            x, y.value.ssa, y.value.type), top_op=True)
        self.mark_write(y.value, [])
        self.features.add("memref.load")
        self.features.add("chain-escape-load")

    def st_chain(self):
        """A channel chain: an intermediate of C channels computed from
        other buffers (read whole or channel by channel), ops on it in place
        or into new intermediates (elementwise, transposed, copied, padded
        along N, a window over the pad), and one or two consumers: one
        writing an external buffer by channel, one accumulating into one
        over the channels (its channel loop the outermost reduction, or
        sometimes not). Intermediates are freed after their last use.
        Sometimes what memsched must refuse or cannot split: an operand the
        chain reads written between its ops, an intermediate read by a call,
        a load or a subview of some channels, one kept after the chain."""
        cr = self.crng

        class Chain:
            pass
        ch = self.ch = Chain()
        ch.C = cr.choice([2, 3, 4, 4, 5, 6, 7, 8, 8, 12, 16, 16])
        ch.N = cr.choice([8, 16, 32, 64, 64, 96, 128, 128, 256, 512])
        ch.lay = "cn" if cr.random() < 0.75 else "nc"
        ch.space = self.pick_space()
        ch.live, ch.reads, ch.count = [], [], 0
        self.features.add("chain")
        cur = self.ch_produce()
        interleave = cr.random() < 0.2
        escape = cr.choice(["call", "load", "partial"]) \
            if cr.random() < 0.15 else None
        for _ in range(cr.choice([0, 1, 1, 2, 2, 3, 4])):
            if interleave and cr.random() < 0.5:
                self.ch_interleave()
            cur = self.ch_middle(cur)
        if escape:
            self.ch_escape(cur, escape)
        if interleave:
            self.ch_interleave()
        kept = None
        if cr.random() < 0.07:
            # The last intermediate outlives the chain (a buffer like any
            # other: later statements read it, it is freed or returned).
            kept = cur
            self.features.add("chain-kept")
        r = cr.random()
        if r < 0.4 or (kept and r < 0.7):
            self.ch_consume_group(cur)
        elif r < 0.8:
            self.ch_consume_reduce(cur)
        else:
            both = [self.ch_consume_group, self.ch_consume_reduce]
            cr.shuffle(both)
            for f in both:
                f(cur)
        live = list(ch.live)
        cr.shuffle(live)
        for t in live:
            if t is not kept:
                self.ch_free(t)
        if kept is not None:
            kept.init = bytearray([1]) * kept.numel
            kept.consumed = False
            kept.live = True
            self.roots.append(kept)
        self.ch = None
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
            opts = self.shapes_within(root)
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
        # With aliases (roots sharing x's storage: a global and the argument
        # it is passed as, overlapping argument views), each op goes through
        # any of them.
        aliases = [a for a in self.live_roots() if a.storage is x.storage and
                   a.writable and all(a.init)] if self.new else [x]
        for _ in range(k):
            xw = rng.choice(aliases) if self.new else x
            w = self.make_view(xw, shape, read=True)
            r = self.make_view(rng.choice(aliases) if self.new else x, shape,
                               read=True) if rng.random() < 0.4 else None
            if w is None:
                self.p_fancy_view = old
                self.row_hint = None
                return False
            if r is not None and self.partial_overlap(r, w):
                r = None
            ops.append((w, r))
        self.p_fancy_view = old
        self.row_hint = None
        temps = self.pinned_temps(shape, k, exclude=(x,))
        for j, (w, r) in enumerate(ops):
            t = temps[j]
            mech = self.pick_mech(w) if self.new else "linalg"
            if r is not None:
                self.update(w, [t.value, r], "axpby", mech)
            else:
                self.update(w, [t.value], "scale", mech)
            if mech != "linalg":
                self.features.add("pinned-" + mech)
            self.mark_write(w, [t.value])
            self.dealloc(t)
        self.features.add("pinned-reverse")
        return True

    def pinned_temps(self, shape, k, exclude):
        """Temporaries T_0 .. T_k-1 of `shape` produced in the reverse order,
        chained through an in-place scratch buffer (st_pinned)."""
        scratch = self.new_alloc(shape)
        inp = self.pick_input(shape, exclude=exclude)
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
        scratch.consumed = True
        return temps

    def st_dead(self):
        """An allocation nothing touches (freed at once, later, or never)."""
        if self.new and "huge-dead" not in self.without and \
                self.rng.random() < 0.25 and \
                not (self.blocky and self.ctx is not None):
            # A huge one (dead code: the lowering erases it; its byte size
            # may not even fit in 64 bits), maybe with an unused view.
            # (Byte sizes that do not fit in 64 bits are unsupported.)
            shape = self.rng.choice([(1 << 58,), (1000000, 1000000),
                                     (1 << 40,), (1 << 28, 1 << 28)])
            h = self.fresh("huge")
            sp = self.pick_space("huge-dead")
            t = memref_type(shape, canonical_strides(shape), 0, False, True,
                            sp)
            self.emit("%s = memref.alloc() : %s" % (h, t), top_op=True)
            if self.rng.random() < 0.5:
                hv = self.fresh("hv")
                if len(shape) == 1:
                    self.emit("%s = memref.subview %s[0] [8] [1] : %s to "
                              "%s" % (hv, h, t, memref_type(
                                  (8,), (1,), 0, False, False, sp)))
                else:
                    self.emit("%s = memref.subview %s[0, 0] [2, 8] [1, 1] : "
                              "%s to %s" % (hv, h, t, memref_type(
                                  (2, 8), (shape[1], 1), 0, False, False,
                                  sp)))
            self.features.add("huge-dead-alloc")
            # (Never freed: the lowering erases it, a deallocation would
            # keep it. Not in arms and loop bodies of blocks: a loop of
            # blocks would allocate it again while allocated.)
            return True
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
        elif "unused-alloc" in self.avoid or self.blocky:
            self.deferred.append(root)  # freed later, never left unused
        return True

    def call_operands(self):
        """A readable view and a writable one of the same shape that do not
        overlap badly, for a call; None when there are none."""
        if not self.calls:
            return None
        shape = self.shape_of_some_root()
        x = self.pick_input(shape)
        y = self.pick_output(shape)
        if x is None or y is None or self.overlaps_badly(y, [x]):
            return None
        return shape, x, y

    def st_call(self):
        """func.call of a helper defined in the module that reads one operand
        and writes another (maybe with a transient allocation inside)."""
        picked = self.call_operands()
        if picked is None:
            return False
        shape, x, y = picked
        rng = self.rng
        accum = all(y.root.init[e] for e in y.elements()) and \
            rng.random() < 0.6
        name = "@k%d" % (len(self.helpers) + 1)
        # The helper's body, written with the same emitter.
        saved_lines, saved_indent = self.lines, self.indent
        self.lines, self.indent = [], 1
        px = self.param("%x", x)
        py = self.param("%y", y)
        if rng.random() < 0.4:
            t = "%tmp"
            vt = Value(t, None, shape, canonical_strides(shape), 0, False, True,
                       space=self.pick_space("transient"))
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

    def st_call_view(self):
        """func.call of a helper that returns its argument (after scaling it
        in place, sometimes); the caller reads the result into another
        buffer: the result aliases that operand only."""
        picked = self.call_operands()
        if picked is None or picked[2].root is picked[1].root:
            return False
        shape, x, y = picked
        rng = self.rng
        name = "@r%d" % (len(self.helpers) + 1)
        saved_lines, saved_indent = self.lines, self.indent
        self.lines, self.indent = [], 1
        px = self.param("%x", x)
        # In place only through a view whose elements are distinct.
        writes = x.root.writable and rng.random() < 0.4 and \
            len(set(x.elements())) == len(x.elements())
        if writes:
            self.generic([px], px, "scale")
        body = self.lines
        self.lines, self.indent = saved_lines, saved_indent
        self.helpers.append("\n".join(
            ["func.func private %s(%%x: %s) -> %s {" % (name, x.type, x.type)]
            + body + ["  return %%x : %s" % x.type, "}"]))
        r = self.fresh("r")
        self.emit("%s = func.call %s(%s) : (%s) -> %s" % (
            r, name, x.ssa, x.type, x.type), top_op=True)
        if writes:
            self.mark_write(x, [x])
        rv = Value(r, x.root, x.shape, x.strides, x.offset, x.dyn, x.identity,
                   x.shift, space=x.space)
        self.generic([rv], y, "scale")
        self.mark_write(y, [rv])
        self.features.add("call-returned-view")
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
        d = self.to_default(v)
        u = self.fresh("u")
        self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (u, d.ssa,
                                                                d.type))
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

    def shapes_within(self, root):
        """The shapes a view of `root` can take (its own when none fits)."""
        return [s for s in SHAPES_1D + SHAPES_2D
                if prod(s) <= root.numel] or [root.shape]

    def loop_multi(self):
        """for i: 2-3 transient buffers allocated up front, each computed from
        an input and accumulated into an output (the same output, whose
        accumulations stay in order, or different ones), then all freed: a
        body memsched reorders on its own (group `nested`). Draws from
        self.nrng only."""
        rng = self.nrng
        cands = [r for r in self.live_roots(readable=True) if r.writable]
        if not cands:
            return False
        root = rng.choice(cands)
        shape = rng.choice(self.shapes_within(root))
        k = rng.randint(2, 3)
        outs = []
        for j in range(k):
            others = [r for r in cands if prod(shape) <= r.numel and
                      all(r is not o.root for o in outs)]
            if j and (rng.random() < 0.5 or not others):
                outs.append(outs[-1])
                continue
            o = self.make_view(root if j == 0 else rng.choice(others), shape,
                               read=True)
            if o is None:
                return False
            outs.append(o)
        # Outputs may overlap each other only as the same view.
        for a in range(k):
            for b in range(a):
                if outs[a] is not outs[b] and (
                        outs[a].root is outs[b].root or
                        self.alias_overlap(outs[a], outs[b])):
                    return False
        ins = []
        for j in range(k):
            inp = self.pick_input(shape, exclude=tuple(o.root for o in outs))
            if inp is None or any(self.alias_overlap(inp, o) for o in outs):
                return False
            ins.append(inp)
        self.loop_header(0, rng.randint(1, 3))
        ts = []
        for j in range(k):
            t = self.fresh("tmp")
            vt = Value(t, None, shape, canonical_strides(shape), 0, False,
                       True, space=self.pick_space("transient"))
            self.emit("%s = memref.alloc() : %s" % (t, vt.type))
            ts.append(vt)
        for j in range(k):
            self.generic([ins[j]], ts[j], "scale")
        for j in range(k):
            self.generic([ts[j]], outs[j], "accum")
        for vt in ts:
            self.emit("memref.dealloc %s : %s" % (vt.ssa, vt.type))
        self.indent -= 1
        self.emit("}")
        for j in range(k):
            self.mark_write(outs[j], [ins[j]])
        self.features.add("loop-multi-transient")
        return True

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
        # (Row subviews of a zero-stride view have a static offset.)
        inp = self.pick_input(shape, bcast_ok=False)
        if inp is None or (inp.root is out.root and
                           set(inp.elements()) & set(out.elements())) or \
                self.alias_overlap(inp, out):
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
        rowt_in = memref_type((C,), (inp.strides[1],), 0, True, False,
                              inp.space)
        rowt_out = memref_type((C,), (out.strides[1],), 0, True, False,
                               out.space)
        ri, ro = self.fresh("ri"), self.fresh("ro")
        self.emit("%s = memref.subview %s[%s, 0] [1, %d] [1, 1] : %s to %s" % (
            ri, inp.ssa, iv, C, inp.type, rowt_in))
        self.emit("%s = memref.subview %s[%s, 0] [1, %d] [1, 1] : %s to %s" % (
            ro, out.ssa, iv, C, out.type, rowt_out))
        vin = Value(ri, inp.root, (C,), (inp.strides[1],), 0, True,
                    space=inp.space)
        vout = Value(ro, out.root, (C,), (out.strides[1],), 0, True,
                     space=out.space)
        if rng.random() < 0.5:
            t = self.fresh("tmp")
            vt = Value(t, None, (C,), (1,), 0, False, True,
                       space=self.pick_space("transient"))
            tt = vt.type
            self.emit("%s = memref.alloc() : %s" % (t, tt))
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
                and not inp.same_layout(out) or self.alias_overlap(inp, out):
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
        opts = self.shapes_within(root)
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
            vt = Value(t, None, shape, canonical_strides(shape), 0, False, True,
                       space=self.pick_space("transient"))
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
        b = self.new_alloc(shape, space_of=a)
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
        vx = Value(x, None, shape, canonical_strides(shape), 0, False, True,
                   space=a.space)
        vy = Value(y, None, shape, canonical_strides(shape), 0, False, True,
                   space=a.space)
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
                    shape_roots.setdefault(r.value.type, []).append(r)
            pairs = self.prefer_spaced(
                [v for v in shape_roots.values() if len(v) >= 2])
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
            cv = chosen.value
            alias = Value(res, chosen, a.shape, cv.strides, cv.offset, cv.dyn,
                          cv.identity, shift=cv.shift)
            excl_ab = tuple(r for r in self.roots
                            if r.storage in (a.storage, b.storage))
            self.features.add("scf.if-result")
            if rng.random() < 0.5 and chosen.writable:
                # Write through the selected alias, then read it.
                inp = self.pick_input(a.shape, exclude=excl_ab)
                if inp is not None:
                    self.generic([inp], alias, "accum")
                    self.mark_write(alias, [inp])
            out = self.pick_output(a.shape, exclude=excl_ab)
            if out is not None:
                self.generic([alias], out, "scale")
                self.mark_write(out, [alias])
            return True
        # Branches writing buffers; equal transient allocations in both, so
        # the computed peak does not depend on the branch taken.
        transient = rng.choice(SHAPES_1D[:4]) if rng.random() < 0.3 else None
        tsp = self.pick_space("transient") if transient else None
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
                vt = Value(t, None, transient, (1,), 0, False, True,
                           space=tsp)
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

    def st_yield_fresh(self):
        """A buffer a loop or a branch hands out (--yields), as
        bufferization with allow-return-allocs-from-loops and upstream's
        ownership-based deallocation leave it: an scf.if whose branches each
        allocate and compute the result, or an scf.for (1-3 iterations)
        whose body allocates the next buffer from the one it got and frees
        that one under the ownership flag carried next to it (false on
        entry: the entry buffer stays its owner's). The result is a buffer
        of its own, freed by memref.dealloc (branches) or under the loop's
        flag."""
        rng = self.rng
        if self.indent != 1 or self.ctx_local() is not None:
            return False
        shape = self.shape_of_some_root()
        rank = len(shape)
        t = memref_type(shape, canonical_strides(shape), 0, False, True)

        def compute(dst, src, transient):
            """dst (a fresh buffer) from src, maybe an input, and with a
            transient."""
            ins = [src]
            inp = self.pick_input(shape, bcast_ok=False) if rng.random() < 0.5 else None
            if inp is not None:
                ins.append(inp)
            self.generic(ins, dst, "axpby" if len(ins) > 1 else "scale")
            if transient:
                tmp = self.fresh("ytmp")
                self.emit("%s = memref.alloc() : %s" % (tmp, t))
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    self.fconst(self.coef()), tmp, t))
                self.generic([Value(tmp, None, shape,
                                    canonical_strides(shape), 0, False,
                                    True)], dst, "accum")
                self.emit("memref.dealloc %s : %s" % (tmp, t))
                self.features.add("yield-transient")

        def value(ssa):
            return Value(ssa, None, shape, canonical_strides(shape), 0,
                         False, True)

        if rng.random() < 0.15 and not self.multi_block:
            # memref.realloc of a 1-D buffer of the function into a larger
            # or smaller one (its first elements kept, the rest unset).
            aliased = set(id(r.target) for r in self.roots
                          if isinstance(r, AliasRoot))
            olds = [r for r in self.live_roots(readable=True)
                    if r.kind == "alloc" and len(r.shape) == 1 and
                    all(r.init) and not r.arena and r.alloc_type is None and
                    r.space is None and r.value.identity and
                    r.value.ssa == r.name and not r.returned and
                    r not in self.deferred and r.storage is r and
                    id(r) not in aliased and
                    not getattr(r, "owned_flag", None)]
            if not olds:
                return False
            old = rng.choice(olds)
            n = old.shape[0]
            # (Growing: a smaller one may keep the old buffer, by the
            # lowering, which memsched refuses.)
            m = rng.choice([n + rng.randint(1, 8), 2 * n])
            new = self.fresh("yre")
            newtype = memref_type((m,), (1,), 0, False, True)
            self.emit("%s = memref.realloc %s : %s to %s" % (
                new, old.name, old.value.type, newtype), top_op=True)
            old.live = False
            root = Root(new, (m,), "alloc")
            root.value = Value(new, root, (m,), (1,), 0, False, True)
            root.init = bytearray([1 if i < n else 0 for i in range(m)])
            root.consumed = old.consumed
            self.roots.append(root)
            self.features.add("memref.realloc")
            return True

        if rng.random() < 0.5:
            # Sometimes the branch not taken yields an argument instead,
            # with the ownership flag the deallocation pipeline returns
            # (true from the branch that allocates).
            args = [r for r in self.args if r.kind == "arg" and
                    r.value.ssa == r.name and r.value.identity and
                    r.space is None and all(r.init)]
            other = rng.choice(args) if args and rng.random() < 0.3 \
                else None
            if other is not None:
                shape, rank = other.shape, len(other.shape)
                t = other.value.type
            src = self.pick_input(shape, bcast_ok=False)
            if src is None:
                return False
            ca, cb = rng.randint(0, 9), rng.randint(0, 9)
            cond = self.fresh("cond")
            self.emit("%s = arith.cmpi slt, %s, %s : index" % (
                cond, self.idx(ca), self.idx(cb)))
            taken_then = ca < cb
            res = self.fresh("yif")
            # The same memory in both branches: the certificate counts the
            # larger, the run takes one.
            transient = rng.random() < 0.4
            if other is not None:
                f, tr = self.fresh("false"), self.fresh("true")
                self.emit("%s = arith.constant false" % f)
                self.emit("%s = arith.constant true" % tr)
                self.emit("%s:2 = scf.if %s -> (%s, i1) {" % (res, cond, t),
                          top_op=True)
            else:
                self.emit("%s = scf.if %s -> (%s) {" % (res, cond, t),
                          top_op=True)
            for branch in (True, False):
                if not branch:
                    self.emit("} else {")
                self.indent += 1
                if other is not None and branch != taken_then:
                    self.emit("scf.yield %s, %s : %s, i1" % (
                        other.value.ssa, f, t))
                    self.indent -= 1
                    continue
                a = self.fresh("ya")
                self.emit("%s = memref.alloc() : %s" % (a, t))
                compute(value(a), src, transient)
                if other is not None:
                    self.emit("scf.yield %s, %s : %s, i1" % (a, tr, t))
                else:
                    self.emit("scf.yield %s : %s" % (a, t))
                self.indent -= 1
            self.emit("}")
            if other is not None:
                root = Root(res + "#0", shape, "alloc")
                root.owned_flag = res + "#1"
                self.features.add("scf.if-fresh-or-argument")
            else:
                root = Root(res, shape, "alloc")
            self.features.add("scf.if-fresh-result")
        else:
            inits = [r for r in self.live_roots(readable=True)
                     if r.shape == shape and all(r.init) and
                     r.space is None and r.value.type == t]
            if not inits:
                return False
            init = rng.choice(inits)
            if rng.random() < 0.35:
                return self.yield_fresh_while(init, shape, t, compute, value)
            res, b, o = self.fresh("yfor"), self.fresh("yb"), self.fresh("yo")
            i = self.fresh("i")
            f, tr = self.fresh("false"), self.fresh("true")
            self.emit("%s = arith.constant false" % f)
            self.emit("%s = arith.constant true" % tr)
            self.emit("%s:2 = scf.for %s = %s to %s step %s iter_args(%s = %s, "
                      "%s = %s) -> (%s, i1) {" % (
                          res, i, self.idx(0), self.idx(rng.randint(1, 3)),
                          self.idx(1), b, init.value.ssa, o, f, t),
                      top_op=True)
            self.indent += 1
            n = self.fresh("yn")
            self.emit("%s = memref.alloc() : %s" % (n, t))
            compute(value(n), value(b), rng.random() < 0.4)
            base = self.strided_base(b, t, rank)
            if rng.random() < 0.3:
                self.emit("bufferization.dealloc (%s : memref<f32>) if (%s)"
                          % (base, o))
                self.features.add("loop-carried-bufferization-dealloc")
            else:
                self.emit("scf.if %s {" % o)
                self.emit("  memref.dealloc %s : memref<f32>" % base)
                self.emit("}")
            self.emit("scf.yield %s, %s : %s, i1" % (n, tr, t))
            self.indent -= 1
            self.emit("}")
            root = Root(res + "#0", shape, "alloc")
            root.owned_flag = res + "#1"
            self.features.add("scf.for-fresh-result")
        root.value = Value(root.name, root, shape, canonical_strides(shape), 0,
                           False, True)
        root.init = bytearray([1]) * root.numel
        self.roots.append(root)
        return True

    def strided_base(self, v, t, rank):
        """Emits memref.extract_strided_metadata of v (of type t) and
        returns its base buffer."""
        base = self.fresh("ybase")
        meta = ", ".join([base, self.fresh("yoff")] +
                         [self.fresh("ysz") for _ in range(rank)] +
                         [self.fresh("yst") for _ in range(rank)])
        self.emit("%s = memref.extract_strided_metadata %s : %s -> "
                  "memref<f32>, %s" % (meta, v, t,
                                       ", ".join(["index"] * (1 + 2 * rank))))
        return base

    def yield_fresh_while(self, init, shape, t, compute, value):
        """An scf.while as one-shot-bufferize with
        allow-return-allocs-from-loops and the deallocation pipeline leave
        it: the `before` region copies the state it got into a fresh buffer
        and frees the state under the ownership flag (false on entry), the
        `after` region computes the next state into a buffer of its own and
        frees the copy it got. 1-3 `after` runs; the result (the last copy)
        is the op's buffer, freed by memref.dealloc."""
        rng = self.rng
        rank = len(shape)
        res, b, o = self.fresh("ywhile"), self.fresh("yb"), self.fresh("yo")
        i, j = self.fresh("i"), self.fresh("j")
        f, tr = self.fresh("false"), self.fresh("true")
        self.emit("%s = arith.constant false" % f)
        self.emit("%s = arith.constant true" % tr)
        self.emit("%s:2 = scf.while (%s = %s, %s = %s, %s = %s) : (%s, index, "
                  "i1) -> (%s, index) {" % (
                      res, b, init.value.ssa, i, self.idx(0), o, f, t, t),
                  top_op=True)
        self.indent += 1
        c, a = self.fresh("yc"), self.fresh("ya")
        # (1-3 `after` runs: with none, the run would not reach the
        # certified peak, an upper bound over every trip count.)
        self.emit("%s = arith.cmpi slt, %s, %s : index" % (
            c, i, self.idx(rng.randint(1, 3))))
        self.emit("%s = memref.alloc() : %s" % (a, t))
        self.emit("memref.copy %s, %s : %s to %s" % (b, a, t, t))
        base = self.strided_base(b, t, rank)
        if rng.random() < 0.3:
            self.emit("bufferization.dealloc (%s : memref<f32>) if (%s)"
                      % (base, o))
        else:
            self.emit("scf.if %s {" % o)
            self.emit("  memref.dealloc %s : memref<f32>" % base)
            self.emit("}")
        self.emit("scf.condition(%s) %s, %s : %s, index" % (c, a, i, t))
        self.indent -= 1
        self.emit("} do {")
        h = self.fresh("yh")
        self.emit("^bb0(%s: %s, %s: index):" % (h, t, j))
        self.indent += 1
        n, j2 = self.fresh("yn"), self.fresh("j")
        self.emit("%s = memref.alloc() : %s" % (n, t))
        compute(value(n), value(h), rng.random() < 0.4)
        self.emit("%s = arith.addi %s, %s : index" % (j2, j, self.idx(1)))
        self.emit("memref.dealloc %s : memref<f32>" %
                  self.strided_base(h, t, rank))
        self.emit("scf.yield %s, %s, %s : %s, index, i1" % (n, j2, tr, t))
        self.indent -= 1
        self.emit("}")
        root = Root(res + "#0", shape, "alloc")
        root.value = Value(root.name, root, shape, canonical_strides(shape), 0,
                           False, True)
        root.init = bytearray([1]) * root.numel
        self.roots.append(root)
        self.features.add("scf.while-fresh-result")
        return True

    def st_write_arg(self):
        outs = [r for r in self.args if r.writable]
        if not outs:
            return False
        root = self.rng.choice(outs)
        opts = self.shapes_within(root)
        shape = root.shape if self.rng.random() < 0.4 else self.rng.choice(opts)
        out = self.make_view(root, shape, read=True)
        if out is None:
            return False
        self.features.add("write-arg")
        return self.compute_into(out, allow_fill=False)

    # ===------------------------------------------------------------------===#
    # New constructs (README.md): pointers, globals, reinterpreting callees,
    # loaded scalars feeding sizes and selects, external calls, broadcast and
    # wide views, scf.while, scf.execute_region, a wrapped body.
    # ===------------------------------------------------------------------===#

    def base_value(self, root):
        """The value views of `root` start from: root.value, or for a
        memref.global sometimes a fresh memref.get_global of it."""
        if self.new and root.kind == "global" and self.in_body and \
                self.rng.random() < self.p_fresh_global:
            g = self.fresh("gg")
            self.emit("%s = memref.get_global %s : %s" % (
                g, root.gsym, root.value.type))
            self.features.add("memref.get_global-again")
            return Value(g, root, root.shape, canonical_strides(root.shape),
                         0, False, True)
        return root.value

    def push_func(self):
        """Starts the body of a helper function (own constants, no access to
        the values of the body being generated)."""
        saved = (self.lines, self.indent, self.index_consts, self.in_body,
                 self.count_ops)
        self.lines, self.indent, self.index_consts = [], 1, {}
        self.in_body, self.count_ops = False, False
        return saved

    def pop_func(self, saved, header, ret="return"):
        body = ["  %s = arith.constant %d : index" % (self.index_consts[k], k)
                for k in sorted(self.index_consts)] + self.lines
        (self.lines, self.indent, self.index_consts, self.in_body,
         self.count_ops) = saved
        self.helpers.append("\n".join([header] + body + ["  " + ret, "}"]))

    def helper_name(self, prefix):
        return "@%s%d" % (prefix, len(self.helpers) + 1)

    @staticmethod
    def param(name, v):
        """The parameter of a helper standing for caller value v."""
        return Value(name, None, v.shape, v.strides, v.offset, v.dyn,
                     v.identity, space=v.space)

    def declare(self, name, text):
        self.decls.setdefault(name, text)

    def i64(self, k):
        c = self.fresh("ci")
        self.emit("%s = arith.constant %d : i64" % (c, k))
        return c

    # ---- pointers --------------------------------------------------------
    def make_ptr(self, v):
        """!llvm.ptr to v's aligned base pointer (memref.
        extract_aligned_pointer_as_index, arith.index_cast, llvm.inttoptr).
        Returns (ptr, element, index): the pointer points at local element
        `element` of v.root (v.shift: views keep the aligned pointer, a
        memref.view moves it); `index` is the address as an index."""
        pi, pl, p = self.fresh("pi"), self.fresh("pl"), self.fresh("p")
        self.emit("%s = memref.extract_aligned_pointer_as_index %s : %s -> "
                  "index" % (pi, v.ssa, v.type))
        self.emit("%s = arith.index_cast %s : index to i64" % (pl, pi))
        self.emit("%s = llvm.inttoptr %s : i64 to !llvm.ptr" % (p, pl))
        self.features.add("llvm.inttoptr")
        return (p, v.shift, pi)

    def ptr_for(self, v):
        """A pointer into v's root: the one made at the top when the root
        was created, or one made here from v, the root or a slice of it."""
        rng = self.rng
        root = v.root
        if root is None or not self.in_body:
            return self.make_ptr(v)
        if root.early_ptr is not None and rng.random() < 0.6:
            self.features.add("ptr-made-early")
            return root.early_ptr
        r = rng.random()
        if r < 0.4:
            return self.make_ptr(v)
        base = self.base_value(root)
        if r < 0.7 or root.numel < 8:
            return self.make_ptr(base)
        flat = self.v_flat(base)
        n = rng.randint(1, 4)
        sv = self.v_subview(flat, [rng.randint(0, root.numel - n)], [n], [1])
        return self.make_ptr(sv)

    def maybe_early_ptr(self, root):
        if self.new and self.in_body and self.indent == 1 and \
                self.rng.random() < self.p_early_ptr:
            root.early_ptr = self.make_ptr(root.value)

    def elem_addr(self, ptr, v, ivs):
        """!llvm.ptr to element `ivs` (SSA indices or ints) of view v, from
        ptr = (p, element, index) into v's root (or, for a helper's
        parameter, v's own base)."""
        p, base, pi = ptr
        const = v.shift + v.offset - base
        assert const >= 0, "negative element offset"
        acc = None
        for iv, s in zip(ivs, v.strides):
            if isinstance(iv, int):
                const += iv * s
                continue
            if s == 0:
                continue
            if s == 1:
                t = iv
            else:
                t = self.fresh("o")
                self.emit("%s = arith.muli %s, %s : index" % (t, iv,
                                                             self.idx(s)))
            if acc is None:
                acc = t
            else:
                a = self.fresh("o")
                self.emit("%s = arith.addi %s, %s : index" % (a, acc, t))
                acc = a
        if acc is None:
            acc = self.idx(const)
        elif const:
            a = self.fresh("o")
            self.emit("%s = arith.addi %s, %s : index" % (a, acc,
                                                         self.idx(const)))
            acc = a
        q = self.fresh("q")
        if pi is not None and self.rng.random() < self.p_int_addr:
            # Address arithmetic on integers: base + 4 * element.
            b, a, a64 = self.fresh("ob"), self.fresh("ad"), self.fresh("al")
            self.emit("%s = arith.muli %s, %s : index" % (b, acc, self.idx(4)))
            self.emit("%s = arith.addi %s, %s : index" % (a, pi, b))
            self.emit("%s = arith.index_cast %s : index to i64" % (a64, a))
            self.emit("%s = llvm.inttoptr %s : i64 to !llvm.ptr" % (q, a64))
            self.features.add("ptr-int-arith")
        else:
            a64 = self.fresh("ol")
            self.emit("%s = arith.index_cast %s : index to i64" % (a64, acc))
            self.emit("%s = llvm.getelementptr %s[%s] : (!llvm.ptr, i64) -> "
                      "!llvm.ptr, f32" % (q, p, a64))
            self.features.add("llvm.getelementptr")
        return q

    def load_elem(self, v, ivs, ptr, top_op=False):
        x = self.fresh("x")
        if ptr is None:
            self.emit("%s = memref.load %s[%s] : %s" % (
                x, v.ssa, ", ".join(i if isinstance(i, str) else self.idx(i)
                                    for i in ivs), v.type), top_op=top_op)
        else:
            q = self.elem_addr(ptr, v, ivs)
            self.emit("%s = llvm.load %s : !llvm.ptr -> f32" % (x, q),
                      top_op=top_op)
            self.features.add("llvm.load")
        return x

    def store_elem(self, x, v, ivs, ptr, top_op=False):
        if ptr is None:
            self.emit("memref.store %s, %s[%s] : %s" % (
                x, v.ssa, ", ".join(i if isinstance(i, str) else self.idx(i)
                                    for i in ivs), v.type), top_op=top_op)
        else:
            q = self.elem_addr(ptr, v, ivs)
            self.emit("llvm.store %s, %s : f32, !llvm.ptr" % (x, q),
                      top_op=top_op)
            self.features.add("llvm.store")

    def open_loops(self, shape):
        ivs = []
        for n in shape:
            iv = self.fresh("i")
            self.emit("scf.for %s = %s to %s step %s {" % (
                iv, self.idx(0), self.idx(n), self.idx(1)), top_op=True)
            self.indent += 1
            ivs.append(iv)
        return ivs

    def close_loops(self, n):
        for _ in range(n):
            self.indent -= 1
            self.emit("}")

    def combine(self, vals, mode, out_val=None):
        """The scalar body of generic(): in0 * k (+ in1 * k2) (+ out * k3)."""
        c1 = self.fconst(self.coef())
        t = self.fresh("t")
        self.emit("%s = arith.mulf %s, %s : f32" % (t, vals[0], c1))
        if mode == "axpby" and len(vals) > 1:
            c2 = self.fconst(self.coef())
            t2, t3 = self.fresh("t"), self.fresh("t")
            self.emit("%s = arith.mulf %s, %s : f32" % (t2, vals[1], c2))
            self.emit("%s = arith.addf %s, %s : f32" % (t3, t, t2))
            t = t3
        if out_val is not None:
            c3 = self.fconst(self.coef())
            t2, t3 = self.fresh("t"), self.fresh("t")
            self.emit("%s = arith.mulf %s, %s : f32" % (t2, out_val, c3))
            self.emit("%s = arith.addf %s, %s : f32" % (t3, t, t2))
            t = t3
        return t

    def scalar_update(self, out, ins, mode, pout=None, pins=None):
        """out[i] = combine(ins[i], out[i]) with scf.for loops and scalar
        accesses, each through memref.load/store or an !llvm.ptr (pout,
        pins: pointers, None for memref access)."""
        pins = pins or [None] * len(ins)
        ivs = self.open_loops(out.shape)
        vals = [self.load_elem(v, ivs, p) for v, p in zip(ins, pins)]
        o = self.load_elem(out, ivs, pout) if mode == "accum" else None
        y = self.combine(vals, mode, o)
        self.store_elem(y, out, ivs, pout)
        self.close_loops(len(ivs))
        self.features.add("scalar-loop")

    def ptr_update(self, out, ins, mode):
        """scalar_update with the output (and maybe inputs) reached through
        !llvm.ptr (llvm.store/llvm.load)."""
        rng = self.rng
        pout = self.ptr_for(out) if rng.random() < 0.85 else None
        pins = [self.ptr_for(v) if rng.random() < 0.4 else None for v in ins]
        if pout is None and not any(pins):
            pins[0] = self.ptr_for(ins[0])
        self.scalar_update(out, ins, mode, pout, pins)
        self.features.add("ptr-loop")

    # ---- helpers (calls) ---------------------------------------------------
    def small_view(self, out):
        """A small 1-D slice of out's root, disjoint from out if possible (a
        callee given it reaches the rest of the buffer by itself)."""
        root = out.root
        base = self.base_value(root)
        flat = self.v_flat(base)
        oe = set(out.elements())
        n = self.rng.randint(1, 4)
        best = None
        for _ in range(8):
            o = self.rng.randint(0, root.numel - n)
            best = o
            if not oe.intersection(range(o, o + n)):
                break
        return self.v_subview(flat, [best], [n], [1])

    def call_update(self, out, ins, mode, kind):
        """A call of a new helper that writes out = combine(ins, out):
        plain (out passed), reinterpret (a small slice passed; the callee
        rebuilds the whole buffer with extract_strided_metadata +
        reinterpret_cast), ptr (a slice passed; the callee writes through an
        !llvm.ptr made from it), global (out in a memref.global the callee
        reaches with memref.get_global; out not passed)."""
        rng = self.rng
        name = self.helper_name("h")
        args = []   # caller values, in parameter order
        if kind in ("reinterpret", "ptr"):
            sub = self.small_view(out)
            args.append(sub)
        elif kind == "plain":
            args.append(out)
        pin_vals = list(ins)
        order = list(range(len(pin_vals)))
        rng.shuffle(order)
        out_pos = rng.randint(0, len(order)) if args else 0
        params = [("%%a%d" % i, pin_vals[i]) for i in order]
        if args:
            params.insert(out_pos, ("%s", args[0]))
        saved = self.push_func()
        pmap = {nm: self.param(nm, v) for nm, v in params}
        pins = [pmap["%%a%d" % i] for i in range(len(pin_vals))]
        use_ptr = kind == "ptr"
        if kind == "plain":
            pout = pmap["%s"]
        elif kind == "reinterpret":
            ps = pmap["%s"]
            b = self.fresh("base")
            rank = len(ps.shape)
            outs = [b, self.fresh("off")] + \
                [self.fresh("sz") for _ in range(rank)] + \
                [self.fresh("st") for _ in range(rank)]
            bt = memref_type((), (), 0, False, True, ps.space)
            self.emit("%s = memref.extract_strided_metadata %s : %s -> "
                      "%s, %s" % (", ".join(outs), ps.ssa, ps.type, bt,
                                  ", ".join(["index"] * (1 + 2 * rank))))
            off = out.shift + out.offset - args[0].shift
            pout = Value(self.fresh("whole"), None, out.shape, out.strides,
                         off, False, False, space=ps.space)
            self.emit("%s = memref.reinterpret_cast %s to offset: [%d], "
                      "sizes: [%s], strides: [%s] : %s to %s" % (
                          pout.ssa, b, off, ", ".join(map(str, out.shape)),
                          ", ".join(map(str, out.strides)), bt, pout.type))
            self.features.add("callee-reinterpret")
            self.features.add("extract_strided_metadata")
        elif kind == "ptr":
            ps = pmap["%s"]
            off = out.shift + out.offset - args[0].shift
            pout = Value("%none", None, out.shape, out.strides, off, False,
                         False)
            self.features.add("callee-ptr")
        else:  # global
            g = self.fresh("g")
            self.emit("%s = memref.get_global %s : %s" % (
                g, out.root.storage.gsym, out.root.storage.value.type))
            off = out.shift + out.offset
            pout = Value(self.fresh("gv"), None, out.shape, out.strides, off,
                         False, False)
            self.emit("%s = memref.reinterpret_cast %s to offset: [%d], "
                      "sizes: [%s], strides: [%s] : %s to %s" % (
                          pout.ssa, g, off, ", ".join(map(str, out.shape)),
                          ", ".join(map(str, out.strides)),
                          out.root.storage.value.type, pout.type))
            self.features.add("callee-get_global")
        if use_ptr:
            p = self.make_ptr(pmap["%s"])
            self.scalar_update(pout, pins, mode, (p[0], 0, p[2]),
                               [None] * len(pins))
        elif rng.random() < 0.7:
            self.generic(pins, pout, mode)
        else:
            self.scalar_update(pout, pins, mode)
        self.pop_func(saved, "func.func private %s(%s) {" % (
            name, ", ".join("%s: %s" % (nm, v.type) for nm, v in params)))
        self.emit("func.call %s(%s) : (%s) -> ()" % (
            name, ", ".join(v.ssa for _, v in params),
            ", ".join(v.type for _, v in params)), top_op=True)
        self.features.add("func.call")

    def update(self, out, ins, mode, mech):
        """out = combine(ins, out) by mechanism mech."""
        if mech == "linalg":
            self.generic(ins, out, mode)
        elif mech == "ptr":
            self.ptr_update(out, ins, mode)
        elif mech == "scalar":
            self.scalar_update(out, ins, mode)
        else:
            self.call_update(out, ins, mode, mech[5:])

    def pick_mech(self, out, linalg_weight=3):
        """A mechanism able to write out."""
        w = self.without
        mechs = ["linalg"] * linalg_weight
        if self.p_ptr > 0:
            mechs += ["ptr", "ptr"]
        if "scalar-loops" not in w:
            mechs.append("scalar")
        if self.calls and out.root is not None:
            if "helper-writes" not in w:
                mechs += ["call-plain"]
            if "callee-reinterpret" not in w:
                mechs.append("call-reinterpret")
            if "callee-reinterpret" not in w and self.p_ptr > 0:
                mechs.append("call-ptr")
            st = out.root.storage
            if st.kind == "global" and out.shift == 0 and \
                    (out.root is st or out.root.smap is None):
                mechs += ["call-global", "call-global"]
        return self.rng.choice(mechs or ["linalg"])

    # ---- globals -----------------------------------------------------------
    def init_values(self, n):
        vals = [self.rng.randrange(1000) / 1000.0 - 0.5 for _ in range(n)]
        return ", ".join(fmt_float(v) for v in vals)

    def make_global(self):
        """A non-constant, initialised memref.global, read by a
        memref.get_global at the top of the body."""
        shape = self.rng.choice(SHAPES_1D[:5] + SHAPES_2D[:6])
        sym = "@gl%d" % len(self.globals)
        root = Root("%%glob%d" % len(self.globals), shape, "global")
        root.init = bytearray([1]) * root.numel
        root.consumed = False
        root.gsym = sym
        root.value = Value(root.name, root, shape, canonical_strides(shape), 0,
                           False, True)
        t = root.value.type
        root.decl = 'memref.global "private" %s : %s = dense<%s>' % (
            sym, t, self.dense_text(shape))
        self.emit("%s = memref.get_global %s : %s" % (root.name, sym, t))
        self.roots.append(root)
        self.globals.append(root)
        self.features.add("memref.global")
        self.maybe_early_ptr(root)
        return root

    def dense_text(self, shape):
        if len(shape) == 1:
            return "[%s]" % self.init_values(shape[0])
        return "[%s]" % ", ".join("[%s]" % self.init_values(shape[1])
                                  for _ in range(shape[0]))

    # ---- LLVM globals ------------------------------------------------------
    def llvm_global(self):
        if self.llvm_globals and (len(self.llvm_globals) >= 2 or
                                  self.rng.random() < 0.6):
            return self.rng.choice(self.llvm_globals)
        n = self.rng.choice([16, 32, 64, 128])
        g = LLVMGlobal("@lg%d" % len(self.llvm_globals), n)
        g.decl = ("llvm.mlir.global internal %s(dense<[%s]> : tensor<%dxf32>) "
                  "{addr_space = 0 : i32} : !llvm.array<%d x f32>" % (
                      g.sym, self.init_values(n), n, n))
        self.llvm_globals.append(g)
        self.features.add("llvm.mlir.global")
        return g

    def lg_ptr(self, g):
        a = self.fresh("lga")
        self.emit("%s = llvm.mlir.addressof %s : !llvm.ptr" % (a, g.sym))
        self.features.add("llvm.mlir.addressof")
        return (a, 0, None)

    def lg_view(self, g, off, n):
        """A pseudo view of g's elements off .. off + n - 1 (for elem_addr)."""
        return Value("%none", None, (n,), (1,), off, False, False)

    def st_llvm_global(self):
        """Loads and stores of an llvm.mlir.global through
        llvm.mlir.addressof: a slice written from a buffer (maybe
        accumulating), read into a buffer, or single elements."""
        rng = self.rng
        g = self.llvm_global()
        kind = rng.choice(["write", "write", "read", "scalar"])
        n = rng.choice([k for k in (4, 8, 16, 32) if k <= g.n])
        off = rng.randint(0, g.n - n)
        gv = self.lg_view(g, off, n)
        if kind == "write":
            inp = self.pick_input((n,))
            if inp is None:
                return False
            p = self.lg_ptr(g)
            pin = self.ptr_for(inp) if rng.random() < 0.3 else None
            self.scalar_update(gv, [inp], rng.choice(["scale", "accum"]), p,
                               [pin])
            if inp.root is not None:
                inp.root.consumed = True
        elif kind == "read":
            out = self.pick_output((n,))
            if out is None:
                return False
            p = self.lg_ptr(g)
            ivs = self.open_loops((n,))
            x = self.load_elem(gv, ivs, p)
            acc = all(out.root.init[e] for e in out.elements()) and \
                rng.random() < 0.5
            o = self.load_elem(out, ivs, None) if acc else None
            y = self.combine([x], "scale", o)
            self.store_elem(y, out, ivs, None)
            self.close_loops(1)
            self.mark_write(out, [])
        else:
            got = self.pick_loaded() if rng.random() < 0.5 else None
            p = self.lg_ptr(g)
            if got is not None:
                y = self.combine([got[0]], "scale")
                self.store_elem(y, gv, [rng.randrange(n)], p, top_op=True)
                got[1].consumed = True
            else:
                tgt = self.pick_elem_out()
                if tgt is None:
                    return False
                x = self.load_elem(gv, [rng.randrange(n)], p, top_op=True)
                self.store_to_elem(x, tgt)
        self.features.add("llvm-global-access")
        return True

    def st_pinned_llvm_global(self):
        """The pinned-reverse pattern on an llvm.mlir.global: ordered
        read-modify-writes of overlapping slices of it, fed by temporaries
        produced in the reverse order."""
        rng = self.rng
        g = self.llvm_global()
        n = rng.choice([k for k in (8, 16, 32) if k <= g.n] or [g.n])
        k = rng.randint(2, 4)
        offs = [rng.randint(0, g.n - n) for _ in range(k)]
        temps = self.pinned_temps((n,), k, exclude=())
        for j in range(k):
            p = self.lg_ptr(g)
            self.scalar_update(self.lg_view(g, offs[j], n), [temps[j].value],
                               "accum", p, [None])
            self.dealloc(temps[j])
        self.features.add("pinned-reverse")
        self.features.add("llvm-global-access")
        return True

    def pick_elem_out(self, exclude_storage=None):
        """(root, element indices) of one element of a writable live root."""
        cands = [r for r in self.live_roots() if r.writable and
                 r.storage is not exclude_storage]
        if not cands:
            return None
        r = self.rng.choice(cands)
        return r, [self.rng.randrange(d) for d in r.shape]

    def store_to_elem(self, x, target, top_op=True):
        root, idx = target
        v = root.value
        self.store_elem(x, v, idx, None, top_op=top_op)
        root.init[v.shift + v.offset + sum(i * s for i, s in
                                           zip(idx, v.strides))] = 1

    # ---- standalone pointer accesses ---------------------------------------
    def st_ptr(self):
        """A few top-level llvm.store/llvm.load of single elements of a
        buffer, through a pointer made from it."""
        rng = self.rng
        cands = [r for r in self.live_roots(readable=True)]
        if not cands:
            return False
        root = rng.choice(cands)
        ptr = self.ptr_for(root.value)
        v = root.value
        for _ in range(rng.randint(1, 3)):
            idx = [rng.randrange(d) for d in v.shape]
            lin = v.shift + v.offset + sum(i * s for i, s in
                                           zip(idx, v.strides))
            if root.writable and rng.random() < 0.6:
                got = self.pick_loaded()
                if got is None:
                    continue
                y = self.combine([got[0]], "scale",
                                 self.load_elem(v, idx, ptr, top_op=True)
                                 if root.init[lin] else None)
                self.store_elem(y, v, idx, ptr, top_op=True)
                root.init[lin] = 1
                if got[1] is not root:
                    got[1].consumed = True
            elif root.init[lin]:
                tgt = self.pick_elem_out(exclude_storage=root.storage)
                if tgt is None:
                    continue
                x = self.load_elem(v, idx, ptr, top_op=True)
                self.store_to_elem(self.combine([x], "scale"), tgt)
                root.consumed = True
        self.features.add("ptr-scalar")
        return True

    # ---- loaded scalars feeding sizes and selects --------------------------
    def pick_loaded(self, src=None):
        """memref.load of an initialised element of a live root (or of
        `src`); returns (SSA, root) or None."""
        cands = self.live_roots(readable=True)
        if not cands:
            return None
        if src is None:
            src = self.rng.choice(cands)
        sv = self.make_view(src, src.shape, read=False)
        if sv is None:
            return None
        for _ in range(4):
            pos = [self.rng.randrange(n) for n in sv.shape]
            lin = sv.shift + sv.offset + sum(p * s for p, s in
                                             zip(pos, sv.strides))
            if src.init[lin]:
                return self.load_elem(sv, pos, None, top_op=True), src
        return None

    def clobber(self, root):
        """An in-place update of `root` after a load from it: the load must
        stay before it."""
        if root is None or not root.writable or not root.live or \
                not all(root.init):
            return
        out = self.make_view(root, root.shape, read=True)
        if out is not None:
            if self.compute_into(out, allow_fill=False):
                self.features.add("load-then-clobber")

    def size_from(self, x, bound):
        """An index equal to `bound` at run time, computed from f32 x:
        affine.min(bound + (x > 0), bound)."""
        z, b, e, ei, s, n = [self.fresh(p) for p in
                             ("z", "b", "e", "ei", "s", "n")]
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = arith.cmpf ogt, %s, %s : f32" % (b, x, z))
        self.emit("%s = arith.extui %s : i1 to i64" % (e, b))
        self.emit("%s = arith.index_cast %s : i64 to index" % (ei, e))
        self.emit("%s = arith.addi %s, %s : index" % (s, ei, self.idx(bound)))
        return self.bounded(s, bound)

    def bounded(self, s, bound):
        n = self.fresh("n")
        self.emit("%s = affine.min affine_map<(d0) -> (d0, %d)>(%s)" % (
            n, bound, s))
        self.features.add("affine.min")
        return n

    def dyn_alloc(self, n, shape):
        """memref.alloc(%n) : memref<?x...> seen as its static type through
        a memref.cast; a root."""
        d = self.fresh("dyn")
        sp = self.pick_space("dynamic")
        dt = "memref<?x%s%s>" % ("x".join([str(d) for d in shape[1:]] +
                                          ["f32"]), ", %s" % sp if sp else "")
        self.emit("%s = memref.alloc(%s) : %s" % (d, n, dt), top_op=True)
        root = Root(d, shape, "alloc")
        root.space = sp
        root.alloc_ssa, root.alloc_type = d, dt
        c = self.fresh("dc")
        root.value = Value(c, root, shape, canonical_strides(shape), 0, False,
                           True)
        self.emit("%s = memref.cast %s : %s to %s" % (c, d, dt,
                                                     root.value.type))
        self.roots.append(root)
        self.features.add("dynamic-alloc")
        self.maybe_early_ptr(root)
        return root

    def st_load_size(self):
        """A memref.load (or a call) feeding the size of a dynamic
        allocation through affine.min, the loaded value filling it; the
        loaded buffer is updated in between."""
        rng = self.rng
        bound = rng.choice([16, 32, 64, 128, 256])
        cols = rng.choice([None, None, 4, 8])
        shape = (bound,) if cols is None else (bound, cols)
        if prod(shape) > 1024:
            shape = (bound,)
        how = rng.choice(["load", "load"] +
                         (["call", "call-write", "extern", "counter"]
                          if self.calls else []))
        if rng.random() < 0.3:
            # The load reads a buffer just updated, and nothing touches the
            # allocation it sizes: placing the allocation (and its
            # deallocation) must not pull the load above that update.
            cands = [r for r in self.live_roots(readable=True) if r.writable
                     and all(r.init)]
            if not cands:
                return False
            src = rng.choice(cands)
            self.clobber(src)
            got = self.pick_loaded(src)
            if got is None:
                return False
            x = got[0]
            n = self.size_by_call(how, bound) if how != "load" else None
            if n is None:
                n = self.size_from(x, bound)
            root = self.dyn_alloc(n, shape)
            root.dead = True
            tgt = self.pick_elem_out(exclude_storage=src.storage)
            if tgt is not None:
                self.store_to_elem(x, tgt)
            if rng.random() < 0.7:
                self.deferred.append(root)
            self.features.add("load-sizes-untouched-alloc")
            return True
        got = self.pick_loaded()
        if got is None:
            return False
        x, src = got
        # Either the loaded buffer is updated before the size is computed,
        # or the allocation comes first and the update between it and its
        # first use (sinking the allocation must not take the load along).
        late = rng.random() < 0.5
        self.size_arg = None
        n = None if how == "load" else self.size_by_call(how, bound)
        if not late:
            self.clobber(src)
        if n is None:
            n = self.size_from(x, bound)
        root = self.dyn_alloc(n, shape)
        if late:
            self.clobber(src)
            if self.size_arg is not None and self.size_arg is not src:
                self.clobber(self.size_arg)
            self.features.add("alloc-before-clobber")
        if rng.random() < 0.7:
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                x, root.value.ssa, root.value.type), top_op=True)
            self.mark_write(root.value, [])
            src.consumed = True
        elif not self.compute_into(root.value, in_place_ok=False):
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                x, root.value.ssa, root.value.type), top_op=True)
            self.mark_write(root.value, [])
        self.features.add("load-feeds-size")
        return True

    def size_by_call(self, how, bound):
        """An index from a call: a helper loading from its argument (and, for
        call-write, scaling it in place), or verifyMemRefF32 (external)."""
        rng = self.rng
        if how == "counter":
            # A helper with a side effect on a global counter (+bound per
            # call, so the first call already returns >= bound); its value is
            # also stored where the outputs see it.
            self.declare("gcnt", 'memref.global "private" @cnt : '
                         'memref<1xindex> = dense<0>')
            name = self.helper_name("next")
            saved = self.push_func()
            g, v, w = self.fresh("g"), self.fresh("v"), self.fresh("w")
            self.emit("%s = memref.get_global @cnt : memref<1xindex>" % g)
            self.emit("%s = memref.load %s[%s] : memref<1xindex>" % (
                v, g, self.idx(0)))
            self.emit("%s = arith.addi %s, %s : index" % (
                w, v, self.idx(bound + rng.randint(0, 3))))
            self.emit("memref.store %s, %s[%s] : memref<1xindex>" % (
                w, g, self.idx(0)))
            self.pop_func(saved, "func.func private %s() -> index {" % name,
                          ret="return %s : index" % w)
            n0, i6, f = self.fresh("n"), self.fresh("ni"), self.fresh("nf")
            self.emit("%s = func.call %s() : () -> index" % (n0, name),
                      top_op=True)
            tgt = self.pick_elem_out()
            if tgt is not None:
                self.emit("%s = arith.index_cast %s : index to i64" % (i6, n0))
                self.emit("%s = arith.sitofp %s : i64 to f32" % (f, i6))
                self.store_to_elem(f, tgt)
            self.features.add("call-with-side-effect-sizes")
            return self.bounded(n0, bound)
        if how == "extern":
            shape = self.shape_of_some_root()
            a = self.pick_input(shape)
            b = self.pick_input(shape)
            if a is None or b is None:
                return None
            ua, ub, r = self.fresh("ua"), self.fresh("ub"), self.fresh("nv")
            a, b = self.to_default(a), self.to_default(b)
            self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                ua, a.ssa, a.type))
            self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                ub, b.ssa, b.type))
            self.declare("verifyMemRefF32",
                         "func.func private @verifyMemRefF32(memref<*xf32>, "
                         "memref<*xf32>) -> i64 attributes "
                         "{llvm.emit_c_interface}")
            self.emit("%s = func.call @verifyMemRefF32(%s, %s) : "
                      "(memref<*xf32>, memref<*xf32>) -> i64" % (r, ua, ub),
                      top_op=True)
            nz, e, ei, s = [self.fresh(p) for p in ("nz", "e", "ei", "s")]
            self.emit("%s = arith.cmpi sgt, %s, %s : i64" % (nz, r,
                                                            self.i64(0)))
            self.emit("%s = arith.extui %s : i1 to i64" % (e, nz))
            self.emit("%s = arith.index_cast %s : i64 to index" % (ei, e))
            self.emit("%s = arith.addi %s, %s : index" % (s, ei,
                                                         self.idx(bound)))
            self.features.add("external-call-result")
            for v in (a, b):
                v.root.consumed = True
            return self.bounded(s, bound)
        shape = self.shape_of_some_root()
        if how == "call-write":
            cands = [r for r in self.live_roots(readable=True)
                     if r.writable and all(r.init) and r.numel >= prod(shape)]
            if not cands:
                return None
            v = self.make_view(rng.choice(cands), shape, read=True)
        else:
            v = self.pick_input(shape)
        if v is None:
            return None
        self.size_arg = v.root
        name = self.helper_name("sz")
        saved = self.push_func()
        pv = self.param("%m", v)
        pos = [rng.randrange(d) for d in v.shape]
        x = self.load_elem(pv, pos, None)
        if how == "call-write":
            self.generic([pv], pv, "accum")
        z, b, r = self.fresh("z"), self.fresh("b"), self.fresh("r")
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = arith.cmpf olt, %s, %s : f32" % (b, x, z))
        self.emit("%s = arith.select %s, %s, %s : index" % (
            r, b, self.idx(bound), self.idx(bound + rng.randint(1, 5))))
        self.pop_func(saved, "func.func private %s(%%m: %s) -> index {" % (
            name, v.type), ret="return %s : index" % r)
        n0 = self.fresh("n")
        self.emit("%s = func.call %s(%s) : (%s) -> index" % (
            n0, name, v.ssa, v.type), top_op=True)
        self.features.add("call-result-feeds-size")
        if how == "call-write":
            self.mark_write(v, [])
            self.features.add("call-writes-and-sizes")
        return self.bounded(n0, bound)

    def st_select(self):
        """arith.select between two memrefs on a condition from memref.loads;
        the selected buffer is read (maybe through a view), written in
        place, or deallocated (then the other one through the opposite
        select)."""
        rng = self.rng
        groups = {}
        for r in self.live_roots(readable=True):
            if all(r.init) and not r.returned and r not in self.deferred:
                groups.setdefault(r.value.type, []).append(r)
        pairs = self.prefer_spaced(
            [g for g in groups.values() if len(g) >= 2])
        if not pairs or rng.random() < 0.5:
            # Two new buffers of one type.
            shape = self.shape_of_some_root()
            a = self.new_alloc(shape, arena=False)
            b = self.new_alloc(shape, arena=False, space_of=a)
            for r in (a, b):
                if not self.compute_into(r.value, in_place_ok=False):
                    self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                        self.fconst(self.coef()), r.value.ssa,
                        r.value.type), top_op=True)
                    self.mark_write(r.value, [])
        else:
            a, b = rng.sample(rng.choice(pairs), 2)
        if a.storage is b.storage:
            return False
        g1 = self.pick_loaded()
        g2 = self.pick_loaded()
        if g1 is None or g2 is None:
            return False
        late = rng.random() < 0.5
        victim = g1[1] if rng.random() < 0.5 else g2[1]
        if not late:
            self.clobber(victim)
        c, m = self.fresh("sc"), self.fresh("sel")
        self.emit("%s = arith.cmpf olt, %s, %s : f32" % (c, g1[0], g2[0]))
        t = a.value.type
        self.emit("%s = arith.select %s, %s, %s : %s" % (
            m, c, a.value.ssa, b.value.ssa, t))
        if late and victim not in (a, b) and victim.storage not in (
                a.storage, b.storage):
            # The loaded buffer updated between the select and its uses.
            self.clobber(victim)
            self.features.add("select-before-clobber")
        self.features.add("select-memref")
        g1[1].consumed = g2[1].consumed = True
        sel = Value(m, a, a.shape, a.value.strides, a.value.offset,
                    a.value.dyn, a.value.identity, shift=a.value.shift)
        selb = Value(m, b, b.shape, b.value.strides, b.value.offset,
                     b.value.dyn, b.value.identity, shift=b.value.shift)
        kind = rng.choice(["read", "read", "write", "dealloc", "dealloc"])
        local = self.ctx_local()
        if local is not None and not (id(a) in local and id(b) in local):
            # (Freeing outer buffers in an arm or a loop body.)
            kind = "read" if kind == "dealloc" else kind
        if kind == "dealloc" and (self.wrapper or
                                  "select-dealloc" in self.avoid or not (
                a.kind == b.kind == "alloc" and not a.arena and not b.arena
                and a.alloc_type is None and b.alloc_type is None)):
            # (In the wrapped body every allocation is freed directly.)
            kind = "read"
        excl = tuple(r for r in self.roots if r.storage in (a.storage,
                                                            b.storage))
        if kind == "write" and a.writable and b.writable:
            inp = self.pick_input(a.shape, exclude=excl)
            if inp is not None:
                self.generic([inp], sel, "accum")
                self.mark_write(sel, [inp])
                self.features.add("select-write")
                return True
            kind = "read"
        # Read the selected buffer (through a view sometimes).
        v, vb = sel, selb
        if rng.random() < 0.4 and len(a.shape) == 1 and a.numel >= 8:
            n = a.numel // 2
            o = rng.randint(0, a.numel - n)
            v = self.v_subview(sel, [o], [n], [1])
            vb = Value(v.ssa, b, v.shape, v.strides, v.offset, v.dyn,
                       shift=v.shift)
            self.features.add("select-view")
        out = self.pick_output(v.shape, exclude=excl)
        if out is not None:
            self.generic([v], out, "scale")
            self.mark_write(out, [v, vb])
        if kind == "dealloc":
            self.emit("memref.dealloc %s : %s" % (m, t), top_op=True)
            a.live = b.live = False
            m2 = self.fresh("sel")
            self.pending_select_deallocs.append(
                ["%s = arith.select %s, %s, %s : %s" % (
                    m2, c, b.value.ssa, a.value.ssa, t),
                 "memref.dealloc %s : %s" % (m2, t)])
            if rng.random() < 0.5:
                self.flush_select_deallocs()
            self.features.add("select-dealloc")
        return True

    def flush_select_deallocs(self):
        for sel, dealloc in self.pending_select_deallocs:
            self.emit(sel)
            self.emit(dealloc, top_op=True)
        self.pending_select_deallocs = []

    # ---- external calls ----------------------------------------------------
    def st_extcall(self):
        """Calls of functions that exist at run time: printF32 +
        printNewline of a loaded scalar, memsched_print_hash_f32 of a view
        (the runtime's hash: compared too), stdSortF32 sorting a contiguous
        slice in place, verifyMemRefF32 (its count stored into a buffer)."""
        if not self.calls:
            return False
        rng = self.rng
        kind = rng.choice(["print", "hash", "hash", "sort", "sort", "verify"])
        if kind == "print":
            got = self.pick_loaded()
            if got is None:
                return False
            self.declare("printF32", "func.func private @printF32(f32)")
            self.declare("printNewline", "func.func private @printNewline()")
            self.emit("func.call @printF32(%s) : (f32) -> ()" % got[0],
                      top_op=True)
            self.emit("func.call @printNewline() : () -> ()", top_op=True)
            got[1].consumed = True
        elif kind == "hash":
            shape = self.shape_of_some_root()
            v = self.pick_input(shape)
            if v is None:
                return False
            v = self.to_default(v)
            u = self.fresh("u")
            self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                u, v.ssa, v.type))
            self.declare("memsched_print_hash_f32",
                         "func.func private @memsched_print_hash_f32(i64, "
                         "i64, memref<*xf32>) attributes "
                         "{llvm.emit_c_interface}")
            self.n_hash += 1
            self.emit("func.call @memsched_print_hash_f32(%s, %s, %s) : "
                      "(i64, i64, memref<*xf32>) -> ()" % (
                          self.i64(2), self.i64(100 + self.n_hash), u),
                      top_op=True)
            v.root.consumed = True
        elif kind == "sort":
            cands = [r for r in self.live_roots(readable=True)
                     if r.writable and all(r.init)]
            if not cands:
                return False
            root = rng.choice(cands)
            flat = self.v_flat(self.base_value(root))
            n = rng.randint(2, min(root.numel, 256))
            o = rng.randint(0, root.numel - n)
            sv = self.v_subview(flat, [o], [n], [1])
            dv = self.to_default(sv)
            d = self.fresh("sd")
            dt = "memref<?xf32, strided<[1], offset: ?>>"
            self.emit("%s = memref.cast %s : %s to %s" % (d, dv.ssa, dv.type,
                                                         dt))
            self.declare("stdSortF32",
                         "func.func private @stdSortF32(i64, %s) attributes "
                         "{llvm.emit_c_interface}" % dt)
            self.emit("func.call @stdSortF32(%s, %s) : (i64, %s) -> ()" % (
                self.i64(rng.randint(1, n)), d, dt), top_op=True)
            self.mark_write(sv, [])
        else:
            shape = self.shape_of_some_root()
            a = self.pick_input(shape)
            b = self.pick_input(shape)
            tgt = self.pick_elem_out()
            if a is None or b is None or tgt is None:
                return False
            ua, ub, r, f = [self.fresh(p) for p in ("ua", "ub", "nv", "fv")]
            a, b = self.to_default(a), self.to_default(b)
            self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                ua, a.ssa, a.type))
            self.emit("%s = memref.cast %s : %s to memref<*xf32>" % (
                ub, b.ssa, b.type))
            self.declare("verifyMemRefF32",
                         "func.func private @verifyMemRefF32(memref<*xf32>, "
                         "memref<*xf32>) -> i64 attributes "
                         "{llvm.emit_c_interface}")
            self.emit("%s = func.call @verifyMemRefF32(%s, %s) : "
                      "(memref<*xf32>, memref<*xf32>) -> i64" % (r, ua, ub),
                      top_op=True)
            self.emit("%s = arith.sitofp %s : i64 to f32" % (f, r))
            self.store_to_elem(f, tgt)
            a.root.consumed = b.root.consumed = True
        self.features.add("external-call-" + kind)
        return True

    # ---- scf.while, scf.execute_region -------------------------------------
    def st_while(self):
        """scf.while running 1-3 times (the trip count in iter_args; the
        condition may also read the buffer being updated, the first trip
        always runs), its body updating a buffer in place, maybe with a
        transient allocation, or the buffer carried as a memref iter_arg."""
        rng = self.rng
        cands = [r for r in self.live_roots(readable=True) if r.writable and
                 all(r.init)]
        if not cands:
            return False
        root = rng.choice(cands)
        carry = rng.random() < 0.3
        if carry:
            out = root.value
        else:
            opts = self.shapes_within(root)
            out = self.make_view(root, rng.choice(opts), read=True)
            if out is None:
                return False
        excl = tuple(r for r in self.roots if r.storage is root.storage)
        inp = self.pick_input(out.shape, exclude=excl)
        if inp is None:
            return False
        trips = rng.randint(1, 3)
        w, i, i2 = self.fresh("w"), self.fresh("wi"), self.fresh("wj")
        T = out.type
        if carry:
            m, m2 = self.fresh("wm"), self.fresh("wn")
            self.emit("%s:2 = scf.while (%s = %s, %s = %s) : (index, %s) -> "
                      "(index, %s) {" % (w, i, self.idx(0), m, out.ssa, T, T),
                      top_op=True)
        else:
            self.emit("%s = scf.while (%s = %s) : (index) -> index {" % (
                w, i, self.idx(0)), top_op=True)
        self.indent += 1
        lt = self.fresh("lt")
        self.emit("%s = arith.cmpi slt, %s, %s : index" % (lt, i,
                                                          self.idx(trips)))
        cond = lt
        if rng.random() < 0.4:
            # Data-dependent: also stop on a NaN in the buffer (never on the
            # first trip).
            pos = [rng.randrange(d) for d in out.shape]
            x = self.load_elem(out if not carry else
                               Value(m, root, out.shape, out.strides,
                                     out.offset, out.dyn, out.identity,
                                     out.shift, space=out.space), pos, None)
            o, z, q, cd = [self.fresh(p) for p in ("ord", "fst", "q", "cd")]
            self.emit("%s = arith.cmpf ord, %s, %s : f32" % (o, x, x))
            self.emit("%s = arith.cmpi eq, %s, %s : index" % (z, i,
                                                             self.idx(0)))
            self.emit("%s = arith.ori %s, %s : i1" % (q, z, o))
            self.emit("%s = arith.andi %s, %s : i1" % (cd, lt, q))
            cond = cd
            self.features.add("while-reads-memory")
        if carry:
            self.emit("scf.condition(%s) %s, %s : index, %s" % (cond, i, m, T))
        else:
            self.emit("scf.condition(%s) %s : index" % (cond, i))
        self.indent -= 1
        self.emit("} do {")
        self.indent += 1
        if carry:
            self.emit("^bb0(%s: index, %s: %s):" % (i2, m2, T))
            tgt = Value(m2, root, out.shape, out.strides, out.offset, out.dyn,
                        out.identity, out.shift, space=out.space)
            self.features.add("while-memref-iter_arg")
        else:
            self.emit("^bb0(%s: index):" % i2)
            tgt = out
        if rng.random() < 0.5:
            t = self.fresh("tmp")
            vt = Value(t, None, out.shape, canonical_strides(out.shape), 0,
                       False, True, space=self.pick_space("transient"))
            self.emit("%s = memref.alloc() : %s" % (t, vt.type))
            self.generic([inp], vt, "scale")
            self.update(tgt, [vt], "accum", self.rng.choice(
                ["linalg", "linalg", "scalar"]))
            self.emit("memref.dealloc %s : %s" % (t, vt.type))
            self.features.add("while-transient-alloc")
        else:
            self.update(tgt, [inp], "accum", self.rng.choice(
                ["linalg", "linalg", "scalar"]))
        nx = self.fresh("nx")
        self.emit("%s = arith.addi %s, %s : index" % (nx, i2, self.idx(1)))
        if carry:
            self.emit("scf.yield %s, %s : index, %s" % (nx, m2, T))
        else:
            self.emit("scf.yield %s : index" % nx)
        self.indent -= 1
        self.emit("}")
        self.mark_write(out, [inp])
        self.features.add("scf.while")
        if carry and rng.random() < 0.6:
            # Read the buffer back through the loop's result.
            res = Value("%s#1" % w, root, out.shape, out.strides, out.offset,
                        out.dyn, out.identity, out.shift, space=out.space)
            o2 = self.pick_output(out.shape, exclude=excl)
            if o2 is not None:
                self.generic([res], o2, "scale")
                self.mark_write(o2, [res])
        return True

    def st_exec(self):
        """scf.execute_region: a body of in-place updates with a transient
        allocation, a region yielding a loaded scalar, or one yielding a
        view of an outer buffer that is then written and read."""
        rng = self.rng
        kind = rng.choice(["ops", "ops", "scalar", "view"])
        if kind == "view":
            cands = [r for r in self.live_roots(readable=True) if r.writable
                     and all(r.init)]
            if not cands:
                return False
            root = rng.choice(cands)
            shape = rng.choice(self.shapes_within(root))
            m = self.fresh("ex")
            # The view's type is known only once it is built: emit into a
            # scratch list first.
            saved = self.lines
            self.lines = []
            self.indent += 1
            v = self.make_view(root, shape, read=True)
            inner = self.lines
            self.lines = saved
            self.indent -= 1
            if v is None:
                return False
            self.emit("%s = scf.execute_region -> %s {" % (m, v.type),
                      top_op=True)
            self.lines += inner
            self.emit("  scf.yield %s : %s" % (v.ssa, v.type))
            self.emit("}")
            alias = Value(m, root, v.shape, v.strides, v.offset, v.dyn,
                          v.identity, v.shift, space=v.space)
            excl = tuple(r for r in self.roots if r.storage is root.storage)
            inp = self.pick_input(shape, exclude=excl)
            if inp is not None:
                self.update(alias, [inp], "accum", self.pick_mech(alias))
                self.mark_write(alias, [inp])
            out = self.pick_output(shape, exclude=excl)
            if out is not None:
                self.generic([alias], out, "scale")
                self.mark_write(out, [alias])
            self.features.add("execute_region-view")
        elif kind == "scalar":
            e = self.fresh("er")
            self.emit("%s = scf.execute_region -> f32 {" % e, top_op=True)
            self.indent += 1
            got = self.pick_loaded()
            if got is None:
                x = self.fconst(self.coef())
            else:
                x = got[0]
                got[1].consumed = True
            y = self.combine([x], "scale")
            self.emit("scf.yield %s : f32" % y)
            self.indent -= 1
            self.emit("}")
            out = self.pick_output(self.shape_of_some_root())
            if out is not None:
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    e, out.ssa, out.type), top_op=True)
                self.mark_write(out, [])
            self.features.add("execute_region-result")
        else:
            self.emit("scf.execute_region {", top_op=True)
            self.indent += 1
            transient = rng.random() < 0.6
            if transient:
                shape = rng.choice(SHAPES_1D[:4] + SHAPES_2D[:4])
                t = self.fresh("tmp")
                vt = Value(t, None, shape, canonical_strides(shape), 0, False,
                           True, space=self.pick_space("transient"))
                self.emit("%s = memref.alloc() : %s" % (t, vt.type))
                inp = self.pick_input(shape)
                if inp is not None:
                    self.generic([inp], vt, "scale")
                else:
                    self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                        self.fconst(self.coef()), t, vt.type))
                out = self.pick_output(shape)
                if out is not None:
                    self.generic([vt], out, "scale")
                    self.mark_write(out, [])
                self.features.add("execute_region-transient-alloc")
            for _ in range(rng.randint(0 if transient else 1, 2)):
                shape = self.shape_of_some_root()
                out = self.pick_output(shape)
                if out is not None:
                    self.compute_into(out)
            if transient:
                self.emit("memref.dealloc %s : %s" % (t, vt.type))
            self.emit("scf.yield")
            self.indent -= 1
            self.emit("}")
        self.features.add("scf.execute_region")
        return True

    # ---- writes through aliases (--aliases) -------------------------------
    def with_arng(self, fn, *args):
        """fn(*args) with self.rng the alias stream (every helper it calls
        draws from that stream; the main stream is left as it was)."""
        saved, self.rng = self.rng, self.arng
        try:
            return fn(*args)
        finally:
            self.rng = saved

    def st_alias(self):
        """A write to a buffer through an alias of it (README.md,
        "Aliases"), between the buffer's producer and its later readers
        (the buffers chosen are preferably ones whose data no buffer has
        read yet: the generator reads those first later)."""
        return self.with_arng(self._st_alias)

    def _st_alias(self):
        if self.vec_pending and self.rng.random() < 0.4:
            self.vector_read(self.vec_pending.pop(0))
            return True
        form = self.rng.choice(self.alias_forms)
        return getattr(self, "alias_" + form.replace("-", "_"))()

    @staticmethod
    def alias_of(v, ssa):
        """Another SSA value with v's buffer, layout and type."""
        return Value(ssa, v.root, v.shape, v.strides, v.offset, v.dyn,
                     v.identity, v.shift, space=v._space)

    def storage_of(self, *roots):
        """The roots sharing storage with one of `roots` (the inputs of a
        write through an alias of them must come from elsewhere)."""
        st = set(id(r.storage) for r in roots)
        return tuple(r for r in self.roots if id(r.storage) in st)

    def alias_target(self, plain=False, full=True):
        """A live, writable buffer for a write through an alias: fully
        initialised (full), a plain static allocation of the default space
        (plain: its base buffer is its own first element). Preferably one
        whose data has not reached another buffer yet (its readers are
        still to come)."""
        cands = [r for r in self.live_roots(readable=True)
                 if r.writable and not r.returned and
                 r not in self.deferred and (not full or all(r.init))]
        if plain:
            cands = [r for r in cands if r.kind == "alloc" and
                     not r.arena and r.alloc_type is None and
                     r.storage is r and r.space is None and
                     r.value.shift == 0 and not isinstance(r, AliasRoot)]
        if not cands:
            return None
        fresh = [r for r in cands if not r.consumed]
        return self.rng.choice(fresh if fresh and self.rng.random() < 0.75
                               else cands)

    def alias_region_open(self, kinds=("top", "execute_region", "if",
                                       "for")):
        """Opens the region an alias and its write are made in (the
        top level, scf.execute_region, an scf.if whose condition holds, an
        scf.for of one trip); returns its kind for alias_region_close."""
        kind = self.rng.choice(kinds)
        if kind == "execute_region":
            self.emit("scf.execute_region {", top_op=True)
        elif kind == "if":
            c = self.fresh("cond")
            a = self.rng.randint(0, 4)
            self.emit("%s = arith.cmpi slt, %s, %s : index" % (
                c, self.idx(a), self.idx(a + self.rng.randint(1, 3))))
            self.emit("scf.if %s {" % c, top_op=True)
        elif kind == "for":
            iv = self.fresh("i")
            self.emit("scf.for %s = %s to %s step %s {" % (
                iv, self.idx(0), self.idx(1), self.idx(1)), top_op=True)
        if kind != "top":
            self.indent += 1
            self.features.add("alias-in-" + kind)
        return kind

    def alias_region_close(self, kind):
        if kind == "top":
            return
        if kind == "execute_region":
            self.emit("scf.yield")
        self.indent -= 1
        self.emit("}")

    def alias_write(self, av, excl, kinds=None):
        """A write through alias av: an accumulation from another buffer,
        a fill, a memref.store of one element, or any computation of it
        (compute_into)."""
        rng = self.rng
        init = all(av.root.init[e] for e in av.elements())
        kinds = list(kinds or ["accum", "accum", "fill", "store", "compute"])
        if not init:
            kinds = [k for k in kinds if k not in ("accum", "store")] or \
                ["fill"]
        kind = rng.choice(kinds)
        if kind == "accum":
            inp = self.pick_input(av.shape, exclude=excl)
            if inp is not None and not self.alias_overlap(inp, av):
                self.generic([inp], av, "accum")
                self.mark_write(av, [inp])
                return "accum"
            kind = "fill"
        if kind == "store":
            got = self.pick_loaded() if rng.random() < 0.5 else None
            if got is not None and got[1].storage is not av.root.storage:
                x = got[0]
                got[1].consumed = True
            else:
                x = self.fconst(self.coef())
            pos = [rng.randrange(n) for n in av.shape]
            self.store_elem(x, av, pos, None, top_op=True)
            self.features.add("memref.store")
            return "store"
        if kind == "compute" and self.compute_into(av, in_place_ok=init):
            return "compute"
        c = self.fconst(self.coef())
        self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
            c, av.ssa, av.type), top_op=True)
        self.features.add("linalg.fill")
        self.mark_write(av, [])
        return "fill"

    def alias_read(self, av, excl):
        """Sometimes a read through the alias too (into another buffer)."""
        if self.rng.random() < 0.4:
            out = self.pick_output(av.shape, exclude=excl)
            if out is not None and not self.alias_overlap(av, out):
                self.generic([av], out, "accum" if all(
                    out.root.init[e] for e in out.elements()) else "scale")
                self.mark_write(out, [av])

    def alias_view(self, root, read=True):
        """The root's value, or a view of it (of a shape that fits)."""
        if self.rng.random() < 0.5:
            return self.base_value(root)
        shape = self.rng.choice(self.shapes_within(root))
        return self.make_view(root, shape, read=read) or \
            self.base_value(root)

    def alias_iter_args(self):
        """scf.for ... iter_args(%x = %b): the body writes %x (a linalg op,
        a memref.store at the induction variable, a fill) and yields it;
        the loop's result is read sometimes."""
        rng = self.rng
        root = self.alias_target()
        if root is None:
            return False
        v = self.alias_view(root)
        excl = self.storage_of(root)
        trips = rng.randint(1, 3)
        kind = rng.choice(["accum", "accum", "store", "fill"])
        inp = None
        if kind == "accum":
            inp = self.pick_input(v.shape, exclude=excl)
            if inp is None or self.alias_overlap(inp, v):
                kind = "fill"
        if kind == "store" and not (len(v.shape) == 1 and
                                    v.shape[0] >= trips):
            kind = "fill"
        c = self.fconst(self.coef()) if kind != "accum" else None
        res, x, iv = self.fresh("it"), self.fresh("x"), self.fresh("i")
        self.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> "
                  "(%s) {" % (res, iv, self.idx(0), self.idx(trips),
                              self.idx(1), x, v.ssa, v.type), top_op=True)
        self.indent += 1
        xv = self.alias_of(v, x)
        if kind == "accum":
            self.generic([inp], xv, "accum")
            self.mark_write(xv, [inp])
        elif kind == "store":
            y = self.fresh("y")
            self.emit("%s = arith.mulf %s, %s : f32" % (y, c, c))
            self.emit("memref.store %s, %s[%s] : %s" % (y, x, iv, xv.type))
            for i in range(trips):
                root.init[xv.elements()[i]] = 1
        else:
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                c, x, xv.type))
            self.mark_write(xv, [])
        self.emit("scf.yield %s : %s" % (x, xv.type))
        self.indent -= 1
        self.emit("}")
        self.features.add("alias-iter_args-" + kind)
        self.alias_read(self.alias_of(v, res), excl)
        return True

    def alias_metadata(self):
        """memref.extract_strided_metadata of the buffer (or of a view of
        it), then memref.reinterpret_cast of its base buffer (a window
        anywhere in the buffer), written; mostly inside an
        scf.execute_region."""
        rng = self.rng
        root = self.alias_target(plain=True, full=False)
        if root is None:
            return False
        region = self.alias_region_open(("execute_region",) * 3 +
                                        ("top", "if", "for"))
        v = self.alias_view(root, read=False)
        k = len(v.shape)
        b, o = self.fresh("base"), self.fresh("off")
        sizes = [self.fresh("sz") for _ in range(k)]
        strides = [self.fresh("st") for _ in range(k)]
        self.emit("%s = memref.extract_strided_metadata %s : %s -> "
                  "memref<f32>, %s" % (", ".join([b, o] + sizes + strides),
                                       v.ssa, v.type,
                                       ", ".join(["index"] * (1 + 2 * k))))
        N = root.numel
        if rng.random() < 0.3 and N >= 16:
            cols = rng.choice([c for c in (4, 8, 16) if c <= N])
            rows = rng.randint(1, N // cols)
            shape, st = (rows, cols), (cols, 1)
        else:
            n = rng.choice([m for m in (4, 8, 16, 32, 64, 128, N)
                            if m <= N])
            shape, st = (n,), (1,)
        span = (shape[0] - 1) * st[0] + (shape[1] if len(shape) == 2 else 1)
        off = rng.randint(0, N - span) if rng.random() < 0.6 else 0
        rv = Value(self.fresh("rc"), root, shape, st, off, False, False)
        self.emit("%s = memref.reinterpret_cast %s to offset: [%d], sizes: "
                  "[%s], strides: [%s] : memref<f32> to %s" % (
                      rv.ssa, b, off, ", ".join(map(str, shape)),
                      ", ".join(map(str, st)), rv.type))
        how = self.alias_write(rv, self.storage_of(root))
        self.alias_region_close(region)
        self.features.add("alias-metadata-" + how)
        return True

    def alias_select(self):
        """arith.select %c, %b, %b (the buffer with itself) or between two
        buffers of one type (both fully initialised: which one the write
        hits is decided at run time), written through the select; at the
        top level or inside a region."""
        rng = self.rng
        pair = None
        if rng.random() < 0.5:
            groups = {}
            for r in self.live_roots(readable=True):
                if all(r.init) and r.writable and not r.returned and \
                        r not in self.deferred:
                    groups.setdefault(r.value.type, []).append(r)
            pairs = []
            for g in groups.values():
                for x, y in itertools.combinations(g, 2):
                    if x.storage is not y.storage:
                        pairs.append((x, y))
            if pairs:
                pair = rng.choice(pairs)
        if pair is None:
            root = self.alias_target()
            if root is None:
                return False
            a = b = self.base_value(root)
        else:
            a, b = (self.base_value(r) for r in pair)
            if rng.random() < 0.5:
                a, b = b, a
        region = self.alias_region_open()
        got = self.pick_loaded() if rng.random() < 0.7 else None
        c = self.fresh("sc")
        if got is None:
            x = rng.randint(0, 4)
            self.emit("%s = arith.cmpi slt, %s, %s : index" % (
                c, self.idx(x), self.idx(rng.randint(0, 4))))
        else:
            z = self.fconst(0.0)
            self.emit("%s = arith.cmpf olt, %s, %s : f32" % (c, got[0], z))
            got[1].consumed = True
        m = self.fresh("sel")
        self.emit("%s = arith.select %s, %s, %s : %s" % (m, c, a.ssa, b.ssa,
                                                         a.type))
        sel = self.alias_of(a, m)
        excl = self.storage_of(a.root, b.root)
        # (Through a select of two buffers: only writes whose inputs come
        # from neither, which either buffer may receive.)
        how = self.alias_write(sel, excl, None if pair is None else
                               ["accum", "accum", "fill", "store"])
        if pair is None:
            self.alias_read(sel, excl)
        self.alias_region_close(region)
        self.features.add("alias-select-%s-%s" % (
            "self" if pair is None else "two", how))
        return True

    def alias_subview(self):
        """A write through a memref.subview of part of the buffer (the
        rest keeps its data for the later readers)."""
        rng = self.rng
        root = self.alias_target(full=rng.random() < 0.7)
        if root is None:
            return False
        v = self.base_value(root)
        region = self.alias_region_open(("top", "top", "execute_region",
                                         "if", "for"))
        if len(v.shape) == 1:
            N = v.shape[0]
            n = rng.randint(1, max(1, N - 1))
            step = 2 if rng.random() < 0.2 and 2 * n - 1 <= N else 1
            off = rng.randint(0, N - ((n - 1) * step + 1))
            sv = self.v_subview(v, [off], [n], [step])
        else:
            (R, C) = v.shape
            r, c = rng.randint(1, R), rng.randint(1, C)
            if (r, c) == (R, C):
                r = max(1, R - 1)
            # (Never both dimensions dropped: the ops take no rank 0.)
            sv = self.v_subview(v, [rng.randint(0, R - r),
                                    rng.randint(0, C - c)], [r, c], [1, 1],
                                reduce_unit=rng.random() < 0.5 and
                                (r, c) != (1, 1))
        how = self.alias_write(sv, self.storage_of(root))
        self.alias_region_close(region)
        self.features.add("alias-subview-" + how)
        return True

    def alias_vector(self):
        """A buffer of vectors (memref<Kxvector<Lxf32>>, no alignment
        attribute) written by memref.store of vectors built lane by lane
        (llvm.insertelement) from f32 buffers; read later (vector_read).
        The harness lowering has no vector dialect conversion:
        vector.load/vector.store do not run, memref.load/store of a vector
        element do, and so do the LLVM dialect's insertelement and
        extractelement."""
        rng = self.rng
        K = rng.choice([1, 2, 4, 8])
        L = rng.choice([4, 8, 16, 16, 16])
        vt = "vector<%dxf32>" % L
        t = "memref<%dx%s>" % (K, vt)
        vb = self.fresh("vb")
        self.emit("%s = memref.alloc() : %s" % (vb, t), top_op=True)
        zero = self.fresh("vz")
        self.emit("%s = arith.constant dense<0.0> : %s" % (zero, vt))
        for k in range(K):
            src = self.pick_input((L,), bcast_ok=True)
            if src is None:
                val = self.dense_vector(L)
            else:
                val = self.fresh("vec")
                j, acc, e, j32, n = [self.fresh(p) for p in
                                     ("j", "acc", "e", "j32", "ins")]
                self.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = "
                          "%s) -> (%s) {" % (val, j, self.idx(0), self.idx(L),
                                             self.idx(1), acc, zero, vt),
                          top_op=True)
                self.emit("  %s = memref.load %s[%s] : %s" % (e, src.ssa, j,
                                                              src.type))
                self.emit("  %s = arith.index_cast %s : index to i32" % (j32,
                                                                        j))
                self.emit("  %s = llvm.insertelement %s, %s[%s : i32] : %s" %
                          (n, e, acc, j32, vt))
                self.emit("  scf.yield %s : %s" % (n, vt))
                self.emit("}")
                src.root.consumed = True
                if rng.random() < 0.5:
                    m = self.fresh("vm")
                    self.emit("%s = arith.mulf %s, %s : %s" % (
                        m, val, self.dense_vector(L), vt))
                    val = m
            self.emit("memref.store %s, %s[%s] : %s" % (val, vb, self.idx(k),
                                                       t), top_op=True)
        if rng.random() < 0.3:
            # An in-place update of one vector.
            k = self.idx(rng.randrange(K))
            e, m = self.fresh("ve"), self.fresh("vm")
            self.emit("%s = memref.load %s[%s] : %s" % (e, vb, k, t),
                      top_op=True)
            self.emit("%s = arith.addf %s, %s : %s" % (
                m, e, self.dense_vector(L), vt))
            self.emit("memref.store %s, %s[%s] : %s" % (m, vb, k, t),
                      top_op=True)
            self.features.add("vector-in-place")
        self.vec_pending.append((vb, t, K, L))
        self.features.add("vector-element-buffer-%d" % L)
        return True

    def dense_vector(self, L):
        c = self.fresh("vc")
        self.emit("%s = arith.constant dense<[%s]> : vector<%dxf32>" % (
            c, ", ".join(fmt_float(self.coef()) for _ in range(L)), L))
        return c

    def vector_read(self, entry):
        """The late reader of a vector buffer: every lane into a new f32
        buffer (llvm.extractelement, memref.store), then the vector buffer
        is freed."""
        vb, t, K, L = entry
        vt = "vector<%dxf32>" % L
        out = self.new_alloc((K * L,), arena=False)
        ov = out.value
        for k in range(K):
            e = self.fresh("ve")
            self.emit("%s = memref.load %s[%s] : %s" % (e, vb, self.idx(k), t),
                      top_op=True)
            if self.rng.random() < 0.3:
                m = self.fresh("vm")
                self.emit("%s = arith.mulf %s, %s : %s" % (
                    m, e, self.dense_vector(L), vt))
                e = m
            j, j32, x, p = [self.fresh(q) for q in ("j", "j32", "x", "p")]
            self.emit("scf.for %s = %s to %s step %s {" % (
                j, self.idx(0), self.idx(L), self.idx(1)), top_op=True)
            self.emit("  %s = arith.index_cast %s : index to i32" % (j32, j))
            self.emit("  %s = llvm.extractelement %s[%s : i32] : %s" % (
                x, e, j32, vt))
            self.emit("  %s = arith.addi %s, %s : index" % (p, j,
                                                          self.idx(k * L)))
            self.emit("  memref.store %s, %s[%s] : %s" % (x, ov.ssa, p,
                                                         ov.type))
            self.emit("}")
        self.mark_write(ov, [])
        self.emit("memref.dealloc %s : %s" % (vb, t), top_op=True)
        self.features.add("vector-read")

    def flush_vectors(self):
        while self.vec_pending:
            self.vector_read(self.vec_pending.pop(0))

    def alias_recursion(self):
        """A helper that allocates a buffer, writes the argument from it,
        calls itself through func.constant + func.call_indirect while its
        counter is positive, then reads its buffer again (an activation
        sharing that buffer with another one would see it changed); @f
        calls it with a counter of 1-3 (func.call)."""
        rng = self.rng
        root = self.alias_target()
        if root is None:
            return False
        v = self.alias_view(root)
        depth = rng.randint(1, 3)
        name = self.helper_name("rec")
        saved = self.push_func()
        pa = self.param("%a", v)
        shape = v.shape
        vt = Value("%t", None, shape, canonical_strides(shape), 0, False,
                   True)
        self.emit("%%t = memref.alloc() : %s" % vt.type)
        self.generic([pa], vt, "scale")
        self.generic([vt], pa, "accum")
        ftype = "(index, %s) -> ()" % v.type
        self.emit("%%more = arith.cmpi sgt, %%n, %s : index" % self.idx(0))
        self.emit("scf.if %more {")
        self.emit("  %%n1 = arith.subi %%n, %s : index" % self.idx(1))
        self.emit("  %%fn = func.constant %s : %s" % (name, ftype))
        self.emit("  func.call_indirect %%fn(%%n1, %%a) : %s" % ftype)
        self.emit("}")
        self.generic([vt], pa, "accum")
        self.emit("memref.dealloc %%t : %s" % vt.type)
        self.pop_func(saved, "func.func private %s(%%n: index, %%a: %s) {" % (
            name, v.type))
        self.emit("func.call %s(%s, %s) : %s" % (name, self.idx(depth), v.ssa,
                                                 ftype), top_op=True)
        self.mark_write(v, [v])
        self.features.add("recursion-call_indirect")
        return True

    # ---- broadcast views (reads only) --------------------------------------
    def _try_bcast(self, root, shape):
        """A read-only view with a zero stride (memref.reinterpret_cast),
        maybe a huge one (a broadcast of 10^12 rows, a huge stride on a unit
        dimension) narrowed by a subview."""
        rng = self.rng
        N = root.numel
        base = self.base_value(root)
        sh = -base.shift
        kind = rng.choice(["row", "col", "scalar", "huge", "huge-stride"])
        if len(shape) == 1:
            n = shape[0]
            if kind in ("huge", "huge-stride"):
                o = rng.randrange(N)
                H = rng.choice([10 ** 12, 1 << 40, 1 << 62])
                big = self.v_reinterpret(base, o + sh, [H], [0])
                self.features.add("huge-view")
                v = self.v_subview(big, [rng.randint(0, H - n)], [n], [1])
            else:
                o = rng.randrange(N)
                v = self.v_reinterpret(base, o + sh, [n], [0])
            self.features.add("zero-stride")
            return v
        r, c = shape
        if kind == "row":
            if c > N:
                return None
            o = rng.randint(0, N - c)
            v = self.v_reinterpret(base, o + sh, [r, c], [0, 1])
        elif kind == "col":
            s = rng.randint(1, max(1, (N - 1) // max(r - 1, 1)))
            if (r - 1) * s >= N:
                return None
            o = rng.randint(0, N - 1 - (r - 1) * s)
            v = self.v_reinterpret(base, o + sh, [r, c], [s, 0])
        elif kind == "scalar":
            v = self.v_reinterpret(base, rng.randrange(N) + sh, [r, c], [0, 0])
        elif kind == "huge":
            if c > N:
                return None
            o = rng.randint(0, N - c)
            H = rng.choice([10 ** 12, 1 << 40, 1 << 62])
            big = self.v_reinterpret(base, o + sh, [H, c], [0, 1])
            self.features.add("huge-view")
            v = self.v_subview(big, [rng.randint(0, H - r), 0], [r, c], [1, 1])
        else:
            # [r, 1, c] with a huge stride on the unit dimension, reduced.
            if c > N:
                return None
            o = rng.randint(0, N - c)
            big = self.v_reinterpret(base, o + sh, [r, 1, c],
                                     [0, rng.choice([1 << 40, 1 << 61]), 1])
            self.features.add("huge-stride")
            # Only the middle dimension goes: [r, c] also when r == 1.
            v = self.v_subview(big, [0, 0, 0], [r, 1, c], [1, 1, 1],
                               reduce_unit=(1,))
        self.features.add("zero-stride")
        return v

    # ---- long chains (--chain N) -----------------------------------------
    def st_view_chain(self, n):
        """A chain of n memref.subview ops, each of the previous one (all the
        whole buffer), read at the end into a new buffer."""
        root = self.args[0]
        v = self.v_flat(root.value)
        for _ in range(n):
            v = self.v_subview(v, [0], [root.numel], [1])
        out = self.new_alloc((root.numel,))
        self.generic([v], out.value, "scale")
        self.mark_write(out.value, [v])
        self.features.add("view-chain")

    # ---- memref of memrefs -------------------------------------------------
    def st_memref_of_memref(self):
        """A buffer stored into a memref<2 x memref<...>> and loaded back,
        then written and read through the loaded memref."""
        cands = [r for r in self.live_roots(readable=True) if r.writable and
                 all(r.init) and not r.arena]
        if not cands:
            return False
        root = self.rng.choice(cands)
        t = root.value.type
        mm = self.fresh("mm")
        mt = "memref<2x%s>" % t
        self.emit("%s = memref.alloc() : %s" % (mm, mt), top_op=True)
        self.emit("memref.store %s, %s[%s] : %s" % (
            root.value.ssa, mm, self.idx(0), mt), top_op=True)
        ld = self.fresh("ld")
        self.emit("%s = memref.load %s[%s] : %s" % (ld, mm, self.idx(0), mt),
                  top_op=True)
        alias = Value(ld, root, root.shape, root.value.strides,
                      root.value.offset, root.value.dyn, root.value.identity,
                      root.value.shift)
        excl = tuple(r for r in self.roots if r.storage is root.storage)
        inp = self.pick_input(root.shape, exclude=excl)
        if inp is not None:
            self.generic([inp], alias, "accum")
            self.mark_write(alias, [inp])
        out = self.pick_output(root.shape, exclude=excl)
        if out is not None:
            self.generic([alias], out, "scale")
            self.mark_write(out, [alias])
        self.emit("memref.dealloc %s : %s" % (mm, mt), top_op=True)
        self.features.add("memref-of-memref")
        return True

    # ===------------------------------------------------------------------===#
    # Multi-block bodies (group `blocks`): cf.br / cf.cond_br between blocks
    # of the body, block arguments. memsched schedules each block on its own,
    # the buffers allocated when a block starts counting from its start.
    # ===------------------------------------------------------------------===#

    def ctx_local(self):
        """ids of the roots allocated in the innermost arm or loop body being
        emitted (None at the top): only those may be freed there."""
        if self.ctx is None:
            return None
        return set(id(r) for r in self.roots[self.ctx["start"]:])

    def ctx_open(self, kind):
        """Starts an arm of a branch or a loop body: what it allocates it
        frees before its end, and it frees nothing allocated before."""
        self.flush_select_deallocs()
        self.ctx = {"kind": kind, "start": len(self.roots),
                    "deferred": self.deferred, "parent": self.ctx}
        self.deferred = []

    def ctx_close(self):
        ctx = self.ctx
        self.flush_select_deallocs()
        for r in self.deferred:
            if r.live:
                self.dealloc(r)
        self.deferred = ctx["deferred"]
        local = self.roots[ctx["start"]:]
        for r in local:
            if r.kind != "alloc" or not r.live:
                continue
            if not r.dead and not r.consumed and all(r.init):
                # Its data reaches an outer buffer.
                self.fold_into_outer(r, local)
            self.dealloc(r)
        self.ctx = ctx["parent"]

    def fold_into_outer(self, r, local):
        outs = [o for o in self.live_roots() if o.writable and
                o.numel >= r.numel and o not in local and
                o.storage is not r.storage]
        self.rng.shuffle(outs)
        for o in outs[:3]:
            out = self.make_view(o, r.shape, read=True)
            if out is not None and not self.overlaps_badly(out, [r.value]):
                self.generic([r.value], out, "accum")
                self.mark_write(out, [r.value])
                return True
        return False

    def bindings(self):
        return [(r, r.value, r.alloc_ssa) for r in self.roots]

    def restore_bindings(self, saved):
        for r, v, a in saved:
            r.value, r.alloc_ssa = v, a

    def blk_new(self):
        self.nblocks += 1
        return self.nblocks

    @staticmethod
    def blk_ref(bid, operands=()):
        """A successor with its operands [(SSA, type)]."""
        if not operands:
            return "^bb%d" % bid
        return "^bb%d(%s : %s)" % (bid, ", ".join(s for s, _ in operands),
                                   ", ".join(t for _, t in operands))

    def blk_start(self, bid, dom, args=()):
        """The label of block `bid` (arguments [(SSA, type)]); it becomes
        the current block, dominated by the blocks `dom`."""
        self.lines.append("^bb%d%s:" % (bid, "(%s)" % ", ".join(
            "%s: %s" % a for a in args) if args else ""))
        self.cur_block = bid
        self.dom = frozenset(dom) | {bid}

    def passable(self):
        """Roots that can go through block arguments."""
        return [r for r in self.live_roots() if r.value is not None and
                r.kind in ("alloc", "arg", "global")]

    def rebind(self, r, ssa, alias_ok=True):
        """r is now seen through block argument `ssa` (its deallocation
        too, for a plain allocation). Sometimes the value it had stays in
        use too (an alias root): ops on the buffer through both."""
        v = r.value
        if alias_ok and self.ctx is None and self.data_depth == 0 and \
                self.blk_depth == 1 and not self.loop_ivs and \
                r.kind != "global" and self.rng.random() < 0.4:
            self.roots.append(AliasRoot(r, v))
            self.features.add("block-argument-and-old-value")
        if r.kind == "alloc" and not r.arena and r.alloc_type is None and \
                r.alloc_ssa == v.ssa:
            r.alloc_ssa = ssa
        r.value = Value(ssa, r, v.shape, v.strides, v.offset, v.dyn,
                        v.identity, shift=v.shift)

    def pick_passed(self, kmax=2):
        cands = self.passable()
        self.rng.shuffle(cands)
        return cands[:self.rng.randint(0, kmax)]

    def cond_data(self):
        """An i1 that the compiler cannot fold: elements of the arguments as
        the function starts (loaded at the top of the entry block, so the
        same in every run whatever the branches did) compared, xor the
        constant the driver flips (run_fuzz.py runs both values, so both
        arms of every such branch run in one of the two runs)."""
        rng = self.rng
        if self.flip is None:
            self.flip = "%flip"
            self.prologue.append("%s = arith.constant {memsched_fuzz.flip} "
                                 "false" % self.flip)
        if len(self.cond_loads) < 4 and (not self.cond_loads or
                                         rng.random() < 0.5):
            v = rng.choice(self.arg_values)
            pos = [rng.randrange(n) for n in v.shape]
            x = self.fresh("cx")
            self.prologue.append("%s = memref.load %s[%s] : %s" % (
                x, v.ssa, ", ".join(self.idx(p) for p in pos), v.type))
            self.cond_loads.append(x)
        a = rng.choice(self.cond_loads)
        b = rng.choice(self.cond_loads)
        d, c = self.fresh("bd"), self.fresh("bc")
        if a == b:
            z = self.fconst(0.0)
            self.emit("%s = arith.cmpf ogt, %s, %s : f32" % (d, a, z))
        else:
            self.emit("%s = arith.cmpf %s, %s, %s : f32" % (
                d, rng.choice(["olt", "ogt", "oge", "ule"]), a, b))
        self.emit("%s = arith.xori %s, %s : i1" % (c, d, self.flip))
        return c

    def cond_live(self):
        """An i1 from data computed so far (may differ between the two
        flipped runs: the branch is then not known to run both ways)."""
        got = self.pick_loaded()
        if got is None:
            return None
        self.features.add("diamond-on-computed-data")
        if self.rng.random() < 0.5:
            # The loaded buffer updated before the branch: the load must
            # stay above the update.
            self.clobber(got[1])
        z = self.fconst(0.0)
        d, c = self.fresh("bd"), self.fresh("bc")
        self.emit("%s = arith.cmpf ogt, %s, %s : f32" % (d, got[0], z))
        if self.flip is None:
            self.flip = "%flip"
            self.prologue.append("%s = arith.constant {memsched_fuzz.flip} "
                                 "false" % self.flip)
        self.emit("%s = arith.xori %s, %s : i1" % (c, d, self.flip))
        return c

    def cond_parity(self):
        """i1: the counter of the innermost loop of blocks is even (a loop
        running at least twice: both arms run in every run)."""
        iv, _ = self.loop_ivs[-1]
        p, c = self.fresh("bp"), self.fresh("bc")
        self.emit("%s = arith.andi %s, %s : index" % (p, iv, self.idx(1)))
        self.emit("%s = arith.cmpi eq, %s, %s : index" % (c, p, self.idx(0)))
        return c

    def blk_stmts(self, n):
        """n statements in an arm or a loop body (maybe nested block
        constructs)."""
        for _ in range(n):
            if self.blk_depth < 2 and self.rng.random() < 0.15:
                self.st_blocks(nested=True)
            else:
                self.rng.choice(self.funcs)()
            self.retire_some()

    def loop_enter(self, iv, trips, body, exit_, header_dom):
        """A loop header's branch into its body (while iv < trips) or out;
        starts the body block."""
        c = self.fresh("bc")
        self.emit("%s = arith.cmpi slt, %s, %s : index" % (
            c, iv, self.idx(trips)))
        self.emit("cf.cond_br %s, %s, %s" % (c, self.blk_ref(body),
                                             self.blk_ref(exit_)))
        self.blk_start(body, header_dom)

    def loop_step(self, iv, trips):
        """The next counter of a loop of blocks and whether to go on."""
        i1, c = self.fresh("bi"), self.fresh("bc")
        self.emit("%s = arith.addi %s, %s : index" % (i1, iv, self.idx(1)))
        self.emit("%s = arith.cmpi slt, %s, %s : index" % (
            c, i1, self.idx(trips)))
        return i1, c

    def pass_carried(self, prob, prefix, ops):
        """Picks views to pass to the next block (each with probability
        `prob`): appends them to the branch operands `ops` and returns the
        candidates, the picked indices and the new block arguments."""
        carried = self.make_carried()
        vpass = [i for i in range(len(carried)) if self.rng.random() < prob]
        vargs = []
        for i in vpass:
            v = carried[i]
            ops.append((v.ssa, v.type))
            vargs.append((self.fresh(prefix), v.type))
        return carried, vpass, vargs

    def make_carried(self):
        """Views of live buffers made before a branch, for use_carried in
        the blocks after it (views of buffers that are live-in there)."""
        rng = self.rng
        views = []
        for _ in range(rng.randint(0, 2)):
            cands = self.live_roots(readable=True)
            if not cands:
                break
            r = rng.choice(cands)
            opts = [sh for sh in SHAPES_1D + SHAPES_2D
                    if prod(sh) < r.numel]
            if not opts:
                continue
            v = self.make_view(r, rng.choice(opts), read=True)
            if v is not None and v.ssa != r.value.ssa and \
                    len(set(v.elements())) == len(v.elements()):
                views.append(v)
        return views

    def view_args(self, carried, idx, vargs):
        """carried[i] (i in idx) is now seen through block argument
        vargs[k] (a view passed as a successor operand)."""
        for i, (a, _) in zip(idx, vargs):
            v = carried[i]
            carried[i] = Value(a, v.root, v.shape, v.strides, v.offset, v.dyn,
                               v.identity, shift=v.shift, space=v.space)
            self.view_cache.append((carried[i], self.cur_block))
            self.features.add("view-block-argument")

    def use_carried(self, views):
        """Reads (into a new buffer) or writes (in place) of views made in
        a block above."""
        rng = self.rng
        for v in views:
            if not v.root.live or rng.random() < 0.3:
                continue
            self.features.add("view-from-earlier-block")
            if v.root.writable and rng.random() < 0.4:
                self.compute_into(v)
                continue
            if not all(v.root.init[e] for e in v.elements()):
                continue
            t = self.new_alloc(v.shape)
            self.generic([v], t.value, "scale")
            self.mark_write(t.value, [v])

    def blk_row_write(self, iv, trips):
        """Row `iv` (the counter of a loop of blocks) of an outer 2-D buffer
        written through a subview at a dynamic offset; the rows the loop
        covers count as written after the loop (returns the marker)."""
        rng = self.rng
        local = self.ctx_local() or set()
        cands = [r for r in self.live_roots() if r.writable and
                 len(r.shape) == 2 and r.shape[0] >= trips and
                 id(r) not in local and len(r.value.shape) == 2]
        if not cands:
            return None
        r = rng.choice(cands)
        v = r.value
        C = v.shape[1]
        inp = self.pick_input((C,), exclude=tuple(
            o for o in self.roots if o.storage is r.storage))
        if inp is None:
            return None
        sv = self.fresh("rw")
        row = Value(sv, r, (C,), (v.strides[1],), v.offset, True,
                    shift=v.shift)
        self.emit("%s = memref.subview %s[%s, 0] [1, %d] [1, 1] : %s to %s"
                  % (sv, v.ssa, iv, C, v.type, row.type))
        self.generic([inp], row, "scale")
        inp.root.consumed = True
        self.features.add("dynamic-row-in-loop-of-blocks")
        return (r, v, trips)

    def blk_rows_written(self, mark):
        if mark is None:
            return
        r, v, trips = mark
        for k in range(trips):
            for j in range(v.shape[1]):
                r.init[v.shift + v.offset + k * v.strides[0] +
                       j * v.strides[1]] = 1

    def blk_transient(self):
        """alloc, compute, write an outer buffer, dealloc: the transient of a
        loop body or an arm."""
        shape = self.shape_of_some_root()
        out = self.pick_output(shape)
        if out is None:
            return False
        t = self.new_alloc(shape)
        if not self.compute_into(t.value, in_place_ok=False):
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                self.fconst(self.coef()), t.value.ssa, t.value.type),
                top_op=True)
            self.mark_write(t.value, [])
        if self.overlaps_badly(out, [t.value]):
            self.dealloc(t)
            return False
        init = all(out.root.init[e] for e in out.elements())
        self.generic([t.value], out, "accum" if init else "scale")
        self.mark_write(out, [t.value])
        self.dealloc(t)
        self.features.add("block-transient")
        return True

    def st_blocks(self, nested=False):
        """One construct of blocks: a straight sequence, a diamond (or a
        triangle), a loop of blocks (while or do-while form), memrefs
        passed as block arguments; rarely a shape memsched must refuse."""
        rng = self.rng
        self.flush_select_deallocs()
        self.multi_block = True
        self.blk_depth += 1
        kinds = ["seq", "seq", "diamond", "diamond", "diamond", "loop",
                 "loop", "dowhile", "dowhile", "pingpong", "selfloop",
                 "either"]
        if self.loop_ivs and self.loop_ivs[-1][1] >= 2:
            kinds += ["parity", "parity"]
        kind = rng.choice(kinds)
        if not nested and self.ctx is None and self.data_depth == 0 and \
                not self.wrapper and self.expect_refusal is None and \
                rng.random() < 0.04:
            kind = rng.choice(["refuse-path", "refuse-swap", "refuse-loop"])
        getattr(self, "blk_" + kind.replace("-", "_"))()
        self.block_kinds.append(kind)
        self.features.add("blocks-" + kind)
        self.blk_depth -= 1
        return True

    def blk_seq(self):
        """cf.br to a new block, maybe passing buffers (then used and freed
        through the block argument) and a scalar."""
        rng = self.rng
        passed = self.pick_passed(3)
        ops, args = [], []
        for r in passed:
            a = self.fresh("ba")
            ops.append((r.value.ssa, r.value.type))
            args.append((a, r.value.type))
        scalar = None
        if rng.random() < 0.3:
            got = self.pick_loaded()
            tgt = self.pick_elem_out()
            if got is not None and tgt is not None:
                scalar = self.fresh("bs")
                ops.append((got[0], "f32"))
                args.append((scalar, "f32"))
        carried, vpass, vargs = self.pass_carried(0.5, "bv", ops)
        bid = self.blk_new()
        self.emit("cf.br %s" % self.blk_ref(bid, ops))
        self.blk_start(bid, self.dom, args + vargs)
        for r, (a, _) in zip(passed, args):
            self.rebind(r, a)
        self.view_args(carried, vpass, vargs)
        self.use_carried(carried)
        if passed:
            self.features.add("memref-block-argument")
        if scalar is not None:
            self.store_to_elem(scalar, tgt)
            self.features.add("scalar-block-argument")

    def blk_diamond(self, cond=None):
        """cf.cond_br to two arms (one may be empty: a triangle) joining in
        a block; each arm allocates and frees its own buffers, writes outer
        ones, and may free (both arms alike) an outer buffer; the join may
        take buffers and a scalar as arguments."""
        rng = self.rng
        data = cond is None
        live_cond = False
        if data:
            if rng.random() < 0.15:
                cond = self.cond_live()
                live_cond = cond is not None
            if cond is None:
                cond = self.cond_data()
            if self.data_depth > 0 or live_cond:
                # Nested in an arm of a data branch (or on data the flipped
                # runs may change): an arm may run in neither run.
                self.coverage = "partial"
            elif self.coverage == "all":
                self.coverage = "flip"
        shape = rng.choice(["full", "full", "full", "then-only",
                            "else-only"])
        local = self.ctx_local()
        freed = []
        if shape == "full" and rng.random() < 0.6:
            # Freed at the end of both arms.
            cands = [r for r in self.live_roots() if r.kind == "alloc" and
                     r.consumed and not r.returned and
                     r not in self.deferred and
                     (local is None or id(r) in local)]
            if cands:
                freed = [rng.choice(cands)]
        passed = [r for r in self.pick_passed(2) if r not in freed]
        scalar = None
        if rng.random() < 0.3:
            got = self.pick_loaded()
            tgt = self.pick_elem_out()
            if got is not None and tgt is not None and tgt[0] not in freed:
                scalar = got[0]
        carried = self.make_carried()
        T, F, J = self.blk_new(), self.blk_new(), self.blk_new()
        args = [(self.fresh("ja"), r.value.type) for r in passed]
        if scalar is not None:
            args.append((self.fresh("js"), "f32"))

        def join_ops(k):
            ops = [(r.value.ssa, r.value.type) for r in passed]
            if scalar is not None:
                s = scalar
                if k is not None:
                    s = self.fresh("bs")
                    self.emit("%s = arith.mulf %s, %s : f32" % (
                        s, scalar, self.fconst([0.5, -1.5][k])))
                ops.append((s, "f32"))
            return ops

        base_dom = self.dom
        saved = self.bindings()
        start = [(r, bytearray(r.init)) for r in self.roots]
        then_ref = self.blk_ref(T) if shape != "else-only" else \
            self.blk_ref(J, join_ops(None))
        else_ref = self.blk_ref(F) if shape != "then-only" else \
            self.blk_ref(J, join_ops(None))
        self.emit("cf.cond_br %s, %s, %s" % (cond, then_ref, else_ref))
        ends = []
        for k, bid in enumerate((T, F)):
            if (k == 0 and shape == "else-only") or \
                    (k == 1 and shape == "then-only"):
                ends.append([(r, bytearray(r.init)) for r, _ in start])
                continue
            self.blk_start(bid, base_dom)
            self.data_depth += data
            self.ctx_open("arm")
            self.use_carried(carried)
            if rng.random() < 0.6:
                self.blk_transient()
            self.blk_stmts(rng.randint(0, 3))
            self.ctx_close()
            self.data_depth -= data
            for r in freed:
                self.dealloc(r)
                r.live = True
            self.emit("cf.br %s" % self.blk_ref(J, join_ops(k)))
            ends.append([(r, bytearray(r.init)) for r, _ in start])
            for r, init in start:
                r.init[:] = init
            self.restore_bindings(saved)
        # What both arms initialised.
        for (r, a), (_, b) in zip(ends[0], ends[1]):
            r.init[:] = bytes(x & y for x, y in zip(a, b))
        for r in freed:
            r.live = False
            self.features.add("freed-in-both-arms")
        self.blk_start(J, base_dom, args)
        for r, (a, _) in zip(passed, args):
            self.rebind(r, a)
        if passed:
            self.features.add("memref-join-argument")
        if scalar is not None:
            self.store_to_elem(args[-1][0], tgt)
            self.features.add("scalar-join-argument")
        self.use_carried([v for v in carried if v.root not in freed])
        self.features.add("diamond-" + ("data" if data else "parity"))

    def blk_parity(self):
        self.blk_diamond(self.cond_parity())

    def blk_loop(self):
        """A loop of blocks, while form: header(counter, buffers) tests the
        counter, the body allocates, computes and frees, then branches
        back."""
        rng = self.rng
        trips = rng.choice([1, 2, 2, 3])
        passed = self.pick_passed(2)
        H, B, E = self.blk_new(), self.blk_new(), self.blk_new()
        iv = self.fresh("bi")
        args = [(iv, "index")] + [(self.fresh("ha"), r.value.type)
                                  for r in passed]
        ops = [(self.idx(0), "index")] + [(r.value.ssa, r.value.type)
                                         for r in passed]
        carried, vpass, vargs = self.pass_carried(0.4, "hv", ops)
        base_dom = self.dom
        self.emit("cf.br %s" % self.blk_ref(H, ops))
        self.blk_start(H, base_dom, args + vargs)
        for r, (a, _) in zip(passed, args[1:]):
            self.rebind(r, a)
        self.view_args(carried, vpass, vargs)
        header_dom = self.dom
        at_header = self.bindings()
        self.loop_enter(iv, trips, B, E, header_dom)
        self.loop_ivs.append((iv, trips))
        self.ctx_open("loop")
        self.use_carried(carried)
        self.blk_transient()
        rows = self.blk_row_write(iv, trips) if rng.random() < 0.4 else None
        self.blk_stmts(rng.randint(0, 3))
        if trips >= 2 and rng.random() < 0.3:
            self.blk_depth += 1
            self.blk_parity()
            self.blk_depth -= 1
        self.ctx_close()
        self.blk_rows_written(rows)
        self.loop_ivs.pop()
        i1 = self.fresh("bi")
        self.emit("%s = arith.addi %s, %s : index" % (i1, iv, self.idx(1)))
        self.emit("cf.br %s" % self.blk_ref(
            H, [(i1, "index")] + [(r.value.ssa, r.value.type)
                                  for r in passed] + vargs))
        self.restore_bindings(at_header)
        self.blk_start(E, header_dom)
        if passed:
            self.features.add("memref-loop-argument")

    def blk_dowhile(self):
        """A loop of blocks, do-while form: the body allocates a buffer,
        computes it, and either frees it in a latch block before branching
        back, or leaves the loop with it allocated (freed later)."""
        rng = self.rng
        trips = rng.choice([2, 3])  # (the latch runs: coverage "all")
        B, L, E = self.blk_new(), self.blk_new(), self.blk_new()
        iv = self.fresh("bi")
        base_dom = self.dom
        self.emit("cf.br %s" % self.blk_ref(B, [(self.idx(0), "index")]))
        self.blk_start(B, base_dom, [(iv, "index")])
        body_dom = self.dom
        self.loop_ivs.append((iv, trips))
        nb = self.new_alloc(self.shape_of_some_root(), arena=False)
        if not self.compute_into(nb.value, in_place_ok=False):
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                self.fconst(self.coef()), nb.value.ssa, nb.value.type),
                top_op=True)
            self.mark_write(nb.value, [])
        self.ctx_open("loop")
        self.blk_stmts(rng.randint(0, 3))
        self.ctx_close()
        self.loop_ivs.pop()
        i1, c = self.loop_step(iv, trips)
        through_arg = nb.alloc_type is None and rng.random() < 0.4
        t = nb.value.type
        if through_arg:
            la, ea = self.fresh("la"), self.fresh("ea")
            self.emit("cf.cond_br %s, %s, %s" % (
                c, self.blk_ref(L, [(nb.value.ssa, t)]),
                self.blk_ref(E, [(nb.value.ssa, t)])))
            saved = self.bindings()
            self.blk_start(L, body_dom, [(la, t)])
            self.rebind(nb, la, alias_ok=False)
            self.dealloc(nb)
            nb.live = True
            self.restore_bindings(saved)
            self.emit("cf.br %s" % self.blk_ref(B, [(i1, "index")]))
            self.blk_start(E, body_dom, [(ea, t)])
            self.rebind(nb, ea)
            self.features.add("freed-through-block-argument")
        else:
            self.emit("cf.cond_br %s, %s, %s" % (c, self.blk_ref(L),
                                                 self.blk_ref(E)))
            self.blk_start(L, body_dom)
            self.dealloc(nb)
            nb.live = True
            self.emit("cf.br %s" % self.blk_ref(B, [(i1, "index")]))
            self.blk_start(E, body_dom)
        self.features.add("alloc-in-loop-live-out")

    def blk_selfloop(self):
        """A loop of blocks whose body branches back to its own start
        (cf.cond_br to itself and the exit): what it allocates it frees."""
        rng = self.rng
        trips = rng.choice([1, 2, 3])
        B, E = self.blk_new(), self.blk_new()
        iv = self.fresh("bi")
        base_dom = self.dom
        self.emit("cf.br %s" % self.blk_ref(B, [(self.idx(0), "index")]))
        self.blk_start(B, base_dom, [(iv, "index")])
        self.loop_ivs.append((iv, trips))
        self.ctx_open("loop")
        self.blk_transient()
        self.blk_stmts(rng.randint(0, 2))
        self.ctx_close()
        self.loop_ivs.pop()
        i1, c = self.loop_step(iv, trips)
        self.emit("cf.cond_br %s, %s, %s" % (
            c, self.blk_ref(B, [(i1, "index")]), self.blk_ref(E)))
        self.blk_start(E, self.dom)

    def blk_either(self):
        """cf.cond_br to one block passing one of two buffers as its
        argument: the argument may be either; written through it, the
        buffers read around that write through their own values."""
        rng = self.rng
        cond = self.cond_parity() if self.loop_ivs and \
            self.loop_ivs[-1][1] >= 2 and rng.random() < 0.5 \
            else self.cond_data()
        shape = rng.choice(SHAPES_1D[:5] + SHAPES_2D[:6])
        a = self.refuse_buffer(shape)
        b = self.new_alloc(shape, arena=False, space_of=a)
        if not self.compute_into(b.value, in_place_ok=False):
            self.generic([a.value], b.value, "scale")
        self.mark_write(b.value, [])
        J = self.blk_new()
        t = a.value.type
        m = self.fresh("em")
        self.emit("cf.cond_br %s, %s, %s" % (
            cond, self.blk_ref(J, [(a.value.ssa, t)]),
            self.blk_ref(J, [(b.value.ssa, t)])))
        self.blk_start(J, self.dom, [(m, t)])
        mv = Value(m, a, shape, a.value.strides, 0, False, True)
        before = self.new_alloc(shape)
        self.generic([a.value], before.value, "scale")
        self.mark_write(before.value, [a.value])
        inp = self.pick_input(shape, exclude=tuple(
            r for r in self.roots if r.storage in (a.storage, b.storage)))
        if inp is not None:
            self.generic([inp], mv, "accum")
            inp.root.consumed = True
        else:
            self.generic([mv], mv, "scale")
        after = self.new_alloc(shape)
        self.generic([b.value], after.value, "scale")
        self.mark_write(after.value, [b.value])
        a.consumed = b.consumed = True
        self.features.add("memref-join-either")

    def blk_pingpong(self):
        """Two buffers swapped through the header's arguments of a loop of
        blocks: each argument is one buffer or the other depending on the
        iteration (the buffers are freed through their own values)."""
        rng = self.rng
        shape = rng.choice(SHAPES_1D[:5] + SHAPES_2D[:6])
        a = self.new_alloc(shape, arena=False)
        b = self.new_alloc(shape, arena=False, space_of=a)
        for r in (a, b):
            if not self.compute_into(r.value, in_place_ok=False):
                self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                    self.fconst(self.coef()), r.value.ssa, r.value.type),
                    top_op=True)
                self.mark_write(r.value, [])
        trips = rng.choice([1, 2, 3])
        H, B, E = self.blk_new(), self.blk_new(), self.blk_new()
        iv, p, q = self.fresh("bi"), self.fresh("pp"), self.fresh("pq")
        t = a.value.type
        base_dom = self.dom
        self.emit("cf.br %s" % self.blk_ref(H, [(self.idx(0), "index"),
                                                (a.value.ssa, t),
                                                (b.value.ssa, t)]))
        self.blk_start(H, base_dom, [(iv, "index"), (p, t), (q, t)])
        header_dom = self.dom
        self.loop_enter(iv, trips, B, E, header_dom)
        pv = Value(p, a, shape, a.value.strides, 0, False, True)
        qv = Value(q, b, shape, b.value.strides, 0, False, True)
        tmp = self.new_alloc(shape, arena=False)
        self.generic([pv], tmp.value, "scale")
        inp = self.pick_input(shape, exclude=(a, b))
        if inp is not None and rng.random() < 0.5:
            self.generic([tmp.value, inp], qv, "axpby")
        else:
            self.generic([tmp.value, pv], qv, "axpby")
        self.dealloc(tmp)
        i1 = self.fresh("bi")
        self.emit("%s = arith.addi %s, %s : index" % (i1, iv, self.idx(1)))
        self.emit("cf.br %s" % self.blk_ref(H, [(i1, "index"), (q, t),
                                                (p, t)]))
        self.blk_start(E, header_dom)
        out = self.new_alloc(shape)
        self.generic([pv], out.value, "scale")
        self.mark_write(out.value, [])
        a.consumed = b.consumed = True
        self.features.add("block-argument-pingpong")

    # ---- shapes memsched must refuse (the program stays as it is) ---------
    def refuse_buffer(self, shape=None):
        shape = shape or self.rng.choice(SHAPES_1D[:5] + SHAPES_2D[:6])
        x = self.new_alloc(shape, arena=False)
        if not self.compute_into(x.value, in_place_ok=False):
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                self.fconst(self.coef()), x.value.ssa, x.value.type),
                top_op=True)
            self.mark_write(x.value, [])
        return x

    def prep_out(self, shape, exclude):
        """A view of a live buffer outside `exclude`, or of a new buffer
        (filled), for read_out; made before a branch."""
        out = self.pick_output(shape, exclude=exclude)
        if out is None:
            o = self.new_alloc(shape, arena=False)
            self.emit("linalg.fill ins(%s : f32) outs(%s : %s)" % (
                self.fconst(self.coef()), o.value.ssa, o.value.type),
                top_op=True)
            self.mark_write(o.value, [])
            out = o.value
        return out

    def read_out(self, v, out):
        init = all(out.root.init[e] for e in out.elements())
        self.generic([v], out, "accum" if init else "scale")
        self.mark_write(out, [v])

    def blk_refuse_path(self):
        """A buffer freed on one arm only (then, after the join, on the
        other path by a second branch on the same condition): which buffers
        are allocated at the join depends on the path."""
        cond = self.cond_data()
        if self.coverage == "all":
            self.coverage = "flip"
        x = self.refuse_buffer()
        out = self.prep_out(x.shape, (x,))
        T, F, J, K, M = [self.blk_new() for _ in range(5)]
        base_dom = self.dom
        self.emit("cf.cond_br %s, %s, %s" % (cond, self.blk_ref(T),
                                             self.blk_ref(F)))
        start = [(r, bytearray(r.init)) for r in self.roots]
        self.blk_start(T, base_dom)
        self.read_out(x.value, out)
        self.dealloc(x)
        self.emit("cf.br %s" % self.blk_ref(J))
        after_t = [(r, bytearray(r.init)) for r, _ in start]
        for r, init in start:
            r.init[:] = init
        self.blk_start(F, base_dom)
        self.emit("cf.br %s" % self.blk_ref(J))
        for (r, a), (_, b) in zip(after_t, start):
            r.init[:] = bytes(u & w for u, w in zip(a, b))
        self.blk_start(J, base_dom)
        self.emit("cf.cond_br %s, %s, %s" % (cond, self.blk_ref(M),
                                             self.blk_ref(K)))
        self.blk_start(K, self.dom)
        x.live = True
        self.dealloc(x)
        self.emit("cf.br %s" % self.blk_ref(M))
        self.blk_start(M, self.dom - {K})
        x.consumed = True
        self.expect_refusal = "path"

    def blk_refuse_swap(self):
        """Two buffers handed to the join in either order; the join frees
        both through its arguments (each may be either buffer)."""
        cond = self.cond_data()
        if self.coverage == "all":
            self.coverage = "flip"
        a = self.refuse_buffer()
        shape = a.shape
        b = self.new_alloc(shape, arena=False, space_of=a)
        self.generic([a.value], b.value, "scale")
        self.mark_write(b.value, [a.value])
        J = self.blk_new()
        t = a.value.type
        p, q = self.fresh("sp"), self.fresh("sq")
        self.emit("cf.cond_br %s, %s, %s" % (
            cond, self.blk_ref(J, [(a.value.ssa, t), (b.value.ssa, t)]),
            self.blk_ref(J, [(b.value.ssa, t), (a.value.ssa, t)])))
        self.blk_start(J, self.dom, [(p, t), (q, t)])
        pv = Value(p, a, shape, a.value.strides, 0, False, True)
        qv = Value(q, b, shape, b.value.strides, 0, False, True)
        self.read_out(pv, self.prep_out(shape, (a, b)))
        self.read_out(qv, self.prep_out(shape, (a, b)))
        self.emit("memref.dealloc %s : %s" % (p, t), top_op=True)
        self.emit("memref.dealloc %s : %s" % (q, t), top_op=True)
        a.live = b.live = False
        a.consumed = b.consumed = True
        self.expect_refusal = "swap"

    def blk_refuse_loop(self):
        """A do-while loop of blocks whose allocation is freed on the back
        edge inside an scf.if or by a helper (memsched does not count a
        nested deallocation nor a callee's): for memsched the buffer may or
        may not be allocated when the loop starts again."""
        trips = self.rng.choice([2, 3])
        shape = self.rng.choice(SHAPES_1D[:5] + SHAPES_2D[:6])
        out = self.prep_out(shape, ())
        B, E = self.blk_new(), self.blk_new()
        iv = self.fresh("bi")
        base_dom = self.dom
        self.emit("cf.br %s" % self.blk_ref(B, [(self.idx(0), "index")]))
        self.blk_start(B, base_dom, [(iv, "index")])
        x = self.refuse_buffer(shape)
        self.read_out(x.value, out)
        i1, c = self.loop_step(iv, trips)
        t = x.value.type
        if self.calls and self.rng.random() < 0.5:
            # Freed on the back edge by a helper (memsched does not count a
            # callee's deallocation of its argument): allocated at the top
            # of the loop when it comes from the back edge only.
            L = self.blk_new()
            name = "@release%d" % (len(self.helpers) + 1)
            self.helpers.append("func.func private %s(%%m: %s) {\n"
                                "  memref.dealloc %%m : %s\n  return\n}" % (
                                    name, t, t))
            self.emit("cf.cond_br %s, %s, %s" % (c, self.blk_ref(L),
                                                 self.blk_ref(E)))
            body_dom = self.dom
            self.blk_start(L, body_dom)
            self.emit("func.call %s(%s) : (%s) -> ()" % (name, x.value.ssa, t),
                      top_op=True)
            self.emit("cf.br %s" % self.blk_ref(B, [(i1, "index")]))
            self.blk_start(E, body_dom)
            self.features.add("freed-by-callee-on-back-edge")
        else:
            self.emit("scf.if %s {" % c, top_op=True)
            self.emit("  memref.dealloc %s : %s" % (x.value.ssa, t))
            self.emit("}")
            self.emit("cf.cond_br %s, %s, %s" % (
                c, self.blk_ref(B, [(i1, "index")]), self.blk_ref(E)))
            self.blk_start(E, self.dom)
            self.features.add("freed-in-scf.if-on-back-edge")
        x.consumed = True
        self.expect_refusal = "loop"

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

    def make_wrapped_args(self):
        """The body becomes @body, called by a wrapper @f: its arguments are
        views of @f's arguments (up to three per argument: the whole of it, a
        1-D window, a block of rows; they may overlap, so they alias at run
        time) and the globals (which the body also reaches through
        memref.get_global). Only arguments that overlap nothing are
        llvm.noalias."""
        rng = self.rng
        self.body_name = "@body"
        fargs, lines, call = [], [], []
        k = 0
        for i in range(rng.randint(1, 3)):
            shape = self.random_shape(big_ok=False)
            fname = "%%arg%d" % i
            st = Root(fname, shape, "storage")
            ftype = memref_type(shape, canonical_strides(shape), 0, False,
                                True)
            fargs.append("%s: %s%s" % (fname, ftype, " {llvm.noalias}"
                                       if rng.random() < 0.5 else ""))
            N = st.numel
            flat = None
            for _ in range(rng.randint(1, 3)):
                kind = rng.choice(["whole", "flat", "rows"] if len(shape) == 2
                                  else ["whole", "flat", "flat"])
                name = "%%arg%d" % k
                if kind == "whole":
                    root = Root(name, shape, "arg")
                    root.value = Value(name, root, shape,
                                       canonical_strides(shape), 0, False,
                                       True)
                    root.smap = list(range(N))
                    call.append((fname, root.value.type))
                elif kind == "flat":
                    L = rng.choice([d[0] for d in SHAPES_1D if d[0] <= N] or
                                   [N])
                    K = rng.randint(0, N - L)
                    root = Root(name, (L,), "arg")
                    root.value = Value(name, root, (L,), (1,), K, False,
                                       False, shift=-K)
                    root.smap = [K + e for e in range(L)]
                    src, stype = fname, ftype
                    if len(shape) == 2:
                        if flat is None:
                            flat = self.fresh("wf")
                            lines.append(
                                "  %s = memref.collapse_shape %s [[0, 1]] : "
                                "%s into memref<%dxf32>" % (flat, fname,
                                                             ftype, N))
                        src, stype = flat, "memref<%dxf32>" % N
                    w = self.fresh("wv")
                    lines.append("  %s = memref.subview %s[%d] [%d] [1] : "
                                 "%s to %s" % (w, src, K, L, stype,
                                               root.value.type))
                    call.append((w, root.value.type))
                else:
                    R, C = shape
                    R2 = rng.randint(1, R)
                    r0 = rng.randint(0, R - R2)
                    K = r0 * C
                    root = Root(name, (R2, C), "arg")
                    root.value = Value(name, root, (R2, C), (C, 1), K, False,
                                       False, shift=-K)
                    root.smap = [K + e for e in range(R2 * C)]
                    w = self.fresh("wv")
                    lines.append("  %s = memref.subview %s[%d, 0] [%d, %d] "
                                 "[1, 1] : %s to %s" % (
                                     w, fname, r0, R2, C, ftype,
                                     root.value.type))
                    call.append((w, root.value.type))
                root.storage = st
                root.writable = rng.random() < 0.6
                self.roots.append(root)
                self.args.append(root)
                k += 1
                if kind != "whole" and rng.random() < 0.4:
                    # The body reaches all of the caller's buffer from this
                    # argument (reinterpret_cast of its base): beyond what
                    # its type covers.
                    e = self.fresh("ext")
                    ext = Root(e, (N,), "arg")
                    ext.value = Value(e, ext, (N,), (1,), 0, False, False)
                    ext.storage = st
                    ext.writable = root.writable
                    self.emit("%s = memref.reinterpret_cast %s to offset: "
                              "[0], sizes: [%d], strides: [1] : %s to %s" % (
                                  e, name, N, root.value.type,
                                  ext.value.type))
                    root.reach = ext
                    self.roots.append(ext)
                    self.features.add("argument-beyond-its-type")
        for g in self.globals:
            if rng.random() < 0.6:
                name = "%%arg%d" % k
                root = Root(name, g.shape, "arg")
                root.value = Value(name, root, g.shape,
                                   canonical_strides(g.shape), 0, False, True)
                root.storage = g
                root.writable = rng.random() < 0.7
                w = self.fresh("wg")
                lines.append("  %s = memref.get_global %s : %s" % (
                    w, g.gsym, g.value.type))
                call.append((w, root.value.type))
                self.roots.append(root)
                self.args.append(root)
                self.features.add("global-as-argument")
                k += 1
        if not any(r.writable for r in self.args):
            self.args[0].writable = True
        def reach(r):
            if getattr(r, "reach", None) is not None:
                return set(range(r.storage.numel))
            return set(r.smap or range(r.numel))
        for r in self.args:
            others = set()
            for o in self.args:
                if o is not r and o.storage is r.storage:
                    others.update(reach(o))
            mine = reach(r)
            if r.storage.kind == "storage" and not (mine & others):
                r.noalias = rng.random() < 0.5
            elif mine & others:
                self.features.add("overlapping-arguments")
        self.wrapper = (fargs, lines, call)
        self.features.add("wrapped-body")
        self.features.add("may-alias-args")

    def body(self):
        if self.new:
            if "globals" not in self.without and \
                    self.rng.random() < self.p_global:
                for _ in range(self.rng.randint(1, 2)):
                    self.make_global()
            if self.rng.random() < self.p_wrap:
                self.make_wrapped_args()
                if self.blocky and self.brng.random() < 0.67:
                    # Fewer wrapped bodies of several blocks (kept as they
                    # were: the same programs for the same seeds).
                    self.blocky, self.p_block = False, 0.0
            else:
                self.make_args()
            for r in self.args:
                self.maybe_early_ptr(r)
        else:
            self.make_args()
        first = [r for r in self.args if r.writable][0]
        self.generic([first.value], first.value, "scale")
        self.features.add("write-arg")
        if self.chain:
            self.st_view_chain(self.chain)
        stmts = [
            (self.st_new_buffer, 6), (self.st_concat, 2),
            (self.st_inplace_chain, 2), (self.st_overlapping, 3),
            (self.st_pinned, 2), (self.st_dead, 1), (self.st_call, 2),
            (self.st_print, 1),
            (self.st_scalar, 1), (self.st_loop, 2), (self.st_if, 1),
            (self.st_write_arg, 2),
        ]
        if self.new:
            w = self.without
            stmts += [
                (self.st_pinned, 2),
                (self.st_ptr, 2 if self.p_ptr and "ptr" not in w else 0),
                (self.st_llvm_global, 0 if "llvm-global" in w else 1),
                (self.st_pinned_llvm_global, 0 if "llvm-global" in w else 1),
                (self.st_load_size, 0 if "load-size" in w else 2),
                (self.st_select, 0 if "select" in w else 2),
                (self.st_extcall, 0 if "extcall" in w else 2),
                (self.st_while, 0 if "while" in w else 1),
                (self.st_exec, 0 if "execute-region" in w else 1),
                (self.st_memref_of_memref,
                 0 if "memref-of-memref" in w else 1),
                (self.st_call_view, 0 if "returned-view" in w else 2),
            ]
        funcs = [f for f, w in stmts for _ in range(w)]
        self.funcs = funcs
        if self.blocky:
            self.arg_values = [r.value for r in self.args
                               if r.value.ssa == r.name]
        guard = 0
        while self.top_ops < self.target and guard < 400:
            guard += 1
            if self.p_block and self.brng.random() < self.p_block:
                self.st_blocks()
                self.retire_some()
                continue
            if self.p_nested and self.nrng.random() < self.p_nested / 6:
                self.loop_multi()
                self.retire_some()
                continue
            if self.p_pad and self.prng.random() < self.p_pad:
                self.st_pad()
                self.retire_some()
                continue
            if self.p_chain and self.crng.random() < self.p_chain:
                self.st_chain()
                self.retire_some()
                continue
            if self.p_yield and self.yrng.random() < self.p_yield:
                saved, self.rng = self.rng, self.yrng
                try:
                    self.st_yield_fresh()
                finally:
                    self.rng = saved
                self.retire_some()
                continue
            if self.p_alias and self.arng.random() < self.p_alias:
                self.st_alias()
                self.retire_some()
                continue
            f = self.rng.choice(funcs)
            f()
            self.retire_some()
        if self.blocky and not self.multi_block:
            self.st_blocks()
            self.retire_some()
        self.finish()

    def finish(self):
        if self.vec_pending:
            # The late readers of the vector buffers not read yet.
            self.with_arng(self.flush_vectors)
        if self.new:
            self.flush_select_deallocs()
            # The globals' final contents reach a result.
            for g in self.globals:
                out = self.new_alloc(g.shape)
                self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
                    g.value.ssa, g.value.type, out.value.ssa,
                    out.value.type), top_op=True)
                self.mark_write(out.value, [g.value])
            for lg in self.llvm_globals:
                out = self.new_alloc((lg.n,))
                p = self.lg_ptr(lg)
                ivs = self.open_loops((lg.n,))
                x = self.load_elem(self.lg_view(lg, 0, lg.n), ivs, p)
                self.store_elem(x, out.value, ivs, None)
                self.close_loops(1)
                self.mark_write(out.value, [])
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
        if not self.wrapper and any(r.space for r in self.results):
            # The harness calls @f with default-space results only: a buffer
            # of another space is copied into one (then freed).
            self.results = [self.host_copy(r) if r.space else r
                            for r in self.results]
        if self.wrapper and self.results:
            # A callee may not return an allocation of its own (memsched:
            # nested allocations are freed in their region): the wrapper
            # allocates the results and the body copies into them.
            fargs, lines, call = self.wrapper
            for r in self.results:
                name = "%%arg%d" % len(self.args)
                t = memref_type(r.shape, canonical_strides(r.shape), 0, False,
                                True)
                o = Root(name, r.shape, "arg", noalias=True)
                o.value = Value(name, o, r.shape, canonical_strides(r.shape),
                                0, False, True)
                self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
                    r.value.ssa, r.value.type, name, t), top_op=True)
                self.args.append(o)
                w = self.fresh("wr")
                lines.append("  %s = memref.alloc() : %s" % (w, t))
                call.append((w, t))
                self.wrapper_results.append((w, t))
                r.returned = False
                r.consumed = True
            self.results = []
            self.features.add("wrapper-allocates-results")
        exits = None
        if self.multi_block and self.rng.random() < 0.3:
            # Two exit blocks, each freeing what is left and returning.
            exits = (self.cond_data(), len(self.lines))
            if self.coverage == "all":
                self.coverage = "flip"
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
            if self.wrapper and r.kind == "alloc" and r.live:
                # A callee frees all its allocations (memsched).
                self.dealloc(r)
        for r in self.roots:
            if self.blocky and r.kind == "alloc" and r.live and \
                    not r.returned:
                # No leak on any path of a program with blocks.
                self.dealloc(r)
        for r in self.roots:
            if r.kind == "alloc" and r.live and not r.returned:
                # Leaked: a buffer that lives to the end without escaping.
                self.features.add("leak")
        for r in self.results:
            if not all(r.init):
                raise AssertionError("returning an uninitialised buffer")
        if exits:
            self.two_exits(*exits)

    def host_copy(self, r):
        """A default-space copy of root r (group `spaces`) returned in its
        place; r is freed with the other consumed buffers."""
        name = self.fresh("host")
        o = Root(name, r.shape, "alloc")
        o.value = Value(name, o, r.shape, canonical_strides(r.shape), 0,
                        False, True)
        self.emit("%s = memref.alloc() : %s" % (name, o.value.type),
                  top_op=True)
        self.emit("linalg.copy ins(%s : %s) outs(%s : %s)" % (
            r.value.ssa, r.value.type, name, o.value.type), top_op=True)
        self.mark_write(o.value, [r.value])
        self.roots.append(o)
        r.returned = False
        o.returned = True
        self.features.add("space-result-copied")
        return o

    def return_line(self):
        if self.results:
            return "  return %s : %s" % (
                ", ".join(r.value.ssa for r in self.results),
                ", ".join(r.value.type for r in self.results))
        return "  return"

    def two_exits(self, cond, mark):
        """The deallocations emitted since `mark` go into two exit blocks
        (a copy with renamed values in the first), each returning."""
        tail = self.lines[mark:]
        del self.lines[mark:]
        names = []
        for line in tail:
            m = re.match(r"^\s*(%[\w]+(?::\d+)?(?:\s*,\s*%[\w]+)*)\s*=",
                         line)
            if m:
                names += [n.split(":")[0].strip()
                          for n in m.group(1).split(",")]
        copy = []
        for line in tail:
            for n in names:
                line = re.sub(re.escape(n) + r"(?!\w)", n + "x", line)
            copy.append(line)
        R1, R2 = self.blk_new(), self.blk_new()
        self.emit("cf.cond_br %s, %s, %s" % (cond, self.blk_ref(R1),
                                             self.blk_ref(R2)))
        base = self.dom
        self.blk_start(R1, base)
        self.lines += copy
        self.lines.append(self.return_line())
        self.blk_start(R2, base)
        self.lines += tail
        self.features.add("blocks-two-exits")

    def render(self):
        self.body()
        args = ", ".join(
            "%s: %s%s" % (r.name, r.value.type,
                          " {llvm.noalias}" if r.noalias else "")
            for r in self.args)
        res_types = ", ".join(r.value.type for r in self.results)
        out = ["// Generated by test/Fuzz/random_program.py --seed %d%s" % (
                   self.seed, self.flags),
               "// top-level ops (views and constants aside): %d" %
               self.top_ops,
               "// features: " + ", ".join(sorted(self.features))]
        if self.multi_block:
            # For run_fuzz.py: which blocks run (README.md, "blocks").
            out.append("// blocks: %d, coverage %s, flip %s, refusal %s, "
                       "function %s" % (
                           self.nblocks + 1, self.coverage,
                           "yes" if self.flip else "no",
                           self.expect_refusal or "none",
                           self.body_name[1:]))
        if self.spaces_used:
            # For run_fuzz.py: the memory spaces allocated in besides the
            # default one (README.md, "spaces").
            out.append("// memory spaces: " + " ".join(self.spaces_used))
        out += [g.decl for g in self.globals]
        out += [g.decl for g in self.llvm_globals]
        header, wrapper = out, []
        if self.wrapper:
            out = wrapper
            fargs, lines, call = self.wrapper
            wres = self.wrapper_results
            wtypes = ", ".join(t for _, t in wres)
            out.append("func.func @f(%s)%s {" % (
                ", ".join(fargs), " -> (%s)" % wtypes if wres else ""))
            out += lines
            out.append("  func.call @body(%s) : (%s) -> ()" % (
                ", ".join(a for a, _ in call), ", ".join(t for _, t in call)))
            if wres:
                out.append("  return %s : %s" % (
                    ", ".join(a for a, _ in wres), wtypes))
            else:
                out.append("  return")
            out.append("}")
        out = body = []
        out.append("func.func %s%s(%s)%s {" % (
            "private " if self.wrapper else "", self.body_name,
            args, " -> (%s)" % res_types if self.results else ""))
        for k in sorted(self.index_consts):
            out.append("  %s = arith.constant %d : index" % (
                self.index_consts[k], k))
        out += ["  " + line for line in self.prologue]
        lines = list(self.lines)
        lines.append(self.return_line())
        if self.multi_block and self.rng.random() < 0.4:
            # The blocks after the entry block in another order (dominance
            # is the CFG's, not the text's).
            first = next(i for i, l in enumerate(lines)
                         if l.startswith("^bb"))
            chunks = []
            for l in lines[first:]:
                if l.startswith("^bb"):
                    chunks.append([])
                chunks[-1].append(l)
            self.rng.shuffle(chunks)
            lines = lines[:first] + [l for c in chunks for l in c]
            self.features.add("blocks-out-of-order")
            header[2] = "// features: " + ", ".join(sorted(self.features))
        out += lines
        out.append("}")
        if "callee-peak" in self.avoid:
            # Callees before their callers (with --mlir-disable-threading,
            # memsched then schedules a callee before it reads its peak).
            out = header + self.helpers + body + wrapper
        else:
            out = header + wrapper + body + self.helpers
        if self.need_print:
            out.append("func.func private @printMemrefF32(memref<*xf32>) "
                       "attributes {llvm.emit_c_interface}")
        out += [self.decls[k] for k in sorted(self.decls)]
        return "\n".join(out) + "\n"


# Bugs whose triggers --avoid can leave out: to look past an open bug for
# others, or to run a build from before its fix (README.md, "Bugs found").
KNOWN_BUGS = {
    "wrapped-rows": "failures/overlapping-views-wrapped-rows.mlir",
    # An allocation used by nothing (or only by unused views), never freed.
    "unused-alloc": "failures/dead-view-alloc-counted-in-peak.mlir",
    # Fixed: a caller's certificate counted the peak its callee had before
    # the callee was scheduled; --avoid puts callees first and the driver
    # passes --mlir-disable-threading (for builds from before the fix).
    "callee-peak": "a caller certified with its callee's peak from before "
                   "the callee was scheduled",
    # Declined by design since the fix: a deallocation of an arith.select of
    # two buffers leaves the function unchanged with a remark (the driver
    # accepts it); before, the certificate's peak and bound were above the
    # measured peak. --avoid keeps every @f scheduled.
    "select-dealloc": "memref.dealloc of an arith.select of two buffers",
    # Fixed: "the planned order of the block is invalid" when an op uses a
    # scalar or view both directly and through a chain of producers (the
    # walk over producers emitted the chain first); first seen with a
    # global read and written through a view.
    "global-inplace": "one op reading a global and writing it through a view",
    # Fixed: views (or selects) of a buffer placed after its deallocation;
    # for the driver: skip its use-after-dealloc check.
    "view-after-dealloc": "the driver's check of uses after a deallocation",
}


# Groups of the new constructs --without can leave out (README.md).
GROUPS = {
    "ptr": "memref memory through !llvm.ptr (extract_aligned_pointer_as_index,"
           " inttoptr, getelementptr, llvm.load/store)",
    "llvm-global": "llvm.mlir.global + llvm.mlir.addressof loads and stores",
    "globals": "memref.global accessed through memref.get_global (and passed "
               "as an argument)",
    "wrapper": "the body called by a wrapper @f with aliasing views of its "
               "arguments and globals as arguments",
    "callee-reinterpret": "callees reaching the whole buffer from a slice "
                          "(extract_strided_metadata + reinterpret_cast, or a "
                          "pointer)",
    "load-size": "loaded scalars and call results feeding dynamic "
                 "allocation sizes",
    "select": "arith.select between memrefs on a loaded condition",
    "extcall": "calls of runtime functions (printF32, stdSortF32, "
               "memsched_print_hash_f32, verifyMemRefF32)",
    "bcast": "zero-stride and huge read-only views",
    "wide": "very wide row strides",
    "while": "scf.while",
    "execute-region": "scf.execute_region",
    "memref-of-memref": "a memref stored into and loaded from a memref of "
                        "memrefs",
    "scalar-loops": "writes as scf.for loops of memref.load/store",
    "helper-writes": "calls of helpers writing their argument (any op "
                     "position)",
    "huge-dead": "allocations of huge shapes nothing uses",
    "returned-view": "calls of helpers returning their argument (after "
                     "scaling it in place, sometimes), read by the caller",
    "blocks": "bodies of several blocks: cf.br sequences, cf.cond_br "
              "diamonds, loops of blocks, memrefs as block arguments, and "
              "rarely a shape memsched must refuse",
    "nested": "loop bodies with 2-3 transient buffers allocated up front, "
              "which memsched reorders on their own",
    "spaces": "allocations in memory space 1 or "
              "#gpu.address_space<workgroup> (every use typed alike; "
              "memref.memory_space_cast to the default space for runtime "
              "functions and results)",
}


# Forms of the writes through aliases (--aliases, --alias-form; README.md,
# "Aliases"). Each writes a buffer between its producer and its later
# readers; all but subview also inside regions (scf.execute_region, scf.if,
# scf.for of one trip).
ALIAS_FORMS = {
    "iter-args": "scf.for iter_args(%x = %b) whose body writes %x (linalg, "
                 "memref.store at the induction variable, linalg.fill)",
    "metadata": "memref.extract_strided_metadata %b, memref.reinterpret_cast "
                "of its base, written (mostly in an scf.execute_region)",
    "select": "arith.select %c, %b, %b or of two buffers, written through",
    "subview": "memref.subview of part of the buffer, written",
    "vector": "memref<Kxvector<Lxf32>> (no alignment attribute) written by "
              "memref.store of vectors built with llvm.insertelement, read "
              "later lane by lane (llvm.extractelement)",
    "recursion": "a helper allocating a buffer and calling itself through "
                 "func.constant + func.call_indirect (a counter bounds it)",
}


# memsched declines a memref of memrefs ("element type ... has no byte size in
# the data layout; allocate a buffer of integers or floats instead"): only
# with --only memref-of-memref (the driver then reports those programs as
# uncertified; the run shows whether memsched-opt crashes on them).
OFF_BY_DEFAULT = {"memref-of-memref"}


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
    p.add_argument("--classic", action="store_true",
                   help="leave out every construct added after the first "
                        "version (the same program per seed as then)")
    p.add_argument("--without", action="append", default=[],
                   choices=sorted(GROUPS),
                   help="leave out one group of the new constructs")
    p.add_argument("--only", action="append", default=[],
                   choices=sorted(GROUPS),
                   help="of the new constructs, generate only this group "
                        "(--without all others)")
    p.add_argument("--chain", type=int, default=0, metavar="N",
                   help="also a chain of N nested memref.subview ops (a stress "
                        "test for recursion depth)")
    p.add_argument("--yields", action="store_true",
                   help="also buffers loops and branches hand out (an scf.if "
                        "allocating its result in each branch, an scf.for "
                        "allocating the next buffer each iteration and "
                        "freeing the one it got under an ownership flag)")
    p.add_argument("--pads", action="store_true",
                   help="also materialised pads (bufferized tensor.pad: a "
                        "buffer copied into the interior of a filled one), "
                        "what --memsched-split absorbs; off by default")
    p.add_argument("--chains", action="store_true",
                   help="also channel chains (ops over buffers of C "
                        "channels linked by intermediates, a consumer "
                        "writing by channel or summing over them), what "
                        "--memsched-split runs by groups of channels; off "
                        "by default")
    p.add_argument("--aliases", action="store_true",
                   help="also writes through aliases (README.md, "
                        "\"Aliases\"): scf.for iter_args, "
                        "extract_strided_metadata + reinterpret_cast, "
                        "arith.select, subviews, buffers of vectors, "
                        "recursion through func.call_indirect; off by "
                        "default (the programs of every seed are unchanged "
                        "without it)")
    p.add_argument("--alias-form", action="append", default=[],
                   choices=sorted(ALIAS_FORMS),
                   help="with --aliases, only this form (repeatable; "
                        "implies --aliases)")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args()
    forms = sorted(set(a.alias_form)) or \
        (sorted(ALIAS_FORMS) if a.aliases else [])
    if a.only:
        a.without = sorted(set(a.without) | (set(GROUPS) - set(a.only)))
    else:
        # Groups memsched does not support (it leaves the function unchanged
        # with a remark): generated only when asked for with --only.
        a.without = sorted(set(a.without) | OFF_BY_DEFAULT)
    flags = "".join([" --calls"] if a.calls else []) + \
        "".join(" --avoid " + b for b in a.avoid) + \
        (" --classic" if a.classic else "") + \
        ("".join(" --only " + o for o in a.only) if a.only else
         "".join(" --without " + w for w in a.without
                 if w not in OFF_BY_DEFAULT))
    if a.chain:
        flags += " --chain %d" % a.chain
    if forms:
        flags += " --aliases" + ("".join(" --alias-form " + f for f in forms)
                                 if a.alias_form else "")
    if (a.min_ops, a.max_ops) != (10, 60):
        flags += " --min-ops %d --max-ops %d" % (a.min_ops, a.max_ops)
    if a.pads:
        flags += " --pads"
    if a.chains:
        flags += " --chains"
    if a.yields:
        flags += " --yields"
    text = Gen(a.seed, a.min_ops, a.max_ops, calls=a.calls,
               avoid=a.avoid, classic=a.classic, without=a.without,
               flags=flags, chain=a.chain,
               only_blocks=a.only == ["blocks"],
               only_spaces="spaces" in a.only, aliases=forms,
               pads=a.pads, chains=a.chains, yields=a.yields).render()
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
