#!/usr/bin/env bash
# Builds memsched with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan/ (cmake -DMEMSCHED_SANITIZE=address,undefined) and runs every test
# (ctest: lit, GoogleTest, the package test, the fuzzer) under them. Installs
# what is missing like scripts/test.sh. Exits non-zero when a test fails; any
# sanitizer report fails the test that triggers it. Prints the times at the end.
#
# Environment: MEMSCHED_BUILD_DIR (default build-asan), MEMSCHED_SANITIZE
# (default address,undefined), MEMSCHED_NICE (default 10), MEMSCHED_JOBS
# (default nproc). Extra arguments go to ctest (e.g. -R lit).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export MEMSCHED_BUILD_DIR="${MEMSCHED_BUILD_DIR:-$root/build-asan}"
source "$root/scripts/setup.sh"

SANITIZE="${MEMSCHED_SANITIZE:-address,undefined}"
NICE="${MEMSCHED_NICE:-10}"
JOBS="${MEMSCHED_JOBS:-$(nproc)}"
# The sanitizer runtimes of Debian 12's g++ (usually already there with g++)
# and llvm-symbolizer for the stack traces.
PACKAGES+=(libasan8 libubsan1 llvm-22)

t_start=$SECONDS
t_build=""
t_test=""
report_times() {
  local rc=$?
  echo "memsched sanitizers ($SANITIZE): build ${t_build:-not done}, tests ${t_test:-not run}," \
    "total $((SECONDS - t_start)) s"
  return $rc
}
trap report_times EXIT

install_missing

t0=$SECONDS
# Configure every time: cheap when nothing changed, and it applies a changed
# MEMSCHED_SANITIZE. RelWithDebInfo: -O2 -g, for file:line in the reports.
cmake -G Ninja -S "$MEMSCHED_ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DMEMSCHED_SANITIZE="$SANITIZE" >/dev/null
nice -n "$NICE" ninja -C "$BUILD_DIR" -j "$JOBS"
t_build="$((SECONDS - t0)) s"

# Sanitizer options, for every process of the run (those without a sanitizer
# runtime ignore them):
# - abort_on_error / halt_on_error: a report kills the process with SIGABRT,
#   so it fails its test even in a RUN line under `not` (which treats a crash
#   as a failure, not as the expected error);
# - detect_leaks=1: leaks fail too. LLVM's and MLIR's static registrations
#   (cl::opt, dialect and pass registries) stay reachable from globals, so
#   LeakSanitizer does not report them and no suppression list is needed;
# - stack-use-after-return and initialization-order checks, off by default;
# - print_stacktrace for UBSan, which prints no stack by default.
export ASAN_SYMBOLIZER_PATH="$LLVM_PREFIX/bin/llvm-symbolizer"
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons the free rest of
# its slabs from inlined (instrumented) code, while Debian's uninstrumented
# libMLIR allocates from the same slabs without unpoisoning them: a false
# use-after-poison. Real heap errors are still reported.
export ASAN_OPTIONS="allow_user_poisoning=0:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# The stock mlir-opt (plugin test) and mlir-runner (runtime tests, fuzzer) are
# not instrumented and must preload the ASan runtime to load memsched's
# plugin and runtime: run them through the wrappers the build wrote. lit takes
# them as tool overrides (--param <tool>=...), the fuzzer through MLIR_RUNNER.
wrappers="$BUILD_DIR/sanitizer-bin"
export LIT_OPTS="--param 'mlir-opt=$wrappers/mlir-opt' --param 'mlir-runner=$wrappers/mlir-runner'${LIT_OPTS:+ $LIT_OPTS}"
export MLIR_RUNNER="$wrappers/mlir-runner"

t0=$SECONDS
rc=0
(cd "$BUILD_DIR" && nice -n "$NICE" ctest --output-on-failure -j "$JOBS" "$@") || rc=$?
t_test="$((SECONDS - t0)) s"
exit $rc
