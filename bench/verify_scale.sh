#!/usr/bin/env bash
# Certificates at scale: schedules generated programs of 20k and 30k ops
# (bench/synthetic.py, several seeds) with --memsched-pipeline, which
# attaches certificates and checks them with --memsched-verify on the
# scheduled body, then verifies the output once more on its own. Prints one
# line per program (ops, seed, exit code, seconds, peak, bound, kind);
# exits 1 when any run fails.
#   bench/verify_scale.sh [BUILD_DIR] [SIZES] [SEEDS]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
sizes=${2:-"20000 30000"}
seeds=${3:-"1 2 3 4 5"}
opt=$build/bin/memsched-opt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
printf "%-6s %-4s %-4s %-7s %-8s %-8s %s\n" ops seed exit seconds peak bound kind
for n in $sizes; do
  for s in $seeds; do
    python3 "$here/synthetic.py" --ops "$n" --seed "$s" > "$tmp/in.mlir"
    start=$(date +%s.%N)
    "$opt" "$tmp/in.mlir" --memsched-pipeline -o "$tmp/out.mlir" 2> "$tmp/err"
    rc=$?
    if [ $rc -eq 0 ]; then
      "$opt" "$tmp/out.mlir" --memsched-verify -o /dev/null 2>> "$tmp/err" || rc=$?
    fi
    end=$(date +%s.%N)
    cert=$(grep -o 'certificate<peak = [0-9]*, lower_bound = [0-9]*, bound_kind = "[a-z]*"' "$tmp/out.mlir" 2>/dev/null | head -1)
    peak=$(sed -n 's/.*peak = \([0-9]*\),.*/\1/p' <<< "$cert")
    bound=$(sed -n 's/.*lower_bound = \([0-9]*\),.*/\1/p' <<< "$cert")
    kind=$(sed -n 's/.*bound_kind = "\([a-z]*\)".*/\1/p' <<< "$cert")
    printf "%-6s %-4s %-4s %-7.1f %-8s %-8s %s\n" "$n" "$s" "$rc" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "${peak:--}" "${bound:--}" "${kind:--}"
    if [ $rc -ne 0 ]; then
      status=1
      head -3 "$tmp/err" >&2
    fi
  done
done
exit $status
