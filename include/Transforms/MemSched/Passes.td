//===- Passes.td - memsched passes -------------------------*- tablegen -*-===//
//
// The documented index of memsched's passes.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_PASSES_TD
#define MEMSCHED_PASSES_TD

include "mlir/Pass/PassBase.td"

// The size model option every pass that analyses a body shares.
defvar SizeOption = [
  Option<"countAlignmentPadding", "count-alignment-padding", "bool",
         /*default=*/"false",
         "Count the bytes the generic allocation lowering adds for an "
         "explicit alignment (size + alignment), so computed peaks match a "
         "counting allocator behind finalize-memref-to-llvm{use-generic-functions=true}">,
];
defvar SizeModelOptions = SizeOption # [
  Option<"strict", "strict", "bool", /*default=*/"false",
         "Turn the remark for an unsupported function into an error">,
];

// Ranges of dynamic sizes given on the command line (docs/dynamic.md).
defvar RangesOption = [
  ListOption<"ranges", "ranges", "std::string",
             "Ranges of dynamic sizes, for functions whose arguments do not "
             "carry `memsched.range`: entries `[@FUNC:]argN=LO:HI[:TYPICAL]` "
             "or `[@FUNC:]argN.dD=LO:HI[:TYPICAL]` (dimension D of argument "
             "N; HI empty for no upper bound; TYPICAL the value orders and "
             "arenas are chosen for, as `memsched.typical`), for every "
             "function or @FUNC alone; an attribute on the argument narrows "
             "it further">,
];

