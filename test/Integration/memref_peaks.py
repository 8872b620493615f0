#!/usr/bin/env python3
"""Peak memory of a lowered memref function, computed from the IR text alone.

An independent check of memsched's numbers: this script shares no code with
memsched and reads only the printed IR (as mlir-opt / memsched-opt print it:
the ops of a function body indented by four spaces, nested regions deeper).

For each file it prints one line

  <file>: peak-as-written=P bound=B bound-kind=K bound-op=<op>#<i> allocs=A \
          deallocs=D allocated=T ops=N leaked=L [search-states=S]

- peak-as-written: the maximum over program order of the bytes allocated and
  not yet freed: each top-level `memref.alloc` adds its size, each
  `memref.dealloc` subtracts it, buffers without a dealloc (returned ones)
  stay live to the end, function arguments are not counted. This is what a
  counting allocator measures when the program runs.
- bound: a lower bound on that peak for every order of the same ops that
  keeps their dependencies. "Must run before" is the transitive closure of a
  subset of the dependencies every valid order keeps: SSA def-use, and two
  accesses to the same buffer where at least one writes and at least one
  covers the whole buffer (the buffer itself or a collapse/expand/cast/
  transpose view of it; a subview may be partial, so two subview accesses get
  no edge). Fewer edges allow more orders, which can only lower the bound, so
  it is sound whatever dependencies the scheduler keeps on top. A buffer is
  allocated before its first access and freed after its last, so it is live
  while an op X runs when an access runs before X and another after. Kinds:
  live        (always) at some op X, the buffers with an access that must run
              at or before X and one that must run at or after X (or no
              dealloc): live at X in every order;
  cut         (--cuts N) for the N ops with the most memory in the file's
              order, the least memory the op can run with over every set of
              ops that may have run before it: a minimum s-t cut, see
              node_cut;
  exhaustive  (--exact STATES, when the other kinds stay below the file's
              peak) every order is searched for one whose every op stays
              below the file's peak, see segment_search, from the start and,
              when STATES do not suffice, from the end (STATES more); when
              there is none, the file's peak is the optimum.
  bound-op is the top-level op (name#position among the ops of the body, 0
  based, all ops counted) where the bound is reached (for exhaustive: the
  op where the segment that no order gets through starts).
- leaked: buffers neither freed nor returned.

With --remat-exhaustive BYTES, one more field for the files given:
remat-within-BYTES=yes|no|unknown remat-states=S. "no" means that no
recomputation strategy of any kind, at any cost, runs the function within
BYTES: not only the orders of its ops, but any program that runs each op at
least once and may run any op again (a copy of its output in a new buffer)
wherever its inputs are held. The proof is an exhaustive search of the
pebbling game below (remat_game, remat_search), which relaxes every such
program, so its answer is a lower bound on them all.

Sizes: element count times element size; with --count-alignment-padding an
allocation with `alignment = N` counts size + N (what the generic allocation
lowering requests from the allocator).

Only what the bench/models corpus uses is understood; any other op that uses
a memref is an error (the script never guesses).

Usage: memref_peaks.py [--count-alignment-padding] [--func NAME] [FILE...]
                       [--cuts N] [--exact STATES] [--certify FILE]...
                       [--remat-exhaustive BYTES [--remat-states N]]
"""

import argparse
import math
import re
import sys

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1,
                 "i16": 2, "i32": 4, "i64": 8, "index": 8}
VALUE = re.compile(r"%[\w$.-]+")
RESULTS = re.compile(r"^((?:%[\w$.-]+(?::\d+)?)(?:, %[\w$.-]+(?::\d+)?)*) = ")
OPNAME = re.compile(r'^"?([a-z_][\w.]*)"?')
MEMREF = re.compile(r"memref<([0-9x?]*?)(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)[,>]")
ALIGNMENT = re.compile(r"alignment = (\d+)")
# Views that cover the whole buffer, and views that may cover part of it.
WHOLE_VIEWS = {"memref.collapse_shape", "memref.expand_shape", "memref.cast",
               "memref.transpose"}
