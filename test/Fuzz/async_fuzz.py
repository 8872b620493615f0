#!/usr/bin/env python3
"""Random asynchronous GPU host programs: memsched's orders against every run
the tokens allow.

Asynchronous GPU work (gpu.alloc async, gpu.memcpy async, gpu.dealloc async,
gpu.wait async) cannot run on this machine, and a run would show one
interleaving of many. This driver checks the scheduled programs against all
of them instead, statically:

  * the program is a set of events: each host op (synchronous ops, the
    issue of an async op, a synchronous gpu.wait) happens in block order;
    an async op starts after its issue and after the work its tokens stand
    for has completed, and completes after it starts; a synchronous
    gpu.wait happens after the work it waits for has completed. An event
    happens before another when a path of these rules leads to it;
  * order: every pair of ops that conflict (both touch one memory object,
    one of them writing, allocating or freeing it) and are ordered in the
    input (the first completes before the second starts) is ordered the
    same way in the output: memsched never creates a race nor reverses an
    ordered pair, whatever the device does;
  * memory: the largest number of bytes allocated at once over every run
    the output allows (an allocation counts from the earliest moment it
    may happen, a free from the latest: the largest closed set of events,
    by a min cut) is at most the certificate's peak, in all spaces
    together and in each space (host buffers in the default space, device
    buffers in #gpu.address_space<global>);
  * the output has the input's ops (same operands, by the op that defines
    each), each once.

A program memsched leaves unchanged (with a remark) is counted, not checked.

  async_fuzz.py --count N --seed S [--build-dir build] [--keep-dir DIR]
                [--min-scheduled F] [--min-reordered F] [--print-program SEED]

Exit status 0 when every program passes (and at least the fractions F of
them were scheduled and reordered), 1 otherwise.
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys

TYPE = "memref<64xf32>"
BYTES = 256
GLOBAL = "#gpu.address_space<global>"


# ---- generation -----------------------------------------------------------

class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.tag = 0
        self.n = 0
        self.host = []      # live host buffers
        self.dev = []       # live device buffers
        self.open = []      # tokens of async work not known complete
        self.pending = collections.defaultdict(list)  # buffer -> tokens
        self.frees = []     # tokens of device frees not known complete
        self.last_async = {}  # buffer -> token of the last async op on it
        self.inputs = ["%arg0", "%arg1"]
        self.outputs = ["%arg2", "%arg3"]

    def name(self, prefix):
        self.n += 1
        return "%%%s%d" % (prefix, self.n)

    def attr(self):
        self.tag += 1
        return "{t = %d : i64}" % self.tag

    def emit(self, line):
        self.lines.append("  " + line)

    def deps(self, buffers=()):
        """Tokens an async op waits for: usually the last async op on each
        buffer it touches, plus some open tokens."""
        ds = []
        for b in buffers:
            if b in self.last_async and self.r.random() < 0.9:
                ds.append(self.last_async[b])
        if self.open and self.r.random() < 0.6:
            ds.append(self.r.choice(self.open[-3:]))
        if self.r.random() < 0.05:
            # Work of the caller's, of unknown effects: a wait for it knows
            # less.
            ds.append("%arg4")
        if not ds:
            t = self.name("w")
            self.emit("%s = gpu.wait async %s" % (t, self.attr()))
            ds.append(t)
        return sorted(set(ds))

    def record_async(self, token, buffers):
        self.open.append(token)
        for b in buffers:
            self.pending[b].append(token)
            self.last_async[b] = token

    def sync_wait(self, tokens):
        tokens = sorted(set(tokens))
        if not tokens:
            return
        # Sometimes also for the caller's work: the wait then waits for work
        # of unknown effects.
        extra = ["%arg4"] if self.r.random() < 0.2 else []
        self.emit("gpu.wait [%s] %s" % (", ".join(tokens + extra),
                                        self.attr()))
        done = set(tokens)
        # What the waited-for work waited for is complete too: drop the
        # tokens waited for; the buffers' pending lists forget them.
        self.open = [t for t in self.open if t not in done]
        for b in list(self.pending):
            self.pending[b] = [t for t in self.pending[b] if t not in done]

    def host_use(self, buffers):
        """A host op is about to touch `buffers`: usually wait first for the
        device work on them."""
        ts = [t for b in buffers for t in self.pending.get(b, [])]
        if ts and self.r.random() < 0.85:
            self.sync_wait(ts)

    def before_allocation(self, is_async):
        """What --gpu-async-region would do before an allocation: chain it
        after the device's frees (async) or wait for them (host)."""
        frees = [t for t in self.frees if t in self.open]
        if not frees or self.r.random() < 0.2:
            return []
        if is_async:
            return frees
        self.sync_wait(frees)
        return []

    def src(self):
        pool = self.inputs + self.host + self.dev
        return self.r.choice(pool)

    def step(self):
        r = self.r.random()
        if r < 0.14 and len(self.host) < 4:
            self.before_allocation(False)
            h = self.name("h")
            self.emit("%s = memref.alloc() %s : %s" % (h, self.attr(), TYPE))
            s = self.r.choice(self.inputs + self.host)
            if self.r.random() < 0.3:
                # Filled by the device: the host allocates it where it is
                # issued, whatever the copy waits for.
                t = self.name("t")
                ds = self.deps([s])
                self.emit("%s = gpu.memcpy async [%s] %s, %s : %s, %s %s" % (
                    t, ", ".join(ds), h, s, TYPE, TYPE, self.attr()))
                self.record_async(t, [h, s])
            else:
                self.host_use([s])
                self.emit("memref.copy %s, %s %s : %s to %s" % (
                    s, h, self.attr(), TYPE, TYPE))
            self.host.append(h)
        elif r < 0.24 and self.host:
            dst = self.r.choice(self.host + self.outputs)
            s = self.r.choice(self.inputs + self.host)
            if s == dst:
                return
            self.host_use([s, dst])
            self.emit("memref.copy %s, %s %s : %s to %s" % (
                s, dst, self.attr(), TYPE, TYPE))
        elif r < 0.32 and self.host:
            h = self.r.choice(self.host)
            self.host_use([h])
            self.emit("memref.dealloc %s %s : %s" % (h, self.attr(), TYPE))
            self.host.remove(h)
        elif r < 0.46 and len(self.dev) < 4:
            d, t = self.name("d"), self.name("t")
            ds = sorted(set(self.deps() + self.before_allocation(True)))
            self.emit("%s, %s = gpu.alloc async [%s] () %s : %s" % (
                d, t, ", ".join(ds), self.attr(), TYPE))
            self.record_async(t, [d])
            s = self.r.choice(self.inputs + self.host)
            ds = self.deps([d, s])
            t2 = self.name("t")
            self.emit("%s = gpu.memcpy async [%s] %s, %s : %s, %s %s" % (
                t2, ", ".join(ds), d, s, TYPE, TYPE, self.attr()))
            self.record_async(t2, [d, s])
            self.dev.append(d)
        elif r < 0.52 and len(self.dev) < 4:
            self.before_allocation(False)
            d = self.name("d")
            self.emit("%s = gpu.alloc () %s : %s" % (d, self.attr(), TYPE))
            s = self.r.choice(self.inputs + self.host)
            self.host_use([s])
            self.emit("gpu.memcpy %s, %s : %s, %s %s" % (
                d, s, TYPE, TYPE, self.attr()))
            self.dev.append(d)
        elif r < 0.66 and self.dev:
            s = self.src()
            dst = self.r.choice(self.dev + self.host + self.outputs)
            if s == dst:
                return
            t = self.name("t")
            ds = self.deps([s, dst])
            self.emit("%s = gpu.memcpy async [%s] %s, %s : %s, %s %s" % (
                t, ", ".join(ds), dst, s, TYPE, TYPE, self.attr()))
            self.record_async(t, [s, dst])
        elif r < 0.70 and self.dev:
            s = self.src()
            dst = self.r.choice(self.dev + self.outputs)
            if s == dst:
                return
            self.host_use([s, dst])
            self.emit("gpu.memcpy %s, %s : %s, %s %s" % (
                dst, s, TYPE, TYPE, self.attr()))
        elif r < 0.80 and self.dev:
            d = self.r.choice(self.dev)
            t = self.name("t")
            ds = self.deps([d])
            if self.r.random() < 0.9:
                ds = sorted(set(ds + self.pending.get(d, [])))
            self.emit("%s = gpu.dealloc async [%s] %s %s : %s" % (
                t, ", ".join(ds), d, self.attr(), TYPE))
            self.record_async(t, [d])
            self.frees.append(t)
            self.dev.remove(d)
        elif r < 0.84 and self.dev:
            d = self.r.choice(self.dev)
            self.host_use([d])
            self.emit("gpu.dealloc %s %s : %s" % (d, self.attr(), TYPE))
            self.dev.remove(d)
        elif r < 0.94 and self.open:
            k = self.r.randint(1, min(3, len(self.open)))
            self.sync_wait(self.r.sample(self.open, k))
        elif self.open:
            k = self.r.randint(1, min(3, len(self.open)))
            ts = sorted(set(self.r.sample(self.open, k)))
            j = self.name("j")
            self.emit("%s = gpu.wait async [%s] %s" % (
                j, ", ".join(ts), self.attr()))
            self.open.append(j)

    def render(self):
        for _ in range(self.r.randint(6, 26)):
            self.step()
        if self.open and self.r.random() < 0.9:
            self.sync_wait(self.open)
        for h in list(self.host):
            if self.r.random() < 0.85:
                self.host_use([h])
                self.emit("memref.dealloc %s %s : %s" % (
                    h, self.attr(), TYPE))
        for d in list(self.dev):
            if self.r.random() < 0.5:
                self.host_use([d])
                self.emit("gpu.dealloc %s %s : %s" % (d, self.attr(), TYPE))
        args = ", ".join("%%arg%d: %s {llvm.noalias}" % (i, TYPE)
                         for i in range(4)) + ", %arg4: !gpu.async.token"
        return ("func.func @f(%s) {\n%s\n  return\n}\n" %
                (args, "\n".join(self.lines)))