def Schedule : Pass<"memsched-schedule", "::mlir::ModuleOp"> {
  let summary = "Reorder a lowered function's ops for minimum peak memory";
  let description = [{
    Reorders the ops of the body of each function (a single block of
    memref code after bufferization and deallocation placement) so that the
    peak of live allocated bytes is as low as possible. No op is changed:
    same ops, same operands, same buffer reuse. Each allocation is sunk to
    just before the first op that touches the buffer (or any alias of it) and
    each deallocation hoisted to just after the last one. Every dependency is
    kept: SSA def-use, reads and writes of the same buffer (unless they
    provably touch disjoint parts of it, like the copies that fill the slices
    of a concatenation), and the order of ops with unknown effects (accesses
    through `!llvm.ptr` or integers, calls whose effects are not known, global
    effects). Arguments that are not `llvm.noalias` may alias each other and
    any global; a buffer whose address leaves the memref values
    (`extract_aligned_pointer_as_index`, stores, unknown ops) is live until
    its deallocation. Side-effect free users of a buffer stay before its
    deallocation. The planned op sequence is checked (definitions before uses,
    the order's dependencies, nothing after a free) before anything moves.

    The pass runs on a module and visits its `func.func`s one at a time,
    callees before callers: the analysis of a caller reads its callees'
    bodies (their effects on arguments, their peaks as the call's transient
    memory), so it sees their final order, and the output is the same with or
    without threads.

    Each function it handles gets a `memsched.certificate` attribute
    (`#memsched.certificate<peak = P, lower_bound = L, ...>`): P is the peak
    of the new body, L a lower bound on the peak of every valid order, with
    the op and buffers of the cut that proves it. A function whose certificate
    already proves it optimal (and still matches its peak) is skipped.

    The search decomposes the dependency graph at ops every order must pass
    through, solves each part exactly (best-first search over executed sets)
    when it fits the state budget, and otherwise uses memory-aware list
    scheduling with local improvement. The input order is always a candidate:
    the result's peak is never above the input's, and a function whose peak
    would not improve is left unchanged. The pass is deterministic.

    A body with several blocks is scheduled block by block (ops never cross
    blocks; buffers allocated when a block starts count from its start);
    its certificate holds the largest peak and bound of its blocks. A call
    to such a body counts its largest block peak while it runs.

    A body that allocates in several memory spaces (e.g. `memref<..., 1>`,
    `#gpu.address_space<workgroup>`, next to default-space buffers) has a
    peak per space. The order minimises the peak of one space, `memory-space`
    (default: the space with the largest peak as written), and then the
    total, and never raises the peak of any space: an order that would is
    not taken. The certificate gets a `spaces` entry per memory space with
    its peak and bound.

    A function the analysis does not support (buffers allocated at a block's
    entry that depend on the path taken, dynamic sizes without a bound,
    `bufferization.dealloc`, ...) is left unchanged with a remark naming the
    op and the reason (an error with `strict`).

    Before:
    ```mlir
    %a = memref.alloc() : memref<1024xf32>
    %b = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
    linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
    "use"(%a) : (memref<1024xf32>) -> ()
    "use"(%b) : (memref<1024xf32>) -> ()
    memref.dealloc %a : memref<1024xf32>
    memref.dealloc %b : memref<1024xf32>
    ```
    After (peak 4 KiB instead of 8 KiB, when the uses are independent):
    ```mlir
    %a = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
    "use"(%a) : (memref<1024xf32>) -> ()
    memref.dealloc %a : memref<1024xf32>
    %b = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
    "use"(%b) : (memref<1024xf32>) -> ()
    memref.dealloc %b : memref<1024xf32>
    ```
  }];
  let options = SizeModelOptions # RangesOption # [
    Option<"stateBudget", "state-budget", "uint64_t", /*default=*/"1000000",
           "Search states the exact search may expand per graph segment "
           "(in proportion fewer above 256 ops) before the heuristic "
           "result is kept for that segment; the band search after a "
           "failed search gets as many">,
    Option<"heuristicOnly", "heuristic-only", "bool", /*default=*/"false",
           "Skip the exact search: list scheduling and local improvement only">,
    Option<"localSearchRounds", "local-search-rounds", "unsigned",
           /*default=*/"2", "Rounds of local improvement after list scheduling">,
    Option<"moveAllocations", "move-allocations", "bool", /*default=*/"true",
           "Sink each allocation to its first user and hoist each "
           "deallocation after its last user; when false, every allocation "
           "stays right before the op that follows it and every deallocation "
           "right after the op that precedes it, and only the other ops move">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function with the peak before and after">,
    Option<"attachCertificate", "certify", "bool", /*default=*/"true",
           "Attach a #memsched.certificate with the peak and a lower bound">,
    Option<"skipCertified", "skip-certified", "bool", /*default=*/"true",
           "Leave functions alone whose certificate proves them optimal and "
           "still matches their peak">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"",
           "Write <dir>/<function>.json (peaks, bound, op at the peak, live "
           "buffers, cut) and <dir>/<function>.svg (memory timeline before "
           "and after) for every function scheduled">,
    Option<"graphDir", "graph-dir", "std::string", /*default=*/"",
           "Write <dir>/<function>.graph.json, the scheduling graph of the "
           "body as written (nodes, buffers, dependencies; "
           "docs/graph-format.md), for every function analysed; "
           "memsched-graph-bench --graph reads it">,
    Option<"memorySpace", "memory-space", "std::string", /*default=*/"",
           "For bodies that allocate in several memory spaces: the space "
           "whose peak the order minimises (`default`, a number such as `3`, "
           "or an attribute such as `#gpu.address_space<workgroup>`); "
           "unset, or a space the body does not allocate in: the space with "
           "the largest peak as written. No space's peak goes up">,
    Option<"phaseTimes", "phase-times", "bool", /*default=*/"false",
           "Emit a remark per function with the wall time of each phase "
           "(analysis, peers' orders, lower bound, search, new order, "
           "rewrite, certificate, ...; each exclusive of the phases nested "
           "in it); bench/scale.py reads it">,
  ];
  let dependentDialects = ["::mlir::memsched::MemSchedDialect"];
  let statistics = [
    Statistic<"numFunctions", "functions", "Functions scheduled">,
    Statistic<"numSkipped", "skipped-certified", "Functions skipped as certified optimal">,
    Statistic<"numOptimal", "certified-optimal", "Functions whose certificate proves the order optimal">,
    Statistic<"numUnsupported", "unsupported", "Functions left unchanged as unsupported">,
    Statistic<"numImproved", "improved", "Functions whose peak went down">,
    Statistic<"bytesBefore", "peak-before", "Sum over functions of the peak before, in bytes">,
    Statistic<"bytesAfter", "peak-after", "Sum over functions of the peak after, in bytes">,
    Statistic<"numMoved", "ops-moved", "Ops whose position among the scheduled ops changed">,
    Statistic<"numExactSegments", "segments-exact", "Graph segments solved exactly">,
    Statistic<"numHeuristicSegments", "segments-heuristic", "Graph segments solved heuristically">,
  ];
}