PARTIAL_VIEWS = {"memref.subview", "memref.reinterpret_cast", "memref.view"}
# Top-level ops that use no memory and may be ignored when they use no memref.
PURE_PREFIXES = ("arith.", "index.", "affine.apply", "math.")


class Error(Exception):
    pass


def memref_bytes(type_text):
    m = MEMREF.search(type_text)
    if not m:
        raise Error(f"no static memref type in: {type_text}")
    dims = [d for d in m.group(1).split("x") if d]
    if "?" in dims:
        raise Error(f"dynamic shape: {type_text}")
    return math.prod(int(d) for d in dims) * ELEMENT_BYTES[m.group(2)]


def balanced(text, start):
    """The text inside the parentheses that open at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    raise Error(f"unbalanced parentheses: {text[:120]}")


def segment(line, keyword):
    m = re.search(r"\b" + keyword + r"\(", line)
    if not m:
        return ""
    return balanced(line, m.end() - 1)


def function_body(lines, func):
    """(signature line, [op lines...]) of func.func @func."""
    head = None
    for i, line in enumerate(lines):
        if re.match(r"^  func\.func (?:private )?@" + re.escape(func) + r"\(", line):
            head = i
            break
    if head is None:
        raise Error(f"no func.func @{func} at two-space indentation")
    ops = []
    for line in lines[head + 1:]:
        if line.startswith("  }"):
            return lines[head], ops
        if not line.startswith("    "):
            raise Error(f"unexpected line in the body: {line[:120]}")
        if line.startswith("     ") or line[4] in "}^":
            if not ops:
                raise Error(f"body starts with a continuation line: {line[:120]}")
            ops[-1].append(line)
        else:
            ops.append([line])
    raise Error("function body not closed")


# Named linalg ops that add into their outs (what --remat-exhaustive needs to
# know; the other named ops, fill, map, transpose..., overwrite them).
ACCUMULATING = ("conv", "matmul", "matvec", "vecmat", "dot", "pooling", "reduce")


def reads_outs(name, nested, num_outs):
    """Whether a linalg op reads the values its outs held before it: a named
    accumulating op, or a generic whose body uses an out's block argument."""
    if name != "linalg.generic":
        return any(k in name for k in ACCUMULATING)
    if not nested or not num_outs:
        return False
    header = nested[0].strip()
    if not header.startswith("^bb0("):
        raise Error(f"linalg.generic without a ^bb0 header: {header[:80]}")
    block_args = VALUE.findall(header[:header.index(")")])
    body = "\n".join(nested[1:])
    return any(re.search(re.escape(a) + r"\b", body)
               for a in block_args[len(block_args) - num_outs:])