# ---- reading programs (generic form) --------------------------------------

LINE = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))?\s*=\s*)?"([\w.]+)"\((.*?)\)'
                  r'(?:\s*<\{.*?\}>)?(?:\s*\{(.*?)\})?\s*:\s*\((.*?)\)\s*->\s*'
                  r'(.*)$')


class Op:
    def __init__(self, name, operands, results, result_types, tag, attrs):
        self.name, self.operands, self.results = name, operands, results
        self.result_types, self.tag, self.attrs = result_types, tag, attrs

    @property
    def is_async(self):
        if self.name == "caller.work":
            return True
        return self.name.startswith("gpu.") and any(
            t == "!gpu.async.token" for t in self.result_types)


def parse(text):
    """The ops of @f in block order (generic form) and the certificate."""
    ops, cert = [], None
    for line in text.splitlines():
        # Generic form: the function's attributes follow its region.
        if "memsched.certificate<" in line:
            cert = line
        m = LINE.match(line)
        if not m or m.group(3) in ("func.func", "builtin.module"):
            continue
        res, count, name, operands, attrs, _, rtypes = m.groups()
        operands = [o.strip() for o in operands.split(",") if o.strip()]
        rtypes = rtypes.strip()
        if rtypes.startswith("("):
            rtypes = rtypes[1:-1]
        types = [t.strip() for t in rtypes.split(",") if t.strip()]
        if res is None:
            results = []
        elif count:
            results = ["%s#%d" % (res, i) for i in range(int(count))]
        else:
            results = [res]
        tag = None
        if attrs:
            t = re.search(r"\bt = (\d+) : i64", attrs)
            tag = int(t.group(1)) if t else None
        ops.append(Op(name, operands, results, types, tag, attrs or ""))
    return ops, cert