def Certify : Pass<"memsched-certify", "::mlir::ModuleOp"> {
  let summary = "Attach a peak-memory certificate without reordering";
  let description = [{
    Computes the peak of each function body as it stands and a lower bound
    on the peak of every valid order of its ops (per-op min-cut bounds over
    the dependency graph, see docs/lower-bounds.md), and attaches them as
    `memsched.certificate = #memsched.certificate<peak = P, lower_bound = L,
    bound_kind = ..., bound_op = "name#i", cut = [...]>`. `bound_op` is the op
    whose cut proves L (its position among the body's scheduled ops) and
    `cut` the allocations (positions in block order) live whenever it runs.
    `lower_bound == peak` proves the order optimal; otherwise `peak -
    lower_bound` bounds what any reordering could still gain.

    Example:
    ```mlir
    func.func @f(...) attributes {memsched.certificate =
        #memsched.certificate<peak = 1605632, lower_bound = 1605632,
                              bound_kind = "trivial",
                              bound_op = "linalg.conv_2d_nchw_fchw#3",
                              cut = [1, 2]>}
    ```
  }];
  let options = SizeModelOptions # RangesOption # [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function with the peak, the bound and the gap">,
    Option<"searchBudget", "search-budget", "uint64_t", /*default=*/"0",
           "When the cuts prove less than the peak, run the scheduler's "
           "exact search with this many states per segment to prove more "
           "(bound_kind \"exhaustive\"); 0: cuts only">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"",
           "Write <dir>/<function>.json and <dir>/<function>.svg (memory "
           "timeline, bound and cut) for every function certified">,
  ];
  let dependentDialects = ["::mlir::memsched::MemSchedDialect"];
  let statistics = [
    Statistic<"numCertified", "certified", "Functions certified">,
    Statistic<"numOptimal", "optimal", "Functions proved optimal">,
    Statistic<"numUnsupported", "unsupported", "Functions left without certificate">,
  ];
}