def analyse(path, func="forward", padding=False, cuts=0, exact=0,
            remat=None, remat_states=0):
    lines = open(path).read().split("\n")
    sig, ops = function_body(lines, func)

    root = {}       # memref value -> root buffer (an alloc result or an argument)
    whole = {}      # memref value -> whether it covers its whole root buffer
    size = {}       # root -> counted bytes (0 for arguments)
    defined_at = {}  # top-level value -> op index that defines it
    args = re.findall(r"(%[\w$.-]+): (memref<[^>]*>|[^,)]+)", sig[sig.index("("):])
    for name, ty in args:
        if ty.startswith("memref<"):
            root[name] = name
            whole[name] = True
            size[name] = 0
    allocs = deallocs = allocated = 0
    live = peak = 0
    freed = set()
    alloc_roots = set()
    escaped = set()
    accesses = {}   # root -> [(op index, writes, whole)]
    preds = [set() for _ in ops]
    touchers = {}   # root -> set of op indices that read or write it
    names = []
    updates = set()  # ops that read what their outs held before (accumulate)

    def access(i, value, writes):
        r = root[value]
        accesses.setdefault(r, []).append((i, writes, whole[value]))
        touchers.setdefault(r, set()).add(i)

    for i, op in enumerate(ops):
        first = op[0].strip()
        m = RESULTS.match(first)
        results = []
        body = first
        if m:
            results = [r.split(":")[0] for r in m.group(1).split(", ")]
            body = first[m.end():]
        name = OPNAME.match(body).group(1)
        names.append(name)
        text = "\n".join(op)
        uses = [v for v in dict.fromkeys(VALUE.findall(text))
                if v in defined_at or v in root]
        uses = [v for v in uses if v not in results]
        for v in uses:
            if v in defined_at:
                preds[i].add(defined_at[v])
        for r in results:
            defined_at[r] = i
        mem_uses = [v for v in uses if v in root]
        nested = op[1:]

        if name == "memref.alloc":
            if mem_uses or len(results) != 1:
                raise Error(f"dynamic or unexpected alloc: {first}")
            b = memref_bytes(first.rsplit(" : ", 1)[1])
            a = ALIGNMENT.search(first)
            if padding and a:
                b += int(a.group(1))
            r = results[0]
            root[r] = r
            whole[r] = True
            size[r] = b
            alloc_roots.add(r)
            allocs += 1
            allocated += b
            live += b
            peak = max(peak, live)
        elif name == "memref.dealloc":
            (v,) = mem_uses
            r = root[v]
            if r in freed or r not in alloc_roots:
                raise Error(f"dealloc of an argument or a second dealloc: {first}")
            freed.add(r)
            deallocs += 1
            live -= size[r]
        elif name in WHOLE_VIEWS or name in PARTIAL_VIEWS:
            src = mem_uses[0]
            for r in results:
                root[r] = root[src]
                whole[r] = whole[src] and name in WHOLE_VIEWS
        elif name == "memref.copy":
            src, dst = VALUE.findall(body)[:2]
            access(i, src, False)
            access(i, dst, True)
        elif name.startswith("linalg."):
            ins = [v for v in VALUE.findall(segment(first, "ins")) if v in root]
            outs = [v for v in VALUE.findall(segment(first, "outs")) if v in root]
            if reads_outs(name, nested, len(outs)):
                updates.add(i)
            for v in ins:
                access(i, v, False)
            for v in outs:
                access(i, v, True)
            seen = set(ins) | set(outs)
            for line in nested:
                for v in VALUE.findall(line):
                    if v not in root:
                        continue
                    if re.search(r"memref\.load " + re.escape(v) + r"\[", line):
                        access(i, v, False)
                    elif re.search(r"memref\.store [^,]+, " + re.escape(v) + r"\[", line):
                        access(i, v, True)
                    else:
                        raise Error(f"unknown nested use of {v}: {line.strip()}")
                    seen.add(v)
            other = [v for v in mem_uses if v not in seen]
            if other:
                raise Error(f"memref used outside ins/outs: {other} in {first[:120]}")
        elif name in ("return", "func.return"):
            for v in mem_uses:
                escaped.add(root[v])
        elif not mem_uses and (name.startswith(PURE_PREFIXES)):
            pass
        else:
            raise Error(f"unsupported op {name}: {first[:120]}")

    # Memory dependencies: same root, one writes, one covers the whole buffer.
    for r, acc in accesses.items():
        for x in range(len(acc)):
            for y in range(x + 1, len(acc)):
                (i, wi, hi), (j, wj, hj) = acc[x], acc[y]
                if i != j and (wi or wj) and (hi or hj):
                    preds[j].add(i)

    n = len(ops)
    anc = [0] * n
    for j in range(n):
        a = 0
        for p in preds[j]:
            a |= anc[p] | (1 << p)
        anc[j] = a
    succs = [[] for _ in ops]
    for j in range(n):
        for p in preds[j]:
            succs[p].append(j)
    desc = [0] * n
    for i in range(n - 1, -1, -1):
        d = 0
        for s in succs[i]:
            d |= desc[s] | (1 << s)
        desc[i] = d

    counted = [(r, size[r], sum(1 << t for t in touchers[r]), r not in freed)
               for r in touchers if size[r] > 0]
    bound, bound_op, kind = 0, None, "live"
    for x in range(n):
        before = anc[x] | (1 << x)
        after = desc[x] | (1 << x)
        s = sum(b for r, b, t, forever in counted
                if t & before and (forever or t & after))
        if s > bound:
            bound, bound_op = s, x

    if cuts:
        # Memory at each op in the order of the file (allocations and
        # deallocations where they are written): an upper bound on the cut of
        # the op, since that order is one of the orders the cut ranges over.
        mem, cur = [0] * n, 0
        alloc_at = {i: size[r] for r in alloc_roots for i in [defined_at[r]]}
        free_at = {}
        for i, op in enumerate(ops):
            if names[i] == "memref.dealloc":
                free_at[i] = size[root[VALUE.findall(op[0])[0]]]
        for i in range(n):
            cur += alloc_at.get(i, 0)
            mem[i] = cur
            cur -= free_at.get(i, 0)
        candidates = sorted(range(n), key=lambda i: -mem[i])[:cuts]
        for x in candidates:
            if mem[x] <= bound:
                break
            c = node_cut(x, n, preds, anc, desc, counted)
            if c > bound:
                bound, bound_op, kind = c, x, "cut"

    states = 0
    if exact and bound < peak:
        # Forwards, then, when the budget ran out, backwards.
        proved, states = segment_search(n, anc, desc, counted, peak, exact)
        if proved is None and states > exact:
            proved, more = segment_search(n, anc, desc, counted, peak, exact,
                                          reverse=True)
            states += more
        if proved is not None:
            bound, bound_op, kind = peak, proved, "exhaustive"

    remat_fields = {}
    if remat is not None:
        game = remat_game(n, names, accesses, size, alloc_roots, escaped, updates)
        answer, states = remat_search(game, remat, remat_states)
        remat_fields = {f"remat-within-{remat}": answer, "remat-states": states}

    leaked = [r for r in size if size[r] > 0 and r not in freed and r not in escaped]
    return {
        "peak-as-written": peak,
        "bound": bound,
        "bound-kind": kind,
        "bound-op": f"{names[bound_op]}#{bound_op}" if bound_op is not None else "-",
        "allocs": allocs,
        "deallocs": deallocs,
        "allocated": allocated,
        "ops": n,
        "leaked": len(leaked),
        **({"search-states": states} if exact else {}),
        **remat_fields,
    }


