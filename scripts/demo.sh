#!/usr/bin/env bash
# Installs what is missing, builds memsched, then runs it on real networks of
# the shipped corpus (bench/models) and shows what it found: the peak of the
# upstream pipeline's output, what memsched's analysis sees, the reordered
# peak and the certificate that proves how good it is.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
install_missing
configure_and_build memsched-opt memsched-graph-bench

OPT="$BUILD_DIR/bin/memsched-opt"
GRAPH_BENCH="$BUILD_DIR/bin/memsched-graph-bench"
MODELS="$MEMSCHED_ROOT/bench/models"
OUT="${MEMSCHED_DEMO_OUT:-$BUILD_DIR/demo}"
mkdir -p "$OUT"

# The peak of a memref-level file as written, from memsched's analysis.
peak_as_written() {
  "$OPT" "$1" --memsched-print-lifetimes -o /dev/null |
    sed -n 's/.*peak-as-written=\([0-9]*\).*/\1/p' | head -n 1
}

demo() {
  local name="$1" what="$2"
  local mlir="$MODELS/$name.mlir" tensor="$MODELS/$name.tensor.mlir"
  echo "=== $name: $what"
  if [ -f "$tensor" ]; then
    # Upstream's deallocation pipeline alone frees buffers late.
    "$OPT" "$tensor" \
      --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
      --buffer-deallocation-pipeline --convert-bufferization-to-memref \
      --canonicalize --cse -o "$OUT/$name.upstream.mlir"
    echo "upstream buffer-deallocation-pipeline:  peak $(peak_as_written "$OUT/$name.upstream.mlir") bytes"
  fi
  echo "+ optimize-allocation-liveness (shipped): peak $(peak_as_written "$mlir") bytes"
  echo
  echo "memsched analysis (--memsched-print-lifetimes), first lines:"
  "$OPT" "$mlir" --memsched-print-lifetimes -o /dev/null | sed -n '2p'
  "$OPT" "$mlir" --memsched-print-lifetimes -o /dev/null | grep 'peak-tight-at'
  echo
  local start end
  start=$(date +%s%N)
  "$OPT" "$mlir" --memsched-schedule="remarks report-dir=$OUT/$name" --mlir-print-op-on-diagnostic=false \
    -o "$OUT/$name.scheduled.mlir" 2>&1 | grep -o 'memsched-schedule: .*'
  end=$(date +%s%N)
  echo "scheduled and certified in $(( (end - start) / 1000000 )) ms (whole memsched-opt run): $OUT/$name.scheduled.mlir"
  grep -o 'memsched.certificate = #memsched.certificate<[^>]*>' "$OUT/$name.scheduled.mlir"
  "$OPT" "$OUT/$name.scheduled.mlir" --memsched-verify=require -o /dev/null &&
    echo "memsched-verify: certificate consistent with the scheduled IR"
  echo "report: $OUT/$name/forward.json (peaks, bound, live buffers, cut)"
  echo "        $OUT/$name/forward.svg (memory over time before and after; open it in a browser)"
  echo
  echo "memory a device needs: the buffers packed into an arena, by phase where a returned result would stack on it (--memsched-plan-arena):"
  "$OPT" "$OUT/$name.scheduled.mlir" --memsched-plan-arena=remarks --mlir-print-op-on-diagnostic=false \
    --memsched-verify -o "$OUT/$name.arena.mlir" 2>&1 | grep -o "memsched-plan-arena: 'forward'.*" || true
  grep -o 'memsched.certificate = #memsched.certificate<[^>]*>' "$OUT/$name.arena.mlir"
  echo "(peak_with_arena = what the planned function needs at its worst moment, never above the peak; arena_size = the largest arena;"
  echo " arena == peak: nothing lost to fragmentation; results returned to the caller stay outside the arena)"
  echo
}