def Verify : Pass<"memsched-verify", "::mlir::ModuleOp"> {
  let summary = "Check memsched certificates against the IR as it stands";
  let description = [{
    For each function carrying a `memsched.certificate`, recomputes, with the
    certificate's size model, the peak of the body as it stands and the lower
    bound for its ops. It errors when:
    - the recorded peak differs from the recomputed one (the certificate is
      stale: the IR changed after certification);
    - the recomputed lower bound is below the recorded one (the recorded
      bound cannot be reproduced for these ops);
    - the function can no longer be analysed.
    For a certificate with `peak_with_arena` (after `--memsched-plan-arena`) it checks
    the placement instead of the peak: one value marked `memsched.arena` of
    `arena_size` bytes, used only by `memref.view`s at constant offsets
    within it, no view leaving its block or captured, no two views sharing
    bytes used at a common time, and `peak_with_arena` equal to the memory the planned
    body needs.
    Functions without a certificate are ignored unless `require` is set.

    The bound is proved again from what the certificate records. For a cut
    bound (`trivial`, `forward`) the evidence first: the exact forward cut
    of `bound_op` (one max-flow: the least memory that op runs with in any
    order) and the bytes allocated throughout, which settles it in about
    linear time; otherwise the bound procedure of memsched-schedule runs
    on the body as it stands, stopping at the recorded bound. A bound of
    kind `exhaustive` (proved by the scheduler's exact search) records the
    states per stretch its search had (`search_budget`); the search runs
    again with as many (`search-budget` for a certificate that records
    none).

    Each `spaces` entry is checked the same way on the body counted in that
    memory space alone, and the entries must name exactly the spaces the
    body allocates in.

    `block`, `bound_op` and `cut` must name a block, a scheduled op and
    allocations the body as it stands can have (an error otherwise; a
    `bound_op` whose op moved, after a later transform added or removed
    ops, is proved again without its evidence). What it does
    not check: that `cut` lists exactly the buffers of the proving cut (it
    explains the bound; the evidence is re-derived), and a change of the body that keeps
    its peak and its bound (e.g. ops moved or replaced without changing the
    memory profile) passes: the certificate is a statement about memory, not
    a fingerprint of the body. Callees are read as they stand, so a change
    to a callee that changes a caller's peak is reported on the caller.
  }];
  let options = [
    Option<"require", "require", "bool", /*default=*/"false",
           "Error on functions with a body but no certificate">,
    Option<"searchBudget", "search-budget", "uint64_t", /*default=*/"1000000",
           "States the exact search may expand per stretch to prove an "
           "exhaustive bound again, for a certificate that records no "
           "search_budget (as memsched-schedule's state-budget)">,
  ];
  let statistics = [
    Statistic<"numVerified", "verified", "Certificates found consistent">,
  ];
}

def CheckBudget : Pass<"memsched-check-budget", "::mlir::ModuleOp"> {
  let summary = "Fail when a function's peak memory exceeds a byte budget";
  let description = [{
    Errors when the peak of a function body as it stands exceeds `bytes`, and
    says what can be done: when the scheduler finds an order of the same ops
    that fits, its peak (run `--memsched-schedule`); when the lower bound is
    above the budget, that no order can fit, naming the op that sets the bound
    and the bytes live there in every order (rematerialisation or tiling is
    needed); otherwise that no fitting order was found although the bound does
    not rule one out. A function that cannot be analysed is an error too (the
    budget cannot be checked).

    `bytes` bounds every memory space together. `space-bytes` gives a budget
    per memory space (`space-bytes=default:65536,3:4096`; a space is
    `default`, a number or an attribute such as
    `#gpu.address_space<workgroup>`): the peak of that space alone must fit,
    and when it does not, the same diagnosis is made for that space. At
    least one of the two is required.
  }];
  let options = SizeOption # RangesOption # [
    Option<"bytes", "bytes", "uint64_t", /*default=*/"0",
           "The budget in bytes for all memory spaces together">,
    ListOption<"spaceBytes", "space-bytes", "std::string",
               "Budgets per memory space, each `SPACE:BYTES`">,
  ];
}

