#!/usr/bin/env bash
#===- measure-peak.sh - Run a memref function under the counting allocator ===#
#
# Usage:
#   scripts/measure-peak.sh [options] <input.mlir|-> <func> [-- <memsched-opt args>...]
#
# Applies the optional memsched-opt arguments to <input.mlir> (e.g.
# --memsched-schedule), adds a main() around @<func> (--memsched-test-harness),
# lowers to the LLVM dialect with allocation routed through the generic
# functions libmemsched_runtime counts (--memsched-test-lower-to-llvm), runs it
# with mlir-runner and prints the runner's output:
#
#   memsched-measured-peak=<bytes> live-at-end=<bytes> allocs=<n> frees=<n>
#   memsched-hash result#0 f32 elems=<n> fnv1a=0x<hash>
#   memsched-hash arg#0 f32 elems=<n> fnv1a=0x<hash>
#
# The peak counts only what @<func> allocates (argument buffers are allocated
# before the counter is reset), in the bytes the lowered program requests:
#   memref.alloc without `alignment`:         elements * element size
#     (element types that are not signless int/index/float, e.g. complex or
#      vector, get + element size of padding)
#   memref.alloc {alignment = A}:             elements * element size + A
#   with --aligned-alloc (aligned_alloc path): size rounded up to a multiple of
#     A, or of max(16, next power of two of the element size) without `alignment`
#   memref.alloca:                            not counted (stack)
#
# Options:
#   --build-dir DIR   memsched build directory (default: $MEMSCHED_BUILD_DIR or
#                     "build"); uses DIR/bin/memsched-opt and
#                     DIR/lib/libmemsched_runtime.so
#   --seed N          seed of the argument fill formula (default 0)
#   --aligned-alloc   lower memref.alloc to _mlir_memref_to_llvm_aligned_alloc
#   --emit-llvm       print the lowered LLVM-dialect module instead of running
#   -h, --help        this text
#
# Environment: MLIR_RUNNER (default /usr/lib/llvm-22/bin/mlir-runner),
#   MLIR_LIB_DIR (default /usr/lib/llvm-22/lib, for libmlir_c_runner_utils.so).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

usage() { sed -n '4,/^#===-\{10,\}/{s/^# \{0,1\}//;/^===/d;p}' "$0"; }
die() { echo "measure-peak.sh: $*" >&2; exit 2; }

build_dir="${MEMSCHED_BUILD_DIR:-build}"
seed=0
aligned=false
emit_llvm=false
positional=()
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) [[ $# -ge 2 ]] || die "--build-dir needs a value"; build_dir="$2"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --seed) [[ $# -ge 2 ]] || die "--seed needs a value"; seed="$2"; shift 2 ;;
    --seed=*) seed="${1#*=}"; shift ;;
    --aligned-alloc) aligned=true; shift ;;
    --emit-llvm) emit_llvm=true; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -) positional+=("$1"); shift ;;
    -*) die "unknown option '$1' (memsched-opt arguments go after --)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -eq 2 ]] || { usage >&2; exit 2; }
input="${positional[0]}"
func="${positional[1]}"
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed must be a non-negative integer"

opt="$build_dir/bin/memsched-opt"
runtime="$build_dir/lib/libmemsched_runtime.so"
runner="${MLIR_RUNNER:-/usr/lib/llvm-22/bin/mlir-runner}"
mlir_lib_dir="${MLIR_LIB_DIR:-/usr/lib/llvm-22/lib}"
[[ "$input" == "-" || -f "$input" ]] || die "no such input file: $input"
[[ -x "$opt" ]] || die "memsched-opt not found at $opt (build first, or pass --build-dir)"

lower="--memsched-test-lower-to-llvm=use-aligned-alloc=$aligned"
harness="--memsched-test-harness=func=$func seed=$seed"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/measure-peak.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

if [[ "$input" == "-" ]]; then
  cat >"$tmp/stdin.mlir"
  input="$tmp/stdin.mlir"
fi

# Stage 1 (optional): the user's transformations, on the module as written,
# before main() exists. Stage 2: harness and lowering. Stop at the first
# failing stage, so a compile error is not followed by a confusing runner error.
staged="$input"
if [[ ${#extra[@]} -gt 0 ]]; then
  staged="$tmp/input.mlir"
  "$opt" "$input" "${extra[@]}" -o "$staged" ||
    die "memsched-opt failed on $input ${extra[*]}"
fi
"$opt" "$staged" "$harness" "$lower" -o "$tmp/llvm.mlir" ||
  die "harness or lowering failed"
if $emit_llvm; then
  cat "$tmp/llvm.mlir"
  exit 0
fi

[[ -f "$runtime" ]] || die "runtime library not found at $runtime"
[[ -x "$runner" ]] || die "mlir-runner not found at $runner"
"$runner" "$tmp/llvm.mlir" -e main -entry-point-result=void -O2 \
  "-shared-libs=$runtime,$mlir_lib_dir/libmlir_c_runner_utils.so"