# The orders other compilers' memory schedulers compute on the same graph.
peers() {
  local name="$1"
  echo "=== $name: memsched against XLA's and Inductor's schedulers on the same graph"
  "$OPT" "$MODELS/$name.mlir" "--memsched-schedule=graph-dir=$OUT/$name.graph" -o /dev/null
  "$GRAPH_BENCH" --graph "$OUT/$name.graph/forward.graph.json" | tr ' ' '\n' |
    sed -n -e 's/^input_peak=/as-written /p' -e 's/^\(xla-[a-z]*\)=/\1 /p' \
      -e 's/^\(inductor-[a-z]*\)=/\1 /p' -e 's/^peak=/memsched       /p' |
    awk '{printf "  %-14s %12d bytes\n", $1, $2}'
  echo "(the graph scheduler alone, without the pass's min-cut bound; graph:"
  echo " $OUT/$name.graph/forward.graph.json, docs/graph-format.md)"
  echo
}

# When the exact search stops at its budget, the remark says so and what to
# raise; a larger budget finishes the proof. A generated 300-op program with
# no op every order must pass through (bench/synthetic.py).
budget() {
  local file="$OUT/synthetic300.mlir"
  python3 "$MEMSCHED_ROOT/bench/synthetic.py" --ops 300 --seed 1 >"$file"
  echo "=== a generated 300-op program (bench/synthetic.py --ops 300 --seed 1): the search's budget"
  "$OPT" "$file" --memsched-schedule=remarks --mlir-print-op-on-diagnostic=false \
    -o /dev/null 2>&1 | sed -n 's/.*remark: /  /p'
  echo "with --memsched-schedule=state-budget=5000000:"
  "$OPT" "$file" "--memsched-schedule=state-budget=5000000 remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | sed -n 's/.*remark: /  /p'
  echo "(the budget counts search states: time and memory grow with it, here to about 7 s and"
  echo " 600 MB; docs/lower-bounds.md sections 8c and 8f)"
  echo
}

# For a device: results as out-params (the caller provides them, as embedded
# runtimes do), so every buffer of the function goes into the arena.
deploy() {
  local name="$1"
  echo "=== $name for a device: results as out-params, then schedule and one arena"
  "$OPT" "$MODELS/$name.tensor.mlir" \
    --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    --buffer-results-to-out-params="modify-public-functions hoist-static-allocs" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref \
    --canonicalize --cse --optimize-allocation-liveness -o "$OUT/$name.outparams.mlir"
  "$OPT" "$OUT/$name.outparams.mlir" --memsched-schedule=remarks --memsched-plan-arena=remarks \
    --memsched-verify --mlir-print-op-on-diagnostic=false -o "$OUT/$name.outparams.arena.mlir" 2>&1 |
    grep -o "memsched-[a-z-]*: .*"
  grep -o 'memsched.certificate = #memsched.certificate<[^>]*>' "$OUT/$name.outparams.arena.mlir"
  echo "memsched-verify: placement and arena consistent with the IR ($OUT/$name.outparams.arena.mlir)"
  echo
}

# Blocks of many parallel branches (ResNeXt-like, generated): the scheduler
# merges independent branches into the order some optimal order follows
# (rule (P)) before its exact search.
branches() {
  echo "=== 20,000 generated ops in blocks of 8 to 32 parallel branches (memsched-graph-bench --family multi-branch)"
  local flag
  for flag in "" --no-chains; do
    "$GRAPH_BENCH" --family multi-branch --nodes 20000 --seed 1 --certify $flag | tr ' ' '\n' |
      awk -F= -v f="${flag:-with parallel chains merged}" '{v[$1] = $2}
        END {printf "  %-28s peak %s  bound %s  certified %s  %s s\n", f, v["peak"], v["bound"], v["certified"], v["seconds"]}'
  done
  echo "(--no-chains: the same search without the merge; docs/lower-bounds.md section 8b, rule (P))"
  echo
}

