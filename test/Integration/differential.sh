#!/usr/bin/env bash
# Differential execution of one function before and after --memsched-schedule
# (or the pass named by DIFF_PASS):
#   differential.sh RUNTIME_LIB MLIR_LIB_DIR MLIR_RUNNER INPUT FUNC OUT_PREFIX [SCHEDULE_OPTIONS]
# Writes OUT_PREFIX.sched.mlir, OUT_PREFIX.{orig,sched}.out, runs both programs
# under mlir-runner with the counting allocator, prints
#   orig-peak=N
#   sched-peak=M
#   certificate-peak=P
# and fails when any memsched-hash line (results, memref arguments after the
# call) differs or the scheduled measured peak differs from the certificate's.
set -euo pipefail
runtime=$1 libdir=$2 runner=$3 in=$4 func=$5 out=$6
shift 6
opts="count-alignment-padding${*:+ $*}"
# DIFF_PASS=memsched-rematerialize checks that pass instead (its options,
# e.g. bytes=N, among SCHEDULE_OPTIONS).
# DIFF_PRE="--memsched-split" runs those passes first, in the same
# memsched-opt invocation; DIFF_PRE_OPTS, the options of that one pass
# (several, separated by spaces).
# DIFF_PEAK=at-most accepts a measured peak below the certificate's (a body
# of several blocks whose peaking path the run does not take, or that counts
# a buffer on every path after a join).
pre=()
if [ -n "${DIFF_PRE_OPTS:-}" ]; then
  pre=("$DIFF_PRE=$DIFF_PRE_OPTS")
elif [ -n "${DIFF_PRE:-}" ]; then
  read -ra pre <<< "$DIFF_PRE"
fi
memsched-opt "$in" ${pre[@]+"${pre[@]}"} "--${DIFF_PASS:-memsched-schedule}=$opts" -o "$out.sched.mlir"
libs="$runtime,$libdir/libmlir_c_runner_utils.so,$libdir/libmlir_runner_utils.so"
for v in orig sched; do
  src=$in
  [ $v = sched ] && src=$out.sched.mlir
  memsched-opt "$src" --memsched-test-harness="func=$func" --memsched-test-lower-to-llvm |
    "$runner" -e main -entry-point-result=void -O0 -shared-libs="$libs" > "$out.$v.out"
done
peak() { sed -n 's/^memsched-measured-peak=\([0-9]*\).*/\1/p' "$1"; }
echo "orig-peak=$(peak "$out.orig.out")"
echo "sched-peak=$(peak "$out.sched.out")"
cert=$(sed -n "s/.*func.func @$func(.*#memsched.certificate<peak = \([0-9]*\).*/\1/p" "$out.sched.mlir")
echo "certificate-peak=$cert"
if ! diff <(grep memsched-hash "$out.orig.out") <(grep memsched-hash "$out.sched.out"); then
  echo "differential: outputs differ" >&2
  exit 1
fi
measured=$(peak "$out.sched.out")
if [ -n "$cert" ] && [ "${DIFF_PEAK:-}" = at-most ]; then
  if [ -z "$measured" ] || [ "$measured" -gt "$cert" ]; then
    echo "differential: measured peak above the certificate" >&2
    exit 1
  fi
elif [ -n "$cert" ] && [ "$cert" != "$measured" ]; then
  echo "differential: measured peak differs from the certificate" >&2
  exit 1
fi
echo "differential: outputs identical"
