#!/usr/bin/env bash
# --memsched-split on the corpus: for every network of bench/models, the
# pads absorbed, the chains run by channel groups, the certified peak of --memsched-schedule without and with
# the split first, and a differential run of the split + scheduled program
# against the original under mlir-runner with the counting allocator
# (test/Integration/differential.sh: bit-identical outputs, measured peak =
# certificate). Bytes count the allocator's padding (count-alignment-padding).
#   bench/split-corpus.sh [BUILD_DIR] [NETWORK...]   (prints a Markdown table)
# NETWORK: a name of bench/models (mobilenet_v2), or 224/NAME for the
# torchvision networks at 224x224 (bench/models/generate.sh --224); `224`
# alone: all of those.
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
status=0
echo "| network | pads absorbed | chains by groups | peak scheduled | split + scheduled | reduction | measured | split + schedule time | outputs |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for n in "${nets[@]}"; do
  m="$ROOT/bench/models/$n.mlir"
  remark=$("$OPT" "$m" --memsched-split="count-alignment-padding remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep "'forward'")
  pads=$(sed -n "s/.*'forward': \([0-9]*\) pads\{0,1\} absorbed.*/\1/p" <<< "$remark")
  chains=$(sed -n "s/.* \([0-9]*\) chains\{0,1\} run by channel groups.*/\1/p" <<< "$remark")
  start=$(date +%s.%N)
  "$OPT" "$m" --memsched-split=count-alignment-padding \
    --memsched-schedule=count-alignment-padding -o /dev/null
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  plain=$("$OPT" "$m" --memsched-schedule=count-alignment-padding |
    sed -n 's/.*func.func @forward(.*#memsched.certificate<peak = \([0-9]*\).*/\1/p')
  if out=$(env DIFF_PRE=--memsched-split=count-alignment-padding bash "$ROOT/test/Integration/differential.sh" \
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
  echo "| $n | ${pads:-0} | ${chains:-0} | $plain | ${cert:--} | $ratio | ${measured:--} | $seconds s | $verdict |"
done
exit $status
