#!/usr/bin/env bash
# --memsched-split on the corpus: for every network of bench/models, the
# pads absorbed, the certified peak of --memsched-schedule without and with
# the split first, and a differential run of the split + scheduled program
# against the original under mlir-runner with the counting allocator
# (test/Integration/differential.sh: bit-identical outputs, measured peak =
# certificate). Bytes count the allocator's padding (count-alignment-padding).
#   bench/split-corpus.sh [BUILD_DIR] [NETWORK...]   (prints a Markdown table)
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
if [ ${#nets[@]} -eq 0 ]; then
  for m in "$ROOT"/bench/models/*.mlir; do
    case $m in *.tensor.mlir) continue ;; esac
    nets+=("$(basename "$m" .mlir)")
  done
fi
status=0
echo "| network | pads absorbed | peak scheduled | split + scheduled | measured | outputs |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
for n in "${nets[@]}"; do
  m="$ROOT/bench/models/$n.mlir"
  pads=$("$OPT" "$m" --memsched-split=remarks --mlir-print-op-on-diagnostic=false \
    -o /dev/null 2>&1 | sed -n "s/.*'forward': \([0-9]*\) pads\{0,1\} absorbed.*/\1/p")
  plain=$("$OPT" "$m" --memsched-schedule=count-alignment-padding |
    sed -n 's/.*func.func @forward(.*#memsched.certificate<peak = \([0-9]*\).*/\1/p')
  if out=$(env DIFF_PRE=--memsched-split bash "$ROOT/test/Integration/differential.sh" \
      "$RUNTIME" "$LIBDIR" "$RUNNER" "$m" forward "$TMP/$n" 2>&1); then
    verdict=identical
  else
    verdict="FAILED: $(tail -1 <<< "$out")"
    status=1
  fi
  cert=$(sed -n 's/^certificate-peak=//p' <<< "$out")
  measured=$(sed -n 's/^sched-peak=//p' <<< "$out")
  echo "| $n | ${pads:-0} | $plain | ${cert:--} | ${measured:--} | $verdict |"
done
exit $status