def cert_figures(cert):
    """peak, and per space (None for the default space) its peak."""
    if cert is None:
        return None
    peak = int(re.search(r"certificate<peak = (\d+)", cert).group(1))
    spaces = {}
    for m in re.finditer(r"#memsched\.space<(memory_space = (.*?), )?"
                         r"peak = (\d+)", cert):
        spaces[m.group(2)] = int(m.group(3))
    return peak, spaces


# ---- semantics --------------------------------------------------------------

class Program:
    """Events and memory of a parsed program."""

    def __init__(self, ops):
        # %arg4 stands for work the caller started, before the function,
        # which may read and write every argument.
        self.ops = [Op("caller.work", [], ["%arg4"], ["!gpu.async.token"],
                       None, "")]
        self.ops += [o for o in ops if o.name != "func.return"]
        self.def_of = {}          # value -> (op index, result index)
        for i, o in enumerate(self.ops):
            for k, r in enumerate(o.results):
                self.def_of[r] = (i, k)
        # Events: host events get one id (start == done); async ops get a
        # start and a done event. Edges: u -> v (u happens before v).
        self.start, self.done = {}, {}
        n = 0
        self.edges = collections.defaultdict(set)
        prev_host = None
        for i, o in enumerate(self.ops):
            if o.is_async:
                issue, s, d = n, n + 1, n + 2
                n += 3
                self.edges[issue].add(s)
                self.edges[s].add(d)
                if prev_host is not None:
                    self.edges[prev_host].add(issue)
                prev_host = issue
                self.start[i], self.done[i] = s, d
                for v in self.tokens(o):
                    self.edges[self.done[self.def_of[v][0]]].add(s)
            else:
                e = n
                n += 1
                if prev_host is not None:
                    self.edges[prev_host].add(e)
                prev_host = e
                self.start[i] = self.done[i] = e
                if o.name == "gpu.wait":
                    for v in self.tokens(o):
                        self.edges[self.done[self.def_of[v][0]]].add(e)
        self.num_events = n
        self.reach = self.closure()

    def tokens(self, o):
        return [v for v in o.operands if v in self.def_of and
                self.ops[self.def_of[v][0]].result_types[
                    self.def_of[v][1]] == "!gpu.async.token"]

    def memrefs(self, o):
        return [v for v in o.operands if v not in self.tokens(o)]

    def closure(self):
        order = range(self.num_events - 1, -1, -1)
        reach = [0] * self.num_events
        for u in order:  # events are numbered in a topological order
            bits = 1 << u
            for v in self.edges[u]:
                bits |= reach[v]
            reach[u] = bits
        return reach

    def before(self, i, j):
        """Op i completes before op j starts, in every run."""
        return bool(self.reach[self.done[i]] >> self.start[j] & 1)

    def obj(self, v):
        """The memory object a memref value is: an argument or the tag of
        the op that allocated it."""
        if v.startswith("%arg") and v != "%arg4":
            return v
        i, _ = self.def_of[v]
        return ("buf", self.ops[i].tag)

    def accesses(self, i):
        """(object, kind) pairs of op i; kind in read/write/alloc/free."""
        o = self.ops[i]
        ms = self.memrefs(o)
        if o.name in ("memref.alloc", "gpu.alloc"):
            return [(("buf", o.tag), "alloc")]
        if o.name in ("memref.dealloc", "gpu.dealloc"):
            return [(self.obj(ms[0]), "free")]
        if o.name == "memref.copy":
            return [(self.obj(ms[0]), "read"), (self.obj(ms[1]), "write")]
        if o.name == "gpu.memcpy":
            return [(self.obj(ms[0]), "write"), (self.obj(ms[1]), "read")]
        if o.name == "caller.work":
            return [("%%arg%d" % k, "write") for k in range(4)]
        return []

    def peak(self, pool=None):
        """Largest bytes allocated at once over every run: a maximum-weight
        set of events closed under happens-before (allocations weigh +,
        frees -), by a min cut."""
        weight = [0] * self.num_events
        for i, o in enumerate(self.ops):
            if o.name in ("memref.alloc", "gpu.alloc"):
                p = None if o.name == "memref.alloc" else GLOBAL
                if pool in ("all", p):
                    weight[self.start[i]] += BYTES
            elif o.name in ("memref.dealloc", "gpu.dealloc"):
                src = self.memrefs(o)[0]
                a = self.ops[self.def_of[src][0]]
                p = None if a.name == "memref.alloc" else GLOBAL
                if pool in ("all", p):
                    weight[self.done[i]] -= BYTES
        return max_closure(self.num_events, self.edges, weight)