def remat_game(n, names, accesses, size, alloc_roots, escaped, updates):
    """The pebbling game that relaxes every recomputation strategy.

    Values are the versions of the allocated buffers: each op that writes a
    buffer makes a new version of it (a fill, then a convolution that
    accumulates into it: two versions); an op reads the version the last
    writer before it in the file made (every valid order keeps that: two
    accesses to a whole buffer, one a write, keep their order). A state is
    the set of values held. A move frees a held value, or computes a value
    whose inputs (the versions its op reads) are all held, with the held
    bytes plus the value's size during the step; a value whose op updates
    its buffer (reads what its outs held: an accumulation, `updates`) has the
    previous version among its inputs and may also be computed in place,
    which replaces that version with the same bytes held. An op that writes
    no allocated buffer is a sink: it must run once, with its inputs held.
    The game is won when every sink has run and the last version of every
    returned buffer is held.

    Why every recomputation strategy (each op run at least once, any op run
    again with its output in a new buffer, in any order its inputs allow)
    holds at every step at least the bytes of a play of the game: map each
    buffer instance it holds to the version it contains; the game holds each
    such version once, so its bytes are at most the program's. An op that
    overwrites its buffer is the move "free the old version, compute the new
    one"; one that updates it in place is the in-place move; either run on a
    new buffer (an update on a copy holding the previous version) is the
    plain move: the same bytes during and after each step. The game drops
    an overwriting op's read of its own buffer and lets any version be made
    from its op's inputs alone (no earlier writer needs to run): more plays,
    so a lower least peak, never a higher one. Arguments cost nothing, as in
    the peaks above. Ops that write an argument or more than one buffer are
    not supported (an error: the script never guesses)."""
    reads = [set() for _ in range(n)]
    writes = [set() for _ in range(n)]
    for r, acc in accesses.items():
        for i, w, _ in acc:
            (writes if w else reads)[i].add(r)
    vsize, vinputs, vprev, sinks, current = [], [], [], [], {}
    for i in range(n):
        if any(r not in alloc_roots for r in writes[i]):
            raise Error(f"--remat-exhaustive: {names[i]}#{i} writes a function argument")
        if len(writes[i]) > 1:
            raise Error(f"--remat-exhaustive: {names[i]}#{i} writes more than one buffer")
        inputs = 0
        for r in reads[i] - writes[i]:
            if r not in alloc_roots:
                continue
            if r not in current:
                raise Error(f"--remat-exhaustive: {names[i]}#{i} reads {r} before any write")
            inputs |= 1 << current[r]
        if writes[i]:
            (x,) = writes[i]
            prev = current.get(x, -1) if i in updates else -1
            if prev >= 0:
                inputs |= 1 << prev
            current[x] = len(vsize)
            vsize.append(size[x])
            vinputs.append(inputs)
            vprev.append(prev)
        elif inputs:
            # An op with no allocated buffer among its inputs either (an
            # alloc, a view, arithmetic, a write to nothing counted) can run
            # at any step with nothing held: no constraint.
            sinks.append(inputs)
    goal = 0
    for r in escaped:
        if r in alloc_roots:
            if r not in current:
                raise Error(f"--remat-exhaustive: {r} is returned but never written")
            goal |= 1 << current[r]
    # A value that no sink, no returned version and no such value's inputs
    # need (e.g. the version a fill makes, which the op accumulating into the
    # buffer overwrites here) is never computed: a play that computes it
    # does as well without (the step and the bytes held are gone).
    useful = goal
    for inputs in sinks:
        useful |= inputs
    for x in range(len(vsize) - 1, -1, -1):
        if useful >> x & 1:
            useful |= vinputs[x]
    # A value made from nothing (a fill) that only updates read (in place
    # or not) is computed only right before such an update, as part of its
    # move: computed earlier it holds its bytes longer for nothing, and
    # moving it later changes no other step.
    plain = sinks[:] + [vinputs[x] & ~(1 << vprev[x]) if vprev[x] >= 0
                        else vinputs[x] for x in range(len(vsize))]
    read_plain = 0
    for inputs in plain:
        read_plain |= inputs
    fused = 0
    for x in range(len(vsize)):
        if not vinputs[x] and not (read_plain | goal) >> x & 1:
            fused |= 1 << x
    return vsize, vinputs, vprev, sinks, goal, useful & ~fused, fused


