#!/usr/bin/env bash
# Runtime proof of an arena placement:
#   arena-run.sh RUNTIME_LIB MLIR_LIB_DIR MLIR_RUNNER SCHEDULED FUNC OUT_PREFIX REFERENCE_OUT
# Places SCHEDULED's buffers with --memsched-plan-arena (count-alignment-padding,
# so the certificate counts what the counting allocator sees), checks the
# placement with --memsched-verify, runs FUNC under mlir-runner with the
# counting allocator and prints
#   arena-size=S
#   arena-certified=A
#   arena-measured=M
# It fails when the memsched-hash lines (results, memref arguments after the
# call) differ from REFERENCE_OUT's or when M differs from A.
# ARENA_MODE=argument|global places with that arena=... instead (FUNC must
# keep its signature: a public function does).
set -euo pipefail
runtime=$1 libdir=$2 runner=$3 in=$4 func=$5 out=$6 ref=$7
memsched-opt "$in" "--memsched-plan-arena=count-alignment-padding${ARENA_MODE:+ arena=$ARENA_MODE}" --memsched-verify \
  -o "$out.arena.mlir" 2> "$out.arena.remarks"
libs="$runtime,$libdir/libmlir_c_runner_utils.so,$libdir/libmlir_runner_utils.so"
memsched-opt "$out.arena.mlir" --memsched-test-harness="func=$func" --memsched-test-lower-to-llvm |
  "$runner" -e main -entry-point-result=void -O0 -shared-libs="$libs" > "$out.arena.out"
cert=$(grep "func.func @$func(" "$out.arena.mlir" | head -1)
size=$(sed -n 's/.*arena_size = \([0-9]*\).*/\1/p' <<< "$cert")
arena=$(sed -n 's/.*peak_with_arena = \([0-9]*\), arena_size.*/\1/p' <<< "$cert")
measured=$(sed -n 's/^memsched-measured-peak=\([0-9]*\).*/\1/p' "$out.arena.out")
echo "arena-size=$size"
echo "arena-certified=$arena"
echo "arena-measured=$measured"
if ! diff <(grep memsched-hash "$ref") <(grep memsched-hash "$out.arena.out"); then
  echo "arena-run: outputs differ from the reference" >&2
  exit 1
fi
if [ -z "$arena" ] || [ "$arena" != "$measured" ]; then
  echo "arena-run: measured peak differs from the certificate's arena" >&2
  exit 1
fi
echo "arena-run: outputs identical, measured = certified"