def max_closure(n, edges, weight):
    """Maximum weight of a set closed under predecessors (u -> v and v in the
    set: u in the set), by Dinic's max flow."""
    s, t = n, n + 1
    graph = [dict() for _ in range(n + 2)]
    inf = float("inf")

    def add(u, v, c):
        graph[u][v] = graph[u].get(v, 0) + c
        graph[v].setdefault(u, 0)

    total = 0
    for v in range(n):
        if weight[v] > 0:
            add(s, v, weight[v])
            total += weight[v]
        elif weight[v] < 0:
            add(v, t, -weight[v])
    for u in range(n):
        for v in edges[u]:
            add(v, u, inf)   # v chosen forces u
    flow = 0
    while True:
        level = {s: 0}
        queue = [s]
        for u in queue:
            for v, c in graph[u].items():
                if c > 0 and v not in level:
                    level[v] = level[u] + 1
                    queue.append(v)
        if t not in level:
            break
        it = {u: list(graph[u]) for u in level}

        def push(u, f):
            if u == t:
                return f
            while it[u]:
                v = it[u][-1]
                c = graph[u][v]
                if c > 0 and level.get(v) == level[u] + 1:
                    got = push(v, min(f, c))
                    if got:
                        graph[u][v] -= got
                        graph[v][u] += got
                        return got
                it[u].pop()
            return 0

        while True:
            f = push(s, inf)
            if not f:
                break
            flow += f
    return total - flow


