#!/usr/bin/env bash
# run-repeatedly.sh N INPUT ARGS...: runs `memsched-opt INPUT ARGS...` N times
# with threads and N times with --mlir-disable-threading and fails unless all
# 2N outputs are identical; prints the first output.
set -euo pipefail
n=$1 in=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
memsched-opt "$in" "$@" --mlir-disable-threading -o "$tmp/ref.mlir"
for i in $(seq "$n"); do
  memsched-opt "$in" "$@" -o "$tmp/threads.mlir"
  memsched-opt "$in" "$@" --mlir-disable-threading -o "$tmp/single.mlir"
  if ! cmp -s "$tmp/ref.mlir" "$tmp/threads.mlir" || ! cmp -s "$tmp/ref.mlir" "$tmp/single.mlir"; then
    echo "run $i: output differs" >&2
    diff "$tmp/ref.mlir" "$tmp/threads.mlir" >&2 || true
    exit 1
  fi
done
cat "$tmp/ref.mlir"