def Rematerialize : Pass<"memsched-rematerialize", "::mlir::ModuleOp"> {
  let summary = "Recompute long-lived buffers when no order fits a byte budget";
  let description = [{
    Schedules each function as `--memsched-schedule` does; when its peak
    stays above `bytes`, frees long-lived buffers early and computes them
    again before their late readers: the ops that wrote the buffer are
    cloned (with a new allocation, and the views the readers need) right
    before the first late reader, the late readers read the copy, and the
    body is scheduled again.

    What is recomputed is chosen greedily on the scheduling graph: at each
    step, every recomputable buffer live at the peak of the current order
    is tried (the readers after the peak read the copy), priced by the
    peak of the current order with its clones inserted, and the one that
    lowers the peak most per unit of extra compute is kept (its graph is
    then scheduled); the loop stops when the peak is within the budget,
    when nothing lowers it, or when `max-extra-compute` would be exceeded.
    The choices do not depend on the budget, only where the loop stops: a
    smaller budget never ends at a higher peak.

    A buffer can be recomputed when it is a plain allocation freed in the
    body, used only through side-effect free views by ops whose effects on
    it are known, written by ops (its producers) that come before every op
    that reads it, that write nothing else, allocate and free nothing and
    call nothing. A clone must read what its producer read: on the
    rewritten body, every op that may write a producer's input is ordered
    by the dependence analysis against the clone, and a recomputation where
    such an op lies between the producer and the clone is dropped. The
    result is never worse than scheduling alone (otherwise the body is
    restored).

    The certificate describes the body with the clones and records
    `remat_ops` (ops cloned) and `extra_compute_ppm` (their estimated work,
    in parts per million of the function's: a linalg op's iteration domain
    times the arithmetic ops of its body, a copy's bytes). With `remarks`, a
    remark per function says the peak before and after, the budget met or
    not and the extra compute; when it is not met, a lower bound: what no
    recomputation of the body's ops goes below (the most one op needs, or
    what is live to the end) and, searched over the buffers it could
    recompute within `max-extra-compute` (chains of any depth, what each
    recomputes from kept live until then), what none of those goes below;
    either above the budget proves it out of reach, and the remark says so.
    With `strict`, a budget that is not met is an error. In a body with several blocks each block above the budget is
    handled on its own (a recomputation stays in its block) and may spend
    `max-extra-compute` of its own compute. See docs/remat.md.
  }];
  let options = SizeModelOptions # [
    Option<"bytes", "bytes", "uint64_t", /*default=*/"0",
           "The budget in bytes (required)">,
    Option<"maxExtraCompute", "max-extra-compute", "double",
           /*default=*/"0.1",
           "Extra compute allowed, as a fraction of the function's "
           "estimated compute (of each block's in a body with several "
           "blocks; negative: no limit)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function: peaks, budget, extra compute">,
    Option<"stateBudget", "state-budget", "uint64_t", /*default=*/"1000000",
           "Search states of the exact search per graph segment when the "
           "function is scheduled (before and after recomputing)">,
  ];
  let dependentDialects = ["::mlir::memsched::MemSchedDialect"];
}

