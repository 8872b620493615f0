#!/usr/bin/env bash
# --memsched-split on the corpus: for every network of bench/models, the
# ops written in place, the pads absorbed, the segments run by row bands, the chains run by channel
# groups, the certified peak of --memsched-schedule without and with the
# split first, the extra compute (the certificate's extra_compute_ppm), and a differential run of the split + scheduled program
# against the original under mlir-runner with the counting allocator
# (test/Integration/differential.sh: bit-identical outputs, measured peak =
# certificate), and the bound no split without recomputation goes below
# (docs/split.md, "The bound over all splits") with the gap of the split +
# scheduled peak to it ("recomputes": the split recomputes rows, outside
# that family). Bytes count the allocator's padding (count-alignment-padding).
#   bench/split-corpus.sh [BUILD_DIR] [NETWORK...]   (prints a Markdown table)
# NETWORK: a name of bench/models (mobilenet_v2), or 224/NAME for the
# torchvision networks at 224x224 (bench/models/generate.sh --224); `224`
# alone: all of those.
#   EXTRA=0.02 bench/split-corpus.sh ...   max-extra-compute of the split
#   (default 0: no extra compute)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
shift || true
OPT="$BUILD/bin/memsched-opt"
RUNTIME="$BUILD/lib/libmemsched_runtime.so"
LIBDIR="${MLIR_LIB_DIR:-/usr/lib/llvm-22/lib}"
RUNNER="${MLIR_RUNNER:-/usr/lib/llvm-22/bin/mlir-runner}"
export PATH="$BUILD/bin:$PATH"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
nets=("$@")
if [ "${nets[*]:-}" = 224 ]; then
  nets=()
  for m in "$ROOT"/bench/models/224/*.mlir; do
    case $m in *.tensor.mlir) continue ;; esac
    nets+=("224/$(basename "$m" .mlir)")
  done
fi
if [ ${#nets[@]} -eq 0 ]; then
  for m in "$ROOT"/bench/models/*.mlir; do
    case $m in *.tensor.mlir) continue ;; esac
    nets+=("$(basename "$m" .mlir)")
  done
fi
EXTRA="${EXTRA:-0}"
SPLIT="count-alignment-padding max-extra-compute=$EXTRA"
status=0
echo "| network | ops in place | pads absorbed | segments by bands | chains by groups | peak scheduled | split + scheduled | reduction | extra compute | fragment bound | gap | measured | split + schedule time | outputs |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for n in "${nets[@]}"; do
  m="$ROOT/bench/models/$n.mlir"
  remark=$("$OPT" "$m" --memsched-split="$SPLIT remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep "'forward'")
  inplace=$(sed -n "s/.*'forward': \([0-9]*\) ops\{0,1\} in place.*/\1/p" <<< "$remark")
  pads=$(sed -n "s/.* \([0-9]*\) pads\{0,1\} absorbed.*/\1/p" <<< "$remark")
  chains=$(sed -n "s/.* \([0-9]*\) chains\{0,1\} run by channel groups.*/\1/p" <<< "$remark")
  bands=$(sed -n "s/.* \([0-9]*\) segments\{0,1\} run by row bands.*/\1/p" <<< "$remark")
  bound=$(sed -n "s/.*no split without recomputation peaks below \([0-9]*\) bytes.*/\1/p" <<< "$remark")
  start=$(date +%s.%N)
  "$OPT" "$m" --memsched-split="$SPLIT" \
    --memsched-schedule=count-alignment-padding -o "$TMP/split.mlir"
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  plain=$("$OPT" "$m" --memsched-schedule=count-alignment-padding |
    sed -n 's/.*func.func @forward(.*#memsched.certificate<peak = \([0-9]*\).*/\1/p')
  ppm=$(sed -n 's/.*func.func @forward(.*#memsched.certificate<[^>]*extra_compute_ppm = \([0-9]*\).*/\1/p' "$TMP/split.mlir")
  extra=$(awk -v p="${ppm:-0}" 'BEGIN { printf "%.2f%%", p / 10000 }')
  if out=$(env DIFF_PRE=--memsched-split DIFF_PRE_OPTS="$SPLIT" bash "$ROOT/test/Integration/differential.sh" \
      "$RUNTIME" "$LIBDIR" "$RUNNER" "$m" forward "$TMP/$(basename "$n")" 2>&1); then
    verdict=identical
  else
    verdict="FAILED: $(tail -1 <<< "$out")"
    status=1
  fi
  cert=$(sed -n 's/^certificate-peak=//p' <<< "$out")
  measured=$(sed -n 's/^sched-peak=//p' <<< "$out")
  ratio=-
  [ -n "$cert" ] && ratio=$(awk -v a="$plain" -v b="$cert" 'BEGIN { printf "%.2fx", a / b }')
  gap=-
  if [ "${ppm:-0}" != 0 ]; then
    gap=recomputes
  elif [ -n "$cert" ] && [ -n "$bound" ] && [ "$bound" -gt 0 ]; then
    gap=$(awk -v a="$cert" -v b="$bound" 'BEGIN { printf "%.1f%%", 100 * (a - b) / b }')
  fi
  echo "| $n | ${inplace:-0} | ${pads:-0} | ${bands:-0} | ${chains:-0} | $plain | ${cert:--} | $ratio | $extra | ${bound:--} | $gap | ${measured:--} | $seconds s | $verdict |"
done
exit $status