def remat_search(game, budget, max_states=0):
    """Whether the game of remat_game can be won with at most `budget` bytes
    held during every step: a breadth-first search over every state reachable
    within the budget, every move of the game from each (its only reductions
    are remat_game's two, each proved there), so "no" is a proof over plays
    of any length. Returns ("yes" | "no" | "unknown", states);
    "unknown" when more than max_states states (0: no limit) were reached.
    A "yes" is checked by replaying the play it found."""
    vsize, vinputs, vprev, sinks, goal, useful, fused = game
    all_sinks = (1 << len(sinks)) - 1

    def held_bytes(h):
        total = 0
        while h:
            low = h & -h
            total += vsize[low.bit_length() - 1]
            h ^= low
        return total

    start = (0, 0)
    parent = {start: None}
    frontier = [start]
    won = None
    while frontier and won is None:
        following = []
        for state in frontier:
            h, done = state
            m = held_bytes(h)
            moves = []
            for x in range(len(vsize)):
                if not useful >> x & 1 or h >> x & 1:
                    continue
                p = vprev[x]
                if p >= 0 and fused >> p & 1 and not h >> p & 1:
                    # The fill first, then the update, in one move.
                    if vinputs[x] & ~(h | 1 << p) or m + vsize[p] > budget:
                        continue
                    if m + vsize[p] + vsize[x] <= budget:
                        moves.append((h | 1 << p | 1 << x, done))
                    moves.append((h | 1 << x, done))
                    continue
                if vinputs[x] & ~h:
                    continue
                if m + vsize[x] <= budget:
                    moves.append((h | 1 << x, done))
                if p >= 0:
                    moves.append((h ^ (1 << p) | 1 << x, done))
            for k, inputs in enumerate(sinks):
                if not done >> k & 1 and not inputs & ~h:
                    moves.append((h, done | 1 << k))
            rest = h
            while rest:
                low = rest & -rest
                moves.append((h ^ low, done))
                rest ^= low
            for nxt in moves:
                if nxt in parent:
                    continue
                parent[nxt] = state
                if nxt[0] & goal == goal and nxt[1] == all_sinks:
                    won = nxt
                    break
                following.append(nxt)
            if won is not None:
                break
            if max_states and len(parent) > max_states:
                return "unknown", len(parent)
        frontier = following
    if won is None:
        return "no", len(parent)
    # Replay the play: each move legal, each step within the budget.
    play = []
    while won is not None:
        play.append(won)
        won = parent[won]
    play.reverse()
    for (h, done), (h2, done2) in zip(play, play[1:]):
        if done2 != done:
            (k,) = [k for k in range(len(sinks)) if (done2 ^ done) >> k & 1]
            assert h2 == h and not sinks[k] & ~h
        elif h2 & ~h:
            x = (h2 & ~h).bit_length() - 1
            p = vprev[x]
            if p >= 0 and fused >> p & 1 and not h >> p & 1:
                # The fill's step, then the update's on top of it.
                assert held_bytes(h) + vsize[p] <= budget
                h = h | 1 << p
            assert not vinputs[x] & ~h
            if h2 == h | 1 << x:
                assert held_bytes(h) + vsize[x] <= budget
            else:
                assert h2 == h ^ (1 << p) | 1 << x
        else:
            assert h2 & ~h == 0 and bin(h ^ h2).count("1") == 1
    return "yes", len(parent)


