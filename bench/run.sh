#!/usr/bin/env bash
# The memsched benchmark: real networks of bench/models and synthetic graphs.
# Prints the tables and writes them to docs/benchmarks.md.
#
#   bench/run.sh            # everything (about 5 minutes on 2 cores)
#   bench/run.sh --quick    # corpus only
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
install_missing
dpkg -s time >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time; }
configure_and_build memsched-opt memsched-graph-bench memsched-bound-bench

OPT="$BUILD_DIR/bin/memsched-opt"
GRAPH_BENCH="$BUILD_DIR/bin/memsched-graph-bench"
BOUND_BENCH="$BUILD_DIR/bin/memsched-bound-bench"
WORK="$BUILD_DIR/bench"
OUT="$ROOT/docs/benchmarks.md"
QUICK=false
[ "${1:-}" = "--quick" ] && QUICK=true
mkdir -p "$WORK"

# Wall seconds of one pass from --mlir-timing output on stdin.
pass_seconds() { awk -v p="$1" '$0 ~ "  "p"$" {print $1; exit}'; }
kib() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1024}'; }

{
echo "# memsched benchmarks"
echo
echo "Produced by \`bench/run.sh\` on $(nproc) cores ($(uname -m)), $(date -u +%Y-%m-%d)."
echo "Peaks are bytes of the function's own allocations (arguments not counted),"
echo "as written in the IR; memsched's peaks equal the bytes a counting allocator"
echo "measures at run time (test/Integration/corpus)."
echo
echo "## Real networks (bench/models)"
echo
} > "$WORK/corpus.md"
"$ROOT/bench/corpus-table.sh" "$OPT" "$WORK" --times >> "$WORK/corpus.md"
{
echo
echo "## Against the peers' schedulers (bench/peers-table.sh)"
echo
cat <<'PROSE'
The same programs at the graph level: `memsched-schedule{graph-dir=...}`
writes each body's scheduling graph, and `memsched-graph-bench --graph`
schedules it and computes, on the same graph, the orders of XLA's
ListMemoryScheduler, DFSMemoryScheduler and PostOrderMemoryScheduler and of
Inductor's `reorder_for_peak_memory` methods (LPMF, BFS, DFS), as described
in `lib/Analysis/Graph/SchedPeers.cpp`. Their orders are among memsched's
candidates for every segment, so memsched's peak is never above theirs
(checked on every run). "bound" is the lower bound as the pass certifies
it: the min-cut bound, computed first, and what the exact search proves
(`memsched-graph-bench --certify`). Times are for the graph scheduler and
the bound (no MLIR), on 2 cores.
PROSE
echo
"$ROOT/bench/peers-table.sh" "$BUILD_DIR"
} >> "$WORK/corpus.md"
cat "$WORK/corpus.md"

if ! $QUICK; then
  {
  echo
  echo "## Scaling on synthetic layered programs (bench/synthetic.py)"
  echo
  echo "Whole memsched-opt runs on one function of N ops; parse+print is"
  echo "\`memsched-opt file -o /dev/null\` on the same file."
  echo
  echo "| ops | file MiB | parse+print s | schedule+certify pass s | ratio to parse+print | max RSS MiB |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
  } > "$WORK/scaling.md"
  for n in 1000 10000 100000; do
    f="$WORK/synthetic-$n.mlir"
    python3 "$ROOT/bench/synthetic.py" --ops "$n" --seed 1 > "$f"
    mib=$(awk -v b="$(stat -c %s "$f")" 'BEGIN {printf "%.1f", b / 1048576}')
    base=$( { /usr/bin/time -f "%e" "$OPT" "$f" -o /dev/null; } 2>&1 | tail -n 1)
    # At most 8 GiB and 10 minutes per run (MEMSCHED_BENCH_MEM_KB,
    # MEMSCHED_BENCH_SECONDS): a run past them is reported, not waited for.
    if ! timing=$( { ulimit -v "${MEMSCHED_BENCH_MEM_KB:-8388608}"
                     timeout "${MEMSCHED_BENCH_SECONDS:-600}" \
                       /usr/bin/time -f "rss=%M" "$OPT" "$f" --memsched-schedule --mlir-timing -o /dev/null; } 2>&1); then
      echo "| $n | $mib | $base | over the limit (8 GiB or 10 min) | - | - |" >> "$WORK/scaling.md"
      continue
    fi
    pass=$(echo "$timing" | pass_seconds Schedule)
    rss=$(echo "$timing" | sed -n 's/rss=\([0-9]*\)/\1/p')
    ratio=$(awk -v a="$pass" -v b="$base" 'BEGIN {printf "%.2f", a / b}')
    echo "| $n | $mib | $base | $pass | $ratio | $(awk -v k="$rss" 'BEGIN {printf "%.0f", k / 1024}') |" >> "$WORK/scaling.md"
  done
  cat "$WORK/scaling.md"

  {
  echo
  echo "## Scheduler and bounds on generated graphs (no MLIR)"
  echo
  echo '```'
  for n in 10000 100000; do
    for fam in layered series-parallel; do
      echo "\$ memsched-graph-bench --family $fam --nodes $n --seed 1"
      "$GRAPH_BENCH" --family "$fam" --nodes "$n" --seed 1
    done
  done
  echo "\$ memsched-graph-bench --optimality 50 --seed 1"
  "$GRAPH_BENCH" --optimality 50 --seed 1
  if [ -x "$BOUND_BENCH" ]; then
    for n in 10000 100000; do
      echo "\$ memsched-bound-bench --family layered --nodes $n --seed 1 --target-from-schedule"
      "$BOUND_BENCH" --family layered --nodes "$n" --seed 1 --target-from-schedule || true
    done
    echo "\$ memsched-bound-bench --tightness 200"
    "$BOUND_BENCH" --tightness 200 || true
  fi
  echo '```'
  } > "$WORK/graphs.md"
  cat "$WORK/graphs.md"

  {
  echo
  echo "## Generated graphs of 2,000-20,000 nodes (bench/generated-table.sh)"
  echo
  echo "Every generator family at four sizes (seed 1), through"
  echo "\`memsched-graph-bench --certify\`: the min-cut bound first, as"
  echo "memsched-schedule computes it, then the search. \"best peer\" is the"
  echo "lowest peak among the six peer schedulers on the same graph; \"bound\" is"
  echo "the certified lower bound; \"gap\" is (peak - bound) / peak."
  echo
  "$ROOT/bench/generated-table.sh" "$BUILD_DIR"
  } > "$WORK/generated.md"
  cat "$WORK/generated.md"
fi

{
  cat "$WORK/corpus.md"
  [ -f "$WORK/scaling.md" ] && ! $QUICK && cat "$WORK/scaling.md"
  [ -f "$WORK/graphs.md" ] && ! $QUICK && cat "$WORK/graphs.md"
  [ -f "$WORK/generated.md" ] && ! $QUICK && cat "$WORK/generated.md"
  [ -f "$ROOT/bench/NOTES.md" ] && { echo; cat "$ROOT/bench/NOTES.md"; }
} > "$OUT"
echo "written: $OUT"
