// The certificate of kind "exhaustive": on a generated 32-op layered program
// the min-cut and window bounds stop at 33856 bytes, below the optimum of
// 33920 bytes; the scheduler's exact search proves the optimum and the
// certificate records it. graph_exact.py (an exhaustive search sharing no
// code with memsched) derives the optimum independently from the exported
// graph. Without the search (heuristic-only, or a budget too small) the
// certificate keeps the window bound.
// RUN: python3 %memsched_src_root/bench/synthetic.py --ops 32 --seed 8 > %t.mlir
// RUN: memsched-opt %t.mlir --memsched-schedule=graph-dir=%t.graphs -o %t.sched.mlir
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir
// RUN: %python %S/../Tools/graph_exact.py %t.graphs/synthetic.graph.json | FileCheck %s --check-prefix=EXACT
// RUN: memsched-opt %t.mlir "--memsched-schedule=heuristic-only" | FileCheck %s --check-prefix=OFF
// RUN: memsched-opt %t.mlir "--memsched-schedule=state-budget=100" | FileCheck %s --check-prefix=OFF
// The remark then says what stopped the search and what the user can do;
// with the search finished it says nothing of the kind.
// RUN: memsched-opt %t.mlir "--memsched-schedule=state-budget=100 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: memsched-opt %t.mlir "--memsched-schedule=remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FINISHED
// memsched-certify with a search budget proves the same bound on the body
// as written (peak 45568); without one it stays with the cuts.
// RUN: memsched-opt %t.mlir "--memsched-certify=search-budget=1000000" | FileCheck %s --check-prefix=CERTIFY
// RUN: memsched-opt %t.mlir --memsched-certify | FileCheck %s --check-prefix=CERTIFY-CUTS
// The verifier proves an exhaustive bound again with the search budget the
// certificate records (search_budget), whatever its own option says, and
// rejects a bound it cannot reproduce: a recorded budget too small for it,
// or a forged bound. A certificate from a larger state-budget verifies
// with no option at all.
// RUN: memsched-opt %t.sched.mlir --memsched-verify -o /dev/null
// RUN: memsched-opt %t.sched.mlir "--memsched-verify=search-budget=50" -o /dev/null
// RUN: memsched-opt %t.mlir "--memsched-schedule=state-budget=5000000" | FileCheck %s --check-prefix=LARGE
// RUN: memsched-opt %t.mlir "--memsched-schedule=state-budget=5000000" | memsched-opt --memsched-verify -o /dev/null
// RUN: sed -e 's/search_budget = 1000000/search_budget = 50/' %t.sched.mlir > %t.small.mlir
// RUN: not memsched-opt %t.small.mlir --memsched-verify --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: sed -e 's/^func.func @synthetic(\(.*\)) {$/func.func @synthetic(\1) attributes {memsched.certificate = #memsched.certificate<peak = 45568, lower_bound = 34000, bound_kind = "exhaustive", bound_op = "linalg.copy#0">} {/' %t.mlir > %t.forged.mlir
// RUN: not memsched-opt %t.forged.mlir --memsched-verify --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORGED
// check-budget uses the search's bound to say that no order fits.
// RUN: not memsched-opt %t.mlir --memsched-check-budget=bytes=33900 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET

// CERT: memsched.certificate = #memsched.certificate<peak = 33920, lower_bound = 33920, bound_kind = "exhaustive", bound_op = "linalg.copy#0", search_budget = 1000000>
// LARGE: #memsched.certificate<peak = 33920, lower_bound = 33920, bound_kind = "exhaustive", bound_op = "linalg.copy#0", search_budget = 5000000>
// EXACT: optimum=33920
// CERTIFY: #memsched.certificate<peak = 45568, lower_bound = 33920, bound_kind = "exhaustive", bound_op = "linalg.copy#0", search_budget = 1000000>
// CERTIFY-CUTS: #memsched.certificate<peak = 45568, lower_bound = 33856, bound_kind = "window"
// OFF: #memsched.certificate<peak = 33920, lower_bound = 33856, bound_kind = "window"
// STOPPED: remark: memsched-schedule: peak 45568 -> 33920 bytes, lower bound 33856 bytes; the exact search stopped at its limits (state-budget=100) on 40 ops: a larger state-budget searches further{{$}}
// FINISHED: remark: memsched-schedule: peak 45568 -> 33920 bytes, lower bound 33920 bytes (optimal){{$}}
// SMALL: error: memsched-verify: inconsistent certificate on 'synthetic': it records a lower bound of 33920 bytes but only 33856 bytes can be proved for this body with an exact search of 50 states per stretch{{$}}
// FORGED: error: memsched-verify: inconsistent certificate on 'synthetic': it records a lower bound of 34000 bytes but only 33920 bytes can be proved for this body with an exact search of 1000000 states per stretch{{$}}
// BUDGET: error: memsched-check-budget: 'synthetic' peaks at 45568 bytes, above the budget of 33900 bytes; no order of these ops fits: an exhaustive search of the orders from linalg.copy#0 on proves that every order needs at least 33920 bytes (rematerialisation or tiling is needed)
// BUDGET: note: where the searched orders start