# A case of test/Pipelines through the upstream passes given, then
# scheduled and verified: the remarks.
pipeline_remarks() {
  local name=$1
  shift
  "$OPT" "$MEMSCHED_ROOT/test/Pipelines/$name.mlir" "$@" |
    "$OPT" --memsched-schedule=remarks --memsched-verify \
      --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 |
    sed -n 's/.*remark: //p'
}

# A body with several blocks: an scf.if lowered to branches. Each block is
# scheduled on its own; the certificate names the block that peaks.
blocks() {
  local src="$MEMSCHED_ROOT/test/Pipelines/cf-if-branches.mlir"
  echo "=== control flow: a gated matmul lowered to branches (--convert-scf-to-cf)"
  "$OPT" "$src" \
    --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref \
    --convert-scf-to-cf -o "$OUT/cf-if-branches.mlir"
  "$OPT" "$OUT/cf-if-branches.mlir" --memsched-print-lifetimes -o /dev/null |
    grep -E '^(blocks=|// \^bb|peak-as-written)' | head -n 12
  "$OPT" "$OUT/cf-if-branches.mlir" --memsched-schedule=remarks \
    --memsched-verify --mlir-print-op-on-diagnostic=false \
    -o "$OUT/cf-if-branches.scheduled.mlir" 2>&1 | sed -n 's/.*remark: //p'
  grep -o '#memsched.certificate<[^>]*>' "$OUT/cf-if-branches.scheduled.mlir"
  echo "(block = K: the block whose bound is the certificate's; ops never cross blocks)"
  echo
  echo "=== control flow on tensors: ownership-based frees under the branch conditions"
  pipeline_remarks cf-tensor-branches --one-shot-bufferize="bufferize-function-boundaries" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref
  echo "(a free under scf.if %c counts on the edge of cf.cond_br %c that decides it)"
  echo
  echo "=== a caller of a branchy callee (--buffer-results-to-out-params, --convert-scf-to-cf)"
  pipeline_remarks cf-callee-branches \
    --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    --buffer-results-to-out-params="modify-public-functions hoist-static-allocs" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref \
    --convert-scf-to-cf
  echo "(the call counts the callee's largest block peak while it runs)"
  echo
  echo "=== a recurrent loop that allocates a fresh state every step (allow-return-allocs-from-loops)"
  pipeline_remarks scf-for-yield \
    --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref
  echo "(the loop allocates its result; each step holds the state it got until its free under the"
  echo " ownership flag; a temporary needed only after the loop moves past it)"
  echo
}

# A dynamic batch: one order for every batch size in the declared range,
# proved never worse at any size, and a budget checked over the range.
dynamic() {
  local src="$MEMSCHED_ROOT/test/Pipelines/dynamic-batch-heads.mlir"
  echo "=== a dynamic batch B in [1, 64] (memsched.range on the argument): two heads of B x 1024 floats"
  "$OPT" "$src" \
    --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref -o "$OUT/dynamic-batch.mlir"
  "$OPT" "$OUT/dynamic-batch.mlir" --memsched-schedule=remarks --memsched-verify \
    --mlir-print-op-on-diagnostic=false -o "$OUT/dynamic-batch.scheduled.mlir" 2>&1 |
    sed -n 's/.*remark: memsched-schedule: //p' | tr ';' '\n' | sed 's/^ */  /'
  grep -o 'peak_expr = "[^"]*", lower_bound_expr = "[^"]*"' "$OUT/dynamic-batch.scheduled.mlir"
  echo "with B = 8 declared typical (ranges=arg0.d0=1:64:8; or memsched.typical on the argument):"
  "$OPT" "$OUT/dynamic-batch.mlir" "--memsched-schedule=remarks ranges=arg0.d0=1:64:8" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 |
    grep -o 'at [^;]* (typical): [^;]*' | sed 's/^/  /'
  echo "a budget of 100000 bytes, over the range:"
  # Above the budget at some sizes: the check fails, and says where.
  { "$OPT" "$OUT/dynamic-batch.scheduled.mlir" --memsched-check-budget=bytes=100000 \
      --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 || true; } |
    sed -n 's/.*error: memsched-check-budget: //p' | tr ';' '\n' | sed 's/^ */  /'
  echo "one arena for every B (--memsched-plan-arena):"
  "$OPT" "$OUT/dynamic-batch.scheduled.mlir" --memsched-plan-arena=remarks --memsched-verify \
    --mlir-print-op-on-diagnostic=false -o "$OUT/dynamic-batch.arena.mlir" 2>&1 |
    sed -n 's/.*(over the ranges [^:]*: //p' | sed 's/)$//' | tr ';' '\n' | sed 's/^ */  /'
  echo "the size function the runtime calls before it allocates:"
  sed -n '/func.func @two_heads_arena_size/,/^  }/p' "$OUT/dynamic-batch.arena.mlir"
  echo "(arg0.d0 is B; the expressions hold at every B in the range, --memsched-verify proves them;"
  echo " docs/dynamic.md)"
  echo
}