def node_cut(v, n, preds, anc, desc, counted):
    """The least memory op v can run with in any order: the minimum over the
    executed sets S of v (down-closed, all ancestors of v, no descendant) of
    the buffers live at v, as a minimum s-t cut (s = before v, t = after).

    A buffer b not touched by v, with touchers T, is live at v iff
    (T meets S) and (b is never freed or T is not inside S). Ancestors are in
    every S and descendants in none, so only the free touchers F (neither)
    matter: st = a toucher is an ancestor, pe = never freed or a toucher is
    a descendant.
      st and pe, or v touches b: always live, a constant;
      F empty: live iff st and pe;
      st only: live iff some u in F is after v: node x, s->x (size), x->u (inf);
      pe only: live iff some u in F is before v: node y, u->y (inf), y->t (size);
      neither: live iff F is split: u->y, x->u (inf), y->x (size).
    Down-closure: u->p (inf) for each free u and each free direct predecessor p.
    """
    bit = 1 << v
    free = [u for u in range(n) if u != v and not (anc[v] >> u) & 1 and not (desc[v] >> u) & 1]
    free_mask = sum(1 << u for u in free)
    S, T = 0, 1
    index = {u: i + 2 for i, u in enumerate(free)}
    graph = MaxFlow(len(free) + 2)
    inf = 1 + sum(b for _, b, _, _ in counted)
    for u in free:
        for p in preds[u]:
            if p in index:
                graph.arc(index[u], index[p], inf)
    constant = 0
    for r, b, t, forever in counted:
        if t & bit:
            constant += b
            continue
        st = bool(t & anc[v])
        pe = forever or bool(t & desc[v])
        f = t & free_mask
        if (st and pe) or not f:
            constant += b if st and pe else 0
            continue
        fs = [index[u] for u in range(n) if (f >> u) & 1]
        if st:
            x = graph.node()
            graph.arc(S, x, b)
            for u in fs:
                graph.arc(x, u, inf)
        elif pe:
            y = graph.node()
            graph.arc(y, T, b)
            for u in fs:
                graph.arc(u, y, inf)
        else:
            y, x = graph.node(), graph.node()
            graph.arc(y, x, b)
            for u in fs:
                graph.arc(u, y, inf)
                graph.arc(x, u, inf)
    return constant + graph.max_flow(S, T)