def Split : Pass<"memsched-split", "::mlir::ModuleOp"> {
  let summary = "Run the layers that set the peak in fragments (in place, pads, row bands, channel groups)";
  let description = [{
    Rewrites a bufferized body so that less memory is live at once, without
    changing any op's arithmetic and, unless `max-extra-compute` allows
    some, without extra compute. Run it before `--memsched-schedule`, which
    then orders and certifies the split body. docs/split.md describes each
    rewrite and why it is bit-identical.

    In place: an elementwise op (all loops parallel, identity maps on the
    output and the input) whose output is a fresh buffer and one of whose
    inputs is a buffer of the same type that dies at the op writes that
    input instead (each point reads and writes its own element); the
    output buffer disappears and the input is freed where the output was.

    Pad absorption: a materialised pad, `P = memref.alloc; fill P;
    memref.copy X -> subview(P)`, where the buffer X is used by structured
    ops (its producer, elementwise ops in place) and freed right after the
    copy, becomes the ops on X writing straight into the interior
    `subview(P)`: P is allocated and filled before X's first use, X and
    the copy disappear.

    Row bands: a segment of structured ops that computes one buffer from
    buffers it reads through intermediates (a stem: pad, convolution,
    activation, ...), where one loop of every op runs over the rows of what
    it writes and reads an interval of rows of each operand (a window
    `r * stride + k * dilation`, or the row itself), runs one band of the
    output's rows after the other, each band computing the rows of the
    intermediates it needs into buffers of those rows (static shapes, the
    boundary bands their own). Rows two bands both need (a window's halo)
    are computed twice: extra compute, which `max-extra-compute` bounds
    (default 0: only bands that share no rows). The search takes segments
    that cover the op where the peak is reached (with the chains run by
    channel groups), as many bands as the compute allows, keeps the segment
    that lowers the peak most with the fewest bands that reach it, and
    starts again from the new peak; the bands stay only when, with the
    channel groups, the peak ends lower than with the groups alone. The
    extra compute is recorded on the function (`memsched.extra_compute_ppm`,
    parts per million of its compute) and in the certificate the next
    `--memsched-schedule` writes.

    Channel groups: a chain of structured ops over intermediate buffers in
    which one loop of every op runs over the same dimension of all its
    intermediates (an inverted residual block: 1x1 expansion, batch norm,
    activation, pad, depthwise convolution, 1x1 projection) runs in an
    `scf.for` over groups of channels, with intermediates of one group
    allocated in the loop. An op reducing over the channels accumulates
    into its output group after group (accepted when the channel loop is
    its outermost reduction: the same additions in the same order under a
    lowering that runs its loops in order). Groups are the largest that
    keep the lowest peak the chains reach together.

    A rewrite is kept only when the body's peak as written does not go up,
    and a function's rewrites only when the peak `--memsched-schedule`
    reaches on it does not go up either (both bodies are scheduled to
    compare; the body is left in its order as written). In a body that
    allocates in several memory spaces, no space's peak may go up either
    (as written: in any block; scheduled: in the body). Give the pass the
    `count-alignment-padding` and `memory-space` that
    `--memsched-schedule` will get.

    A function whose body changed loses its certificate (the next
    `--memsched-schedule` writes one for the split body). Candidates that
    have the shape of a pad or a chain but cannot be split are left as
    they are; with `remarks`, a remark names the op and the reason.
  }];
  let options = SizeOption # [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "A remark per function split (ops in place, pads absorbed, "
           "segments run by bands, chains run by groups, peak as written "
           "before and after), per segment run by bands (its ops, bands, "
           "peak, extra compute), per chain run by groups, and per pad or "
           "chain left as it is, with the reason">,
    Option<"memorySpace", "memory-space", "std::string", /*default=*/"",
           "The `memory-space` option --memsched-schedule will run with: the "
           "scheduled peaks compared to keep a function's rewrites are "
           "those it reaches with it">,
    Option<"maxExtraCompute", "max-extra-compute", "double", /*default=*/"0",
           "The compute row bands may add (rows two bands both compute), "
           "as a fraction of the function's compute: 0.02 allows 2%; 0 "
           "allows bands without overlap only">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"",
           "Write <dir>/<function>.split.json for every function: what was "
           "split (ops in place, pads, each segment run by bands and each "
           "chain run by groups), the peaks as written before and after, "
           "the extra compute, or why the function was left as it is">,
    Option<"testAllBands", "test-all-bands", "bool", /*default=*/"false",
           "For testing the rewrite: run every row-band segment found by "
           "three bands, whatever it does to the peak or the compute (the "
           "never-worse checks are off; the outputs must not change)">,
  ];
  let dependentDialects = ["::mlir::memsched::MemSchedDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numInPlace", "ops-in-place",
              "Elementwise ops made to write an input that dies at them">,
    Statistic<"numAbsorbed", "pads-absorbed", "Materialised pads absorbed">,
    Statistic<"numBanded", "segments-banded",
              "Segments run by bands of rows">,
    Statistic<"numGrouped", "chains-grouped",
              "Channel chains run by groups of channels">,
    Statistic<"numKept", "pads-kept", "Pads left as they are">,
  ];
}

