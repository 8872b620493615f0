//===- Passes.td - memsched passes -------------------------*- tablegen -*-===//
//
// The documented index of memsched's passes.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_PASSES_TD
#define MEMSCHED_PASSES_TD

include "mlir/Pass/PassBase.td"

// Options every pass that analyses a body shares.
defvar SizeModelOptions = [
  Option<"countAlignmentPadding", "count-alignment-padding", "bool",
         /*default=*/"false",
         "Count the bytes the generic allocation lowering adds for an "
         "explicit alignment (size + alignment), so computed peaks match a "
         "counting allocator behind finalize-memref-to-llvm{use-generic-functions=true}">,
  Option<"strict", "strict", "bool", /*default=*/"false",
         "Turn the remark for an unsupported function into an error">,
];

def Schedule : Pass<"memsched-schedule", "::mlir::func::FuncOp"> {
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
    of a concatenation), and the order of ops with unknown effects.

    The search decomposes the dependency graph at ops every order must pass
    through, solves each part exactly (best-first search over executed sets)
    when it fits the state budget, and otherwise uses memory-aware list
    scheduling with local improvement. The input order is always a candidate:
    the result's peak is never above the input's, and a function whose peak
    would not improve is left unchanged. The pass is deterministic.

    A function the analysis does not support (several blocks, dynamic sizes
    without a bound, `bufferization.dealloc`, ...) is left unchanged with a
    remark naming the op and the reason (an error with `strict`).

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
  let options = SizeModelOptions # [
    Option<"stateBudget", "state-budget", "uint64_t", /*default=*/"200000",
           "Search states the exact search may expand per graph segment "
           "before the heuristic result is kept for that segment">,
    Option<"heuristicOnly", "heuristic-only", "bool", /*default=*/"false",
           "Skip the exact search: list scheduling and local improvement only">,
    Option<"localSearchRounds", "local-search-rounds", "unsigned",
           /*default=*/"2", "Rounds of local improvement after list scheduling">,
    Option<"sinkAllocs", "sink-allocs", "bool", /*default=*/"true",
           "Place each allocation right before the first op touching the "
           "buffer; when false, allocations stay at the top of the body">,
    Option<"hoistDeallocs", "hoist-deallocs", "bool", /*default=*/"true",
           "Place each deallocation right after the last op touching the "
           "buffer; when false, deallocations go to the end of the body">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function with the peak before and after">,
  ];
  let statistics = [
    Statistic<"numFunctions", "functions", "Functions scheduled">,
    Statistic<"numUnsupported", "unsupported", "Functions left unchanged as unsupported">,
    Statistic<"numImproved", "improved", "Functions whose peak went down">,
    Statistic<"bytesBefore", "peak-before", "Sum over functions of the peak before, in bytes">,
    Statistic<"bytesAfter", "peak-after", "Sum over functions of the peak after, in bytes">,
    Statistic<"numMoved", "ops-moved", "Ops whose position among the scheduled ops changed">,
    Statistic<"numExactSegments", "segments-exact", "Graph segments solved exactly">,
    Statistic<"numHeuristicSegments", "segments-heuristic", "Graph segments solved heuristically">,
  ];
}

#endif // MEMSCHED_PASSES_TD