# Two memory pools: host (default space) and device (memory space 1). Each
# space has its own peak and bound; the order minimises the chosen space and
# raises no other.
spaces() {
  local src="$MEMSCHED_ROOT/test/Pipelines/gpu-host-device-staging.mlir"
  echo "=== memory spaces: two branches staging data between host and device memory"
  "$OPT" "$src" --memsched-print-lifetimes -o /dev/null | grep -E '^(space=|peak-as-written)'
  for space in default 1; do
    echo "--memsched-schedule=memory-space=$space:"
    "$OPT" "$src" --memsched-schedule="remarks memory-space=$space" --memsched-verify \
      --mlir-print-op-on-diagnostic=false -o "$OUT/staging.$space.mlir" 2>&1 |
      sed -n 's/.*remark: memsched-schedule: //p' | tr ';' '\n' | sed 's/^ */  /'
    grep -o 'spaces = \[[^]]*\]' "$OUT/staging.$space.mlir"
  done
  echo "(the bound of each space holds for every order; no order reaches both at once here)"
  echo
  local gpu="$MEMSCHED_ROOT/test/Pipelines/gpu-alloc-async.mlir"
  echo "=== asynchronous GPU host code (--gpu-kernel-outlining --gpu-async-region): device memory"
  "$OPT" "$gpu" --gpu-kernel-outlining --gpu-async-region |
    "$OPT" --memsched-schedule=remarks --memsched-verify \
      --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 |
    sed -n 's/.*remark: memsched-schedule: //p' | tr ';' '\n' | sed 's/^ */  /'
  echo "scheduled before --gpu-async-region:"
  "$OPT" "$gpu" --gpu-kernel-outlining --memsched-schedule --gpu-async-region |
    "$OPT" --memsched-verify -o - | grep -o 'spaces = \[[^]]*\]'
  echo "(the device runs gpu.alloc/dealloc async in token order, which memsched keeps: schedule"
  echo " before --gpu-async-region and the chain follows the order; docs/user-guide.md)"
  echo
}

