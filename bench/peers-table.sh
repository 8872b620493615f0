#!/usr/bin/env bash
# memsched against the peers' schedulers on the graphs of the bench/models
# programs: exports each function's scheduling graph (memsched-schedule
# graph-dir=...), then schedules it with memsched-graph-bench, which also
# computes the orders of XLA's (list, DFS, post-order) and Inductor's (LPMF,
# BFS, DFS) schedulers on the same graph. Prints a markdown table: peak by
# each peer, memsched's peak, the scheduler's bound (graph level: the pass's
# certificate adds the min-cut bound), and time.
#
#   bench/peers-table.sh BUILD_DIR [MODEL...]      (default: every model)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$1"
shift
OPT="$BUILD/bin/memsched-opt"
BENCH="$BUILD/bin/memsched-graph-bench"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ "$#" -gt 0 ]; then
  models=("$@")
else
  models=()
  for f in "$ROOT"/bench/models/*.mlir; do
    case "$f" in *.tensor.mlir) continue ;; esac
    models+=("$(basename "$f" .mlir)")
  done
fi
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
echo "| model | nodes | xla-list | xla-dfs | xla-postorder | inductor-lpmf | inductor-bfs | inductor-dfs | memsched | bound | gap | time |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for m in "${models[@]}"; do
  "$OPT" "$ROOT/bench/models/$m.mlir" "--memsched-schedule=graph-dir=$WORK/$m" -o /dev/null
  out=$("$BENCH" -v --graph "$WORK/$m/forward.graph.json")
  line=$(echo "$out" | tail -n 1)
  bound=$(echo "$out" |
    awk '/^segment/ {for (i = 1; i <= NF; ++i) if ($i ~ /^proved_bound=/) {split($i, kv, "="); b = kv[2] > b ? kv[2] : b}} END {print b + 0}')
  peak=$(echo "$line" | field peak)
  gap="-"
  [ "$bound" -lt "$peak" ] && gap="$(awk -v p="$peak" -v b="$bound" 'BEGIN {printf "%.2f%%", 100 * (p - b) / p}')"
  echo "| $m | $(echo "$line" | field nodes) | $(echo "$line" | field xla-list) | $(echo "$line" | field xla-dfs) | $(echo "$line" | field xla-postorder) | $(echo "$line" | field inductor-lpmf) | $(echo "$line" | field inductor-bfs) | $(echo "$line" | field inductor-dfs) | $peak | $bound | $gap | $(echo "$line" | field seconds) s |"
done