# ---- checks -----------------------------------------------------------------

def signature(prog):
    """Per tag: op name and operands named by their definitions."""
    sig = {}
    for o in prog.ops[1:]:
        names = []
        for v in o.operands:
            if v.startswith("%arg") and v != "%arg4":
                names.append(v)
            else:
                i, k = prog.def_of[v]
                names.append((prog.ops[i].tag, k))
        sig[o.tag] = (o.name, tuple(names))
    return sig


def check(src_ops, out_ops, cert):
    """Problems found (empty when the output passes)."""
    problems = []
    a, b = Program(src_ops), Program(out_ops)
    if sorted(signature(a).items(), key=str) != \
            sorted(signature(b).items(), key=str):
        return ["the output's ops differ from the input's"]
    index_b = {o.tag: i for i, o in enumerate(b.ops)}
    for i in range(len(a.ops)):
        for j in range(len(a.ops)):
            if i == j or not a.before(i, j):
                continue
            acc_i, acc_j = a.accesses(i), a.accesses(j)
            conflict = any(x == y and (kx != "read" or ky != "read")
                           for x, kx in acc_i for y, ky in acc_j)
            if not conflict:
                continue
            bi, bj = index_b[a.ops[i].tag], index_b[a.ops[j].tag]
            if not b.before(bi, bj):
                problems.append(
                    "ops t=%d (%s) and t=%d (%s) conflict and were ordered; "
                    "the output lets them overlap or swap" % (
                        a.ops[i].tag, a.ops[i].name, a.ops[j].tag,
                        a.ops[j].name))
    peak, spaces = cert_figures(cert)
    worst = b.peak("all")
    if worst > peak:
        problems.append("a run of the output holds %d bytes at once, the "
                        "certificate's peak is %d" % (worst, peak))
    for pool, label in ((None, "default"), (GLOBAL, GLOBAL)):
        w = b.peak(pool)
        claimed = spaces.get(pool, peak if not spaces else None)
        if claimed is None:
            if w > 0:
                problems.append("no certificate entry for space %s, which "
                                "holds %d bytes in a run" % (label, w))
            continue
        if w > claimed:
            problems.append("a run of the output holds %d bytes in space %s, "
                            "the certificate says %d" % (w, label, claimed))
    return problems


