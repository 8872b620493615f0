#!/usr/bin/env bash
# Rematerialisation on the corpus's training steps and multi-branch
# networks: for each, the certified peak of --memsched-schedule (P), then
# --memsched-rematerialize at budgets of 0.9 P and 0.8 P (default
# max-extra-compute 0.1): the peak reached, the ops computed again, the
# extra compute and the time of the whole memsched-opt run.
#   bench/remat-table.sh [BUILD_DIR]   (prints a Markdown table)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPT="${1:-$ROOT/build}/bin/memsched-opt"
MODELS="$ROOT/bench/models"
echo "| network | P (scheduled) | budget | peak reached | met | ops again | extra compute | time |"
echo "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |"
for name in train_step_cnn train_step_resnet8 train_step_mobilenet train_step_resnet20 \
            train_step_transformer train_step_unet googlenet randwire_small hrnet_small; do
  f="$MODELS/$name.mlir"
  [ -f "$f" ] || continue
  P=$("$OPT" "$f" --memsched-schedule -o - 2>/dev/null |
      grep -o 'certificate<peak = [0-9]*' | head -n 1 | grep -o '[0-9]*$')
  for frac in 0.9 0.8; do
    B=$(python3 -c "print(int($P * $frac))")
    start=$(date +%s%N)
    out=$("$OPT" "$f" --memsched-rematerialize="bytes=$B remarks" \
          --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep 'memsched-rematerialize' | head -n 1)
    end=$(date +%s%N)
    t=$(python3 -c "print(f'{($end - $start) / 1e9:.2f} s')")
    if [[ "$out" =~ peak\ [0-9]+\ -\>\ ([0-9]+)\ bytes,\ (within|above).*\ ([0-9]+)\ op.*extra\ compute\ [0-9]+\ of\ [0-9]+\ \(([0-9.]+%)\) ]]; then
      met=$([ "${BASH_REMATCH[2]}" = within ] && echo yes || echo no)
      echo "| $name | $P | $B | ${BASH_REMATCH[1]} | $met | ${BASH_REMATCH[3]} | ${BASH_REMATCH[4]} | $t |"
    else
      echo "| $name | $P | $B | $P | no | 0 | 0% | $t |"
    fi
  done
done