# When no order fits: recompute. The CNN training step at 0.9x its
# certified optimal peak (no order of its ops reaches that).
remat() {
  local name=train_step_cnn
  local P=1292836 budget=1163552
  echo "=== $name at a budget of 0.9x its certified optimal peak ($budget of $P bytes): --memsched-rematerialize"
  "$OPT" "$MODELS/$name.mlir" --memsched-rematerialize="bytes=$budget remarks" --memsched-verify \
    --mlir-print-op-on-diagnostic=false -o "$OUT/$name.remat.mlir" 2>&1 | sed -n 's/.*remark: //p'
  grep -o 'memsched.certificate = #memsched.certificate<[^>]*>' "$OUT/$name.remat.mlir"
  echo "(remat_ops: ops computed again; extra_compute_ppm: their estimated work per million; docs/remat.md)"
  # At 0.8x: some buffers only pay off once other ops move too (candidates
  # are then priced by a schedule of their graph).
  budget=1034268
  echo "=== $name at 0.8x ($budget of $P bytes):"
  "$OPT" "$MODELS/$name.mlir" --memsched-rematerialize="bytes=$budget remarks" --memsched-verify \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | sed -n 's/.*remark: //p'
  # A budget no recomputation can meet, and the proof.
  name=train_step_transformer
  P=142124 budget=127911
  echo "=== $name at 0.9x ($budget of $P bytes):"
  "$OPT" "$MODELS/$name.mlir" --memsched-rematerialize="bytes=$budget remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | sed -n -E 's/.*(remark|warning): //p' |
    tr ';' '\n' | sed 's/^ */  /'
  # Out of reach within the compute limit: every recomputation memsched
  # could make within 10% keeps what it recomputes from alive.
  name=randwire_small
  P=205312 budget=184780
  echo "=== $name at 0.9x ($budget of $P bytes):"
  "$OPT" "$MODELS/$name.mlir" --memsched-rematerialize="bytes=$budget remarks" \
    --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | sed -n -E 's/.*(remark|warning): //p' |
    tr ';' '\n' | sed 's/^ */  /'
  echo
}

# Below the one-op floor: the schedule proves no order helps, so the split
# changes which buffers exist (ops in place, pads absorbed, row bands,
# chains run by channel groups), then schedules, certifies and packs the
# split program: without extra compute, and with 2% allowed to row bands.
split() {
  local name=mobilenet_v2
  echo "=== $name below the one-op floor: --memsched-split, then schedule, verify and arena"
  "$OPT" "$MODELS/$name.mlir" --memsched-schedule --memsched-verify -o "$OUT/$name.unsplit.mlir"
  echo "scheduled without splitting: $(grep -o 'memsched.certificate<peak = [0-9]*, lower_bound = [0-9]*' \
    "$OUT/$name.unsplit.mlir" | head -1 | sed 's/memsched.certificate<//')"
  local extra
  for extra in 0 0.02; do
    echo "--memsched-split=max-extra-compute=$extra:"
    "$OPT" "$MODELS/$name.mlir" "--memsched-split=remarks max-extra-compute=$extra" \
      --memsched-schedule --memsched-verify \
      --mlir-print-op-on-diagnostic=false -o "$OUT/$name.split.mlir" 2>&1 |
      sed -n "s/.*remark: memsched-split: '/  '/p"
    echo "  split and scheduled: $(grep -o 'memsched.certificate<peak = [0-9]*, lower_bound = [0-9]*' \
      "$OUT/$name.split.mlir" | head -1 | sed 's/memsched.certificate<//')$(grep -o ', extra_compute_ppm = [0-9]*' \
      "$OUT/$name.split.mlir" | head -1)"
    "$OPT" "$OUT/$name.split.mlir" --memsched-plan-arena --memsched-verify -o "$OUT/$name.split.arena.mlir" 2>/dev/null
    echo "  its arena: $(grep -o 'arena_size = [0-9]*' "$OUT/$name.split.arena.mlir" | head -1)"
  done
  echo "(ops unchanged: the same float operations in the same order, docs/split.md;"
  echo " test/Integration/split-corpus.mlir runs both programs and compares every output bit;"
  echo " at 224x224: bench/split-corpus.sh build 224, picture docs/split-mobilenet_v2.svg)"
  echo
}

demo mobilenet_v2 "inference (torchvision mobilenet_v2, input 1x3x64x64)"
deploy mobilenet_v2
split
demo train_step_cnn "one training step (forward + backward) of a small CNN"
demo train_step_resnet8 "one training step of MLPerf Tiny's ResNet-8 (batch norm in training mode, batch 2)"
demo train_step_resnet20 "one training step of a CIFAR ResNet-20 (645 ops, no op every order must pass through)"
demo train_step_transformer "one training step of a 4-layer transformer (the min-cut bound stops short; the exact search proves the order optimal: bound_kind \"exhaustive\")"
peers train_step_resnet8
budget
branches
blocks
dynamic
spaces
remat