def run(cmd, text):
    return subprocess.run(cmd, input=text, capture_output=True, text=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--build-dir", default="build")
    p.add_argument("--keep-dir")
    p.add_argument("--print-program", type=int, metavar="SEED")
    p.add_argument("--min-scheduled", type=float, default=0.0,
                   help="fail when fewer programs are scheduled (not left "
                        "unchanged)")
    p.add_argument("--min-reordered", type=float, default=0.0,
                   help="fail when fewer programs are reordered")
    a = p.parse_args()
    if a.print_program is not None:
        sys.stdout.write(Gen(a.print_program).render())
        return 0
    opt = os.path.join(a.build_dir, "bin", "memsched-opt")
    if not os.path.exists(opt):
        print("async_fuzz: %s not built" % opt)
        return 77
    stats = collections.Counter()
    failed = []
    for seed in range(a.seed, a.seed + a.count):
        program = Gen(seed).render()
        src = run([opt, "--mlir-print-op-generic"], program)
        out = run([opt, "--memsched-schedule", "--memsched-verify",
                   "--mlir-print-op-generic"], program)
        problems = []
        if src.returncode != 0:
            problems = ["the generated program does not parse: " +
                        src.stderr.strip()[:300]]
        elif out.returncode != 0:
            problems = ["memsched-opt failed: " + out.stderr.strip()[:300]]
        else:
            src_ops, _ = parse(src.stdout)
            out_ops, cert = parse(out.stdout)
            if cert is None:
                reason = re.search(r"left unchanged: (.*?)(;|$)",
                                   out.stderr, re.M)
                stats["left unchanged: " +
                      (reason.group(1)[:70] if reason else "?")] += 1
                continue
            stats["scheduled"] += 1
            if any(x.tag != y.tag for x, y in zip(src_ops, out_ops)):
                stats["reordered"] += 1
            problems = check(src_ops, out_ops, cert)
        if problems:
            failed.append(seed)
            print("async_fuzz: seed %d FAILED:" % seed)
            for pr in problems[:5]:
                print("  " + pr)
            if a.keep_dir:
                os.makedirs(a.keep_dir, exist_ok=True)
                with open(os.path.join(a.keep_dir, "async-%d.mlir" % seed),
                          "w") as f:
                    f.write(program)
    print("async_fuzz: seeds %d-%d: %d passed, %d failed" % (
        a.seed, a.seed + a.count - 1, a.count - len(failed), len(failed)))
    for k, v in sorted(stats.items(), key=lambda kv: -kv[1]):
        print("  %5d %s" % (v, k))
    short = False
    for key, fraction in (("scheduled", a.min_scheduled),
                          ("reordered", a.min_reordered)):
        if stats[key] < fraction * a.count:
            print("async_fuzz: only %d of %d programs %s (at least %.0f%% "
                  "asked)" % (stats[key], a.count, key, 100 * fraction))
            short = True
    return 1 if failed or short else 0


if __name__ == "__main__":
    sys.exit(main())