def segment_search(n, anc, desc, counted, target, budget, reverse=False):
    """Whether every order has an op at `target` bytes or more.

    With `reverse`, the orders are searched from their end: ancestors and
    descendants swap, and a buffer that is never freed (live from its first
    access to the end) is live from the start of the reversed order to its
    last access there. Reversing an order keeps the buffers live at each op,
    so the answer is the same; the states needed can differ by orders of
    magnitude (a training step's backward pass read backwards).

    The search runs over the orders of the ops that read or write a counted
    buffer (the others take no memory of their own: what is live while they
    run is live at the next accessing op too), in the model of the bound: a
    buffer is live from its first to its last accessing op. Two reductions
    keep the optimum:
    - an op u that accesses a single counted buffer b, where every earliest
      accessing descendant of u (no other descendant of u before it) also
      accesses b, is dropped: moving u to just before the first of its
      descendants to run only shortens b's interval, and what is live while u
      runs is then live at that descendant too (b included), so some optimal
      order has u there, and that descendant costs the same whether u ran
      just before it or not (repeated until no op qualifies);
    - an op ordered against every other remaining op (a pivot) is passed by
      every order with the same executed set, so the ops between two
      consecutive pivots are searched alone, from the executed set of the
      first.
    Each segment is searched depth first over its down-closed sets whose
    every step stays below the target, each set once. When a ready op runs
    below the target and frees at least the bytes it starts, it is the only
    step tried from that set: an order from the set that stays below the
    target stays below it with that op moved to its front (the ops it
    overtakes see at most the bytes it starts more and the bytes it frees
    less; the ops after it, the same sets). If the end of a
    segment cannot be reached, every order has a step at the target or above
    there. Returns (first op of that segment or None, states visited); gives
    up after `budget` states.
    """
    if reverse:
        anc, desc = desc, anc
    acc = set()
    for r, b, t, forever in counted:
        acc |= {u for u in range(n) if (t >> u) & 1}
    bufs = {u: [k for k, c in enumerate(counted) if (c[2] >> u) & 1] for u in acc}
    changed = True
    while changed:
        changed = False
        acc_mask = sum(1 << u for u in acc)
        for u in sorted(acc):
            if len(bufs[u]) != 1:
                continue
            t = counted[bufs[u][0]][2]
            d = desc[u] & acc_mask
            firsts = [x for x in acc if (d >> x) & 1 and not anc[x] & d]
            if firsts and all((t >> x) & 1 for x in firsts):
                acc.discard(u)
                acc_mask &= ~(1 << u)
                changed = True
    acc = sorted(acc)
    acc_mask = sum(1 << u for u in acc)
    # Buffers in the reduced model: touchers restricted to the kept ops;
    # `forever`: live to the end, `early`: live from the start (reversed).
    model = [(b, t & acc_mask, forever and not reverse, forever and reverse)
             for r, b, t, forever in counted]
    pivots = [u for u in acc if ((anc[u] | desc[u] | (1 << u)) & acc_mask) == acc_mask]
    edges = [None] + pivots + [None]
    states = 0
    for lo, hi in zip(edges, edges[1:]):
        start = (anc[lo] | (1 << lo)) & acc_mask if lo is not None else 0
        seg = [u for u in acc if not (start >> u) & 1
               and (hi is None or ((anc[hi] >> u) & 1))]
        if not seg:
            continue
        goal = start | sum(1 << u for u in seg)
        need = {u: anc[u] & acc_mask for u in seg}
        open0 = sum(b for b, t, forever, early in model
                    if (early or t & start) and (forever or t & ~start))
        seen = {start}
        stack = [(start, open0)]
        reached = False
        while stack and not reached:
            S, o = stack.pop()
            states += 1
            if states > budget:
                return None, states
            steps = []
            for u in seg:
                if (S >> u) & 1 or need[u] & ~S:
                    continue
                S2 = S | (1 << u)
                started = sum(model[k][0] for k in bufs[u]
                              if not model[k][3] and not model[k][1] & S)
                if o + started >= target:
                    continue
                ended = sum(model[k][0] for k in bufs[u]
                            if not model[k][2] and not model[k][1] & ~S2)
                if started <= ended:
                    steps = [(S2, started, ended)]
                    break
                steps.append((S2, started, ended))
            for S2, started, ended in steps:
                if S2 in seen:
                    continue
                if S2 == goal:
                    reached = True
                    break
                seen.add(S2)
                stack.append((S2, o + started - ended))
        if not reached:
            return (lo if lo is not None else seg[0]), states
    return None, states


