#!/usr/bin/env bash
# memsched against the peers' schedulers on the graphs of the bench/models
# programs: exports each function's scheduling graph (memsched-schedule
# graph-dir=...), then schedules it with memsched-graph-bench, which also
# computes the orders of XLA's (list, DFS, post-order) and Inductor's (LPMF,
# BFS, DFS) schedulers on the same graph. Prints a markdown table: peak by
# each peer, memsched's peak, the lower bound as the pass certifies it (the
# min-cut bound computed first, as memsched-schedule does, and what the
# exact search proved), and the time of both.
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
  line=$("$BENCH" --certify --graph "$WORK/$m/forward.graph.json")
  bound=$(echo "$line" | field bound)
  peak=$(echo "$line" | field peak)
  gap="-"
  [ "$bound" -lt "$peak" ] && gap="$(echo "$line" | field gap_pct)%"
  time=$(awk -v a="$(echo "$line" | field seconds)" -v b="$(echo "$line" | field bound_seconds)" 'BEGIN {printf "%.3f", a + b}')
  echo "| $m | $(echo "$line" | field nodes) | $(echo "$line" | field xla-list) | $(echo "$line" | field xla-dfs) | $(echo "$line" | field xla-postorder) | $(echo "$line" | field inductor-lpmf) | $(echo "$line" | field inductor-bfs) | $(echo "$line" | field inductor-dfs) | $peak | $bound | $gap | $time s |"
done
