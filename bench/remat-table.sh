#!/usr/bin/env bash
# Rematerialisation on the corpus's training steps and multi-branch
# networks: for each, the certified peak of --memsched-schedule (P), then
# --memsched-rematerialize at budgets of 0.9 P and 0.8 P (default
# max-extra-compute 0.1): the peak reached, the ops computed again, the
# extra compute and the time of the whole memsched-opt run; the lower bound
# the pass proves for any recomputation of the same ops ("unreachable" when
# it is above the budget); the lower bound it proves for the recomputations
# within the limit when the budget is not met ("unreachable within 10%"
# when above the budget); and, for a budget not met otherwise, the peak
# and extra compute reached with max-extra-compute=1.
#   bench/remat-table.sh [BUILD_DIR]   (prints a Markdown table)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPT="${1:-$ROOT/build}/bin/memsched-opt"
MODELS="$ROOT/bench/models"
echo "| network | P (scheduled) | budget | peak reached | met | ops again | extra compute | time | floor | bound within 10% | max-extra-compute=1 |"
echo "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"
# The remark of one run: FILE BUDGET MAX_EXTRA_COMPUTE.
run() {
  "$OPT" "$1" --memsched-rematerialize="bytes=$2 max-extra-compute=$3 remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 |
    grep 'memsched-rematerialize' | head -n 1
}
# "peak reached|met|ops again|extra compute" from a remark and P.
describe() {
  if [[ "$1" =~ peak\ [0-9]+\ -\>\ ([0-9]+)\ bytes,\ (within|above).*\ ([0-9]+)\ op.*extra\ compute\ [0-9]+\ of\ [0-9]+\ \(([0-9.]+%)\) ]]; then
    echo "${BASH_REMATCH[1]}|$([ "${BASH_REMATCH[2]}" = within ] && echo yes || echo no)|${BASH_REMATCH[3]}|${BASH_REMATCH[4]}"
  else
    echo "$2|no|0|0%"
  fi
}
for name in train_step_cnn train_step_resnet8 train_step_mobilenet train_step_resnet20 \
            train_step_transformer train_step_unet googlenet randwire_small hrnet_small; do
  f="$MODELS/$name.mlir"
  [ -f "$f" ] || continue
  P=$("$OPT" "$f" --memsched-schedule -o - 2>/dev/null |
      grep -o 'certificate<peak = [0-9]*' | head -n 1 | grep -o '[0-9]*$')
  for frac in 0.9 0.8; do
    B=$(python3 -c "print(int($P * $frac))")
    start=$(date +%s%N)
    out=$(run "$f" "$B" 0.1)
    end=$(date +%s%N)
    t=$(python3 -c "print(f'{($end - $start) / 1e9:.2f} s')")
    row=$(describe "$out" "$P")
    met=$(echo "$row" | cut -d'|' -f2 | tr -d ' ')
    # The lower bound no recomputation of these ops goes below, and
    # "unreachable" when it is above the budget.
    floor=$(echo "$out" | grep -o 'needs [0-9]* bytes\|at least [0-9]* bytes\|hold [0-9]* bytes\|recomputation of its ops is [0-9]* bytes' | grep -o '[0-9]*' | head -n 1 || true)
    [ -n "$floor" ] || floor="-"
    # The bound on the recomputations within the limit.
    limit=$(echo "$out" | grep -o 'each peaks at [0-9]* bytes\|memsched can make within [^)]*) [0-9]* bytes' | grep -o '[0-9]* bytes' | grep -o '[0-9]*' | head -n 1 || true)
    [ -n "$limit" ] || limit="-"
    if [ "$met" = no ] && [ "$floor" != "-" ] && [ "$floor" -gt "$B" ]; then
      met="no (unreachable)"
      retry="-"
    elif [ "$met" = no ] && [ "$limit" != "-" ] && [ "$limit" -gt "$B" ]; then
      met="no (unreachable within 10%)"
      again=$(describe "$(run "$f" "$B" 1)" "$P")
      retry="$(echo "$again" | cut -d'|' -f1 | tr -d ' ') ($(echo "$again" | cut -d'|' -f4 | tr -d ' '))"
    elif [ "$met" = no ]; then
      # Unmet within the default limit of extra compute: without it.
      again=$(describe "$(run "$f" "$B" 1)" "$P")
      retry="$(echo "$again" | cut -d'|' -f1 | tr -d ' ') ($(echo "$again" | cut -d'|' -f4 | tr -d ' '))"
    else
      retry="-"
    fi
    IFS='|' read -r reached _ ops extra <<< "$row"
    echo "| $name | $P | $B | $(echo $reached) | $met | $(echo $ops) | $(echo $extra) | $t | $floor | $limit | $retry |"
  done
done
