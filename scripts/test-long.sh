#!/usr/bin/env bash
# The long tests: what scripts/test.sh skips to stay short. Installs what is
# missing, builds, and runs the lit tests with the `long` feature
# (MEMSCHED_LONG_TESTS=1): the executions under mlir-runner of the largest
# corpus programs (densenet121, deeplabv3, four training steps; 20-50 s
# each), next to every other lit test. About 8 minutes on 2 cores.
#   scripts/test-long.sh [LIT_ARGS...]    e.g. --filter corpus
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
install_missing
configure_and_build
export MEMSCHED_LONG_TESTS=1
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" "$@"