class MaxFlow:
    """Dinic's algorithm on an adjacency list (arcs stored in pairs)."""

    def __init__(self, nodes):
        self.adj = [[] for _ in range(nodes)]
        self.to, self.cap = [], []

    def node(self):
        self.adj.append([])
        return len(self.adj) - 1

    def arc(self, a, b, c):
        self.adj[a].append(len(self.to))
        self.to.append(b)
        self.cap.append(c)
        self.adj[b].append(len(self.to))
        self.to.append(a)
        self.cap.append(0)

    def max_flow(self, s, t):
        flow = 0
        while True:
            level = [-1] * len(self.adj)
            level[s] = 0
            queue = [s]
            for a in queue:
                for e in self.adj[a]:
                    if self.cap[e] and level[self.to[e]] < 0:
                        level[self.to[e]] = level[a] + 1
                        queue.append(self.to[e])
            if level[t] < 0:
                return flow
            it = [0] * len(self.adj)
            while True:
                pushed = self._augment(s, t, level, it)
                if not pushed:
                    break
                flow += pushed

    def _augment(self, s, t, level, it):
        # Iterative DFS along the level graph; returns the flow pushed.
        path = []
        a = s
        while True:
            if a == t:
                f = min(self.cap[e] for e in path)
                for e in path:
                    self.cap[e] -= f
                    self.cap[e ^ 1] += f
                return f
            adj = self.adj[a]
            while it[a] < len(adj):
                e = adj[it[a]]
                if self.cap[e] and level[self.to[e]] == level[a] + 1:
                    break
                it[a] += 1
            if it[a] == len(adj):
                if not path:
                    return 0
                level[a] = -1
                e = path.pop()
                a = self.to[e ^ 1]
                it[a] += 1
                continue
            e = adj[it[a]]
            path.append(e)
            a = self.to[e]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--certify", action="append", default=[], metavar="FILE",
                    help="a file whose order to certify: --cuts and --exact apply "
                    "to these files only (printed after the others)")
    ap.add_argument("--func", default="forward")
    ap.add_argument("--count-alignment-padding", action="store_true")
    ap.add_argument("--cuts", type=int, default=0, metavar="N",
                    help="also compute the node cut of the N ops with the most "
                    "memory in the file's order (a stronger bound, by max-flow)")
    ap.add_argument("--exact", type=int, default=0, metavar="STATES",
                    help="when the bound is below the peak, search every order "
                    "segment by segment for one below the peak (at most STATES states)")
    ap.add_argument("--remat-exhaustive", type=int, default=None, metavar="BYTES",
                    help="whether any recomputation strategy runs the function "
                    "within BYTES (exhaustive; see remat_game)")
    ap.add_argument("--remat-states", type=int, default=0, metavar="N",
                    help="give up (answer unknown) past N states (0: no limit)")
    a = ap.parse_args()
    status = 0
    for f, search in [(f, False) for f in a.files] + [(f, True) for f in a.certify]:
        try:
            s = analyse(f, a.func, a.count_alignment_padding,
                        a.cuts if search else 0, a.exact if search else 0,
                        a.remat_exhaustive, a.remat_states)
        except Error as e:
            print(f"{f}: error: {e}", file=sys.stderr)
            status = 1
            continue
        print(f"{f}: " + " ".join(f"{k}={v}" for k, v in s.items()))
    return status


if __name__ == "__main__":
    sys.exit(main())
