#!/usr/bin/env bash
# The real-network table of docs/benchmarks.md: one row per bench/models
# program. bench/run.sh prints it with times; bench/check_table.py runs it
# without and compares every other column (all deterministic) with the docs.
#
#   bench/corpus-table.sh MEMSCHED_OPT WORK_DIR [--times]
#
# Leaves <name>.upstream.mlir and <name>.scheduled.mlir in WORK_DIR. Without
# --times the last column is "-" and the schedule runs without --mlir-timing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPT="$1"
WORK="$2"
TIMES=false
[ "${3:-}" = "--times" ] && TIMES=true
mkdir -p "$WORK"

# peak-as-written and the node count, from one --memsched-print-lifetimes run.
lifetimes() { "$OPT" "$1" --memsched-print-lifetimes -o /dev/null; }
peak_of() { sed -n 's/.*peak-as-written=\([0-9]*\).*/\1/p' | head -n 1; }
nodes_of() { sed -n 's/.* nodes=\([0-9]*\).*/\1/p' | head -n 1; }
# Wall seconds of one pass from --mlir-timing output on stdin.
pass_seconds() { awk -v p="$1" '$0 ~ "  "p"$" {print $1; exit}'; }

echo "| model | ops | upstream dealloc pipeline | + optimize-allocation-liveness | memsched-schedule | lower bound | certified | schedule + certify time |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
for mlir in "$ROOT"/bench/models/*.mlir; do
  case "$mlir" in *.tensor.mlir) continue ;; esac
  name=$(basename "$mlir" .mlir)
  tensor="$ROOT/bench/models/$name.tensor.mlir"
  upstream="-"
  if [ -f "$tensor" ]; then
    "$OPT" "$tensor" \
      --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
      --buffer-deallocation-pipeline --convert-bufferization-to-memref --canonicalize --cse \
      -o "$WORK/$name.upstream.mlir"
    upstream=$(lifetimes "$WORK/$name.upstream.mlir" | peak_of)
  fi
  shipped=$(lifetimes "$mlir")
  liveness=$(echo "$shipped" | peak_of)
  ops=$(echo "$shipped" | nodes_of)
  if $TIMES; then
    timing=$("$OPT" "$mlir" --memsched-schedule --mlir-timing -o "$WORK/$name.scheduled.mlir" 2>&1)
    seconds="$(echo "$timing" | pass_seconds Schedule) s"
  else
    "$OPT" "$mlir" --memsched-schedule -o "$WORK/$name.scheduled.mlir"
    seconds="-"
  fi
  cert=$(grep -o 'certificate<peak = [0-9]*, lower_bound = [0-9]*' "$WORK/$name.scheduled.mlir")
  peak=$(echo "$cert" | sed 's/.*peak = \([0-9]*\),.*/\1/')
  bound=$(echo "$cert" | sed 's/.*lower_bound = \([0-9]*\)/\1/')
  if [ "$peak" = "$bound" ]; then certified="optimal"; else certified="gap $((peak - bound))"; fi
  echo "| $name | $ops | $upstream | $liveness | $peak | $bound | $certified | $seconds |"
done