def PlanArena : Pass<"memsched-plan-arena", "::mlir::ModuleOp"> {
  let summary = "Place each function's buffers at offsets of one arena";
  let description = [{
    Run after `--memsched-schedule`. For each function, places its buffers
    (each `memref.alloc` freed by a `memref.dealloc` in the same block, with
    a static size or a constant bound, the identity layout and the default
    memory space) at byte offsets of one arena so that buffers live at the
    same time never share a byte, with the arena as small as the planner can
    prove (docs/arena.md): every allocation becomes a `memref.view` of the
    arena at its offset and its deallocation goes. Allocations in the bodies
    of `scf.for`, `scf.if`, `scf.while`, `scf.execute_region`,
    `scf.index_switch`, `affine.for` and `affine.if` go into the arena too:
    they share a slot live while that op runs.

    `arena=alloc` (default): one `memref.alloc` of i8 at the start of the
    body and its `memref.dealloc` before the return. `arena=argument`: a new
    last argument `memref<Nxi8> {memsched.arena}` that the caller provides
    (as TensorFlow Lite Micro's tensor arena); calls in the module pass a
    slot of their own arena (or, where they cannot, a buffer allocated
    around the call); functions referenced other than by calls, and
    recursive ones, are left unchanged. `arena=global`: a private
    `memref.global` of N bytes per function, for statically linked firmware
    (recursive functions are left unchanged: their activations would share
    it). The arena is marked `memsched.arena`.

    The function's certificate (computed first if it has none) gains
    `peak_with_arena = A` and `arena_size = N`: N is the arena, A the memory the
    planned function needs at its worst moment (the arena plus buffers left
    outside it and the memory of its calls), comparable with `peak`
    (A >= peak >= lower_bound). Each allocation left outside gets a remark
    that says why. A function the analysis does not support is left
    unchanged with its remark.

    Buffers sized by the function's dynamic sizes (its index arguments and
    the dimensions of its arguments, with their ranges: `memsched.range`
    or the `ranges` option, docs/dynamic.md) are placed, with arena=alloc,
    for every size of the ranges at once: their offsets are polynomials in
    those sizes, computed where each view is made, and the arena's size the
    max of polynomials, computed before it is allocated; no two buffers
    live at the same time share a byte at any size. A public function
    `@<name>_arena_size` (one index argument per dynamic size, in argument
    order) returns the arena's bytes for given sizes. The plan is kept only
    when the planned function is proved never to need more memory than the
    unplanned one at any size of the ranges; the certificate's numbers are
    those at `sizes_at`.
  }];
  let options = SizeModelOptions # RangesOption # [
    Option<"arenaKind", "arena", "std::string", /*default=*/"\"alloc\"",
           "Where the arena comes from: alloc, argument or global">,
    Option<"alignment", "alignment", "uint64_t", /*default=*/"16",
           "Alignment of every offset in the arena (a power of two); an "
           "allocation with a larger alignment keeps its own">,
    Option<"workBudget", "work-budget", "uint64_t", /*default=*/"2000000",
           "Search nodes the exact placement search may expand per block">,
    Option<"reorder", "reorder", "bool", /*default=*/"true",
           "When the arena of the body's order is above the most its buffers "
           "have live at once, look for another order of the same ops, with a "
           "peak within max-peak-increase, that packs into a smaller arena">,
    Option<"maxPeakIncrease", "max-peak-increase", "double", /*default=*/"0.0",
           "How much higher (a fraction of the peak) the peak of a reordered "
           "body may be when its arena is smaller">,
    Option<"orderEvaluations", "order-evaluations", "uint64_t",
           /*default=*/"2000",
           "Arena evaluations the search for a better-packing order may "
           "spend per function">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"",
           "Write <dir>/<function>.arena.json (buffers with their offsets, "
           "the arena, the memory) and <dir>/<function>.arena.svg (the arena: "
           "address over the op sequence, each buffer at its offset)">,
    Option<"heuristic", "heuristic", "std::string", /*default=*/"",
           "Place with this heuristic alone, to compare with other planners: "
           "greedy-by-size (TensorFlow Lite Micro's), best-fit-by-size, "
           "first-fit-by-start (allocation order, as ONNX Runtime and IREE) "
           "or first-fit-by-conflicts">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function with the arena, the peak and the "
           "bound">,
  ];
  let dependentDialects = ["::mlir::memsched::MemSchedDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numPlanned", "planned", "Functions whose buffers were placed in an arena">,
    Statistic<"numPlaced", "buffers-placed", "Allocations placed in an arena">,
    Statistic<"numOutside", "buffers-outside", "Allocations left outside the arena">,
    Statistic<"numAtPeak", "arena-at-peak", "Functions whose arena memory equals their peak">,
    Statistic<"numReordered", "reordered", "Functions reordered for a smaller arena">,
  ];
}

#endif // MEMSCHED_PASSES_TD
