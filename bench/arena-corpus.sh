#!/usr/bin/env bash
# Arena planning on the corpus: for every network of bench/models, the peak
# before and after --memsched-schedule, the certified bound, and the arena
# each planner needs for the scheduled order (--memsched-plan-arena with the
# full planner, then with each heuristic of its portfolio alone:
# greedy-by-size is TensorFlow Lite Micro's, first-fit-by-start the
# allocation-order planners of ONNX Runtime / IREE), plus greedy-by-size on
# the order as written (no memsched at all). Two preparations per network:
# as shipped (results returned: they stay outside the arena) and with the
# results as out-params (every buffer in the arena, as on a device).
# Bytes are the buffers' own sizes (no allocator padding). Deterministic
# except the seconds column.
#
#   bench/arena-corpus.sh [-o FILE]      # default docs/arena-corpus.md
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
install_missing
configure_and_build memsched-opt
OPT="$BUILD_DIR/bin/memsched-opt"
OUT="$ROOT/docs/arena-corpus.md"
[ "${1:-}" = "-o" ] && OUT="$2"
WORK="$BUILD_DIR/bench/arena"
mkdir -p "$WORK"
HEURISTICS="greedy-by-size best-fit-by-size first-fit-by-start first-fit-by-conflicts"

field() { sed -n "s/.*func.func @forward(.*#memsched.certificate<.*$1 = \([0-9]*\).*/\1/p" "$2" | head -n 1; }
peak_as_written() {
  "$OPT" "$1" --memsched-print-lifetimes -o /dev/null |
    sed -n 's/.*peak-as-written=\([0-9]*\).*/\1/p' | head -n 1
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.1f%%", 100.0 * (a - b) / b}'; }

prepare() { # name variant out
  local extra=""
  [ "$2" = outparams ] && extra="--buffer-results-to-out-params=modify-public-functions hoist-static-allocs"
  "$OPT" "$ROOT/bench/models/$1.tensor.mlir" \
    "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    ${extra:+"$extra"} --buffer-deallocation-pipeline --convert-bufferization-to-memref \
    --canonicalize --cse --optimize-allocation-liveness -o "$3"
}

{
echo "# Arena planning on the corpus"
echo
echo "Produced by \`bench/arena-corpus.sh\` ($(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d))."
echo "Per network and preparation: the peak of the order as written and after"
echo "\`--memsched-schedule\`, its certified lower bound, then the arena for the"
echo "scheduled order: *memsched* is \`--memsched-plan-arena\` (arena_size: the"
echo "arena, or with arenas by phase the largest; and *memory*, the certificate's"
echo "\`peak_with_arena\`: what the planned function needs, which adds the buffers"
echo "left outside), the next columns the memory with each heuristic alone in one"
echo "arena (\`heuristic=NAME\`, as the planner it comes from places), and the last"
echo "one with TFLite Micro's greedy-by-size on the order as written. Percentages"
echo "are against the scheduled peak. *returned*: as bufferized, results returned"
echo "(they outlive the arena, so they stay outside it); *out-params*: results"
echo "as arguments (\`--buffer-results-to-out-params\`), as on a device."
echo
echo "| network | prep | peak as written | peak scheduled | bound | memsched arena | memory | greedy-by-size | best-fit-by-size | first-fit-by-start | first-fit-by-conflicts | greedy, no memsched | arena seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for t in "$ROOT"/bench/models/*.tensor.mlir; do
  name=$(basename "$t" .tensor.mlir)
  for variant in returned outparams; do
    in="$WORK/$name.$variant.mlir"
    prepare "$name" "$variant" "$in" 2>/dev/null || continue
    "$OPT" "$in" --memsched-schedule -o "$WORK/$name.$variant.sched.mlir" 2>/dev/null
    s="$WORK/$name.$variant.sched.mlir"
    peak=$(field peak "$s"); bound=$(field lower_bound "$s")
    [ -n "$peak" ] || continue
    start=$(date +%s%N)
    "$OPT" "$s" --memsched-plan-arena --memsched-verify -o "$WORK/$name.$variant.arena.mlir" 2>/dev/null
    end=$(date +%s%N)
    a="$WORK/$name.$variant.arena.mlir"
    row="| $name | $([ $variant = outparams ] && echo out-params || echo returned) | $(peak_as_written "$in") | $peak | $bound"
    row="$row | $(field arena_size "$a") ($(pct "$(field arena_size "$a")" "$peak")) | $(field peak_with_arena "$a") ($(pct "$(field peak_with_arena "$a")" "$peak"))"
    for h in $HEURISTICS; do
      "$OPT" "$s" "--memsched-plan-arena=heuristic=$h reorder=0" -o "$WORK/h.mlir" 2>/dev/null
      row="$row | $(field peak_with_arena "$WORK/h.mlir") ($(pct "$(field peak_with_arena "$WORK/h.mlir")" "$peak"))"
    done
    "$OPT" "$in" --memsched-certify "--memsched-plan-arena=heuristic=greedy-by-size reorder=0" -o "$WORK/h.mlir" 2>/dev/null
    row="$row | $(field peak_with_arena "$WORK/h.mlir") ($(pct "$(field peak_with_arena "$WORK/h.mlir")" "$peak"))"
    row="$row | $(awk -v n=$((end - start)) 'BEGIN {printf "%.2f", n / 1e9}') |"
    echo "$row"
  done
done
} | tee "$OUT"
